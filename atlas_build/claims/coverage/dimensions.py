"""Dimensional checks of every relation, from the lesson's own symbol table.

The units come from the "Symbols and units" blocks (`lesson_units`: names as the lesson
model reads them, units read by `atlas_build.units`). Every relation that parses is then
checked (`units.check`): both sides of `=`, `≈`, `<` and every term of a sum share one
dimension, arguments of `exp`, `log`, `sin`, `softmax` are dimensionless, and powers of
dimensioned quantities are rational. Each relation gets a dimension status:

- `consistent`: every symbol has a unit and everything agrees;
- `inconsistent`: something disagrees (an A420 error at the relation, both sides spelled
  out in the lesson's units: "left side V, right side V·K/J");
- `incomplete`: some symbols have no unit, so the relation is only partly checked (those
  symbols are listed once per lesson, A422, never guessed);
- `not checked`: the relation is unreadable, or a disagreement in it is not certain (`units.
  certainty`: it runs through a descriptive unit such as `value units`, a side is a bare
  number whose constant may carry the unit, or it is set notation), with that reason.

An error is only what is certain: counts (`samples`, `jobs`, bits) are numbers, and terms
of one dimension in units of other sizes (ns and µs) are right physics, not A420.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from functools import lru_cache
from typing import Any

import sympy
from sympy.core.function import AppliedUndef

from atlas_build import units
from atlas_build.lesson import names as naming
from atlas_build.lesson.model import Lesson
from atlas_build.units.spec import UNIT

STATUSES = ("consistent", "inconsistent", "incomplete", "not checked")


Pairs = tuple[tuple[tuple[str, str], tuple[str, ...]], ...]


def _pairs(lesson: Lesson) -> Pairs:
    """The tables' (symbol, unit) -> names, kept with the lesson for the entries it was read
    from: claims and coverage ask for it tens of thousands of times in a long check."""
    key = tuple((id(g.entries), len(g.entries)) for g in lesson.glossaries)
    memo = lesson.__dict__.get("_table_pairs")
    if memo is not None and memo[0] == key:
        return memo[1]
    found = tuple(
        ((entry.symbol, entry.unit), tuple(entry.names))
        for glossary in lesson.glossaries
        for entry in glossary.entries
        if entry.names and not _the_constant(tuple(entry.names), entry.meaning)
    )
    held = [g.entries for g in lesson.glossaries]  # the lists whose ids are the key
    lesson.__dict__["_table_pairs"] = (key, found, held)
    return found


_CONSTANTS: dict[tuple[str, ...], re.Pattern[str]] = {
    ("pi",): re.compile(r"constant|circle|archimedes|3\.14", re.IGNORECASE),
    ("e",): re.compile(r"euler|napier|natural log|2\.718", re.IGNORECASE),
}


def _the_constant(names: tuple[str, ...], meaning: str) -> bool:
    r"""An entry explaining π (`Circle constant`) or e (`Euler's number`): the constant, not
    a symbol of the lesson, so `\pi d^2/4` keeps π's value. π as a prevalence is a symbol."""
    pattern = _CONSTANTS.get(names)
    return pattern is not None and bool(pattern.search(meaning or ""))


@lru_cache(maxsize=64)
def _read(pairs: tuple[tuple[tuple[str, str], tuple[str, ...]], ...]) -> units.GlossaryUnits:
    named = dict(pairs)
    return units.units_from_glossary(
        [pair for pair, _ in pairs], names=lambda text: list(_names(named, text))
    )


def _names(named: dict[tuple[str, str], tuple[str, ...]], text: str) -> tuple[str, ...]:
    for (symbol, _), names in named.items():
        if symbol == text:
            return names
    return ()


def named(lesson: Lesson) -> frozenset[str]:
    """Every symbol name the lesson's tables list, whether or not its unit reads."""
    return frozenset(name for _, names in _pairs(lesson) for name in names)


def lesson_units(lesson: Lesson) -> dict[str, units.UnitSpec]:
    """Symbol name -> unit, for every glossary entry whose unit reads, and under the
    variant spelling of its Greek letter too (`phi` for `\\varphi`) unless the table
    names that one itself."""
    return _with_variants(_pairs(lesson))


def unread_units(lesson: Lesson) -> dict[str, str]:
    """Symbol name -> the unit text of its table entry, for every symbol no table gives a
    unit that reads (A421: `nh` for nH). Its numbers cannot be converted, and what is
    computed from it has an unknown factor in it."""
    return dict(_unread(_pairs(lesson)))


