"""formula: the numbers of a worked example, computed from the lesson's own equations.

The quantities come from the relations the lesson displays (`use`, or every relation of
`equations`), evaluated exactly at the stated `values`, so editing an equation changes
every number the prose derives from it. Values may be scalars, vectors or matrices
(`x: [1, 2, 4, 9]`), written as numbers, as the numerals lessons use (`√9.5`, `10⁻⁸`,
`−0.1`) or as LaTeX (`10^{-8}`). Relations define scalars (`\\mu = ...`), powers
(`\\sigma^2 = ...`, giving `sigma_squared` and its root `sigma`), elements
(`\\hat{x}_i = ...`, over the index range of the vectors it reads) and recurrences
(`m_t = \\beta_1 m_{t-1} + ...`, over `steps: {t: [1, 2]}` from base cases `m_0` in
`values`) and functions (`v(t) = V_0 e^{-t/\\tau}`, evaluated wherever `v(...)` is called,
and a quantity `v` when `t` has a value). `identities` are relations checked at those
values; `expressions` compute further numbers written in lesson LaTeX.

Long module: one kind, whose steps (definitions, ranges, solving, identities) all read the
same prepared relations; the evaluator itself lives in `_exact`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable
from typing import Annotated, Any

import sympy
from pydantic import Field
from sympy.core.function import AppliedUndef

from atlas_build.claims import solver
from atlas_build.claims.binding.compare import show
from atlas_build.claims.coverage.dimensions import (
    lesson_units,
    side_ratio,
    unit_text,
    units_key,
    unread_units,
    zero_mismatch,
)
from atlas_build.claims.kinds import _exact, _sensitivity, _unread, _values
from atlas_build.claims.kinds._equations import EquationRef, relations
from atlas_build.claims.running.registry import LEVEL, ClaimError, Context, Outcome, Params, kind
from atlas_build.latex import LatexError, Relation, parse_expression, parse_relations
from atlas_build.latex.functions import MaxOver, MinOver, WithUnit
from atlas_build.latex.probability import Probability
from atlas_build.latex.sets import BigOperator, IndexRange, bound_indices
from atlas_build.lesson.model import Math
from atlas_build.units.prose import names_level

MAX_ELEMENTS = 10_000
DEFINING = ("=", ":=", "<-")

Ref = tuple[int, int]


class RelationRef(Params):
    """One relation of a display equation."""

    equation: int = Field(ge=0, description="0-based index of the display equation")
    relation: int = Field(ge=0, description="0-based index of the relation within it")


Value = _values.Scalar | list[_values.Scalar] | list[list[_values.Scalar]]
Base = Annotated[int, Field(ge=0, le=1_000)]


class FormulaParams(Params):
    values: dict[str, Value] = Field(
        default_factory=dict,
        description="the stated inputs by symbol (`beta_1` or `\\beta_1`): numbers as lessons "
        "write them (`0.9`, `ln 3`, `10⁻⁸`) or LaTeX, bare, in the unit the symbol table gives "
        "the symbol (`0.002` for 2 ms of a symbol in s, `0.05` for 5%), or LaTeX using other "
        'values (`t: "v - 1"`; vectors entry by entry: `r: "v - y"`); lists are '
        "vectors, indexed as `index_base` says, lists of lists matrices",
    )
    use: list[RelationRef] = Field(
        default_factory=list, max_length=64, description="defining relations to compute from"
    )
    equations: list[int] = Field(
        default_factory=list, max_length=64, description="use every relation of these equations"
    )
    identities: list[RelationRef] = Field(
        default_factory=list,
        max_length=64,
        description="relations checked at the computed values (both sides must agree)",
    )
    expressions: dict[str, str] = Field(
        default_factory=dict, description="further quantities by name, written in lesson LaTeX"
    )
    symbols: list[str] = Field(
        default_factory=list, description="`e` or `pi` read as plain symbols, not the constants"
    )
    indices: list[str] = Field(
        default_factory=list, description="index letters (those of vectors are inferred)"
    )
    steps: dict[str, list[int]] = Field(
        default_factory=dict,
        description="values an index runs over, for recurrences: `{t: [1, 2]}`",
    )
    index_base: Base | dict[str, Base] | None = Field(
        default=None,
        description="the index of a list value's first entry, for every list (`0`) or by "
        "name (`{x: 0}`); by default where the relations read it (`\\sum_{n=0}^{N-1} x_n` "
        "reads x from x_0), else 1",
    )


class _Definition:
    """One defining relation: what it gives (a symbol, a power, or an indexed element)."""

    def __init__(self, ref: Ref, relation: Relation, offset: int) -> None:
        self.ref, self.relation, self.offset = ref, relation, offset
        self.ratio: sympy.Expr = sympy.Integer(1)  # the right side's unit in the left side's
        self.inverse = False  # its left side is a stated value: solved for what it lacks
        self.solved: str | None = None  # the symbol an inverse definition gave a value
        lhs = relation.lhs
        self.symbol: sympy.Symbol | None = None
        self.power: tuple[sympy.Symbol, sympy.Expr] | None = None
        self.indexed: sympy.Indexed | None = None
        self.function: tuple[str, tuple[sympy.Symbol, ...]] | None = None
        if isinstance(lhs, sympy.Symbol):
            self.symbol = lhs
        elif _function_style(lhs):
            self.function = (type(lhs).__name__, tuple(lhs.args))
        elif isinstance(lhs, sympy.Pow) and isinstance(lhs.base, sympy.Symbol):
            self.power = (lhs.base, lhs.exp)
        elif isinstance(lhs, Probability):
            self.symbol = sympy.Symbol(lhs.key)  # `P(D|+) = ...`: one value, by its key
        elif isinstance(lhs, sympy.Indexed) and _exact.constant_index(lhs):
            self.symbol = sympy.Symbol(_exact.constant_name(lhs))  # `\\Delta_{[a,b)}`, `m_0`
        elif isinstance(lhs, sympy.Indexed) and all(_letter(i) is not None for i in lhs.indices):
            self.indexed = lhs  # `x_i`, and `C_{i+1}` of a recurrence
        else:
            raise ClaimError(
                f"equation {ref[0]} relation {ref[1]} `{relation.source.strip()}` defines no "
                "symbol, power, indexed entry or function: a relation in `use` needs one "
                "alone on its left; display it solved for one (`P=\\frac{n R T}{V}`) and use "
                "that, or check this one under `identities`",
                offset,
            )

    @property
    def name(self) -> str:
        if self.symbol is not None:
            return self.symbol.name
        if self.function is not None:
            return self.function[0]
        if self.power is not None:
            return _power_name(*self.power)
        assert self.indexed is not None
        return str(self.indexed.base.label)


def _letter(index: sympy.Basic) -> sympy.Symbol | None:
    """The letter of an index on a defined entry: `i` of `x_i` and of `C_{i+1}`."""
    if isinstance(index, sympy.Symbol):
        return index
    if isinstance(index, sympy.Add) and len(index.args) == 2:
        number, letter = sorted(index.args, key=lambda a: not a.is_Integer)
        if number.is_Integer and isinstance(letter, sympy.Symbol):
            return letter
    return None


def _letters(indexed: sympy.Indexed) -> list[sympy.Symbol]:
    found = [_letter(index) for index in indexed.indices]
    return [letter for letter in found if letter is not None]


def _function_style(lhs: sympy.Basic) -> bool:
    """`v(t)` or `P(V, I)`: a function of distinct plain symbols."""
    return (
        isinstance(lhs, AppliedUndef)
        and all(isinstance(arg, sympy.Symbol) for arg in lhs.args)
        and len(set(lhs.args)) == len(lhs.args)
    )


def _called(expr: sympy.Basic) -> set[str]:
    return {type(node).__name__ for node in expr.atoms(AppliedUndef)}


def _power_name(base: sympy.Symbol, exponent: sympy.Expr) -> str:
    return f"{base.name}_squared" if exponent == 2 else f"{base.name}_pow{exponent}"


_IMAGINARY_UNIT = re.compile(r"imaginary\s+unit|√\s*[-−]\s*1|sqrt\(\s*[-−]\s*1\s*\)")


def _imaginary(context: Context, indices: list[str]) -> frozenset[str]:
    """`i` or `j` where the lesson's symbol table says it is the imaginary unit (`j` as
    engineers write it), unless the claim reads it as an index."""
    found = {
        name
        for glossary in context.lesson.glossaries
        for entry in glossary.entries
        if _IMAGINARY_UNIT.search(entry.meaning.casefold())
        for name in entry.names
        if name in ("i", "j")
    }
    return frozenset(found - set(indices))


def _prepared(expr: sympy.Basic, imaginary: frozenset[str]) -> sympy.Basic:
    """`expr` with the imaginary unit for the names `imaginary` lists, where free: not an
    index of an entry, nor the variable of a sum or other operator over a range."""
    if not imaginary or not expr.free_symbols & {sympy.Symbol(n) for n in imaginary}:
        return expr

    def walk(node: sympy.Basic, bound: frozenset[str]) -> sympy.Basic:
        if isinstance(node, sympy.Symbol):
            return sympy.I if node.name in imaginary and node.name not in bound else node
        if isinstance(node, sympy.Indexed) or not node.args:
            return node
        inner = bound
        if isinstance(node, sympy.Sum | sympy.Product | MaxOver | MinOver):
            inner = bound | {str(limit[0]) for limit in node.limits}
        elif isinstance(node, BigOperator):
            inner = bound | {str(index) for index in bound_indices(node.over)}
        args = tuple(walk(arg, inner) for arg in node.args)
        return node if args == node.args else node.func(*args)

    return walk(expr, frozenset())


def _relation(relation: Relation, imaginary: frozenset[str]) -> Relation:
    lhs, rhs = _prepared(relation.lhs, imaginary), _prepared(relation.rhs, imaginary)
    if lhs is relation.lhs and rhs is relation.rhs:
        return relation
    return dataclasses.replace(relation, lhs=lhs, rhs=rhs)


def _refs(params: FormulaParams, context: Context) -> list[Ref]:
    refs = [(ref.equation, ref.relation) for ref in params.use]
    for equation in params.equations:
        math = context.equation(equation)
        try:
            count = len(parse_relations(math.latex, symbols=params.symbols))
        except LatexError as error:
            raise ClaimError(f"equation {equation}: {error.message} [{error.code}]") from None
        refs += [(equation, index) for index in range(count) if (equation, index) not in refs]
    return refs


def _indices(
    params: FormulaParams, env: _exact.Env, context: Context, refs: list[Ref]
) -> list[str]:
    """Declared index letters, those of `steps`, and the subscript letters of names whose
    base has a vector value or is written indexed elsewhere (`x_i` with `x: [...]`)."""
    letters = dict.fromkeys([*params.indices, *params.steps])
    found: list[Relation] = []
    for equation in sorted({e for e, _ in refs} | {r.equation for r in params.identities}):
        math = context.equation(equation)
        try:
            found += parse_relations(math.latex, symbols=params.symbols)
        except LatexError:
            continue
    indexed = {
        str(n.base.label)
        for r in found
        for side in (r.lhs, r.rhs)
        for n in side.atoms(sympy.Indexed)
    }
    bases = set(env.arrays) | indexed
    for relation in found:
        for side in (relation.lhs, relation.rhs):
            for symbol in sorted(side.free_symbols, key=str):
                base, _, letter = str(symbol).rpartition("_")
                if base in bases and len(letter) == 1 and letter.isalpha():
                    letters.setdefault(letter)
    return list(letters)


def _definitions(
    params: FormulaParams,
    context: Context,
    refs: list[Ref],
    indices: list[str],
    imaginary: frozenset[str] = frozenset(),
) -> list[_Definition]:
    declared = EquationRef(equation=0, indices=indices, symbols=params.symbols)
    found = []
    for equation, index in refs:
        math, parsed = relations(declared.model_copy(update={"equation": equation}), context)
        if not 0 <= index < len(parsed):
            raise ClaimError(f"equation {equation} has {len(parsed)} relations; no index {index}")
        stated = _relation(parsed[index], imaginary)
        if stated.op not in DEFINING:
            raise ClaimError(
                f"equation {equation} relation {index} `{stated.source.strip()}` is a "
                f"`{stated.op}` relation, not a definition; list it under identities",
                math.offset + stated.start,
            )
        found.append(_Definition((equation, index), stated, math.offset + stated.start))
    return found


def _infer_bounds(
    definitions: list[_Definition], env: _exact.Env, sides: list[sympy.Basic]
) -> None:
    """`\\sum_{i=1}^{n} x_i` with `x` given and `n` not: n is the length of x; and the
    range a sum states binds the list (`\\sum_{n=0}^{N-1} x_n`: N is the length of x
    read from x_0)."""
    defined = {d.symbol for d in definitions if d.symbol is not None}
    for side in sides:
        for node in side.atoms(sympy.Sum, sympy.Product):
            for variable, _, upper in node.limits:
                unknown = [s for s in upper.free_symbols if s not in env.scalars]
                if len(unknown) != 1 or unknown[0] in defined:
                    continue
                symbol = unknown[0]
                offset = upper - symbol
                if not (isinstance(symbol, sympy.Symbol) and offset.is_Integer):
                    continue
                lasts = {
                    max(key[position] for key in env.arrays[str(entry.base.label)])
                    for entry in node.function.atoms(sympy.Indexed)
                    if str(entry.base.label) in env.arrays and env.arrays[str(entry.base.label)]
                    for position, index in enumerate(entry.indices)
                    if index == variable
                }
                if len(lasts) == 1:
                    env.scalars[symbol] = sympy.Integer(lasts.pop()) - offset


def _ranges_read(side: sympy.Basic) -> list[tuple[sympy.Basic, sympy.Basic, sympy.Basic]]:
    """(index, first value, body) of every sum, product or big operator over a range."""
    found: list[tuple[sympy.Basic, sympy.Basic, sympy.Basic]] = []
    for node in side.atoms(sympy.Sum, sympy.Product, MaxOver, MinOver):
        found += [(variable, lower, node.function) for variable, lower, _ in node.limits]
    for big in side.atoms(BigOperator):
        if isinstance(big.over, IndexRange):
            found.append((big.over.args[0], big.over.args[1], big.body))
    return found


def _rebase(params: FormulaParams, env: _exact.Env, sides: list[sympy.Basic]) -> None:
    """Index each list value from `index_base`, else from where the relations read it: a
    sum that starts at 0 over its entries (`\\sum_{n=0}^{N-1} x_n`) reads it from 0,
    anything else from 1, as lessons write `x_1 ... x_n`."""
    starts: dict[str, set[int]] = {}
    for side in sides:
        for variable, lower, body in _ranges_read(side):
            if not lower.is_Integer:
                continue
            for entry in body.atoms(sympy.Indexed):
                if variable in entry.indices:
                    starts.setdefault(str(entry.base.label), set()).add(int(lower))
    explicit = params.index_base
    named: dict[str, int] = {}
    if isinstance(explicit, dict):
        for key, base in explicit.items():
            name = _values.symbol(key, params.symbols).name
            if name not in env.arrays:
                raise ClaimError(
                    f"index_base.{key}: {key} has no list value (index_base says where a list "
                    "of `values` is indexed from)",
                    pointer=f"/params/index_base/{key}",
                )
            named[name] = base
    for name in list(env.arrays):
        if isinstance(explicit, int):
            base = explicit
        else:
            base = named.get(name, 0 if 0 in starts.get(name, ()) else 1)
        env.arrays[name] = _exact.rebase(env.arrays[name], base)


def _letter_values(
    definition: _Definition,
    letter: sympy.Symbol,
    params: FormulaParams,
    env: _exact.Env,
    known: dict[str, dict[sympy.Symbol, list[int]]],
) -> list[int] | None:
    """What `letter` runs over in an indexed definition: `steps`, the keys of the data the
    right side reads at that letter, or the range of another definition it reads there."""
    if str(letter) in params.steps:
        return list(params.steps[str(letter)])
    keys: set[int] = set()
    for node in definition.relation.rhs.atoms(sympy.Indexed):
        name = str(node.base.label)
        for position, index in enumerate(node.indices):
            if index != letter:
                continue
            if env.arrays.get(name):
                keys |= {key[position] for key in env.arrays[name]}
            elif name in known and name != definition.name:
                keys |= set(list(known[name].values())[position])
    return sorted(keys) or None


def _ranges(
    definitions: list[_Definition], params: FormulaParams, env: _exact.Env
) -> dict[int, list[dict[sympy.Symbol, int]]]:
    """Index assignments of every indexed definition, settled as far as they can be."""
    known: dict[str, dict[sympy.Symbol, list[int]]] = {}
    pending = [d for d in definitions if d.indexed is not None]
    while pending:
        left = []
        for definition in pending:
            assert definition.indexed is not None
            letters = _letters(definition.indexed)
            found = [_letter_values(definition, letter, params, env, known) for letter in letters]
            if any(values is None for values in found):
                left.append(definition)
                continue
            known[definition.name] = {
                letter: values for letter, values in zip(letters, found, strict=True) if values
            }
        if len(left) == len(pending):
            first = left[0]
            assert first.indexed is not None
            letter = _letters(first.indexed)[0]
            raise ClaimError(
                f"`{first.relation.source.strip()}`: give the values {letter} runs over "
                f"(steps: {{{letter}: [1, 2]}}), or a vector it indexes",
                first.offset,
            )
        pending = left
    assignments: dict[int, list[dict[sympy.Symbol, int]]] = {}
    for definition in definitions:
        if definition.indexed is None:
            continue
        product: list[dict[sympy.Symbol, int]] = [{}]
        for letter, values in known[definition.name].items():
            product = [{**a, letter: v} for a in product for v in values]
            if len(product) > MAX_ELEMENTS:
                raise ClaimError(f"`{definition.relation.source.strip()}` has too many entries")
        assignments[id(definition)] = product
    return assignments


def _solve(definitions: list[_Definition], params: FormulaParams, env: _exact.Env) -> None:
    """Evaluate every definition (every entry of an indexed one) as soon as what it reads
    is known; recurrences settle step by step."""
    tasks: list[tuple[_Definition, dict[sympy.Symbol, int]]] = []
    ranges = _ranges(definitions, params, env)
    for definition in definitions:
        if definition.function is not None:  # evaluated where it is called
            name, parameters = definition.function
            env.functions[name] = (parameters, definition.relation.rhs)
        elif definition.indexed is None:
            tasks.append((definition, {}))
        else:
            env.arrays.setdefault(definition.name, _exact.Series())
            tasks += [(definition, at) for at in ranges[id(definition)]]
    missing: dict[int, str] = {}
    while tasks:
        waiting = []
        for definition, at in tasks:
            if definition.inverse:
                if not _invert(definition, env):
                    waiting.append((definition, at))
                    missing[id(definition)] = _open(definition, env) or definition.name
                continue
            try:
                value = _exact.evaluate(definition.relation.rhs, env, at)
            except _exact.Unknown as unknown:
                waiting.append((definition, at))
                missing[id(definition)] = unknown.name
                continue
            _store(definition, at, value, env)
        if len(waiting) == len(tasks):
            names = sorted({missing[id(d)] for d, _ in waiting})
            what = sorted({d.name for d, _ in waiting})
            raise ClaimError(f"cannot evaluate {', '.join(what)}: no value for {', '.join(names)}")
        tasks = waiting
    for definition in definitions:
        if definition.function is not None:
            try:  # at stated arguments (`t` in values), the function's value is a quantity
                value = _exact.evaluate(definition.relation.lhs, env)
            except _exact.Unknown:
                continue
            if not isinstance(value, _exact.Series):
                env.scalars.setdefault(sympy.Symbol(definition.name), value)


def _open(definition: _Definition, env: _exact.Env) -> str | None:
    """The one symbol of an inverse definition's right side still without a value."""
    missing = [s for s in definition.relation.rhs.free_symbols if s not in env.scalars]
    return missing[0].name if len(missing) == 1 else None


