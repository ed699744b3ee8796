"""Exact evaluation of a lesson's equations on stated values: scalars, vectors, recurrences.

The `formula` kind computes the numbers a worked example states from the lesson's own
relations. Values are exact SymPy numbers (`0.9` is 9/10, `√9.5` stays a root); vectors and
matrices are `Series`, keyed by the index the lesson writes (`x_1 ... x_4`, or `x_0 ...`
where a sum reads them from 0; `m_0` as a base case), and compute entry by entry (a matrix
times a vector, and a row vector times a vector, multiply as such). Logic (∧ ∨ ⊕ ¬) reads
0/1, and whole numbers bitwise; relations read as values are 1 or 0. The evaluator walks
the SymPy tree the lesson-LaTeX parser built, so sums and products over data expand term
by term, `\\hat{x}_i` is computed element by element, and `m_t = \\beta m_{t-1} + ...`
step by step. Nothing is evaluated from text.

Size is bounded: at most `MAX_TERMS` terms per sum or product, and a value whose exact
form grows past `MAX_OPS` operations or `MAX_BITS` bits continues as a 60-digit float, so
a long recurrence cannot build an expression that takes minutes to simplify.

Long module: the evaluator is one tree walk (`_Walker`) whose node handlers share the
value model (`Series`, `Row`, truth values, bounded sizes); the helpers are that model.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational
from sympy.logic.boolalg import BooleanFunction
from sympy.utilities.exceptions import SymPyDeprecationWarning

from atlas_build.claims.running.registry import ClaimError
from atlas_build.latex.functions import (
    BitAnd,
    BitOr,
    Component,
    Det,
    DirectSum,
    Hadamard,
    Indicator,
    InnerProduct,
    MatrixLiteral,
    MaxOver,
    MinOver,
    Node,
    Norm,
    Parallel,
    PositivePart,
    Rounded,
    Transposed,
    WithUnit,
)
from atlas_build.latex.probability import Probability
from atlas_build.latex.sets import (
    ArgMax,
    ArgMin,
    BigAnd,
    BigOperator,
    BigOPlus,
    BigOr,
    IndexRange,
    Infimum,
    IntervalOf,
    SetMax,
    SetMin,
    SetProduct,
    SetSum,
    Supremum,
)

MAX_TERMS = 100_000
MAX_OPS = 400
MAX_BITS = 4096
DIGITS = 60

Key = tuple[int, ...]


class Series(dict[Key, Any]):
    """A vector or matrix of values by index (1-based as the lesson writes it). Reads as
    the list of its values in index order, and `series[k]` is the entry at index k."""

    def __missing__(self, key: object) -> Any:
        if isinstance(key, int) and (key,) in self:
            return dict.__getitem__(self, (key,))
        raise KeyError(key)

    def ordered(self) -> list[Any]:
        return [dict.__getitem__(self, key) for key in sorted(self)]

    def tolist(self) -> list[Any]:
        return self.ordered()


class Row(Series):
    """A row vector: a vector transposed (`x^{\\mathsf T}`) or a one-row matrix literal, so
    `x^{\\mathsf T} y` is a dot product where `x y` multiplies entry by entry."""


def series(values: Iterable[Any], start: int = 1) -> Series:
    """A Series from a list (nested lists become a matrix keyed (row, column))."""
    found = Series()
    for index, value in enumerate(values, start):
        if isinstance(value, list):
            for inner, entry in enumerate(value, start):
                found[(index, inner)] = entry
        else:
            found[(index,)] = value
    return found


def constant_index(node: sympy.Indexed) -> bool:
    """`m_0`, `\\Delta_{[2^{10},2^{11})}`: an entry whose subscript holds no symbol."""
    return all(not index.free_symbols for index in node.indices)


def constant_name(node: sympy.Indexed) -> str:
    """The name an entry with a constant subscript stands for: `m_0` (a base case), and an
    interval's ends (`\\Delta_{[2^{10},2^{11})}` is `Delta_1024_2048`)."""
    words: list[str] = []
    for index in node.indices:
        parts = index.args[:2] if isinstance(index, IntervalOf) else (index,)
        for part in parts:
            text = str(part)
            words.append(text if part.is_Integer else re.sub(r"\W+", "_", text).strip("_"))
    return "_".join([str(node.base.label), *words])


