"""Packing and document masks: the issue's specimen, instances, padding, boundaries."""

from __future__ import annotations

import numpy as np
import pytest

from atlas_build.engine import allowed_key_slots, allowed_keys, attention, pack_documents

DOC_A = [1, 11, 3, 12, 2]
DOC_B = [1, 21, 3, 22, 23, 2]


@pytest.fixture
def specimen():
    return pack_documents([DOC_A, DOC_B], 16)


def test_specimen_layout(specimen):
    assert specimen.block_size == 16
    assert specimen.n_real == 11
    assert specimen.n_padding == 5
    assert specimen.tokens[:11].tolist() == DOC_A + DOC_B
    assert specimen.doc_ids.tolist() == [0] * 5 + [1] * 6 + [-1] * 5
    assert specimen.positions[:11].tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5]
    assert specimen.spans == ((0, 5), (5, 11))
    assert specimen.padding.tolist() == [False] * 11 + [True] * 5


def test_specimen_attention_slots(specimen):
    assert specimen.allowed_key_slots(7) == (5, 6, 7)
    assert specimen.allowed_key_slots(11) == ()
    allowed = specimen.allowed_keys()
    assert np.flatnonzero(allowed[7]).tolist() == [5, 6, 7]
    assert not allowed[11].any()
    assert not allowed[:, 11:].any(), "padding is never attended to"


def test_specimen_targets(specimen):
    assert not specimen.loss_mask[4], "EOS -> next document's BOS is not a prediction"
    assert specimen.targets[4] == -100
    assert specimen.targets[:4].tolist() == [11, 3, 12, 2]
    assert specimen.targets[5:10].tolist() == [21, 3, 22, 23, 2]
    assert specimen.loss_mask.tolist() == [True] * 4 + [False] + [True] * 5 + [False] * 6


def test_same_document_twice_is_two_instances():
    block = pack_documents([DOC_A, DOC_A], 10)
    assert block.doc_ids.tolist() == [0] * 5 + [1] * 5
    assert block.allowed_key_slots(5) == (5,)
    assert block.allowed_key_slots(9) == (5, 6, 7, 8, 9)


def test_overflow_and_truncation():
    with pytest.raises(ValueError, match="block_size"):
        pack_documents([DOC_A, DOC_B], 8)
    block = pack_documents([DOC_A, DOC_B], 8, truncate=True)
    assert block.doc_ids.tolist() == [0] * 5 + [1] * 3
    assert not block.loss_mask[-1], "the cut document's last slot has no target in the block"
    assert block.n_padding == 0


@pytest.mark.parametrize(
    "docs, block, message",
    [
        ([[]], 4, "non-empty"),
        ([[1.5, 2.0]], 4, "integer"),
        ([DOC_A], 0, "positive"),
        ("abc", 4, "sequence"),
    ],
)
def test_pack_rejects_bad_input(docs, block, message):
    with pytest.raises(ValueError, match=message):
        pack_documents(docs, block)


def test_allowed_keys_non_causal_and_lists():
    doc = [0, 0, 1, 1, -1]
    causal = allowed_keys(doc)
    full = allowed_keys(doc, causal=False)
    assert causal.shape == (5, 5) and causal.dtype == bool
    assert full[0].tolist() == [True, True, False, False, False]
    assert causal[0].tolist() == [True, False, False, False, False]
    assert allowed_key_slots(doc, 2, causal=False) == (2, 3)
    assert allowed_key_slots(doc, 4) == ()


def test_allowed_key_slots_validation():
    with pytest.raises(ValueError, match="query"):
        allowed_key_slots([0, 0], 2)
    with pytest.raises(ValueError, match="integers"):
        allowed_keys(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="1-D"):
        allowed_keys(np.zeros((2, 2), dtype=int))


def test_packed_attention_equals_separate_documents():
    block = pack_documents([DOC_A, DOC_B], 16)
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 16, 4)) for _ in range(3))
    for method in ("dense", "tiled"):
        out = attention(q, k, v, causal=True, doc_ids=block.doc_ids, method=method)
        for a, b in block.spans:
            alone = attention(q[:, a:b], k[:, a:b], v[:, a:b], causal=True, method="dense")
            np.testing.assert_allclose(out[:, a:b], alone, rtol=1e-12, atol=1e-12)
        assert np.all(out[:, 11:] == 0), "padding queries return zeros"