def _invert(definition: _Definition, env: _exact.Env) -> bool:
    """Solve a relation whose left side is stated for the one symbol it lacks (exactly
    for a polynomial in it; else numerically); False while more than that one lacks a
    value. Several solutions are narrowed to positive ones, or refused with all named."""
    name = _open(definition, env)
    if name is None:
        return False
    target = next(s for s in definition.relation.rhs.free_symbols if s.name == name)
    assert definition.symbol is not None
    known = {s: v for s, v in env.scalars.items() if s != target}
    difference = env.scalars[definition.symbol] - definition.ratio * definition.relation.rhs
    difference = difference.subs(known)
    found = solver.roots(difference, target, sympy.Integer(1))
    value, why = solver.choose(found, positive=True)
    if value is None:
        raise ClaimError(
            f"`{definition.relation.source.strip()}` solved for {name}: {why}", definition.offset
        )
    env.scalars[target] = _exact.settle(value) if value.is_Rational else value
    definition.solved = name
    return True


def _finite(value: Any, what: str, offset: int | None = None) -> Any:
    """`value`, unless it is undefined at the stated values (a division by zero gives
    SymPy's complex infinity): said plainly, where it is computed."""
    values = value.values() if isinstance(value, _exact.Series) else [value]
    for each in values:
        if isinstance(each, sympy.Basic) and each.has(sympy.zoo, sympy.oo, sympy.nan):
            raise ClaimError(
                f"{what} is undefined at the stated values (a division by zero, or an "
                "infinite or indeterminate result)",
                offset,
            )
    return value