class Unknown(Exception):
    """A name the evaluation has no value for (yet)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


@dataclass
class Env:
    """What is known: scalars by symbol, arrays by base name, powers (`σ²`) by (base, exp)."""

    scalars: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)
    arrays: dict[str, Series] = field(default_factory=dict)
    powers: dict[tuple[sympy.Symbol, sympy.Expr], sympy.Expr] = field(default_factory=dict)
    functions: dict[str, tuple[tuple[sympy.Symbol, ...], sympy.Basic]] = field(
        default_factory=dict
    )  # `v(t) = ...`: name -> (parameters, body)
    terms: int = 0

    def scalar(self, name: str) -> sympy.Expr | None:
        return self.scalars.get(sympy.Symbol(name))


def settle(value: Any) -> Any:
    """Keep a value exact while it stays small; continue as a 60-digit float beyond (a
    vector entry by entry)."""
    if isinstance(value, Series):
        return type(value)({key: settle(entry) for key, entry in value.items()})
    if not isinstance(value, sympy.Basic):
        return value
    if value.is_Rational:
        if int(value.p).bit_length() + int(value.q).bit_length() <= MAX_BITS:
            return value
        return sympy.Float(value, DIGITS)
    if isinstance(value, sympy.Float):
        return value
    if sympy.count_ops(value) > MAX_OPS:
        approximate = sympy.N(value, DIGITS)
        return sympy.Float(approximate, DIGITS) if approximate.is_real else approximate
    return value


def evaluate(expr: sympy.Basic, env: Env, bound: Mapping[sympy.Symbol, int] | None = None) -> Any:
    """The exact value of `expr`, raising Unknown for a name without a value, and
    ClaimError, saying what, for anything it cannot compute: a failure inside SymPy is
    told as such, never raised as SymPy's own exception or warning."""
    walker = _Walker(env, dict(bound or {}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SymPyDeprecationWarning)
        try:
            return walker.walk(expr)
        except (Unknown, ClaimError):
            raise
        except (TypeError, ValueError, AttributeError, ArithmeticError, NotImplementedError) as e:
            detail = f": {e}" if str(e) else ""
            raise ClaimError(
                f"cannot evaluate {expr} at the stated values ({type(e).__name__}{detail})"
            ) from None


MAX_CALLS = 32  # nested calls of defined functions (`f(x) = f(x - 1)` stops here)


# -- vectors and matrices -------------------------------------------------------------


def _axes(value: Series) -> list[list[int]]:
    ndim = len(next(iter(value))) if value else 1
    return [sorted({key[d] for key in value}) for d in range(ndim)]


def shape(value: Series) -> tuple[int, ...]:
    """Entries per dimension: `(4,)` for a vector, `(2, 3)` for a 2×3 matrix."""
    return tuple(len(axis) for axis in _axes(value))


def describe(value: Any) -> str:
    if not isinstance(value, Series):
        return "a number"
    found = shape(value)
    if len(found) == 1:
        return f"a vector of {found[0]} entries"
    return "a " + "×".join(map(str, found)) + " matrix"


def rebase(value: Series, base: int) -> Series:
    """The same entries in the same order, indexed from `base` in every dimension."""
    maps = [{old: base + n for n, old in enumerate(axis)} for axis in _axes(value)]
    return type(value)(
        {tuple(m[k] for m, k in zip(maps, key, strict=True)): v for key, v in value.items()}
    )


def elementwise(values: list[Any], combine: Callable[..., Any], what: str) -> Any:
    """`combine` of the values entry by entry (numbers apply to every entry); vectors and
    matrices must have the same shape, and pair in index order."""
    found = [v for v in values if isinstance(v, Series)]
    if not found:
        return settle(combine(*values))
    first = found[0]
    for other in found[1:]:
        if shape(other) != shape(first) or len(other) != len(first):
            raise ClaimError(
                f"{what} entry by entry needs the same shape: {describe(first)} and "
                f"{describe(other)}"
            )
    columns = [v.ordered() if isinstance(v, Series) else None for v in values]
    result = Row() if all(isinstance(v, Row) for v in found) else Series()
    for n, key in enumerate(sorted(first)):
        pairs = zip(columns, values, strict=True)
        args = [column[n] if column is not None else v for column, v in pairs]
        result[key] = settle(combine(*args))
    return result


def _entry(value: Any) -> Any:
    if isinstance(value, Series):
        raise ClaimError(f"expected a number, found {describe(value)}")
    return value


def _matrix(value: Series) -> sympy.Matrix:
    rows, columns = _axes(value)
    return sympy.Matrix([[value.get((r, c), sympy.Integer(0)) for c in columns] for r in rows])


def _from_matrix(matrix: sympy.Matrix, rows: list[int], columns: list[int]) -> Series:
    return Series(
        {(r, c): settle(matrix[i, j]) for i, r in enumerate(rows) for j, c in enumerate(columns)}
    )


def _dot(left: Series, right: Series) -> Any:
    if len(left) != len(right):
        raise ClaimError(f"a dot product of {describe(left)} and {describe(right)}")
    return settle(sympy.Add(*(a * b for a, b in zip(left.ordered(), right.ordered(), strict=True))))


def _matvec(matrix: Series, vector: Series, row: bool = False) -> Series:
    """`M v` (or `v M` with `row`), by index order."""
    rows, columns = _axes(matrix)
    inner = rows if row else columns
    if len(vector) != len(inner):
        raise ClaimError(f"cannot multiply {describe(matrix)} and {describe(vector)}")
    entries = vector.ordered()
    outer = columns if row else rows
    result = Row() if row else Series()
    base = min(outer)
    for n, out in enumerate(outer):
        cells = [matrix.get((k, out) if row else (out, k), 0) for k in inner]
        result[(base + n,)] = settle(
            sympy.Add(*(c * e for c, e in zip(cells, entries, strict=True)))
        )
    return result


def times(left: Any, right: Any, ordered: bool = False) -> Any:
    """A product: numbers scale, a row vector times a vector is their dot product, a matrix
    times a vector a matrix-vector product, matrices in order (`ordered`) multiply as
    matrices, and anything else of one shape entry by entry."""
    if not isinstance(left, Series) or not isinstance(right, Series):
        return elementwise([left, right], sympy.Mul, "a product")
    dims = (len(shape(left)), len(shape(right)))
    if dims == (1, 1) and (isinstance(left, Row) != isinstance(right, Row) or ordered):
        return _dot(left, right)
    if dims == (2, 1):
        return _matvec(left, right)
    if dims == (1, 2):
        return _matvec(right, left, row=True) if ordered else _matvec(right, left)
    if dims == (2, 2) and ordered:
        rows, _ = _axes(left)
        _, columns = _axes(right)
        if shape(left)[1] != shape(right)[0]:
            raise ClaimError(f"cannot multiply {describe(left)} and {describe(right)}")
        return _from_matrix(_matrix(left) * _matrix(right), rows, columns)
    return elementwise([left, right], sympy.Mul, "a product")


def transpose(value: Any) -> Any:
    if not isinstance(value, Series):
        return value
    if len(shape(value)) == 2:
        return Series({(c, r): v for (r, c), v in value.items()})
    return Series(value) if isinstance(value, Row) else Row(value)


def _literal(rows: list[list[Any]]) -> Series:
    """A matrix literal: a matrix, or a vector when it is one row (a row vector) or one
    column, indexed from 1 as lessons write entries."""
    if len(rows) == 1:
        return Row({(c,): v for c, v in enumerate(rows[0], 1)})
    if all(len(row) == 1 for row in rows):
        return Series({(r,): row[0] for r, row in enumerate(rows, 1)})
    return Series({(r, c): v for r, row in enumerate(rows, 1) for c, v in enumerate(row, 1)})


# -- logic and whole numbers ----------------------------------------------------------


def truth(value: Any) -> bool:
    """A condition's value: a SymPy truth value, or a number (nonzero holds)."""
    if value is sympy.true or value is True:
        return True
    if value is sympy.false or value is False:
        return False
    if isinstance(value, Series):
        raise ClaimError(f"a condition on {describe(value)} (a condition needs one number)")
    zero = sympy.N(value, 30).is_zero
    if zero is None:
        raise ClaimError(f"cannot decide whether {value} holds")
    return not zero


def _bits(value: Any, what: str) -> int:
    """A value an operator of logic reads: 0/1 (or true/false), or a whole number."""
    if value is sympy.true or value is sympy.false:
        return int(value is sympy.true)
    if isinstance(value, int) and value >= 0:
        return int(value)
    if isinstance(value, sympy.Basic) and value.is_number and value.is_integer:
        number = int(value)
        if number >= 0:
            return number
    raise ClaimError(f"{what} needs 0/1 or whole numbers ≥ 0, not {value}")


def _bitwise(operator: Callable[[int, int], int], what: str) -> Callable[..., Any]:
    def combine(*values: Any) -> Any:
        result = _bits(values[0], what)
        for value in values[1:]:
            result = operator(result, _bits(value, what))
        return sympy.Integer(result)

    return combine


def _negation(value: Any) -> Any:
    bit = _bits(value, "¬")
    if bit > 1:
        raise ClaimError(f"¬ of {value}: a logical not reads 0 or 1 (a bitwise not needs a width)")
    return sympy.Integer(1 - bit)


def _rounded(value: Any) -> Any:
    """`\\lfloor x \\rceil`: the nearest integer, halves to the even one (as IEEE rounds)."""
    low = sympy.floor(value)
    rest = value - low
    if rest.is_number and (rest > sympy.Rational(1, 2)) == sympy.true:
        return low + 1
    if rest == sympy.Rational(1, 2):
        return low + 1 if int(low) % 2 else low
    return low


def _compare(kind: type) -> Callable[[Any, Any], Any]:
    def combine(left: Any, right: Any) -> Any:
        decided = kind(left, right)
        if decided not in (sympy.true, sympy.false):
            decided = kind(sympy.N(left, 50), sympy.N(right, 50))
        return sympy.Integer(1 if truth(decided) else 0)

    return combine


_RELATIONS: dict[type, Callable[[Any, Any], Any]] = {
    kind: _compare(kind) for kind in (sympy.Eq, sympy.Ne, sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge)
}
_LOGIC: dict[type, Callable[..., Any]] = {
    sympy.And: _bitwise(lambda a, b: a & b, "∧"),
    BitAnd: _bitwise(lambda a, b: a & b, "∧"),
    sympy.Or: _bitwise(lambda a, b: a | b, "∨"),
    BitOr: _bitwise(lambda a, b: a | b, "∨"),
    sympy.Xor: _bitwise(lambda a, b: a ^ b, "⊕"),
    DirectSum: _bitwise(lambda a, b: a ^ b, "⊕"),
    sympy.Not: _negation,
}


class _Walker:
    def __init__(self, env: Env, bound: dict[sympy.Symbol, int], calls: int = 0) -> None:
        self.env = env
        self.bound = bound
        self.calls = calls

    def walk(self, node: sympy.Basic) -> Any:
        if isinstance(node, sympy.Number | sympy.NumberSymbol) or node in (sympy.I,):
            return node
        if node is sympy.true or node is sympy.false:
            return sympy.Integer(int(node is sympy.true))
        if isinstance(node, sympy.Symbol):
            return self._symbol(node)
        if isinstance(node, sympy.Indexed):
            return self._indexed(node)
        if isinstance(node, WithUnit):
            return self.walk(node.args[0])
        if isinstance(node, Probability):  # one opaque value, stated by its key
            return self._symbol(sympy.Symbol(node.key))
        if isinstance(node, sympy.Pow):
            return self._pow(node)
        if isinstance(node, sympy.Add):
            return elementwise([self.walk(arg) for arg in node.args], sympy.Add, "a sum")
        if isinstance(node, sympy.Mul):
            return self._product(node)
        if isinstance(node, sympy.Sum | sympy.Product | MaxOver | MinOver):
            return self._reduce(node)
        if isinstance(node, BigOperator):
            return self._big(node)
        if isinstance(node, Component):
            return self._component(node)
        if isinstance(node, AppliedUndef):
            return self._applied(node)
        if isinstance(node, sympy.Piecewise):
            return self._piecewise(node)
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            return handler(self, node)
        if type(node) in _RELATIONS or type(node) in _LOGIC:
            combine = _RELATIONS.get(type(node)) or _LOGIC[type(node)]
            what = "a comparison" if type(node) in _RELATIONS else "a logical operator"
            return elementwise([self.walk(arg) for arg in node.args], combine, what)
        if isinstance(node, sympy.Function) and node.func in _FUNCTIONS:
            values = [self.walk(arg) for arg in node.args]
            return elementwise(values, node.func, f"{node.func.__name__}")
        raise ClaimError(
            f"cannot evaluate {type(node).__name__} ({node}) at stated values: "
            "docs/claims.md lists what a claim evaluates"
        )

    def _symbol(self, node: sympy.Symbol) -> Any:
        if node in self.bound:
            return sympy.Integer(self.bound[node])
        value = self.env.scalars.get(node)
        if value is None:
            found = self.env.arrays.get(node.name)
            if found is not None:
                return found
            base, _, index = node.name.rpartition("_")  # `X_1`: the entry of a vector X
            array = self.env.arrays.get(base)
            if array is not None and index.isdigit() and (int(index),) in array:
                return array[(int(index),)]
            raise Unknown(node.name)
        return value

    def _indices(self, node: sympy.Indexed) -> Key:
        key = []
        for index in node.indices:
            value = self.walk(index)
            if isinstance(value, Series) or not (value.is_number and value.is_integer):
                raise ClaimError(f"{node}: index {index} is not an integer here ({value})")
            key.append(int(value))
        return tuple(key)

    def _indexed(self, node: sympy.Indexed) -> Any:
        name = str(node.base.label)
        if constant_index(node) and not all(i.is_Integer for i in node.indices):
            written = sympy.Symbol(constant_name(node))  # `\Delta_{[2^{10},2^{11})}`
            if written in self.env.scalars:
                return self.env.scalars[written]
            raise Unknown(written.name)
        key = self._indices(node)
        array = self.env.arrays.get(name)
        if array is not None and key in array:
            return array[key]
        written = sympy.Symbol(f"{name}_{'_'.join(map(str, key))}")  # m_0 as a base case
        if written in self.env.scalars:
            return self.env.scalars[written]
        raise Unknown(f"{name}[{', '.join(map(str, key))}]")

    def _product(self, node: sympy.Mul) -> Any:
        commutative, ordered = node.args_cnc()
        result: Any = None
        for factor in commutative:
            value = self.walk(factor)
            result = value if result is None else times(result, value)
        if ordered:
            chain = self.walk(ordered[0])
            for factor in ordered[1:]:
                chain = times(chain, self.walk(factor), ordered=True)
            result = chain if result is None else times(result, chain)
        return settle(result)

    def _pow(self, node: sympy.Pow) -> Any:
        base, exponent = node.args
        if isinstance(base, sympy.Symbol) and (base, exponent) in self.env.powers:
            return self.env.powers[(base, exponent)]
        value, power = self.walk(base), self.walk(exponent)
        if isinstance(value, Series) and len(shape(value)) == 2 and not base.is_commutative:
            return self._matrix_power(value, power, node)
        if isinstance(value, sympy.Rational | sympy.Float) and getattr(power, "is_Integer", False):
            size = abs(int(power)) * max(1, int(abs(sympy.Float(value))).bit_length())
            if size > MAX_BITS * 4:
                raise ClaimError(f"{node} at the stated values is too large to compute exactly")
        return elementwise([value, power], sympy.Pow, "a power")

    def _matrix_power(self, value: Series, power: Any, node: sympy.Basic) -> Any:
        rows, columns = _axes(value)
        if len(rows) != len(columns) or not getattr(power, "is_Integer", False):
            raise ClaimError(f"{node}: a matrix power needs a square matrix and a whole power")
        if abs(int(power)) > 64:
            raise ClaimError(f"{node}: matrix power {power} is more than a worked example needs")
        return _from_matrix(_matrix(value) ** int(power), rows, columns)

    def _range(self, lower: Any, upper: Any, node: sympy.Basic) -> range:
        low, high = self.walk(lower), self.walk(upper)
        if not (getattr(low, "is_Integer", False) and getattr(high, "is_Integer", False)):
            raise ClaimError(f"{node}: the bounds {low}..{high} are not integers")
        count = int(high) - int(low) + 1
        self.env.terms += max(count, 0)
        if count > MAX_TERMS or self.env.terms > 10 * MAX_TERMS:
            raise ClaimError(f"{node}: {count} terms is more than a worked example needs")
        return range(int(low), int(high) + 1)

    def _closed_form(self, node: sympy.Expr) -> Any:
        r"""`\sum_{t=1}^{T} t` at T = 32768 in closed form, when the body reads no data."""
        body = node.function
        if body.atoms(sympy.Indexed, Component, AppliedUndef) or not isinstance(
            node, sympy.Sum | sympy.Product
        ):
            return None
        if body.atoms(Node, BooleanFunction, Relational, sympy.Mod):
            return None  # dialect nodes and logic: SymPy's `doit` leaves them unevaluated
        variables = {limit[0] for limit in node.limits}
        known = {
            s: self._symbol(s)
            for s in node.free_symbols
            if isinstance(s, sympy.Symbol) and s not in variables
        }
        if any(isinstance(v, Series) for v in known.values()):
            return None
        value = node.xreplace(known).doit()
        return settle(value) if value.is_number else None

    def _terms(self, variable: sympy.Symbol, values: range, body: sympy.Basic) -> list[Any]:
        terms = []
        saved = self.bound.get(variable)
        try:
            for value in values:
                self.bound[variable] = value
                terms.append(self.walk(body))
        finally:
            if saved is None:
                self.bound.pop(variable, None)
            else:
                self.bound[variable] = saved
        return terms

    def _reduce(self, node: sympy.Expr) -> Any:
        if (closed := self._closed_form(node)) is not None:
            return closed
        (variable, lower, upper), *rest = node.limits
        if rest:
            inner = type(node)(node.function, *rest)
            node = type(node)(inner, (variable, lower, upper))
        terms = self._terms(variable, self._range(lower, upper, node), node.function)
        if isinstance(node, sympy.Sum):
            return _total(terms)
        if isinstance(node, sympy.Product):
            return _product_of(terms)
        return _extreme(terms, isinstance(node, MaxOver), node)

    def _big(self, node: BigOperator) -> Any:
        """`\\bigvee_{i=0}^{3} g_i`, `\\arg\\max_{k=1}^{4} x_k`: a big operator over a range
        of integers (over a set or a condition, a claim cannot run it)."""
        over = node.over
        reduce = _BIG.get(type(node))
        if not isinstance(over, IndexRange) or reduce is None:
            raise ClaimError(
                f"cannot evaluate {type(node).__name__} ({node}) at stated values: a big "
                "operator over a set or a condition (write the range: _{i=1}^{n})"
            )
        variable, lower, upper = over.args
        values = self._range(lower, upper, node)
        terms = self._terms(variable, values, node.body)
        if not terms and type(node) not in (SetSum, SetProduct):
            raise ClaimError(f"{node}: over an empty range")
        if type(node) in (ArgMax, ArgMin):
            numbers = [_entry(term) for term in terms]
            best = _extreme(numbers, type(node) is ArgMax, node)
            return sympy.Integer(values[next(k for k, t in enumerate(numbers) if t == best)])
        return reduce(terms)

    def _component(self, node: Component) -> Any:
        value, *indices = node.args
        computed = self.walk(value)
        key = tuple(int(_entry(self.walk(index))) for index in indices)
        if isinstance(computed, Series) and key in computed:
            return computed[key]
        raise ClaimError(f"{node}: no entry {key}")

    def _applied(self, node: AppliedUndef) -> Any:
        name = type(node).__name__
        if name in self.env.functions:
            return self._call(node, *self.env.functions[name])
        if name in ("softmax", "softmax_rows") and len(node.args) == 1:
            values = self.walk(node.args[0])
            if not isinstance(values, Series):
                raise ClaimError(f"{node}: softmax needs a vector")
            weights = {key: sympy.exp(v) for key, v in values.items()}
            total = sympy.Add(*weights.values())
            return Series({key: settle(w / total) for key, w in weights.items()})
        raise ClaimError(f"no value for the function {name} (define it in a relation)")

    def _call(
        self, node: AppliedUndef, parameters: tuple[sympy.Symbol, ...], body: sympy.Basic
    ) -> Any:
        """`v(2 tau)` with `v(t) = ...` defined: the body at t = the argument's value (the
        parameters shadow scalars and index letters of the same name)."""
        if len(node.args) != len(parameters):
            raise ClaimError(
                f"{node}: {type(node).__name__} is defined with {len(parameters)} argument(s)"
            )
        if self.calls >= MAX_CALLS:
            raise ClaimError(f"{node}: more than {MAX_CALLS} nested function calls")
        values = dict(zip(parameters, (self.walk(arg) for arg in node.args), strict=True))
        return self._within(values, body)

    def _within(self, values: dict[sympy.Symbol, Any], body: sympy.Basic) -> Any:
        scope = replace(self.env, scalars={**self.env.scalars, **values})
        bound = {k: v for k, v in self.bound.items() if k not in values}
        try:
            return _Walker(scope, bound, self.calls + 1).walk(body)
        finally:
            self.env.terms = scope.terms

    def _subs(self, node: sympy.Subs) -> Any:
        """`f(x)|_{x=a}`: the expression at the point."""
        expr, variables, points = node.args
        values = {v: self.walk(point) for v, point in zip(variables, points, strict=True)}
        return self._within(values, expr)

    def _piecewise(self, node: sympy.Piecewise) -> Any:
        for value, condition in node.args:
            if condition is sympy.true or self.walk_condition(condition):
                return self.walk(value)
        raise ClaimError(f"{node}: no case holds at the stated values")

    def walk_condition(self, condition: sympy.Basic) -> bool:
        return truth(self.walk(condition))


def _combined(terms: list[Any], operation: Any, what: str) -> Any:
    """`terms` added or multiplied (`operation`), entry by entry where one is a vector."""
    if any(isinstance(t, Series) for t in terms):
        found: Any = terms[0]
        for term in terms[1:]:
            found = elementwise([found, term], operation, what)
        return found
    return settle(operation(*terms))


def _total(terms: list[Any]) -> Any:
    return _combined(terms, sympy.Add, "a sum")


def _product_of(terms: list[Any]) -> Any:
    return _combined(terms, sympy.Mul, "a product")


def _extreme(terms: list[Any], largest: bool, node: sympy.Basic) -> Any:
    if not terms:
        raise ClaimError(f"{node}: an extremum over an empty range")
    pick = sympy.Max if largest else sympy.Min
    if any(isinstance(t, Series) for t in terms):
        return elementwise(terms, pick, "a maximum" if largest else "a minimum")
    return pick(*terms)


def _norm(walker: _Walker, node: Norm) -> Any:
    value = walker.walk(node.args[0])
    entries = value.ordered() if isinstance(value, Series) else [value]
    order = node.args[1] if len(node.args) > 1 else sympy.Integer(2)
    if isinstance(order, sympy.Symbol) and order.name == "F":
        order = sympy.Integer(2)
    elif order != sympy.oo:
        order = _entry(walker.walk(order))
    sizes = [sympy.Abs(entry) for entry in entries]
    if order == sympy.oo:
        return settle(sympy.Max(*sizes))
    return settle(sympy.Add(*(size**order for size in sizes)) ** (1 / order))


def _inner(walker: _Walker, node: InnerProduct) -> Any:
    left, right = (walker.walk(arg) for arg in node.args)
    if not isinstance(left, Series) or not isinstance(right, Series):
        return settle(sympy.conjugate(left) * right)
    if len(left) != len(right):
        raise ClaimError(f"{node}: an inner product of {describe(left)} and {describe(right)}")
    pairs = zip(left.ordered(), right.ordered(), strict=True)
    return settle(sympy.Add(*(sympy.conjugate(a) * b for a, b in pairs)))


def _det(walker: _Walker, node: Det) -> Any:
    value = walker.walk(node.args[0])
    if not isinstance(value, Series) or len(shape(value)) != 2:
        return value if not isinstance(value, Series) else _entry(value)
    rows, columns = _axes(value)
    if len(rows) != len(columns):
        raise ClaimError(f"{node}: the determinant of {describe(value)}")
    return settle(_matrix(value).det())


def _literal_value(walker: _Walker, node: MatrixLiteral) -> Any:
    return _literal([[_entry(walker.walk(cell)) for cell in row] for row in node.rows])


def _unary(function: Callable[[Any], Any], what: str) -> Callable[[_Walker, Any], Any]:
    return lambda walker, node: elementwise([walker.walk(node.args[0])], function, what)


def _binary(function: Callable[..., Any], what: str) -> Callable[[_Walker, Any], Any]:
    return lambda walker, node: elementwise([walker.walk(a) for a in node.args], function, what)


_HANDLERS: dict[type, Callable[[_Walker, Any], Any]] = {
    Rounded: _unary(_rounded, "rounding"),
    PositivePart: _unary(lambda x: sympy.Max(x, 0), "a positive part"),
    Indicator: lambda walker, node: sympy.Integer(int(walker.walk_condition(node.args[0]))),
    Transposed: lambda walker, node: transpose(walker.walk(node.args[0])),
    Hadamard: _binary(sympy.Mul, "a Hadamard product"),
    Parallel: _binary(lambda a, b: a * b / (a + b), "a parallel combination"),
    sympy.KroneckerDelta: _binary(_compare(sympy.Eq), "a Kronecker delta"),
    sympy.Max: _binary(sympy.Max, "a maximum"),
    sympy.Min: _binary(sympy.Min, "a minimum"),
    Norm: _norm,
    InnerProduct: _inner,
    Det: _det,
    MatrixLiteral: _literal_value,
    sympy.Subs: lambda walker, node: walker._subs(node),
}

_BIG: dict[type, Callable[[list[Any]], Any]] = {
    SetSum: _total,
    SetProduct: _product_of,
    SetMax: lambda terms: _extreme(terms, True, sympy.Symbol("max")),
    SetMin: lambda terms: _extreme(terms, False, sympy.Symbol("min")),
    Supremum: lambda terms: _extreme(terms, True, sympy.Symbol("sup")),
    Infimum: lambda terms: _extreme(terms, False, sympy.Symbol("inf")),
    BigOr: lambda terms: elementwise(terms, _LOGIC[BitOr], "∨"),
    BigAnd: lambda terms: elementwise(terms, _LOGIC[BitAnd], "∧"),
    BigOPlus: lambda terms: elementwise(terms, _LOGIC[DirectSum], "⊕"),
    ArgMax: _total,  # placeholders: arg max/min pick an index in `_big`
    ArgMin: _total,
}


_FUNCTIONS = {
    sympy.exp, sympy.log, sympy.sin, sympy.cos, sympy.tan, sympy.cot, sympy.sec, sympy.csc,
    sympy.tanh, sympy.sinh, sympy.cosh, sympy.coth, sympy.asin, sympy.acos, sympy.atan,
    sympy.acot, sympy.asinh, sympy.acosh, sympy.atanh, sympy.Abs, sympy.sign, sympy.floor,
    sympy.ceiling, sympy.factorial, sympy.binomial, sympy.erf, sympy.erfc, sympy.sqrt,
    sympy.re, sympy.im, sympy.arg, sympy.conjugate, sympy.Mod,
}  # fmt: skip
