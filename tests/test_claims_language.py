"""The claims language real lessons need (issue "The claims language real lessons need"):
one test per item, each a correct statement that verifies and the same statement with one
number edited that fails at that number."""

from __future__ import annotations

from typing import Any

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

At 3 m/s for 2 s, the distance is d = {d} m.
"""


def _claim(record: Any, claim_id: str) -> dict[str, Any]:
    return next(claim for claim in record.claims if claim["id"] == claim_id)


def test_values_may_use_other_values(authored: Any) -> None:
    """`values: {v: 3, t: "v - 1"}` said "v has no value"."""
    claims = """
    claims:
      - id: distance
        kind: formula
        quote: "the distance is d = {d} m"
        bind: [d]
        params:
          values: {{t: "v - 1", v: 3}}
          use: [{{equation: 0, relation: 0}}]
    """
    right = authored(DISTANCE.format(d=6), claims.format(d=6))
    assert _claim(right, "distance")["status"] == "pass"
    wrong = authored(DISTANCE.format(d=7), claims.format(d=7), slug="wrong")
    assert _claim(wrong, "distance")["status"] == "fail"


HEAT = r"""
## Science and assumptions

### Coolant energy balance

$$
Q = \dot m\,c_p\,\Delta T
$$

Symbols and units

Q

Heat removed

W

ṁ

Coolant mass flow

kg/s

c\_p

Specific heat of the coolant

J/(kg·K)

ΔT

Coolant temperature rise

K

## Engineering example

Removing 2 kW with 0.1 kg/s of water raises the coolant by about {rise} K.
"""

INVERSE = """
claims:
  - id: rise
    kind: formula
    quote: "raises the coolant by about {rise} K"
    bind: [DeltaT]
    params:
      values: {{Q: 2000, m_dot: 0.1, c_p: 4180}}
      use: [{{equation: 0, relation: 0}}]
"""


def test_use_solves_a_relation_for_whichever_symbol_is_unknown(authored: Any) -> None:
    """`use` computed only a relation's left side: solving `Q = ṁ c_p ΔT` for ΔT needed
    the inverse written by hand."""
    right = authored(HEAT.format(rise="4.8"), INVERSE.format(rise="4.8"))
    assert _claim(right, "rise")["status"] == "pass", right.diagnostics
    wrong = authored(HEAT.format(rise="5.8"), INVERSE.format(rise="5.8"), slug="wrong")
    assert _claim(wrong, "rise")["status"] == "fail"