def _store(
    definition: _Definition, at: dict[sympy.Symbol, int], value: Any, env: _exact.Env
) -> None:
    relation = f"`{definition.relation.source.strip()}`"
    value = _finite(value, relation, definition.offset)
    if definition.ratio != 1:  # `I_D` in µA from inputs in cm²/(V·s) and fF/µm²
        value = _exact.times(value, definition.ratio)
    if isinstance(value, _exact.Series):
        if definition.symbol is None:
            raise ClaimError(f"`{definition.relation.source.strip()}` gives a vector; index it")
        env.arrays[definition.symbol.name] = value  # `r = v - y`: a vector, entry by entry
    elif definition.symbol is not None:
        env.scalars[definition.symbol] = value
    elif definition.power is not None:
        base, exponent = definition.power
        env.powers[(base, exponent)] = value
        if base not in env.scalars and value.is_nonnegative is not False:
            env.scalars[base] = _exact.settle(sympy.Pow(value, 1 / exponent))
    else:
        assert definition.indexed is not None
        values = {letter: sympy.Integer(n) for letter, n in at.items()}
        key = tuple(int(index.xreplace(values)) for index in definition.indexed.indices)
        env.arrays[definition.name][key] = value


def _dependencies(definitions: list[_Definition]) -> dict[str, set[Ref]]:
    """Each defined name -> every relation its value was computed through."""
    names = {d.name: d for d in definitions}
    powers = {d.power[0].name: d for d in definitions if d.power is not None}
    found: dict[str, set[Ref]] = {}

    def read(definition: _Definition) -> list[_Definition]:
        rhs = definition.relation.rhs
        used = [str(s) for s in rhs.free_symbols] + [
            str(i.base.label) for i in rhs.atoms(sympy.Indexed)
        ]
        used += sorted(_called(rhs))
        return [names.get(u) or powers[u] for u in sorted(set(used)) if u in names or u in powers]

    def visit(definition: _Definition, seen: frozenset[str]) -> set[Ref]:
        if definition.name in found:
            return found[definition.name]
        refs = {definition.ref}
        for other in read(definition):
            if other.name not in seen and other is not definition:
                refs |= visit(other, seen | {definition.name})
        found[definition.name] = refs
        return refs

    for definition in definitions:
        visit(definition, frozenset())
        if definition.power is not None:
            found[definition.power[0].name] = found[definition.name]
    return found


