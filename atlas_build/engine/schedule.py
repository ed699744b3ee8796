"""Host-side tile schedule: which ``(query tile, key tile)`` pairs to compute, and how.

Each pair is classified once, from O(T) summaries of the document ids and the causal order
(plus a reduction of an explicit mask, if any):

* ``SKIP``: no query in the tile may attend any key in it, so it is never computed. This is
  what makes a packed block cost the sum of squared document lengths instead of ``T**2``;
* ``FULL``: every pair is allowed, so no mask is built or applied;
* ``PARTIAL``: the tile's allowed-mask is built on the device and applied; ``need`` records
  which restrictions (``NEED_CAUSAL | NEED_DOC | NEED_MASK``) actually cut through the tile, so
  a causal diagonal tile inside one document builds only the triangle.

Skipping is conservative: documents are relabelled in order of first appearance and a tile is
skipped only when the label ranges of its queries and keys are disjoint, which is exact for
contiguous documents and never wrong for interleaved ones (those tiles are merely PARTIAL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .problem import to_host

__all__ = [
    "FULL",
    "NEED_CAUSAL",
    "NEED_DOC",
    "NEED_MASK",
    "PARTIAL",
    "SKIP",
    "TileSchedule",
    "build_schedule",
    "causal_pieces",
    "row_pieces",
]

SKIP, FULL, PARTIAL = 0, 1, 2
NEED_CAUSAL, NEED_DOC, NEED_MASK = 1, 2, 4


@dataclass(frozen=True)
class TileSchedule:
    """Tile boundaries, the ``(n_q_tiles, n_k_tiles)`` classification and mask needs."""

    rows: tuple[tuple[int, int], ...]
    cols: tuple[tuple[int, int], ...]
    kind: np.ndarray
    need: np.ndarray

    def keys_of(self, i: int) -> list[tuple[int, int]]:
        """Key tiles to visit for query tile ``i``, as ``(j, need)`` (need 0: FULL)."""
        return [(int(j), int(self.need[i, j])) for j in np.flatnonzero(self.kind[i])]

    def queries_of(self, j: int) -> list[tuple[int, int]]:
        """Query tiles to visit for key tile ``j``, as ``(i, need)`` (need 0: FULL)."""
        return [(int(i), int(self.need[i, j])) for i in np.flatnonzero(self.kind[:, j])]

    @property
    def computed_elements(self) -> int:
        """Number of score entries actually computed (tile areas of non-skipped tiles)."""
        h = np.array([b - a for a, b in self.rows], dtype=np.int64)
        w = np.array([b - a for a, b in self.cols], dtype=np.int64)
        return int(h @ (self.kind != SKIP).astype(np.int64) @ w) if h.size and w.size else 0


def _bounds(t: int, block: int) -> tuple[tuple[int, int], ...]:
    return tuple((a, min(t, a + block)) for a in range(0, t, block))


def _doc_summary(doc: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per tile: min and max first-appearance label, whether it has padding / any real token."""
    valid = doc >= 0
    label = np.full(doc.shape, -1, dtype=np.int64)
    if valid.any():
        ids = doc[valid]
        _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        rank = np.empty(first.size, dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(first.size)
        label[valid] = rank[inverse]
    big = np.iinfo(np.int64).max
    lo = np.minimum.reduceat(np.where(valid, label, big), starts)
    hi = np.maximum.reduceat(label, starts)
    pad = np.logical_or.reduceat(~valid, starts)
    real = np.logical_or.reduceat(valid, starts)
    return lo, hi, pad, real


def build_schedule(
    t_q: int,
    t_k: int,
    block_q: int,
    block_k: int,
    *,
    causal: bool,
    doc_host: np.ndarray | None,
    mask: Any = None,
) -> TileSchedule:
    """Classify every tile pair (see module docstring)."""
    rows, cols = _bounds(t_q, block_q), _bounds(t_k, block_k)
    kind = np.full((len(rows), len(cols)), FULL, dtype=np.int8)
    need = np.zeros(kind.shape, dtype=np.int8)
    if not rows or not cols:
        return TileSchedule(rows, cols, kind, need)
    r0 = np.array([a for a, _ in rows])
    r1 = np.array([b for _, b in rows])
    c0 = np.array([a for a, _ in cols])
    c1 = np.array([b for _, b in cols])
    skip = np.zeros(kind.shape, dtype=bool)
    if causal:
        skip |= c0[None, :] > (r1 - 1)[:, None]
        need[(c1 - 1)[None, :] > r0[:, None]] |= NEED_CAUSAL
    if doc_host is not None:
        qlo, qhi, qpad, qreal = _doc_summary(doc_host, r0)
        klo, khi, kpad, kreal = _doc_summary(doc_host, c0)
        skip |= ~qreal[:, None] | ~kreal[None, :]
        skip |= (qhi[:, None] < klo[None, :]) | (khi[None, :] < qlo[:, None])
        single = (qlo[:, None] == qhi[:, None]) & (klo[None, :] == khi[None, :])
        same = single & (qlo[:, None] == klo[None, :])
        need[~same | qpad[:, None] | kpad[None, :]] |= NEED_DOC
    if mask is not None:
        m = to_host(mask).any(axis=0)
        m_any = np.logical_or.reduceat(np.logical_or.reduceat(m, r0, axis=0), c0, axis=1)
        host_all = to_host(mask).all(axis=0)
        m_all = np.logical_and.reduceat(np.logical_and.reduceat(host_all, r0, axis=0), c0, axis=1)
        skip |= ~m_any
        need[~m_all] |= NEED_MASK
    kind[need != 0] = PARTIAL
    kind[skip] = SKIP
    need[skip] = 0
    return TileSchedule(rows, cols, kind, need)


def causal_pieces(
    rows: tuple[int, int], cols: tuple[int, int], need: int, causal: bool, min_rows: int = 128
) -> list[tuple[int, int, int, int]]:
    """Split a tile the causal diagonal crosses into up to 4 row blocks (see ``row_pieces``).

    With 4 blocks a 512-square diagonal tile computes 5/8 of its scores; blocks stay
    >= ``min_rows`` so the GEMMs stay efficient. Other tiles stay whole.
    """
    (i0, i1), (_, j1) = rows, cols
    if not (causal and need & NEED_CAUSAL):
        return [(i0, i1, j1, need)]
    parts = max(1, min(4, (i1 - i0) // min_rows))
    return row_pieces(rows, cols, need, causal, -(-(i1 - i0) // parts))


def row_pieces(
    rows: tuple[int, int],
    cols: tuple[int, int],
    need: int,
    causal: bool,
    height: int,
    full_height: int | None = None,
) -> list[tuple[int, int, int, int]]:
    """Split a tile into row blocks of ``height`` as ``(r0, r1, j_end, need)`` pieces.

    Where the causal diagonal crosses the tile each block stops at its last row's key, so
    with blocks of ``h`` rows a ``w``-square diagonal tile computes ``(w + h) / 2w`` of its
    scores and masks only the ``h``-square corners; blocks below the diagonal drop
    ``NEED_CAUSAL``. Elsewhere the blocks only bound the size of the score buffer.
    """
    (i0, i1), (j0, j1) = rows, cols
    diagonal = causal and need & NEED_CAUSAL
    if not diagonal:
        height = full_height or i1 - i0
    pieces = []
    for r0 in range(i0, i1, max(1, height)):
        r1 = min(i1, r0 + height)
        end = min(j1, r1) if diagonal else j1
        if end > j0:
            cut = not diagonal or end - 1 > r0
            pieces.append((r0, r1, end, need if cut else need & ~NEED_CAUSAL))
    return pieces