@lru_cache(maxsize=64)
def _unread(pairs: Pairs) -> tuple[tuple[str, str], ...]:
    table = _with_variants(pairs)
    found: dict[str, str] = {}
    for (_, unit), names in pairs:
        for name, (text, _) in zip(names, units.unit_parts(len(names), unit), strict=True):
            if name not in table and text:
                found.setdefault(name, text)
    return tuple(found.items())


def units_key(lesson: Lesson) -> Hashable:
    """What `lesson_units` depends on, hashable: a key for memoising unit lookups."""
    return _pairs(lesson)


@lru_cache(maxsize=8192)
def side_ratio(lhs: Any, rhs: Any, key: Hashable) -> Any:
    """`units.side_ratio` in the lesson's units, memoised: every claim of a lesson (and
    every copy of it) asks for the same relations."""
    return units.side_ratio(lhs, rhs, _with_variants(key))


@lru_cache(maxsize=8192)
def zero_mismatch(lhs: Any, rhs: Any, key: Hashable) -> tuple[str, str] | None:
    """`units.zero_mismatch` in the lesson's units, memoised like `side_ratio`."""
    return units.zero_mismatch(lhs, rhs, _with_variants(key))


@lru_cache(maxsize=8192)
def unit_text(expr: Any, key: Hashable) -> str | None:
    """The unit worked out for `expr` from the lesson's units, as text; None for none or
    a pure number (which says nothing of units)."""
    unit = units.unit_of(expr, _with_variants(key))
    return unit.format() if unit is not None and any(unit.atoms()) else None


@lru_cache(maxsize=64)
def _with_variants(
    pairs: tuple[tuple[tuple[str, str], tuple[str, ...]], ...],
) -> dict[str, units.UnitSpec]:
    table = dict(_read(pairs).units)
    for name, spec in list(table.items()):
        for other in naming.variants(name):
            table.setdefault(other, spec)
    return table


def declared(table: dict[str, units.UnitSpec]) -> list[str]:
    """Names the parser would read as constants or functions that the lesson's table
    makes symbols (`I` a current, not the imaginary unit; `e` a charge; `h` in W/(m²·K)
    a quantity, so `h(A_b + η_f A_f)` multiplies as `a(b + c)` does, while `h(t)` is
    still applied): the constants, every name the table gives a physical unit, and every
    acronym it names, whatever its unit (`2\\,\\mathrm{TL}` is twice a sonar's transmission
    loss in dB, not 2 teralitres)."""
    quantities = (name for name, spec in table.items() if spec.kind == UNIT)
    acronyms = (n for n in table if len(n) > 1 and n.isascii() and n.isalpha() and n.isupper())
    constants = (name for name in ("pi", "e", "E", "I") if name in table)
    return sorted({*constants, *quantities, *acronyms})


def unit_of_symbols(relation: Any, named: frozenset[str]) -> bool:
    """Whether a number of the relation carries a "unit" that is symbols of the lesson's
    tables (`0.664\\,\\mathrm{Re}_L^{1/2}\\,\\mathrm{Pr}^{1/3}`: the Reynolds and Prandtl
    numbers written upright, read as a unit after 0.664), so the relation computes without
    them. A subscripted name (`Re_L`), or one no unit reads, counts."""
    for side in (relation.lhs, relation.rhs):
        if not isinstance(side, sympy.Basic):
            continue
        for node in sympy.preorder_traversal(side):
            if type(node).__name__ != "WithUnit":
                continue
            for token in _UNIT_TOKEN.findall(node.unit):
                if token in named and ("_" in token or not _reads(token)):
                    return True
    return False


_UNIT_TOKEN = re.compile(r"[^\W\d_]+(?:_\w+)?")


def _reads(text: str) -> bool:
    try:
        units.units_of(text)
    except (units.UnitError, ValueError, TypeError):
        return False
    return True


def names(relation: Any) -> frozenset[str]:
    """The symbol and function names a relation uses."""
    found: set[str] = set()
    for side in (relation.lhs, relation.rhs):
        if isinstance(side, sympy.Basic):
            found.update(str(s.name) for s in side.atoms(sympy.Symbol, sympy.Indexed))
            found.update(type(f).__name__ for f in side.atoms(AppliedUndef))
    return frozenset(found)


_FITTED = re.compile(r"\b(?:coefficients?|constants?|parameters?|fit(?:ted)?)\b", re.IGNORECASE)


def fitted(lesson: Lesson) -> frozenset[str]:
    """Symbols written in a scale with another zero (°C), alone or in a power, that the
    glossary calls a coefficient, a constant or a fit parameter: `b — Magnus temperature
    coefficient — °C`, and the Callendar–Van Dusen `A — linear coefficient — 1/°C`, whose
    polynomial `R₀(1 + AT + BT²)` is fitted in °C."""
    table = lesson_units(lesson)
    found = set()
    for glossary in lesson.glossaries:
        for entry in glossary.entries:
            if not _FITTED.search(entry.meaning or ""):
                continue
            for name in entry.names:
                spec = table.get(name)
                if spec is not None and spec.units is not None and spec.units.affine:
                    found.add(name)
    return frozenset(found)


