"""Public entry points: lesson LaTeX in, located SymPy relations out."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import TypeAlias, TypeVar, cast

import sympy

from . import units
from .dialect import DEFAULT_MAX_DEPTH, DEFAULT_MAX_LENGTH
from .errors import NO_RELATION, SYNTAX, TOO_DEEP, LatexError
from .functions import Related
from .lexer import Token
from .logic import RELATIONALS
from .normalise import Segment, normalise
from .parser import Parser
from .probability import unify
from .state import Item, Options, State

Bound: TypeAlias = "sympy.Expr | int"
T = TypeVar("T")

_LOGICAL = {"implies": sympy.Implies, "iff": sympy.Equivalent, "and": sympy.And, "or": sympy.Or}


@dataclass(frozen=True)
class Relation:
    """One relation ``lhs op rhs`` of a display equation.

    ``op`` is ``=``, ``approx``, ``propto``, ``<``, ``<=``, ``>``, ``>=``, ``!=``, or one
    of the names in ``docs/latex-dialect.md`` (``in``, ``sim``, ``:=``, ``<-``, ``->``,
    ``implies``, ...); callers treat an op they do not know as "not an equality".
    ``start``/``end`` delimit the relation in the original string and
    ``source == latex[start:end]``, so a claim failure can point at it.
    """

    lhs: sympy.Basic
    rhs: sympy.Basic
    op: str
    start: int
    end: int
    source: str

    def relational(self) -> sympy.Basic | None:
        """The SymPy relational or boolean (unevaluated) where one exists, else ``None``:
        ``Eq`` for ``=`` and ``:=``, ``Lt``/``Le``/... for inequalities, ``Implies``/
        ``Equivalent``/``And``/``Or`` between statements."""
        kind = RELATIONALS.get(self.op)
        if kind is not None:
            return kind(self.lhs, self.rhs, evaluate=False)
        logical = _LOGICAL.get(self.op)
        if logical is not None:
            return logical(self.lhs, self.rhs, evaluate=False)
        return None


@dataclass(frozen=True)
class Expression:
    """A part of a display equation that states no relation, only an expression: a
    confidence interval ``\\bar x \\pm t\\,s/\\sqrt{n}``, a quantity shown on its own.
    There is nothing in it to check; ``source == latex[start:end]``."""

    value: sympy.Basic
    start: int
    end: int
    source: str


@dataclass(frozen=True)
class Equation:
    """What a display equation states: its relations, and its parts that are only
    expressions (see :func:`parse_equation`)."""

    relations: tuple[Relation, ...]
    expressions: tuple[Expression, ...]


@dataclass(frozen=True)
class _Request:
    """What a parse depends on, hashable: the key of the parse memo and the one argument
    of the private parsers."""

    latex: str
    indices: frozenset[str]
    matrices: frozenset[str]
    functions: frozenset[str]
    symbols: frozenset[str]
    bounds: tuple[tuple[str, tuple[Bound, Bound]], ...]
    max_length: int
    max_depth: int

    def options(self) -> Options:
        converted = {name: (_bound(lo), _bound(hi)) for name, (lo, hi) in self.bounds}
        return Options(
            self.indices, self.matrices, self.functions, self.symbols, converted, self.max_depth
        )


def _request(
    latex: str,
    indices: Collection[str],
    matrices: Collection[str],
    functions: Collection[str],
    symbols: Collection[str],
    bounds: Mapping[str, tuple[Bound, Bound]] | None,
    max_length: int,
    max_depth: int,
) -> _Request:
    ranges = tuple(sorted((bounds or {}).items(), key=lambda item: item[0]))
    names = (frozenset(indices), frozenset(matrices), frozenset(functions), frozenset(symbols))
    return _Request(latex, *names, ranges, max_length, max_depth)


@functools.lru_cache(maxsize=1024)
def _memo(request: _Request, expression: bool) -> object:
    """A parse, or the LatexError it raised, by its inputs. One lesson's claims and
    coverage read the same equations many times, and selftest checks hundreds of mutants
    of one lesson in a process; SymPy trees are immutable, so one parse can serve all."""
    try:
        return _expression(request) if expression else _equation(request)
    except LatexError as error:
        return error


def _result(found: object) -> object:
    if isinstance(found, LatexError):
        raise LatexError(found.code, found.message, found.offset)
    return found


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
    """Every relation of a display equation, in reading order (see `_equation`); a part
    that states no relation is ``no-relation`` (:func:`parse_equation` reads past it)."""
    request = _request(latex, indices, matrices, functions, symbols, bounds, max_length, max_depth)
    found = _result(_memo(request, False))
    assert isinstance(found, Equation)
    if found.expressions:
        start = found.expressions[0].start
        raise LatexError(NO_RELATION, "this part of the equation states no relation", start)
    return list(found.relations)


def parse_equation(
    latex: str,
    *,
    indices: Collection[str] = (),
    matrices: Collection[str] = (),
    functions: Collection[str] = (),
    symbols: Collection[str] = (),
    bounds: Mapping[str, tuple[Bound, Bound]] | None = None,
    max_length: int = DEFAULT_MAX_LENGTH,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> Equation:
    """The relations of a display equation, as :func:`parse_relations` gives them, and
    the parts that state none as :class:`Expression`: showing an expression is not a
    defect (``\\bar x \\pm t s/\\sqrt{n}``), and its relations are numbered the same."""
    request = _request(latex, indices, matrices, functions, symbols, bounds, max_length, max_depth)
    found = _result(_memo(request, False))
    assert isinstance(found, Equation)
    return found


def _equation(request: _Request) -> Equation:
    """Every relation of a display equation, in reading order, and its expressions.

    Rows (``\\\\``), top-level ``\\quad``/``\\qquad``, remarks, quantifiers, logical
    connectives and top-level commas separate relation chains; a chain
    ``a = b \\approx c`` yields one relation per operator. Two statements joined by a
    connective (``a = b \\Rightarrow c = d``) also yield a relation between them
    (op ``implies``), after their own relations. ``indices`` are names bound as
    indices everywhere (``a_j`` becomes ``a[j]``), ``matrices`` are non-commutative
    symbols, ``functions`` are names applied as functions before ``(``, ``symbols``
    keeps ``e``/``pi`` as plain symbols, and ``bounds`` gives index ranges used when a
    ``\\sum`` states none.
    """
    latex, state = request.latex, State(request.options())
    segments = normalise(
        latex, split=True, max_length=request.max_length, max_depth=request.max_depth
    )
    parsed = [(segment, *_guarded(segment, _chain, state)) for segment in segments]
    relations: list[Relation] = []
    expressions: list[Expression] = []
    previous: _Statement | None = None
    for k, (segment, items, ops) in enumerate(parsed):
        linked = segment.link is not None or (
            k + 1 < len(parsed) and parsed[k + 1][0].link is not None
        )
        if not ops and (segment.droppable or _bracketed(segment) or _unit(segment, state)):
            previous = None
            continue
        if not ops and not linked:
            value, start, end = items[0]
            expressions.append(Expression(value, start, end, latex[start:end]))
            previous = None
            continue
        own = [
            Relation(lhs, rhs, op, start, end, latex[start:end])
            for (lhs, start, _), (op, _), (rhs, _, end) in zip(items, ops, items[1:], strict=False)
        ]
        relations += own
        current = _Statement(_statement(own) if own else items[0][0], segment.start, segment.end)
        if segment.link and previous is not None:
            relations.append(_linked(latex, segment.link, previous, current))
        previous = current
    names = state.probabilities
    return Equation(
        tuple(replace(r, lhs=unify(r.lhs, names), rhs=unify(r.rhs, names)) for r in relations),
        tuple(replace(e, value=unify(e.value, names)) for e in expressions),
    )


def _chain(parser: Parser) -> tuple[list[Item], list[tuple[str, Token]]]:
    return parser.chain()


@dataclass(frozen=True)
class _Statement:
    value: sympy.Basic
    start: int
    end: int


def _bracketed(segment: Segment) -> bool:
    """``\\quad [\\mathrm{V}]``: a bracketed annotation (a unit) standing alone."""
    tokens = segment.tokens
    return len(tokens) >= 2 and tokens[0].is_char("[") and tokens[-1].is_char("]")


def _unit(segment: Segment, state: State) -> bool:
    """``\\quad \\mathrm{rad}``: a unit standing alone after a formula is its unit."""
    return units.alone(Parser(segment.tokens, state, state.options.indices, segment.end))


def _statement(relations: list[Relation]) -> sympy.Basic:
    """The relations of one chain as a single SymPy boolean."""
    parts = [_boolean(r) for r in relations]
    return parts[0] if len(parts) == 1 else sympy.And(*parts, evaluate=False)


def _boolean(relation: Relation) -> sympy.Basic:
    relational = relation.relational()
    return (
        relational if relational is not None else Related(relation.lhs, relation.rhs, relation.op)
    )


def _linked(latex: str, op: str, left: _Statement, right: _Statement) -> Relation:
    start, end = left.start, right.end
    if op == "implied-by":
        left, right, op = right, left, "implies"
    return Relation(left.value, right.value, op, start, end, latex[start:end])


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
    request = _request(latex, indices, matrices, functions, symbols, bounds, max_length, max_depth)
    found = _result(_memo(request, True))
    assert isinstance(found, sympy.Basic)
    return cast(sympy.Expr, found)


def _expression(request: _Request) -> sympy.Expr:
    state = State(request.options())
    (segment,) = normalise(
        request.latex, split=False, max_length=request.max_length, max_depth=request.max_depth
    )
    items, ops = _guarded(segment, lambda parser: parser.chain(), state)
    if ops:
        raise LatexError(SYNTAX, "expected an expression, found a relation", ops[0][1].start)
    return cast(sympy.Expr, unify(items[0][0], state.probabilities))


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