@kind("formula", FormulaParams)
def run(params: FormulaParams, context: Context) -> Outcome:
    """Numbers the prose derives from the lesson's defining equations, computed exactly."""
    env = _values.environment(params.values, params.symbols)
    refs = _refs(params, context)
    indices = _indices(params, env, context, refs)
    imaginary = _imaginary(context, indices)
    definitions = _definitions(params, context, refs, indices, imaginary)
    expressions = {
        name: _prepared(parse_expression(latex, indices=indices, symbols=params.symbols), imaginary)
        for name, latex in params.expressions.items()
    }
    sides = [d.relation.rhs for d in definitions] + list(expressions.values())
    sides += [side for r in _identity_relations(params, context, indices, imaginary)
              for side in (r[1].lhs, r[1].rhs)]  # fmt: skip
    _rebase(params, env, sides)
    _overwritten(params, definitions)
    table, key = lesson_units(context.lesson), units_key(context.lesson)
    for definition in definitions:
        if definition.function is None:
            relation = definition.relation
            _same_zero(relation, key, definition.offset)
            definition.ratio = side_ratio(relation.lhs, relation.rhs, key)
    _infer_bounds(definitions, env, sides)
    _solve(definitions, params, env)
    outcome = Outcome(inputs=set(_values.names(params.values, params.symbols)))
    outcome.quantities.update({symbol.name: value for symbol, value in env.scalars.items()})
    outcome.quantities.update(env.arrays)
    for (base, exponent), value in env.powers.items():
        outcome.quantities[_power_name(base, exponent)] = value
    levels = _tabled_levels(table)
    for definition in definitions:
        outcome.relation(*definition.ref, "defined")
        known = table.get(definition.name)
        if definition.power is None and (known is None or known.units is None):
            # a symbol the table gives no unit: its relation's right side says which
            text = unit_text(definition.relation.rhs, key)
            if text is not None:
                outcome.units[definition.name] = text
            elif _level(definition.relation.rhs, {**levels, **outcome.units}):
                outcome.units[definition.name] = LEVEL
    outcome.depends = _dependencies(definitions)
    for definition in definitions:
        if definition.solved is not None:  # what an inverse definition solved for rests on it
            outcome.depends[definition.solved] = {definition.ref}
    _identities(params, context, indices, imaginary, env, outcome, key)
    named = set(_values.names(params.values, params.symbols))
    given = {symbol: value for symbol, value in env.scalars.items() if symbol.name in named}
    direct = {d.name: _unread.reads(d.relation.rhs) for d in definitions}  # what each reads
    direct |= {d.power[0].name: direct[d.name] for d in definitions if d.power is not None}
    for name, latex in params.expressions.items():
        expression = expressions[name]
        try:
            outcome.quantities[name] = _finite(
                _exact.evaluate(expression, env), f"expression {name!r}"
            )
        except _exact.Unknown as unknown:
            hint = _subscript_hint(latex)
            raise ClaimError(f"expression {name!r}: no value for {unknown.name}{hint}") from None
        if _literal(expression, latex):
            outcome.inputs.add(name)  # `six: "6"` restates a number; it computes nothing
        used = direct[name] = _unread.reads(expression)
        through = set().union(*(outcome.depends.get(u, set()) for u in used))
        outcome.depends[name] = _sensitivity.sensitive(expression, definitions, given, through)
        text = unit_text(expression, key)
        if text is not None:
            outcome.units[name] = text
        elif _level(expression, {**levels, **outcome.units}):
            outcome.units[name] = LEVEL
    unread = unread_units(context.lesson)
    outcome.unread = _unread.through(direct, unread) if unread else {}
    return outcome


