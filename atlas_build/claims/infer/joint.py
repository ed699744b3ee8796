"""Numbers found together by their value: a relation two or three symbols short of its
values, completed by the one choice of the paragraph's precise numbers at which it holds.

`At x = 0.9 the unit carries 36.7 kVA of its 40.8 kVA` has no word to tell S from S_r,
but only one choice of the two numbers makes `x = S/S_r` hold. Each symbol's candidates
are the paragraph's numbers of its kind written precisely (`loose.precise`), not exact
forms (`ln 2`). A choice is taken only when it is the only one that holds and no number
of it could be well off (`values.hollow`), and not when it could hold by chance: the
number compared coarse for the choices tried (`CHANCE`), or more than one number of two
significant digits or fewer (`COARSE`: `20 A`, `2.2 Ω` and `48 V` fit `(V − 4.5 V)/R =
I`). What it verifies is never an error: which number is which symbol is not certain.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import sympy

from atlas_build.claims.binding.compare import digits_tolerance
from atlas_build.claims.infer import loose, solve
from atlas_build.claims.infer import values as valued
from atlas_build.claims.infer.statements import Paragraph, Stated
from atlas_build.claims.infer.values import Known
from atlas_build.latex import Relation

MOST = 3  # symbols at most found together
MAX_CHOICES = 120  # choices of numbers tried for one relation in one paragraph
BUDGET = 2000  # relation evaluations per lesson spent on choices
CHANCE = sympy.Rational(1, 20)
"""The chance a choice holds by accident, bounded: the choices tried times the precision of
the number compared (half a unit in its last digit, relative to it)."""
COARSE = sympy.Rational(1, 200)  # coarser than this: two significant digits or fewer


@dataclass
class Search:
    """What one lesson's searches may still spend (`BUDGET`), so a dense lesson stays fast
    and every run gives the same report."""

    budget: int = BUDGET


def wanted(relation: Relation, open_: list[str], search: Search) -> bool:
    """Whether a relation with `open_` symbols is searched: two or three open of three or
    more, evaluated by compiled closures (a sum or a special function, which SymPy
    evaluates in most of a second, is not)."""
    names = solve.symbols(relation)
    if not 2 <= len(open_) <= MOST or len(names) < 3 or search.budget <= 0:
        return False
    return solve.compiled(relation)


def choose(
    relation: Relation,
    given: dict[str, Known],
    open_: list[str],
    candidates: Callable[[str], list[Stated]],
    known: Callable[[Stated], Known | None],
    search: Search,
) -> tuple[Stated, tuple[Stated, ...]] | None:
    """The one choice of numbers for `open_` at which the relation holds with `given`
    (taken as written), and the number it is at (the last written); None when no choice,
    or more than one, holds, or the one that does could hold by chance."""
    taken = {s.start for k in given.values() for s in k.statements}
    pools = [
        [s for s in candidates(name) if s.start not in taken and s.quantity.decimals is not None]
        for name in open_
    ]
    tried = math.prod(len(pool) for pool in pools)
    if not tried or tried > MAX_CHOICES:
        return None
    exact = {n: valued.exact(k) for n, k in given.items()}
    hit: tuple[Stated, tuple[Stated, ...]] | None = None
    for choice in itertools.product(*pools):
        if search.budget <= 0:
            return None
        if len({s.start for s in choice}) < len(choice):
            continue
        anchor = max(choice, key=lambda s: s.start)
        at = dict(exact)
        for stated in choice:
            value = known(stated)
            if value is None:
                break
            at[stated.name] = value if stated is anchor else valued.exact(value)
        else:
            search.budget -= 1
            if not valued.holds(relation, at, anchor):
                continue
            if any(valued.hollow(relation, at, s) for s in choice):
                continue
            if hit is not None:
                return None  # two choices hold: which numbers are the symbols' is open
            hit = (anchor, choice)
    if hit is None:
        return None
    coarse = sum(bool(relative(s) > COARSE) for s in hit[1])
    return None if tried * relative(hit[0]) > CHANCE or coarse > 1 else hit


def relative(stated: Stated) -> sympy.Expr:
    """Half a unit in the last digit of a number, relative to it."""
    value = abs(stated.quantity.value)
    if value == 0:
        return sympy.Integer(1)
    return digits_tolerance(stated.quantity, None, stated.approx) / value


def in_paragraph(glossary: loose.Glossary, paragraph: Paragraph) -> Callable[[str], list[Stated]]:
    """A symbol's candidates in `paragraph` (`loose.precise`)."""
    return lambda name: loose.precise(glossary, paragraph, name)
