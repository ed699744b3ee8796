"""Attention engine: dense reference, tiled online-softmax kernels, masks, packing.

A library with no knowledge of lessons. Arrays may come from NumPy, CuPy or any namespace
array-api-compat supports; the kernels use only that namespace. See ``docs/engine.md``.
"""

from .api import (
    attention,
    attention_backward,
    dense_attention,
    tiled_attention,
    tiled_attention_backward,
)
from .internals import AttentionInternals, attention_internals
from .limits import (
    AttentionCost,
    AttentionTooLarge,
    SizeLimits,
    check_attention_size,
    estimate_attention_cost,
    get_size_limits,
    set_size_limits,
)
from .masks import allowed_key_slots, allowed_keys
from .packing import PackedBlock, pack_documents
from .softmax import softmax
from .variance import VarianceEstimate, qk_variance

__all__ = [
    "AttentionCost",
    "AttentionInternals",
    "AttentionTooLarge",
    "PackedBlock",
    "SizeLimits",
    "VarianceEstimate",
    "allowed_key_slots",
    "allowed_keys",
    "attention",
    "attention_backward",
    "attention_internals",
    "check_attention_size",
    "dense_attention",
    "estimate_attention_cost",
    "get_size_limits",
    "pack_documents",
    "qk_variance",
    "set_size_limits",
    "softmax",
    "tiled_attention",
    "tiled_attention_backward",
]
