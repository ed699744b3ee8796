"""The claim-outcome codec: what the cache may hold, and that it is reused between lessons.

Proven here: every value type a kind returns (SymPy trees, NumPy arrays, vectors and
matrices as `Series`) round-trips unchanged; malformed or foreign data is refused with
ValueError; a formula claim whose values are vectors is computed once and its cached
outcome reused by a second lesson with the same claim (it used to be refused as
"unsupported" and recomputed in every lesson).
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy

from atlas_build import pipeline
from atlas_build.claims.kinds import _exact
from atlas_build.claims.running import codec
from atlas_build.claims.running.registry import KINDS

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "value",
    [
        sympy.Rational(3, 4) + sympy.log(3) * sympy.pi,
        np.array([[1.5, 2.0], [3.0, -4.25]]),
        _exact.series([sympy.Rational(1, 4), sympy.Rational(3, 4)]),
        _exact.series([[1, 2], [3, sympy.Integer(4)]], start=0),
        [(_exact.series([1]), frozenset({2, 3}))],
    ],
    ids=["sympy", "ndarray", "vector", "matrix", "nested"],
)
def test_values_round_trip(value: Any) -> None:
    back = codec.decode(codec.encode(value))
    assert type(back) is type(value)
    if isinstance(value, np.ndarray):
        assert back.dtype == value.dtype and np.array_equal(back, value)
    else:
        assert back == value
    if isinstance(value, _exact.Series):
        assert back.ordered() == value.ordered() and sorted(back) == sorted(value)


@pytest.mark.parametrize(
    "data",
    [
        {"series": [[[], 1]]},
        {"series": [[["1"], {"int": "1"}]]},
        {"series": [[[True], {"int": "1"}]]},
        {"series": [[[1], {"int": "1"}, 3]]},
        {"series": {"1": 2}},
        {"series": [[[1], {"pickle": "gASV"}]]},
    ],
)
def test_malformed_series_are_refused(data: object) -> None:
    with pytest.raises(ValueError):
        codec.decode(data)


def test_vector_formula_outcomes_are_reused_by_another_lesson(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two copies of layer-norm (its formula claims compute vectors): the second copy's
    formula claims come from the cache, not from running the kind again."""
    for name in ("one", "two"):
        shutil.copytree(ROOT / "content" / "layer-norm", tmp_path / "content" / name)
    calls: list[str] = []
    formula = KINDS["formula"]
    original = formula.run

    def counted(params: Any, context: Any) -> Any:
        calls.append(context.claim_id)
        return original(params, context)

    monkeypatch.setitem(KINDS, "formula", dataclasses.replace(formula, run=counted))
    options = pipeline.Options(cache_dir=str(tmp_path / "cache"), jobs=1)
    first, _ = pipeline.check([str(tmp_path / "content" / "one")], options)
    once = len(calls)
    second, _ = pipeline.check([str(tmp_path / "content" / "two")], options)
    assert once > 0 and first.exit_code() == second.exit_code() == 0
    rerun = calls[once:]
    assert len(rerun) < once / 2, f"{len(rerun)} of {once} formula claims were recomputed"


def test_what_went_through_an_unread_unit_survives_the_claim_cache() -> None:
    """A cached formula outcome must still say E was computed from P, whose table unit
    does not read, or a warm check would verify E's number that a cold one does not."""
    from atlas_build.claims.running.registry import Outcome

    outcome = Outcome(quantities={"E": sympy.Rational(54, 5)}, unread={"E": ["P"]})
    decoded, _ = codec.decode_outcome(codec.encode_outcome(outcome, []))
    assert decoded.unread == {"E": ["P"]}
    broken = codec.encode_outcome(outcome, [])
    broken["unread"] = {"E": [3]}
    with pytest.raises(ValueError, match="unread"):
        codec.decode_outcome(broken)
