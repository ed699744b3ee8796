"""Numbers written without a symbol (`dissipates 700 W`), bound to a relation's open
symbols where only one fits: by dimension, or by the words around them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy

from atlas_build.claims.binding.compare import digits_tolerance
from atlas_build.claims.infer import statements
from atlas_build.claims.infer.statements import Loose, Paragraph, Stated
from atlas_build.units import UnitSpec

BY_CHANCE = {True: sympy.Rational(1, 40), False: sympy.Rational(1, 100)}
"""How precise a number must be written (half a unit in its last digit, relative to it)
to be found by its value: a number with a unit (2.5%), a bare one (1%). A coarser one
(`4 days`, `5 dB`, `0.8`) could agree with what a relation computes by chance."""


def kind(spec: UnitSpec | None) -> tuple[object, bool] | None:
    """What numbers a symbol can be bound to: of its dimension (and zero: °C or K; and
    cycles or radians: Hz or rad/s, one dimension in SI), or, for a dimensionless symbol,
    bare numbers (`statements.BARE`) by their words."""
    if spec is None or spec.units is None:
        return None
    if spec.units.dimension.is_dimensionless and not statements.angular(spec.text):
        return statements.BARE, False  # an angle (θ in °) takes angles, never `68%`
    return (spec.units.dimension, statements.angular(spec.text)), bool(spec.units.offset)


def _kind_of(loose: Loose) -> tuple[object, bool]:
    """A number's kind, as `kind` gives a symbol's: a bare number is `BARE`, whatever its
    words (a dimensionless symbol's kind has no angle; comparing it with the dimensioned
    form left every bare number unbound)."""
    if loose.dimension == statements.BARE:
        return statements.BARE, False
    return (loose.dimension, loose.angular), loose.affine


@dataclass(frozen=True)
class Glossary:
    """What binding needs of a lesson's symbols, worked out once per lesson: each symbol's
    kind of number (`kind`; only symbols that have one), and `unique`, the symbol of a
    kind no other glossary symbol has (a number of that kind bound to it is bound for
    certain)."""

    table: dict[str, UnitSpec]
    kinds: dict[str, tuple[object, bool]]
    unique: dict[tuple[object, bool], str]
    meanings: dict[str, frozenset[str]]

    @classmethod
    def of(cls, table: dict[str, UnitSpec], meanings: dict[str, frozenset[str]]) -> Glossary:
        kinds = {name: found for name, spec in table.items() if (found := kind(spec)) is not None}
        by_kind: dict[tuple[object, bool], list[str]] = {}
        for name, found in kinds.items():
            if found[0] != statements.BARE:
                by_kind.setdefault(found, []).append(name)
        unique = {found: names[0] for found, names in by_kind.items() if len(names) == 1}
        return cls(table, kinds, unique, meanings)


class Binder:
    """Open symbols to numbers written without a symbol, one at a time where only one
    fits: the only number of the symbol's dimension (and zero: a °C number is a
    temperature, a K number a difference) for the only open symbol of it, or the number
    whose words match the symbol's meaning best; what one takes, the next cannot."""

    def __init__(self, glossary: Glossary, paragraph: Paragraph, earlier: list[Loose]) -> None:
        self.glossary, self.paragraph = glossary, paragraph
        self.here = {id(q) for q in paragraph.loose}
        self.pool = list(paragraph.loose) + list(earlier)

    def bind(self, open_: list[str]) -> dict[str, Stated]:
        kinds = self.glossary.kinds
        left = [name for name in open_ if name in kinds]
        chosen: dict[str, Stated] = {}
        progress = True
        while left and progress:
            progress = False
            for name in list(left):
                stated = self._one(name, left)
                if stated is None:
                    continue
                chosen[name] = stated
                left.remove(name)
                progress = True
        return chosen

    def _one(self, name: str, left: list[str]) -> Stated | None:
        kinds = self.glossary.kinds
        spec, mine = self.glossary.table[name], kinds[name]
        rivals = [n for n in left if kinds[n] == mine]
        fits = [q for q in self.pool if _kind_of(q) == mine]
        local = [q for q in fits if id(q) in self.here]
        fits = local or fits
        # certain only as the only glossary symbol of its kind: `about 80 kHz` is the only
        # number in Hz of its paragraph, and f₀ the relation's only open symbol in Hz, yet
        # it is the new bandwidth B, another symbol in Hz
        alone = self.glossary.unique.get(mine) == name
        how = statements.DIMENSION if alone and len(local) == 1 else statements.MEANING
        if len(fits) != 1 or len(rivals) != 1 or mine[0] == statements.BARE:
            fits, how = self._by_meaning(name, fits, rivals), statements.MEANING
        if len(fits) != 1:
            return None
        loose = fits[0]
        if loose.factor and how == statements.DIMENSION:
            how = statements.MEANING  # `0.26 × 9.109×10⁻³¹ kg` may be a factor of the mass
        meaning = self.glossary.meanings.get(name, frozenset())
        if how == statements.DIMENSION and loose.names and not loose.names & meaning:
            how = statements.MEANING  # `a 2 fF wire` is the wire's, not the gate's, C_g
        value = statements.in_unit(loose.quantity, spec)
        if value is None:
            return None
        self.pool.remove(loose)
        return Stated(name, loose.quantity, value, loose.paragraph, loose.approx, how)

    def _by_meaning(self, name: str, fits: list[Loose], rivals: list[str]) -> list[Loose]:
        """The number whose words share most with `name`'s meaning, when `name` is also
        the symbol those words fit best."""
        meanings = self.glossary.meanings

        def score(loose: Loose, symbol: str) -> int:
            return len(loose.words & meanings.get(symbol, frozenset()))

        ranked = sorted(fits, key=lambda loose: -score(loose, name))
        if not ranked or score(ranked[0], name) == 0:
            return []
        if len(ranked) > 1 and score(ranked[1], name) == score(ranked[0], name):
            return []
        best = ranked[0]
        if any(score(best, other) >= score(best, name) for other in rivals if other != name):
            return []
        return [best]