def empirical(found: dict[str, Any], relation: Any, fitted: frozenset[str]) -> dict[str, Any]:
    """`found` (what `check` says of `relation`), not checked where its only disagreement
    is a temperature scale's zero and the relation holds a coefficient fitted on that scale:
    `e_s = c·exp(aT/(b + T))` with T and b in °C is the Magnus form, not a slip for kelvin;
    nor where a temperature in °C is "multiplied" as the argument of a function the table
    names without one (`V_{F,s}(T_J)`, read as V_F,s × T_J)."""
    held = sorted(names(relation) & fitted)
    excused = found["status"] == "inconsistent" and bool(found.get("scale")) and bool(held)
    if not excused:
        return _doubted(found)
    message = (
        f"an empirical form on the °C scale ({', '.join(held)} fitted in °C): its zero is "
        "part of the fit, so the scale is not checked"
    )
    return {"status": "not checked", "message": message, "unknown": found["unknown"]}


def check(relation: Any, table: Mapping[str, units.UnitSpec]) -> dict[str, Any]:
    """The dimension status of one parsed relation, with what was compared."""
    try:
        findings = units.check(relation.lhs, relation.rhs, relation.op, table)
    except Exception as error:  # noqa: BLE001 - a SymPy-internal failure, told at the relation
        message = f"cannot check: {type(error).__name__}: {error}"
        return {"status": "not checked", "message": message, "unknown": []}
    errors = units.errors(findings)
    exempt = _needs_no_unit(relation, table)
    unknowns = [f for f in units.unknowns(findings) if _unknown_name(f) not in exempt]
    unknown = sorted({_unknown_name(f) for f in unknowns} - {""})
    uncertain = units.uncertain(findings)
    if uncertain and not errors:
        reason = "; ".join(dict.fromkeys(f.message for f in uncertain[:3]))
        return {"status": "not checked", "message": reason, "unknown": unknown}
    if errors:
        first = errors[0]
        found: dict[str, Any] = {
            "status": "inconsistent",
            "message": "; ".join(f.message for f in errors[:3]),
            "left": first.left,
            "right": first.right,
            "unknown": unknown,
        }
        if all(f.kind == units.AFFINE for f in errors):
            found["scale"] = True  # one dimension, but a temperature's zero disagrees
        if any(_as_argument(f, relation) for f in errors):
            found["argument"] = True
        if called := _called_symbols(relation, table):
            found["called"] = called  # `g_m\\left(r_{on}\\parallel R_L\\right)`: g_m of them
        return found
    skipped = sorted({_unknown_name(f) for f in units.unknowns(findings)} & exempt)
    if not unknowns and not skipped:
        return {"status": "consistent", "message": "", "unknown": []}
    constructs = [f.message for f in unknowns if not _unknown_name(f)]
    if skipped:  # no unit is asked for them, but the check could not go through them
        listed = ", ".join(skipped)
        constructs.append(
            f"not checked through {listed} (an index, a bound variable, √−1, or a member"
            " of a family whose symbol the table gives)"
        )
    message = "; ".join(dict.fromkeys(constructs[:3]))
    return {"status": "incomplete", "message": message, "unknown": unknown}


def _doubted(found: dict[str, Any]) -> dict[str, Any]:
    """`found`, not checked where the parser's reading of a bracket after a name is in
    doubt: a °C argument read as a factor (`argument`), or a factor read as a call
    (`called`, kept: read either way it disagrees one way, so it is not to compute with)."""
    if found["status"] != "inconsistent":
        return found
    if found.get("argument"):
        doubt = (
            "a temperature in °C here may be the argument of a function written before it"
            " (`V(T_J)`, read as a product)"
        )
    elif found.get("called"):
        names = ", ".join(found["called"])
        doubt = f"{names} written before a bracket may multiply it rather than apply to it"
    else:
        return found
    message = f"{found['message']}: {doubt}, so this is not certain"
    doubted = {"status": "not checked", "message": message, "unknown": found["unknown"]}
    if not found.get("argument"):
        doubted["called"] = found["called"]
    return doubted


_CALLED = re.compile(
    r"(\\?[A-Za-z]+)(?:_\{[^{}]{1,20}\}|_[A-Za-z0-9])?\s*\(\s*([^()]{1,40}?)\s*\)"
)  # `V_{F,s}(T_J)`: a name, its subscript, and a bracketed argument