def _same_zero(relation: Relation, key: Hashable, offset: int) -> None:
    """A side in K and one in °C differ by 273.15, not by a factor (an offset is not a
    ratio), so computing one from the other would give a number off by the zero: refused,
    as the dimension check refuses the relation (A420)."""
    found = zero_mismatch(relation.lhs, relation.rhs, key)
    if found is not None:
        left, right = found
        raise ClaimError(
            f"`{relation.source.strip()}`: the left side is in {left} and the right side in"
            f" {right}, temperatures with different zeros, so the claim does not compute one"
            " from the other; convert one of them (θ + 273.15 K for °C) or give both one unit",
            offset,
        )


def _overwritten(params: FormulaParams, definitions: list[_Definition]) -> None:
    """A stated value for a symbol a used relation defines would be replaced by what the
    relation computes, in silence, and the lesson's number bound to it would count as an
    input the claim fixed; so it is refused, unless the relation has exactly one other
    symbol without a value and no other relation defines it: then the relation is solved
    for that one (`Q = ṁ c_p ΔT` with Q, ṁ and c_p stated gives ΔT)."""
    defined = {str(d.symbol): d for d in definitions if d.symbol is not None}
    stated = set(_values.names(params.values, params.symbols))
    for key, name in zip(params.values, _values.names(params.values, params.symbols),
                         strict=True):  # fmt: skip
        definition = defined.get(name)
        if definition is None:
            continue
        rest = {s.name for s in definition.relation.rhs.free_symbols} - stated - set(defined)
        plain = not definition.relation.rhs.atoms(sympy.Indexed, AppliedUndef)
        if len(rest) == 1 and plain and definition.indexed is None:
            definition.inverse = True
            continue
        equation, relation = definition.ref
        raise ClaimError(
            f"values.{key}: {key} is what equation {equation} relation {relation} "
            f"`{definition.relation.source.strip()}` computes, so the value given here would "
            "be replaced; drop it from `values` (the relation computes it), or drop the "
            "relation from `use` and check it under `identities`",
            pointer=f"/params/values/{key}",
        )


