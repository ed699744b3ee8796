"""Numbers written without a symbol (`dissipates 700 W`), bound to a relation's open
symbols where only one fits: by dimension, or by the words around them."""

from __future__ import annotations

from atlas_build.claims.infer import statements
from atlas_build.claims.infer.statements import Loose, Paragraph, Stated
from atlas_build.units import UnitSpec


def kind(spec: UnitSpec | None) -> tuple[object, bool] | None:
    """What numbers a symbol can be bound to: of its dimension (and zero: °C or K; and
    cycles or radians: Hz or rad/s, one dimension in SI), or, for a dimensionless symbol,
    bare numbers (`statements.BARE`) by their words."""
    if spec is None or spec.units is None:
        return None
    if spec.units.dimension.is_dimensionless:
        return statements.BARE, False
    return (spec.units.dimension, statements.angular(spec.text)), bool(spec.units.offset)


class Binder:
    """Open symbols to numbers written without a symbol, one at a time where only one
    fits: the only number of the symbol's dimension (and zero: a °C number is a
    temperature, a K number a difference) for the only open symbol of it, or the number
    whose words match the symbol's meaning best; what one takes, the next cannot."""

    def __init__(
        self,
        table: dict[str, UnitSpec],
        unique: dict[tuple[object, bool], str],
        meanings: dict[str, frozenset[str]],
        paragraph: Paragraph,
        earlier: list[Loose],
    ) -> None:
        self.table, self.unique, self.meanings = table, unique, meanings
        self.paragraph = paragraph
        self.here = {id(q) for q in paragraph.loose}
        self.pool = list(paragraph.loose) + list(earlier)

    def bind(self, open_: list[str]) -> dict[str, Stated]:
        table = self.table
        specs = {name: table.get(name) for name in open_}
        left = [name for name in open_ if kind(specs[name]) is not None]
        chosen: dict[str, Stated] = {}
        progress = True
        while left and progress:
            progress = False
            for name in list(left):
                stated = self._one(name, left, specs)
                if stated is None:
                    continue
                chosen[name] = stated
                left.remove(name)
                progress = True
        return chosen

    def _one(self, name: str, left: list[str], specs: dict[str, UnitSpec | None]) -> Stated | None:
        spec = specs[name]
        mine = kind(spec)
        assert spec is not None and mine is not None
        rivals = [n for n in left if kind(specs[n]) == mine]
        fits = [q for q in self.pool if ((q.dimension, q.angular), q.affine) == mine]
        local = [q for q in fits if id(q) in self.here]
        fits = local or fits
        # certain only as the only glossary symbol of its kind: `about 80 kHz` is the only
        # number in Hz of its paragraph, and f₀ the relation's only open symbol in Hz, yet
        # it is the new bandwidth B, another symbol in Hz
        alone = self.unique.get(mine) == name
        how = statements.DIMENSION if alone and len(local) == 1 else statements.MEANING
        if len(fits) != 1 or len(rivals) != 1 or mine[0] == statements.BARE:
            fits, how = self._by_meaning(name, fits, rivals), statements.MEANING
        if len(fits) != 1:
            return None
        loose = fits[0]
        value = statements.in_unit(loose.quantity, spec)
        if value is None:
            return None
        self.pool.remove(loose)
        return Stated(name, loose.quantity, value, loose.paragraph, loose.approx, how)

    def _by_meaning(self, name: str, fits: list[Loose], rivals: list[str]) -> list[Loose]:
        """The number whose words share most with `name`'s meaning, when `name` is also
        the symbol those words fit best."""
        meanings = self.meanings

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