def _called_symbols(relation: Any, table: Mapping[str, units.UnitSpec]) -> list[str]:
    """Symbols of the table, with a unit, that the relation applies as functions: the
    parser reads `g_m\\left(…\\right)` as g_m of its arguments, though a product is as
    likely, so a disagreement through one is not certain. A left side that is only a call
    (`e_s(T) = …`) names what is defined."""
    found = []
    sides = [relation.rhs] + ([] if isinstance(relation.lhs, AppliedUndef) else [relation.lhs])
    for side in sides:
        if isinstance(side, sympy.Basic):
            for call in side.atoms(AppliedUndef):
                name = type(call).__name__
                spec = table.get(name)
                if spec is not None and spec.units is not None and call.args:
                    found.append(name)
    return sorted(set(found))


def _as_argument(finding: units.Finding, relation: Any) -> bool:
    """Whether a temperature in °C is "multiplied" where it is the argument of a function
    the table names without one (`V_{F,s}(T_J)`, the forward voltage at T_J, read as
    V_F,s × T_J)."""
    if finding.kind != units.AFFINE or not isinstance(finding.expr, sympy.Symbol):
        return False
    base = str(finding.expr).split("_")[0]
    source = str(getattr(relation, "source", ""))
    right = source.split("=", 1)[-1]  # `e_s(T) = …` on the left names what is defined
    return any(
        base in found.group(2) and not found.group(1).startswith("\\")  # not `\left(`, `\ln(`
        for found in _CALLED.finditer(right)
    )


_INDEX = frozenset("ijklmn")  # (not `t`: a subscript t is an index, a factor t a time)
_LETTERS = re.compile(r"[A-Za-z]+")
_UNITS = frozenset({"km", "mm", "nm", "kl", "ml", "nl"})  # `d_km` is a distance in km


def _index(piece: str) -> bool:
    """A subscript that runs over a family (`naming.is_index`), not a unit (`d_km`)."""
    return naming.is_index(piece) and piece not in _UNITS


def _needs_no_unit(relation: Any, table: Mapping[str, units.UnitSpec]) -> frozenset[str]:
    """Names in `relation` A422 asks no unit for: variables a sum or product runs over
    (`n` in `\\sum_{n=0}^{N-1} x_n e^{-2\\pi i k n/N}`), index letters written as
    subscripts (`k` of `X_k`, `i` of `C_{i+1}`, `x[n]`), `i` or `j` multiplying π in an
    exponent (the imaginary unit), and a member `x_i` of a family whose symbol `x` the
    table gives a unit (the table has given it). An integral's variable keeps its unit
    (`dx`). Operators (`\\land`, `\\oplus`, `=`) are never named."""
    found: set[str] = set()
    sides = [side for side in (relation.lhs, relation.rhs) if isinstance(side, sympy.Basic)]
    for side in sides:
        for node in sympy.preorder_traversal(side):
            if isinstance(node, sympy.Sum | sympy.Product):
                found.update(str(variable) for variable in node.variables)
            elif isinstance(node, sympy.Indexed):
                for index in node.indices:
                    found.update(str(symbol) for symbol in index.free_symbols)
            elif isinstance(node, sympy.Symbol):
                base, pieces = naming.split(node.name)
                indices = [piece for piece in pieces if _index(piece)]
                for piece in indices:
                    found.update(_index_letters(piece))
                if indices and indices == list(pieces[-len(indices) :]):
                    stem = node.name[: node.name.rindex("_" + indices[0])]
                    if stem in table:  # `x_i` of the table's `x`
                        found.add(node.name)
            elif isinstance(node, sympy.exp) or (
                isinstance(node, sympy.Pow) and node.base is sympy.E
            ):
                factors = sympy.Mul.make_args(node.args[-1])
                if sympy.pi in factors:
                    found.update(str(f) for f in factors if f in (_I, _J))
    return frozenset(found)


_I, _J = sympy.Symbol("i"), sympy.Symbol("j")


def _index_letters(piece: str) -> set[str]:
    """The index letters a subscript runs over: `i` of `i+1`, `i` and `j` of `ij`."""
    found: set[str] = set()
    for word in _LETTERS.findall(piece):
        if len(word) <= 2 and set(word) <= _INDEX:
            found.update(word)
    return found


def _unknown_name(finding: units.Finding) -> str:
    """The symbol or function a glossary could give a unit (`k`, `x[n]`, `P`); "" for a
    construct no table entry is about (`\\cdots`, `⟹`, a unit that does not read), which
    the relation's message names instead of A422's list of symbols."""
    expr = finding.expr
    if isinstance(expr, sympy.Symbol | sympy.Indexed):
        return str(expr.name)
    if isinstance(expr, AppliedUndef):
        return type(expr).__name__
    return ""