def _tabled_levels(table: dict[str, Any]) -> dict[str, str]:
    """Symbols whose table unit names a level (`dimensionless (decibels)`)."""
    return {name: LEVEL for name, spec in table.items() if names_level(spec.text)}


def _level(expression: sympy.Basic, levels: dict[str, str] | None = None) -> bool:
    """A number times a logarithm (`20\\log_{10} G`, `10\\log_{10}(P/P_0)`), a number times
    a quantity already known to be a level, or a sum of levels (`20\\log_{10}(kG) - G_dB`)."""
    if isinstance(expression, sympy.Add):
        return all(_level(term, levels) for term in expression.args)
    factors = sympy.Mul.make_args(expression)
    known = levels or {}
    named = [f for f in factors if isinstance(f, sympy.Symbol) and known.get(f.name) == LEVEL]
    logs = [f for f in factors if isinstance(f, sympy.log)] + named
    rest = [f for f in factors if f not in logs]
    return len(logs) == 1 and all(getattr(f, "is_number", False) for f in rest)


_NUMERAL = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)|\\[dt]?frac\{\d+\}\{\d+\}")


def _literal(expression: sympy.Basic, latex: str) -> bool:
    """A number written as it is (`6`, `0.5`, `\\frac{1}{2}`, `6\\,\\mathrm{m}`): nothing is
    computed, so a prose number bound to it is an input. `2^{10}`, `\\ln 10` or `\\frac{A \\cdot
    2f}{A f}` compute (SymPy cancels the last to 2, but the author wrote symbols)."""
    if isinstance(expression, WithUnit):
        expression = expression.value
    written = re.sub(r"\\(?:mathrm|text|operatorname)\{[^{}]*\}|\\[,;!]|\s", "", latex)
    return bool(getattr(expression, "is_Number", False)) and bool(_NUMERAL.fullmatch(written))


