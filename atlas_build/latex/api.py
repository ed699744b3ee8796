"""Public entry points: lesson LaTeX in, located SymPy relations out."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

import sympy

from .dialect import DEFAULT_MAX_DEPTH, DEFAULT_MAX_LENGTH
from .errors import NO_RELATION, SYNTAX, TOO_DEEP, LatexError
from .normalise import Segment, normalise
from .parser import Options, Parser, State

Bound: TypeAlias = "sympy.Expr | int"
T = TypeVar("T")

_RELATIONALS = {
    "=": sympy.Eq,
    "!=": sympy.Ne,
    "<": sympy.Lt,
    "<=": sympy.Le,
    ">": sympy.Gt,
    ">=": sympy.Ge,
}


@dataclass(frozen=True)
class Relation:
    """One relation ``lhs op rhs`` of a display equation.

    ``op`` is one of ``=``, ``approx``, ``propto``, ``<``, ``<=``, ``>``, ``>=``,
    ``!=``. ``start``/``end`` delimit the relation in the original string and
    ``source == latex[start:end]``, so a claim failure can point at it.
    """

    lhs: sympy.Expr
    rhs: sympy.Expr
    op: str
    start: int
    end: int
    source: str

    def relational(self) -> sympy.Basic | None:
        """The SymPy relational (unevaluated), or ``None`` for ``approx``/``propto``."""
        kind = _RELATIONALS.get(self.op)
        return kind(self.lhs, self.rhs, evaluate=False) if kind is not None else None


def parse_relations(
    latex: str,
    *,
    indices: Collection[str] = (),
    matrices: Collection[str] = (),
    functions: Collection[str] = (),
    symbols: Collection[str] = (),
    bounds: Mapping[str, tuple[Bound, Bound]] | None = None,
    max_length: int = DEFAULT_MAX_LENGTH,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> list[Relation]:
    """Every relation of a display equation, in reading order.

    Rows (``\\\\``), top-level ``\\quad``/``\\qquad`` and top-level commas separate
    relation chains; a chain ``a = b \\approx c`` yields one relation per operator.
    ``indices`` are names bound as indices everywhere (``a_j`` becomes ``a[j]``),
    ``matrices`` are non-commutative symbols, ``functions`` are names applied as
    functions before ``(``, ``symbols`` keeps ``e``/``pi`` as plain symbols, and
    ``bounds`` gives index ranges used when a ``\\sum`` states none.
    """
    state = State(_options(indices, matrices, functions, symbols, bounds, max_depth))
    relations: list[Relation] = []
    for segment in normalise(latex, split=True, max_length=max_length, max_depth=max_depth):
        items, ops = _guarded(segment, lambda parser: parser.chain(), state)
        if not ops:
            raise LatexError(
                NO_RELATION, "this part of the equation states no relation", segment.start
            )
        for k, (op, _) in enumerate(ops):
            (lhs, start, _), (rhs, _, end) = items[k], items[k + 1]
            relations.append(Relation(lhs, rhs, op, start, end, latex[start:end]))
    return relations


def parse_expression(
    latex: str,
    *,
    indices: Collection[str] = (),
    matrices: Collection[str] = (),
    functions: Collection[str] = (),
    symbols: Collection[str] = (),
    bounds: Mapping[str, tuple[Bound, Bound]] | None = None,
    max_length: int = DEFAULT_MAX_LENGTH,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> sympy.Expr:
    """A single expression (no relation, row break or alignment), as SymPy."""
    state = State(_options(indices, matrices, functions, symbols, bounds, max_depth))
    (segment,) = normalise(latex, split=False, max_length=max_length, max_depth=max_depth)
    items, ops = _guarded(segment, lambda parser: parser.chain(), state)
    if ops:
        raise LatexError(SYNTAX, "expected an expression, found a relation", ops[0][1].start)
    return items[0][0]


def _options(
    indices: Collection[str],
    matrices: Collection[str],
    functions: Collection[str],
    symbols: Collection[str],
    bounds: Mapping[str, tuple[Bound, Bound]] | None,
    max_depth: int,
) -> Options:
    converted = {name: (_bound(lo), _bound(hi)) for name, (lo, hi) in (bounds or {}).items()}
    return Options(
        frozenset(indices),
        frozenset(matrices),
        frozenset(functions),
        frozenset(symbols),
        converted,
        max_depth,
    )


def _guarded(segment: Segment, run: Callable[[Parser], T], state: State) -> T:
    """Parse ``segment``; a recursion overflow is reported as ``too-deep``, not raised."""
    parser = Parser(segment.tokens, state, state.options.indices, segment.end)
    try:
        return run(parser)
    except RecursionError:
        raise LatexError(TOO_DEEP, "expression nests too deeply", segment.start) from None


def _bound(value: Bound) -> sympy.Expr:
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, sympy.Expr):
        return value
    raise TypeError(f"an index bound must be an int or a sympy.Expr, not {type(value).__name__}")
