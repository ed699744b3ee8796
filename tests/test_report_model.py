"""report/model.py: claims are carried in one typed shape, the one the schema publishes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from atlas_build.claimjson import (
    AnchorJSON,
    CheckJSON,
    ClaimJSON,
    LocationJSON,
    ValueJSON,
)
from atlas_build.claims import ClaimResult
from atlas_build.diagnostics import Location
from atlas_build.report.model import read_claims

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[1] / "schemas" / "report.schema.json").read_text("utf-8")
)
CLAIM = SCHEMA["properties"]["records"]["items"]["properties"]["claims"]["items"]


@pytest.mark.parametrize(
    ("shape", "published"),
    [
        (ClaimJSON, {k for k in CLAIM["properties"] if k != "seconds"}),  # seconds: opt-in
        (LocationJSON, set(CLAIM["properties"]["location"]["properties"])),
        (AnchorJSON, set(CLAIM["properties"]["anchor"]["properties"])),
        (ValueJSON, set(CLAIM["properties"]["values"]["items"]["properties"])),
        (CheckJSON, set(CLAIM["properties"]["checks"]["items"]["properties"])),
    ],
    ids=lambda item: getattr(item, "__name__", ""),
)
def test_the_typed_shapes_are_the_published_ones(shape: Any, published: set[str]) -> None:
    assert set(shape.__annotations__) == published


def _written() -> ClaimJSON:
    result = ClaimResult("ohm", "formula", message="1 check passed", quote="V = 2 V")
    result.location = Location("lesson.md", 3, 1, "/content", 2, 1)
    result.spans = [(10, 17)]
    result.values.append(
        {
            "name": "V",
            "quoted": "2 V",
            "computed": "2 V",
            "tolerance": "0.05",
            "ok": True,
            "input": False,
            "line": 3,
            "column": 5,
        }  # fmt: skip
    )
    result.checks.append({"name": "identity-0-0", "ok": True, "message": "2 vs 2"})
    return result.to_json()


def test_what_a_claim_writes_reads_back_the_same() -> None:
    written = _written()
    assert read_claims(json.loads(json.dumps([written]))) == [written]
    assert list(read_claims([written])[0]) == list(written)  # the same keys, in order


@pytest.mark.parametrize(
    "damage",
    [
        lambda c: c.update(id=7),
        lambda c: c.pop("status"),
        lambda c: c["values"][0].update(ok=1),  # no coercion: 1 is not true
        lambda c: c.update(spans=[["10", 17]]),
        lambda c: c.update(source="guessed"),
        lambda c: c["checks"][0].pop("message"),
    ],
)
def test_a_claim_in_another_shape_is_refused(damage: Any) -> None:
    claim: dict[str, Any] = json.loads(json.dumps(_written()))
    damage(claim)
    with pytest.raises(ValueError, match="cached claims"):
        read_claims([claim])
