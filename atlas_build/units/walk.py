"""The dimension of a SymPy tree, in the lesson's units, with findings along the way.

Each node gives a `UnitProduct` (known), `None` (unknown: a symbol without a
unit, an unlisted function, or a part already found inconsistent) or `ANY`
(0 and infinities, which fit every dimension). Unknowns are reported once per
name and make a relation "not checked"; they are never guessed. The parser's own
node classes (`Transposed`, `WithUnit`) are recognised by name, so this package
does not import the parser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.function import AppliedUndef

from . import functions as roles
from .affine import (
    combine,
    interval,
    is_point,
    problem_units,
    settle,
    shared_shift,
    split_weight,
)
from .certainty import AGREE, DIFFER, compare, period_between, why_uncertain
from .findings import AFFINE, ARGUMENT, EXPONENT, SCALE, TERMS, UNCERTAIN, UNKNOWN, Finding
from .grammar import UnitSyntaxError, read_unit
from .nouns import noun
from .product import ONE, UnitProduct
from .spec import UnitSpec, lookup

MAX_DEPTH = 150
SUM = "terms of a sum"
MAX_DENOMINATOR = 1000


class _Any:
    """The dimension of 0 and ±∞: compatible with every other."""

    def __repr__(self) -> str:
        return "ANY"


ANY = _Any()
Value = UnitProduct | _Any | None
WILDCARDS = (sympy.S.Zero, sympy.S.Infinity, sympy.S.NegativeInfinity, sympy.S.ComplexInfinity)


@dataclass(frozen=True)
class Place:
    """Where a node lies: which side of the relation and which direct term of it."""

    side: str | None = None
    term: sympy.Basic | None = None
    term_index: int | None = None


def _show(expr: sympy.Basic) -> str:
    try:
        text = sympy.sstr(expr)
    except Exception:  # noqa: BLE001 - SymPy printers fail on some objects (`Differential`)
        text = type(expr).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _format(value: Value) -> str:
    return value.format() if isinstance(value, UnitProduct) else "unknown"


class Walker:
    """Computes units bottom-up and records findings; one walker per relation."""

    def __init__(self, units: Mapping[str, UnitSpec]) -> None:
        self.units = units
        self.findings: list[Finding] = []
        self._unknown: set[str] = set()
        self._depth = 0
        self._levels = 0  # inside 10·log₁₀(…) or 20·log₁₀(…): a level in decibels
        self._differentiated = 0  # inside ∂/∂x(…): log I and log(I/I₀) differ by a constant
        self._fitted = 0  # in `a + b log₁₀ M`: an empirical law fitted for M in its table unit

    def error(self, kind: str, message: str, expr: sympy.Basic, place: Place, **extra: str) -> None:
        self.findings.append(
            Finding(kind, message, expr, place.side, place.term, place.term_index, **extra)
        )

    def unknown(self, key: str, message: str, expr: sympy.Basic, place: Place) -> None:
        if key not in self._unknown:
            self._unknown.add(key)
            self.error(UNKNOWN, message, expr, place)

    def side(self, expr: sympy.Basic, side: str, prefer: object = None) -> Value:
        """Walk one side; a sum's direct terms are remembered for locating findings.

        `prefer` (the other side's dimension) settles which terms are at fault
        when the terms split evenly.
        """
        if isinstance(expr, sympy.Add):
            places = [Place(side, term, k) for k, term in enumerate(expr.args)]
            return self._terms(expr, list(expr.args), places, SUM, prefer)
        return self.value(expr, Place(side))

    def value(self, expr: sympy.Basic, place: Place) -> Value:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                self.unknown("<depth>", "expression too deep to check", expr, place)
                return None
            return self._dispatch(expr, place)
        finally:
            self._depth -= 1

    def _dispatch(self, expr: sympy.Basic, place: Place) -> Value:
        if expr in WILDCARDS or expr is sympy.S.NaN:
            return ANY
        if isinstance(expr, sympy.Symbol):
            return self._spec(lookup(self.units, expr.name), expr.name, expr, place)
        if isinstance(expr, sympy.Indexed):
            name = str(expr.base)
            return self._spec(lookup(self.units, name, expr.indices), name, expr, place)
        if isinstance(expr, sympy.Number | sympy.NumberSymbol) or expr is sympy.I:
            return ONE
        if type(expr).__name__ == "WithUnit":
            return self._with_unit(expr, place)
        if isinstance(expr, sympy.Add):
            return self._terms(expr, list(expr.args), [place] * len(expr.args), SUM)
        if isinstance(expr, sympy.Mul):
            level = roles.decibels(expr)
            self._levels += level
            shifted = shared_shift(expr)
            try:
                values = [self._factor(arg, place, shifted) for arg in expr.args]
            finally:
                self._levels -= level
            negation = len(expr.args) == 2 and sympy.S.NegativeOne in expr.args
            if not negation:
                for arg, value in zip(expr.args, values, strict=True):
                    if arg.as_base_exp()[0] not in shifted:
                        self._scaled_affine(arg, value, place, "multiplied")
            return self._product(values)
        if isinstance(expr, sympy.Pow):
            return self._power(expr, place)
        if isinstance(expr, sympy.Derivative):
            return self._derivative(expr, place)
        if isinstance(expr, sympy.Integral):
            result = self.value(expr.function, place)
            for limit in expr.limits:
                result = self._product([result, self.value(limit[0], place)])
            return result
        if isinstance(expr, sympy.Product):
            return self._repeated_product(expr, place)
        if isinstance(expr, ExprWithLimits | sympy.Limit):
            return self.value(expr.args[0], place)
        if isinstance(expr, sympy.Piecewise):
            branches = [branch.expr for branch in expr.args]
            return self._terms(expr, branches, [place] * len(branches), "branches")
        if isinstance(expr, sympy.Function | sympy.Max | sympy.Min):
            return self._function(expr, place)
        self.unknown(_show(expr), f"cannot tell the unit of {_show(expr)}", expr, place)
        return None

    def _factor(self, arg: sympy.Basic, place: Place, shifted: frozenset[sympy.Basic]) -> Value:
        """A factor's unit; a sum of a ratio of sums sharing a shift is its interval."""
        base, power = arg.as_base_exp()
        if base not in shifted:
            return self.value(arg, place)
        value = self.value(base, place)
        if not isinstance(value, UnitProduct):
            return value
        return settle((interval(value) if is_point(value) else value) ** power)

    def _scaled_affine(self, arg: sympy.Basic, value: Value, place: Place, how: str) -> None:
        """°C and °F have their zero elsewhere than 0 K, so a value in them cannot be
        multiplied or raised (P V = n R θ with θ in °C is wrong by 273.15 K); nor can a
        sum that is still one (θ − ΔT)."""
        if not is_point(value) or isinstance(arg, sympy.Mul | sympy.Pow):
            return  # a product or power holding one is judged at its own factors
        shown = f"({_show(arg)})" if isinstance(arg, sympy.Add) else _show(arg)
        message = (
            f"{shown} is in {value}, a scale whose zero is not absolute zero: it cannot be"
            f" {how}; convert it to kelvin first ({shown} + 273.15 K for °C)"
        )
        self.error(AFFINE, message, arg, place, left=value.format())

    def _spec(self, spec: UnitSpec | None, name: str, expr: sympy.Basic, place: Place) -> Value:
        """A symbol's table unit. One named as a difference (`\\Delta T`, `\\Delta\\theta`)
        is an interval even in °C, and a unit holding °C (`°C/W`) one of intervals."""
        if spec is None:
            self.unknown(name, f"{name} has no unit in the glossary", expr, place)
            return None
        if spec.units is None:
            self.unknown(name, f"the unit of {name} is not specified ({spec.text})", expr, place)
            return None
        if is_point(spec.units) and name.startswith(("Delta", "delta", "Δ")):
            return interval(spec.units)
        return settle(spec.units)

    def _with_unit(self, expr: sympy.Basic, place: Place) -> Value:
        value, unit = expr.args[0], expr.args[1]
        text = unit.name if isinstance(unit, sympy.Symbol) else str(unit)
        try:
            units = read_unit(text, nouns=noun)  # `\mathrm{dB}`, `\text{bytes/rank}`
        except UnitSyntaxError as error:
            message = f"cannot read the unit {text!r}: {error.message}"
            self.unknown(f"unit:{text}", message, expr, place)
            return None
        return self._product([self.value(value, place), units])

    def _product(self, values: Sequence[Value]) -> Value:
        result = ONE
        wildcard = False
        for value in values:
            if value is None:
                return None
            if isinstance(value, _Any):
                wildcard = True
            else:
                result = result * value
        return ANY if wildcard else settle(result)

    def _terms(
        self,
        expr: sympy.Basic,
        terms: Sequence[sympy.Basic],
        places: Sequence[Place],
        what: str,
        prefer: object = None,
    ) -> Value:
        """Terms that must share one dimension; the largest agreeing group is the reference
        (on a tie, the group with dimension `prefer`, else the first)."""
        weights, values = [], []
        fit = int(what == SUM and any(roles.fitted(term) for term in terms))
        self._fitted += fit
        try:
            for term, where in zip(terms, places, strict=True):
                weight, rest = split_weight(term) if what == SUM else (sympy.Integer(1), term)
                values.append(self.value(rest, where))  # c·θ is judged by its weight c
                weights.append(weight)
        finally:
            self._fitted -= fit
        known = [(k, v) for k, v in enumerate(values) if isinstance(v, UnitProduct)]
        groups: dict[object, list[int]] = {}
        for k, value in known:
            groups.setdefault(value.dimension.checked, []).append(k)
        if len(groups) > 1:
            preferred = groups.get(prefer)
            reference = max(groups.values(), key=lambda group: (len(group), group is preferred))
            first = values[reference[0]]
            for k, value in known:
                if k not in reference and isinstance(first, UnitProduct):
                    self._disagree(TERMS, what, terms, (k, reference[0]), (value, first),
                                   places[k])  # fmt: skip
            return None
        if len({value.scale for _, value in known}) > 1:
            self._scales(what, terms, known, places)
        if any(value is None for value in values):
            return None
        if not known:
            return ANY
        return self._zero(expr, terms, weights, known, places, what)

    def _disagree(
        self,
        kind: str,
        what: str,
        terms: Sequence[sympy.Basic],
        at: tuple[int, int],
        units: tuple[UnitProduct, UnitProduct],
        place: Place,
    ) -> None:
        """Terms (or arguments, branches) of two dimensions: an error, or not certain."""
        (k, j), (value, first) = at, units
        verdict = compare(value, first)
        shown = f"{_show(terms[k])} is {_format(value)}, {_show(terms[j])} is {_format(first)}"
        if verdict == DIFFER and what == SUM and (period := period_between(value, first)):
            # `ln(1 + r)` with r a rate per year: one year's growth, the period left unwritten
            message = f"{what} differ: {shown}; a rate per {period} added to one {period}'s worth"
            self.error(UNCERTAIN, message, terms[k], place)
        elif verdict == DIFFER and what == SUM and value.levels and first.levels:
            # `−174 dBm/Hz + NF + 10 log₁₀ B`: levels add in decibels, and the level of a
            # density (dBm/Hz) takes its per-hertz back from the bandwidth's level, dB(Hz)
            message = f"{what} differ: {shown}; levels in decibels, whose references may differ"
            self.error(UNCERTAIN, message, terms[k], place)
        elif verdict == UNCERTAIN:
            message = f"{what} differ: {shown}; {why_uncertain(value, first)}"
            self.error(UNCERTAIN, message, terms[k], place)
        elif verdict == DIFFER:
            self.error(kind, f"{what} differ: {shown}", terms[k], place,
                       left=_format(value), right=_format(first))  # fmt: skip

    def _scales(
        self,
        what: str,
        terms: Sequence[sympy.Basic],
        known: Sequence[tuple[int, UnitProduct]],
        places: Sequence[Place],
    ) -> None:
        """Terms of one dimension in units of other sizes (ns and µs): right physics, so a
        note, not an error; claims computing in the table's units take care of the factor."""
        first_k, leading = known[0]
        for k, value in known[1:]:
            if value.scale != leading.scale:
                message = (
                    f"{what} differ in scale: {_show(terms[k])} is {_format(value)},"
                    f" {_show(terms[first_k])} is {_format(leading)}"
                    + _percent_hint(value, leading)
                )
                self.error(SCALE, message, terms[k], places[k],
                           left=_format(value), right=_format(leading))  # fmt: skip

    def _zero(
        self,
        expr: sympy.Basic,
        terms: Sequence[sympy.Basic],
        weights: Sequence[sympy.Expr],
        known: Sequence[tuple[int, UnitProduct]],
        places: Sequence[Place],
        what: str,
    ) -> Value:
        """What terms of one unit make when some are °C points (`affine.combine`)."""
        values = [value for _, value in known]
        picked = [weights[k] for k, _ in known], [terms[k] for k, _ in known]
        result, problem = combine(values, *picked, summed=what == SUM)
        if problem is None:
            return result
        where = places[0] if len(set(places)) == 1 else Place(places[0].side)
        message = f"{_show(expr) if what == SUM else what} {problem}"
        self.error(AFFINE, message, expr, where, **problem_units(values))
        return None

    def _power(self, expr: sympy.Pow, place: Place) -> Value:
        base, exponent = expr.args
        base_value = self.value(base, place)
        self._scaled_affine(base, base_value, place, "raised to a power")
        exponent_value = self.value(exponent, place)
        if isinstance(exponent_value, UnitProduct) and compare(exponent_value) != AGREE:
            message = (
                f"the exponent {_show(exponent)} must be dimensionless; it is {exponent_value}"
            )
            self._pure(EXPONENT, message, exponent_value, exponent, place)
            return None
        if not isinstance(base_value, UnitProduct):
            return base_value
        power = exponent
        if isinstance(exponent, sympy.Float):
            exact = Fraction(float(exponent)).limit_denominator(MAX_DENOMINATOR)
            power = sympy.Rational(exact.numerator, exact.denominator)
        if isinstance(power, sympy.Rational):
            return settle(base_value**power)
        if compare(base_value) == AGREE:
            return ONE
        if exponent.free_symbols:  # (V_DD − V_t)^κ: an empirical law's unit depends on κ
            message = (
                f"{_show(base)} is {base_value}, raised to {_show(exponent)}: its unit depends"
                f" on the value of {_show(exponent)}, so it is not certain"
            )
            self.error(UNCERTAIN, message, expr, place)
            return None
        message = (
            f"{_show(base)} is {base_value}: a power of a dimensioned quantity needs a"
            f" rational exponent, not {_show(exponent)}"
        )
        self._pure(EXPONENT, message, base_value, expr, place)
        return None

    def _pure(
        self, kind: str, message: str, value: UnitProduct, expr: sympy.Basic, place: Place
    ) -> None:
        """`value` should be a pure number and is not: an error, or not certain when a
        descriptive unit makes it so."""
        if compare(value) == UNCERTAIN:
            self.error(UNCERTAIN, f"{message}; {why_uncertain(value)}", expr, place)
        else:
            self.error(kind, message, expr, place, left=value.format())

    def _derivative(self, expr: sympy.Derivative, place: Place) -> Value:
        self._differentiated += 1
        try:
            result = self.value(expr.expr, place)
        finally:
            self._differentiated -= 1
        for variable, count in expr.variable_count:
            step = self.value(variable, place)
            if isinstance(step, UnitProduct) and not isinstance(count, sympy.Integer):
                if not step.dimension.checked.is_dimensionless:
                    message = f"derivative order {count} of a dimensioned variable"
                    self.error(EXPONENT, message, expr, place)
                    return None
                continue
            if isinstance(step, UnitProduct):
                step = step**count
            result = self._product([result, self._inverse(step)])
        return result

    def _inverse(self, value: Value) -> Value:
        return ONE / value if isinstance(value, UnitProduct) else value

    def _repeated_product(self, expr: sympy.Product, place: Place) -> Value:
        body = self.value(expr.function, place)
        if not isinstance(body, UnitProduct) or body.dimension.checked.is_dimensionless:
            return ONE if isinstance(body, UnitProduct) else body
        key = _show(expr)
        self.unknown(key, f"a product over a range of {body} terms has no fixed unit", expr, place)
        return None

    def _function(self, expr: sympy.Basic, place: Place) -> Value:
        name = type(expr).__name__
        args = list(expr.args)
        role = roles.role_of(name)
        if isinstance(expr, AppliedUndef) and name in self.units and role is None:
            if roles.preserving(self.units[name].units):  # fl(·): same units as the operands
                return self._terms(expr, args, [place] * len(args), f"arguments of {name}")
            for arg in args:
                self.value(arg, place)
            return self._spec(self.units[name], name, expr, place)  # f(x) with f's own unit
        if role is None:
            for arg in args:
                self.value(arg, place)
            self.unknown(f"{name}()", f"no unit is known for the function {name}", expr, place)
            return None
        if role in (roles.PRESERVE, roles.RATIO):
            result = self._terms(expr, args, [place] * len(args), f"arguments of {name}")
            return ONE if role == roles.RATIO and result is not None else result
        values = [self.value(arg, place) for arg in args]
        if role == roles.DIMENSIONLESS_IN:
            level: Value = ONE
            for arg, value in zip(args, values, strict=True):
                if not isinstance(value, UnitProduct) or roles.angle_of(name, value):
                    continue  # sin θ with θ in degrees: an angle is what sin takes
                if compare(value) != AGREE:
                    message = f"the argument of {name} must be dimensionless; it is {value}"
                    if self._levels and roles.logarithm(name) and compare(value) == DIFFER:
                        message += f"; {roles.LEVEL_CONVENTION}"
                        self.error(UNCERTAIN, message, arg, place)
                        level = None  # 10 log₁₀ B is in dB(Hz): no unit to compare further
                    elif roles.logarithm(name) and roles.concentration(arg, value):
                        self.error(UNCERTAIN, f"{message}; {roles.VALUE_CONVENTION}", arg, place)
                    elif self._fitted and roles.logarithm(name) and roles.lone(arg):
                        self.error(UNCERTAIN, f"{message}; {roles.FIT_CONVENTION}", arg, place)
                    elif self._differentiated and roles.logarithm(name):
                        message += (
                            "; but it is differentiated, and the derivative of log x is that "
                            "of log(x/x₀) for any reference x₀"
                        )
                        self.error(UNCERTAIN, message, arg, place)
                    else:
                        self._pure(ARGUMENT, message, value, arg, place)
                elif value.scale != 1:
                    message = (
                        f"the argument of {name} is {value}, a pure number only up to the "
                        f"factor {sympy.sstr(sympy.nsimplify(value.scale))}: write its units "
                        "so that they cancel"
                    )
                    self.error(SCALE, message, arg, place, left=value.format())
            return level
        if role == roles.DIMENSIONLESS_OUT:
            return ONE
        if role == roles.SQUARE:
            return self._product([values[0], values[0]]) if values else None
        if role == roles.PRODUCT:
            return self._product(values)
        return self._inverse(values[0]) if values else None


def _percent_hint(*values: UnitProduct) -> str:
    """A symbol in `%` multiplies as its number (5 for 5%), which is what puts a sum off by
    100; the fix authors look for is a fraction, with the prose keeping its percent."""
    if not any(atom.text == "%" for value in values for atom, _ in value.atoms()):
        return ""
    return (
        " (a symbol in % enters as its number, 5 for 5%: give it the unit dimensionless and"
        " its value as a fraction, 0.05; the prose may still write 5%)"
    )
