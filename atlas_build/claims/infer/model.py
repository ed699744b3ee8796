"""What inference evaluates and what it finds: the lesson's usable relations (`Relations`)
and each relation evaluated at the values a paragraph completes it with (`Inferred`).
`checks` makes them; `emit`, `worked` and the package read them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import sympy

from atlas_build.claims.binding.compare import show
from atlas_build.claims.infer import solve, statements
from atlas_build.claims.infer.statements import Stated
from atlas_build.latex import Relation
from atlas_build.units import UnitSpec


@dataclass
class Inferred:
    """One relation evaluated at the values a paragraph completes it with."""

    equation: int
    index: int
    parsed: Relation
    anchor: Stated
    used: list[Stated]
    holds: bool
    derived: list[str] = field(default_factory=list)  # symbols solved on the way
    certain: bool = False
    computed: sympy.Expr | None = None  # the anchor's symbol, from the other values
    unit: str = ""
    labels: dict[str, str] = field(default_factory=dict)  # name -> as the glossary writes it
    joint: bool = False  # its numbers found together by their value (`_Run.jointly`)

    @property
    def source(self) -> str:
        return self.parsed.source.strip()

    def label(self, name: str) -> str:
        return self.labels.get(name, name)

    @property
    def bindings(self) -> str:
        """`300 W → P, 0.10 K/W → R_th; computed ΔT = 30 K`: what was read as what."""
        shown = ", ".join(
            f"{s.quantity.text} → {self.label(s.name)}"
            + (" (the value computed)" if s.how == statements.VALUE else "")
            for s in self.used
        )
        if self.derived:
            shown += f" (solved for {', '.join(self.label(n) for n in self.derived)})"
        if self.computed is None:
            return shown
        unit = f" {self.unit}" if self.unit else ""
        return f"{shown}; computed {self.label(self.anchor.name)} = {show(self.computed)}{unit}"


@dataclass
class Relations:
    """The lesson's usable relations (equation, relation index, parsed), and the section
    each is displayed in (the start of its heading, -1 before the first)."""

    items: list[tuple[int, int, Relation]] = field(default_factory=list)
    sections: dict[tuple[int, int], int] = field(default_factory=dict)
    # a relation taken at a step of a recurrence (`instances.at`): its own key -> the key
    # of the relation it was taken from, and each step's value -> the symbol it is of
    origins: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    # equalities the same equation also bounds (`R_f = 29R, R_f > 29R for start-up`): the
    # edge of a range, which the prose's values need not sit on; and equalities that hold
    # under a condition written after them (`M_0 = … (νn < 2000)`): one case of several
    edges: set[tuple[int, int]] = field(default_factory=set)

    def rivals(self, equation: int, index: int) -> bool:
        """Whether another relation defines the same symbol (`W = 2MNK` and `W = n`):
        each models its own section's case, and may not be the case another paragraph
        works out."""
        relation = next(r for e, i, r in self.items if (e, i) == (equation, index))
        if not isinstance(relation.lhs, sympy.Symbol):
            return True
        return any((e, i) != (equation, index) and r.lhs == relation.lhs for e, i, r in self.items)

    def having(self, name: str) -> Iterable[tuple[int, int, Relation]]:
        return (item for item in self.items if name in solve.symbols(item[2]))


def computed(check: Inferred, table: dict[str, UnitSpec]) -> sympy.Expr | None:
    """What the relation gives the anchor's symbol at the other values (glossary units)."""
    anchor = check.anchor
    values = {s.name: s.value for s in check.used if s is not anchor and s.value is not None}
    if anchor.value is None or len(values) + 1 < len(solve.symbols(check.parsed)):
        return None
    return solve.solve(check.parsed, anchor.name, values, anchor.value)
