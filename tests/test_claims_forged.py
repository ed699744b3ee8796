"""Forged passes: a wrong statement must never be reported verified (issue "Untrusted
repositories, round 2"). Each test states the wrong number the way the attack did and
checks that the claim fails there; the same lesson with the right number passes."""

from __future__ import annotations

from typing import Any

import pytest

DISTANCE = r"""
## Science and assumptions

### Distance at constant speed

$$
d = v\,t
$$

Symbols and units

d

Distance

m

v

Speed

m/s

t

Time

s

## Engineering example

With v = 3 m/s for t = 2 s, the distance is {stated}.
"""

CLAIM = """
claims:
  - id: distance
    kind: formula
    quote: "the distance is {stated}"
    bind: [{bind}]
    params:
      values: {{v: 3, t: 2}}
      use: [{{equation: 0, relation: 0}}]
"""


def _status(authored: Any, stated: str, bind: str = "d") -> str:
    record = authored(DISTANCE.format(stated=stated), CLAIM.format(stated=stated, bind=bind))
    return next(claim["status"] for claim in record.claims if claim["id"] == "distance")


@pytest.mark.parametrize(("right", "wrong"), [("6 m", "6½ m"), ("6 m", "６½ m")])
def test_a_vulgar_or_fullwidth_number_is_read_as_written(
    authored: Any, right: str, wrong: str
) -> None:
    assert _status(authored, right) == "pass"
    assert _status(authored, wrong) == "fail"


BOUND = """
claims:
  - id: distance
    kind: formula
    quote: "the distance is {stated}"
    bind: [{{value: d, relation: ">"}}]
    params:
      values: {{v: 3, t: 2}}
      use: [{{equation: 0, relation: 0}}]
"""


def test_words_of_equality_contradict_a_bound(authored: Any) -> None:
    """`relation: ">"` verified "the distance is exactly 5 m" when the distance is 6 m."""
    stated = "exactly 5 m"
    record = authored(DISTANCE.format(stated=stated), BOUND.format(stated=stated))
    [claim] = [c for c in record.claims if c["id"] == "distance"]
    assert claim["status"] == "fail"
    below = "above 5 m"
    body = DISTANCE.format(stated=below)
    record = authored(body, BOUND.format(stated=below), slug="bound-ok")
    assert [c["status"] for c in record.claims if c["id"] == "distance"] == ["pass"]


CONTRADICTION = r"""
## Science and assumptions

### Two ways to the same distance

$$
d = v\,t,\qquad d = 2\,v\,t
$$

Symbols and units

d

Distance

m

v

Speed

m/s

t

Time

s
"""


def test_a_vacuous_sample_tolerance_proves_nothing(authored: Any) -> None:
    """`tolerance: 1000000` let a sample check verify `d = 2 v t` beside `d = v t`."""
    claims = """
    claims:
      - id: both
        kind: equation
        params:
          equation: 0
          relations:
            - {relation: 0, check: definition}
            - {relation: 1, check: sample}
          inputs: {v: [], t: []}
          tolerance: 1000000
    """
    record = authored(CONTRADICTION, claims)
    loose = [d for d in record.diagnostics if d.code == "A416"]
    assert loose and "nothing is proved" in loose[0].message
    statuses = {
        (r["equation"], r["relation"]): r["status"] for r in record.coverage["relations"]["items"]
    }
    assert statuses[(0, 1)] != "verified"


WRONG_DIMENSIONS = r"""
## Science and assumptions

### Distance

$$
d = v\,t^2
$$

Symbols and units

d

Distance

m

v

Speed

m/s

t

Time

s
"""


def test_listing_an_equation_unchecked_keeps_its_dimension_check(authored: Any) -> None:
    """`unchecked` switched off the dimension check: `d = v t^2` (m against m·s) was silent."""
    claims = """
    claims: []
    unchecked:
      - {equation: 0, reason: shown for the shape only}
    """
    record = authored(WRONG_DIMENSIONS, claims)
    assert [d.code for d in record.diagnostics if d.severity.value == "error"] == ["A420"]


RISE = r"""
## Science and assumptions

### Temperature rise

$$
\Delta T = T_2 - T_1
$$

Symbols and units

ΔT

Temperature rise

K

T\_2

Outlet temperature

K

T\_1

Inlet temperature

K

## Engineering example

From 300 K to 310 K, the rise is ΔT = {stated}.
"""

RISE_CLAIM = """
claims:
  - id: rise
    kind: formula
    quote: "the rise is ΔT = {stated}"
    bind: [DeltaT]
    params:
      values: {{T_2: 310, T_1: 300}}
      use: [{{equation: 0, relation: 0}}]
"""


def test_a_temperature_difference_converts_as_an_interval(authored: Any) -> None:
    """For ΔT = T₂ − T₁ = 10 K, the wrong `ΔT = −263.15 °C` verified, the right `10 °C` failed."""
    for stated, status in (("10 °C", "pass"), ("10 K", "pass"), ("−263.15 °C", "fail")):
        slug = "rise-" + str(abs(hash(stated)))
        record = authored(RISE.format(stated=stated), RISE_CLAIM.format(stated=stated), slug=slug)
        [claim] = [c for c in record.claims if c["id"] == "rise"]
        assert claim["status"] == status, (stated, claim)