_BARE_SUBSCRIPT = re.compile(r"(?<![\\A-Za-z])([A-Za-z])_([A-Za-z]{2,})")


def _subscript_hint(latex: str) -> str:
    """LaTeX subscripts one token: `T_ref` is T_r times e times f. Say so, with the fix."""
    found = _BARE_SUBSCRIPT.search(latex)
    if found is None:
        return ""
    letter, rest = found.groups()
    return (
        f" (`{found.group()}` reads as {letter}_{rest[0]}·{'·'.join(rest[1:])}, since a"
        f" subscript is one letter unless braced: write `{letter}_{{{rest}}}`)"
    )


def _identity_relations(
    params: FormulaParams, context: Context, indices: list[str], imaginary: frozenset[str]
) -> list[tuple[RelationRef, Relation, Math]]:
    found = []
    for ref in params.identities:
        declared = EquationRef(equation=ref.equation, indices=indices, symbols=params.symbols)
        math, parsed = relations(declared, context)
        if not 0 <= ref.relation < len(parsed):
            raise ClaimError(
                f"equation {ref.equation} has {len(parsed)} relations; no index {ref.relation}"
            )
        found.append((ref, _relation(parsed[ref.relation], imaginary), math))
    return found


def _identities(
    params: FormulaParams,
    context: Context,
    indices: list[str],
    imaginary: frozenset[str],
    env: _exact.Env,
    outcome: Outcome,
    key: Hashable,
) -> None:
    for ref, stated, math in _identity_relations(params, context, indices, imaginary):
        free = sorted(
            {i for side in (stated.lhs, stated.rhs) for n in side.atoms(sympy.Indexed)
             for i in n.indices if isinstance(i, sympy.Symbol)}, key=str)  # fmt: skip
        assignments: list[dict[sympy.Symbol, int]] = [{}]
        for letter in free:
            values = params.steps.get(str(letter)) or sorted(
                {k[0] for array in env.arrays.values() for k in array}
            )
            assignments = [{**a, letter: v} for a in assignments for v in values]
        worst = ""
        holds = True
        _same_zero(stated, key, math.offset + stated.start)
        ratio = side_ratio(stated.lhs, stated.rhs, key)
        written = (
            _values.written_precision(stated.source, stated.lhs, stated.rhs, ratio)
            if stated.op == "approx"
            else 0
        )
        for at in assignments[:MAX_ELEMENTS]:
            try:
                left = _exact.evaluate(stated.lhs, env, at)
                right = _exact.evaluate(stated.rhs, env, at)
                if ratio != 1 and not isinstance(right, _exact.Series):
                    right = _exact.settle(right * ratio)
            except _exact.Unknown as unknown:
                raise ClaimError(
                    f"`{stated.source.strip()}`: no value for {unknown.name}",
                    math.offset + stated.start,
                ) from None
            if not _values.same(left, right, stated.op, written):
                holds, worst = False, f"{show(left)} vs {show(right)}"
                break
            worst = worst or f"{show(left)} vs {show(right)}"
        outcome.relation(ref.equation, ref.relation, "verified" if holds else "failed")
        outcome.check(
            f"identity-{ref.equation}-{ref.relation}",
            holds,
            f"`{stated.source.strip().lstrip('&')}` at the stated values: {worst}",
            math.offset + stated.start,
        )
