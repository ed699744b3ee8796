"""Sequence packing: several documents in one fixed-size block, without cross-talk.

The block carries everything a training step and the attention engine need: tokens, a
document-*instance* id per slot (a document sampled twice is two instances, so it never
attends to its other copy), positions restarting at 0 in each instance, next-token targets,
and the loss and padding masks. A prediction that would cross a document boundary (EOS
followed by the next document's BOS) is masked, and padding (instance id -1) is never
attended to, never attends, and is never trained on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .masks import allowed_key_slots, allowed_keys

__all__ = ["PackedBlock", "pack_documents"]

PAD_DOC = -1


@dataclass(frozen=True)
class PackedBlock:
    """One packed block of ``block_size`` slots (all arrays have that length)."""

    tokens: np.ndarray
    doc_ids: np.ndarray
    positions: np.ndarray
    targets: np.ndarray
    loss_mask: np.ndarray
    padding: np.ndarray
    spans: tuple[tuple[int, int], ...]

    @property
    def block_size(self) -> int:
        return int(self.tokens.shape[0])

    @property
    def n_real(self) -> int:
        return int((~self.padding).sum())

    @property
    def n_padding(self) -> int:
        return int(self.padding.sum())

    def allowed_keys(self, causal: bool = True) -> Any:
        """Boolean ``(T, T)`` mask of this block (see ``masks.allowed_keys``)."""
        return allowed_keys(self.doc_ids, causal=causal)

    def allowed_key_slots(self, query: int, *, causal: bool = True) -> tuple[int, ...]:
        """Key slots query ``query`` may attend to (empty for padding)."""
        return allowed_key_slots(self.doc_ids, query, causal=causal)


def _tokens(doc: Any, index: int) -> np.ndarray:
    arr = np.asarray(doc)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"document {index} must be a non-empty 1-D token sequence")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"document {index} must contain integer token ids, got {arr.dtype}")
    return arr.astype(np.int64, copy=False)


def pack_documents(
    docs: Sequence[Any],
    block_size: int,
    *,
    pad_id: int = 0,
    ignore_index: int = -100,
    truncate: bool = False,
) -> PackedBlock:
    """Pack ``docs`` (token sequences, BOS/EOS included) in order from slot 0.

    Padding fills the rest with ``pad_id`` (instance id -1, position 0). ``targets[t]`` is the
    next token of the same instance, else ``ignore_index`` with ``loss_mask[t]`` False. Too
    many tokens raise ValueError unless ``truncate``, which cuts the block at ``block_size``
    (the cut document's last slot then has no target).
    """
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
        raise ValueError(f"block_size must be a positive integer, got {block_size!r}")
    if isinstance(docs, str | bytes) or not isinstance(docs, Sequence):
        raise ValueError("docs must be a sequence of token sequences")
    arrays = [_tokens(doc, i) for i, doc in enumerate(docs)]
    total = sum(a.size for a in arrays)
    if total > block_size and not truncate:
        raise ValueError(
            f"documents hold {total} tokens, more than block_size={block_size}; "
            "pass truncate=True to cut the block"
        )
    tokens = np.full(block_size, pad_id, dtype=np.int64)
    doc_ids = np.full(block_size, PAD_DOC, dtype=np.int64)
    positions = np.zeros(block_size, dtype=np.int64)
    spans = []
    start = 0
    for instance, arr in enumerate(arrays):
        if start >= block_size:
            break
        end = min(block_size, start + arr.size)
        tokens[start:end] = arr[: end - start]
        doc_ids[start:end] = instance
        positions[start:end] = np.arange(end - start)
        spans.append((start, end))
        start = end
    padding = doc_ids == PAD_DOC
    loss_mask = np.zeros(block_size, dtype=bool)
    loss_mask[:-1] = ~padding[:-1] & (doc_ids[1:] == doc_ids[:-1])
    targets = np.full(block_size, ignore_index, dtype=np.int64)
    targets[:-1][loss_mask[:-1]] = tokens[1:][loss_mask[:-1]]
    return PackedBlock(
        tokens=tokens,
        doc_ids=doc_ids,
        positions=positions,
        targets=targets,
        loss_mask=loss_mask,
        padding=padding,
        spans=tuple(spans),
    )
