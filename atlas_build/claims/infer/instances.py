"""Values of a recurrence at its steps: `m₁ = 0.05` is m_t at t = 1 where a relation of the
lesson steps its index (`m_t = β₁ m_{t−1} + (1 − β₁) g_t`, `x_{k+1} = x_k(2 − a x_k)`); and
values of the elements of an elementwise relation (`φ₁ = 0.03 rad` for `φ_i = mθ_i`).

A letter is a step index when some relation holds a symbol indexed by that letter shifted
(`m_{t−1}`, `x_{k+1}`): a recurrence; or an element index, when an index letter subscripts
two symbols of a relation, or one and stands alone in it (`φ_i = mθ_i`). A prose name that
is a stepped symbol with a number for its index (`m₁`, `m̂₂`, `x₀`) then names that step's
value (`Steps.find`), in the unit the glossary gives the symbol. For each step the prose
names a value at, every relation in that letter is taken at the step (`at`): `m_t` becomes
`m_1`, `m_{t−1}` becomes `m_0`, and a bare `t` the number 1. Those relations are evaluated
as any other; their checks are never errors (`checks` keeps them uncertain): which step a
number is read from its subscript alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import sympy

from atlas_build.claims.infer import solve
from atlas_build.latex import Relation
from atlas_build.lesson import names as naming

MAX_STEP = 64  # steps a lesson's prose may name a value at (`θ₁₀₀` is no example's step)
MAX_RELATIONS = 60  # relations taken at steps, per lesson: inference stays bounded


def _indexed(relation: Relation) -> list[sympy.Indexed]:
    """The relation's indexed symbols (`m_{t−1}`), in a fixed order (never a set's)."""
    found = {
        node
        for side in (relation.lhs, relation.rhs)
        if isinstance(side, sympy.Basic)
        for node in side.atoms(sympy.Indexed)
    }
    return sorted(found, key=str)


def _subscripted(relation: Relation) -> list[tuple[str, str, str]]:
    """(name, base, last subscript) of the relation's plain symbols (`m_t`: `m`, `t`; a
    name without a subscript has base "")."""
    return [(name, *name.rpartition("_")[::2]) for name in solve.symbols(relation)]


def letters(relations: Iterable[Relation]) -> set[str]:
    """The step indices of the lesson: letters some relation indexes a symbol by, shifted
    (`m_{t−1}`: t), which is what makes the relation a recurrence; and index letters a
    relation holds element by element (`φ_i = mθ_i`, `θ_i = b^{−2i/d}`: i)."""
    found: set[str] = set()
    for relation in relations:
        found |= _elementwise(relation)
        for node in _indexed(relation):
            if len(node.indices) != 1:
                continue
            index = node.indices[0]
            if len(index.free_symbols) != 1:
                continue
            letter = next(iter(index.free_symbols))
            if index != letter and (index - letter).is_Integer:
                found.add(str(letter))
    return found


def _elementwise(relation: Relation) -> set[str]:
    """Index letters (`naming.INDEX_LETTERS`) that subscript two symbols of the relation, or
    one and stand alone in it too: the relation holds for each element."""
    bases: dict[str, set[str]] = {}
    bare: set[str] = set()
    for name, base, letter in _subscripted(relation):
        if base and letter in naming.INDEX_LETTERS:
            bases.setdefault(letter, set()).add(base)
        elif name in naming.INDEX_LETTERS:
            bare.add(name)
    return {letter for letter, found in bases.items() if len(found) > 1 or letter in bare}


class Steps:
    """The stepped symbols of a lesson (base name -> its index letter), and the names of
    their values at numbered steps."""

    def __init__(self, relations: Iterable[Relation], steps: set[str]) -> None:
        self.bases: dict[str, tuple[str, str]] = {}  # key(base) -> (base, letter)
        for relation in relations:
            for node in _indexed(relation):
                free = {str(s) for s in node.free_symbols} & steps
                if len(node.indices) == 1 and len(free) == 1:
                    self._add(str(node.base.label), next(iter(free)))
            for _, base, letter in _subscripted(relation):
                if base and letter in steps:
                    self._add(base, letter)

    def _add(self, base: str, letter: str) -> None:
        self.bases.setdefault(naming.key(base), (base, letter))

    def _stepped(self, name: str) -> tuple[str, str, int] | None:
        """(base, letter, step) of a step's value name (`m_1`: `m`, `t`, 1), or None."""
        base, _, step = name.rpartition("_")
        if not base or not step.isdigit() or int(step) > MAX_STEP:
            return None
        found = self.bases.get(naming.key(base))
        return (*found, int(step)) if found is not None else None

    def find(self, name: str) -> str | None:
        """The name of a step's value (`m_1` for `m₁` where m_t is stepped in t), or None."""
        found = self._stepped(name)
        return f"{found[0]}_{found[2]}" if found is not None else None

    def symbol(self, name: str) -> str | None:
        """The stepped symbol a step's value is of (`m_t` for `m_1`), or None."""
        found = self._stepped(name)
        return f"{found[0]}_{found[1]}" if found is not None else None

    def steps(self, named: Iterable[str]) -> dict[str, set[int]]:
        """Letter -> the steps the prose names a value at."""
        found: dict[str, set[int]] = {}
        for name in named:
            if (stepped := self._stepped(name)) is not None:
                found.setdefault(stepped[1], set()).add(stepped[2])
        return found


def at(relation: Relation, letter: str, step: int) -> Relation | None:
    """`relation` at step `step` of `letter`: None where it does not hold the letter, or
    holds a symbol indexed otherwise (a sum over another index, a step before the first)."""
    index = sympy.Symbol(letter)
    swap: dict[sympy.Basic, sympy.Basic] = {}
    for node in _indexed(relation):
        if len(node.indices) != 1 or node.indices[0].free_symbols - {index}:
            return None
        shifted = node.indices[0].subs(index, step)
        if not shifted.is_Integer or shifted < 0:
            return None
        swap[node] = sympy.Symbol(f"{node.base.label}_{shifted}")
    for name, base, tail in _subscripted(relation):
        if base and tail == letter:
            swap[sympy.Symbol(name)] = sympy.Symbol(f"{base}_{step}")
    if not swap:
        return None
    swap[index] = sympy.Integer(step)
    try:
        lhs, rhs = relation.lhs.xreplace(swap), relation.rhs.xreplace(swap)
    except (TypeError, ValueError, ArithmeticError):
        return None
    return replace(relation, lhs=lhs, rhs=rhs)