def by_value(
    glossary: Glossary, paragraph: Paragraph, name: str, agrees: Callable[[Stated], bool]
) -> Stated | None:
    """The one number of the paragraph that gives `name` the value a relation computes for
    it (`agrees`), among those that may be found by their value (`precise`); None when no
    number, or more than one, does."""
    found = [stated for stated in precise(glossary, paragraph, name) if agrees(stated)]
    return found[0] if len(found) == 1 else None


def precise(glossary: Glossary, paragraph: Paragraph, name: str) -> list[Stated]:
    """The numbers of the paragraph that may be `name`'s found by their value: of its kind,
    and written precisely enough not to agree with a relation by chance (`BY_CHANCE`).
    Temperatures on a scale with another zero (°C) are not searched: their digits say
    nothing of chance."""
    spec = glossary.table.get(name)
    mine = glossary.kinds.get(name)
    if spec is None or spec.units is None or mine is None or mine[1]:
        return []
    found: list[Stated] = []
    for loose in paragraph.loose:
        bare = loose.dimension == statements.BARE
        if bare != (mine[0] == statements.BARE) or loose.affine:
            continue
        if not bare and (loose.dimension, loose.angular) != mine[0]:
            continue
        quantity = loose.quantity
        if quantity.value == 0 or quantity.unit is None and not bare:
            continue
        relative = digits_tolerance(quantity, None, loose.approx) / abs(quantity.value)
        if relative > BY_CHANCE[not bare]:
            continue
        value = statements.in_unit(quantity, spec)
        if value is None:
            continue
        found.append(Stated(name, quantity, value, loose.paragraph, loose.approx, statements.VALUE))
    return found
