"""packed_mask and loss_mask: document-packing statements checked on the engine's packer."""

from __future__ import annotations

import numpy as np
from pydantic import Field

from atlas_build import engine
from atlas_build.claims.binding.compare import OpenSlots
from atlas_build.claims.running.registry import ClaimError, Context, Outcome, Params, kind

MAX_BLOCK = 1 << 16


class PackingParams(Params):
    docs: list[list[int]] = Field(
        min_length=1, max_length=1024, description="token ids of each document, packed in order"
    )
    block_size: int = Field(
        ge=1, le=MAX_BLOCK, description="slots in the block (padded at the end)"
    )
    query: int | None = Field(
        default=None, ge=0, description="0-based query slot whose keys are stated (packed_mask)"
    )


def _pack(params: PackingParams) -> engine.PackedBlock:
    try:
        return engine.pack_documents([np.array(doc) for doc in params.docs], params.block_size)
    except ValueError as error:
        raise ClaimError(f"cannot pack the documents: {error}") from None


def _facts(block: engine.PackedBlock) -> dict[str, object]:
    doc_ids = np.asarray(block.doc_ids)
    padding = np.asarray(block.padding)
    return {
        "real_tokens": int((~padding).sum()),
        "padding_tokens": int(padding.sum()),
        "doc_starts": [
            int(i) for i in np.flatnonzero(np.diff(doc_ids, prepend=-2) != 0) if not padding[i]
        ],
    }


@kind("packed_mask", PackingParams)
def packed_mask(params: PackingParams, context: Context) -> Outcome:
    """Which key slots a packed query may attend to (same document, causal)."""
    context.reserve(4 * params.block_size**2, f"the {params.block_size}-slot attention mask")
    block = _pack(params)
    outcome = Outcome(quantities=_facts(block))
    if params.query is None:
        raise ClaimError("packed_mask needs `query`, the slot whose keys are stated")
    query = params.query
    if query >= params.block_size:
        raise ClaimError(f"query slot {query} is outside the block of {params.block_size}")
    doc_ids = np.asarray(block.doc_ids)
    allowed = engine.allowed_keys(doc_ids, causal=True)
    slots = tuple(engine.allowed_key_slots(doc_ids, query, causal=True))
    own = doc_ids[query]
    same_doc = [int(i) for i in np.flatnonzero(doc_ids == own)]
    prior = [
        int(i)
        for i in np.flatnonzero(
            (doc_ids != own) & (np.arange(doc_ids.size) < query) & (doc_ids >= 0)
        )
    ]
    outcome.inputs.add("query")
    outcome.quantities.update(
        query=query,
        allowed=frozenset(slots),
        doc_start=min(same_doc) if own >= 0 else None,
        prior=frozenset(prior),
        future=OpenSlots(query + 1),
    )
    rows = np.asarray(allowed)
    outcome.check(
        "mask-row-matches-slots",
        tuple(np.flatnonzero(rows[query])) == slots,
        "allowed_keys row and allowed_key_slots agree",
    )
    padding = np.asarray(block.padding)
    outcome.check(
        "padding-isolated",
        not rows[padding].any() and not rows[:, padding].any(),
        "padding slots neither attend nor are attended to",
    )
    return outcome


@kind("loss_mask", PackingParams)
def loss_mask(params: PackingParams, context: Context) -> Outcome:
    """Next-token targets never cross a document boundary (EOS -> next BOS is masked)."""
    block = _pack(params)
    outcome = Outcome(quantities=_facts(block))
    doc_ids = np.asarray(block.doc_ids)
    mask = np.asarray(block.loss_mask)
    boundaries = [
        int(i) for i in range(doc_ids.size - 1) if doc_ids[i] >= 0 and doc_ids[i + 1] != doc_ids[i]
    ]
    outcome.quantities["masked_boundaries"] = frozenset(boundaries)
    outcome.check(
        "boundary-predictions-masked",
        not mask[boundaries].any(),
        f"predictions at document ends {boundaries} are masked",
    )
    inside = [
        i for i in range(doc_ids.size - 1) if doc_ids[i] >= 0 and doc_ids[i + 1] == doc_ids[i]
    ]
    outcome.check(
        "in-document-predictions-trained",
        bool(mask[inside].all()),
        "every prediction inside a document is trained",
    )
    outcome.check(
        "padding-untrained",
        not mask[np.asarray(block.padding)].any(),
        "padding is never trained on",
    )
    return outcome
