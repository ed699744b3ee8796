"""Quoted vs computed: one comparison for every shape of stated number."""

from __future__ import annotations

import decimal
import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sympy

from atlas_build.claims.binding.anchors import Precision
from atlas_build.claims.prose import numbers
from atlas_build.text import plural
from atlas_build.units import UnitError, convert, units_of

FLOAT_RELATIVE = 1e-9  # computed floats are compared to exact quotes within this, at least


@dataclass(frozen=True)
class OpenSlots:
    """Computed "slots N onward": every slot from `start` on."""

    start: int


@dataclass(frozen=True)
class Verdict:
    ok: bool
    quoted: str
    computed: str
    tolerance: str | None = None
    hint: str = ""  # the computed value rounded as the lesson writes it, on a mismatch
    unmarked: bool = False  # right to its written digits, but an exact value left unmarked


LONG = 48
"""Exact forms longer than this are shown by their value alone (`≈ 0.00574755`): a reader
skips `-1/100000000000000 + exp(1869206073/69032450)/100000000000000`."""


def show(value: Any) -> str:
    if isinstance(value, OpenSlots):
        return f"{value.start} onward"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(map(str, sorted(value))) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if hasattr(value, "tolist"):
        return show(value.tolist())
    if isinstance(value, sympy.Basic):
        return _show_basic(value)
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


@functools.lru_cache(maxsize=4096)
def _show_basic(value: sympy.Basic) -> str:
    """`show` of a SymPy value, remembered: a lesson shows the same computed values in
    several messages, and printing one is a SymPy tree walk."""
    exact = str(value)
    if value.is_Rational or value.is_Integer:
        if value.is_Integer:  # `1e999` in a claim is a thousand digits: show its size
            return exact if len(exact) <= LONG else f"≈ {_mantissa(value)}"
        decimal = f"{float(value):.6g}"
        return f"{exact} = {decimal}" if len(exact) <= LONG else f"≈ {decimal}"
    if value.is_number:
        approximate = sympy.N(value, 6)
        shown = f"{float(approximate):.6g}" if approximate.is_real else str(approximate)
        # complex: √ of a negative after an edit; a long exact form is not read, only skipped
        return f"{exact} ≈ {shown}" if len(exact) <= LONG else f"≈ {shown}"
    return exact


def _mantissa(value: sympy.Integer) -> str:
    """`≈ 1e+999`: a float would overflow, so the digits are counted instead."""
    digits = str(abs(int(value)))
    sign = "-" if value < 0 else ""
    lead = f"{digits[0]}.{digits[1:6]}".rstrip("0").rstrip(".")
    return f"{sign}{lead}e+{len(digits) - 1}"


def _number(value: Any) -> sympy.Expr | float:
    if isinstance(value, sympy.Basic):
        return value
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool):
        raise TypeError("a truth value is not a number")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, float):
        return value
    raise TypeError(f"cannot compare a number with {type(value).__name__}")


def close(quoted: sympy.Expr, computed: Any, tolerance: sympy.Expr | float) -> bool:
    """|quoted - computed| <= tolerance, in 50-digit arithmetic (quotes can exceed float64)."""
    value = _number(computed)
    allowed = sympy.Float(tolerance, 50)
    if isinstance(value, float):
        if not math.isfinite(value):
            return False
        allowed = max(allowed, sympy.Float(FLOAT_RELATIVE * max(1.0, abs(value)), 50))
        value = sympy.Float(value, 50)
    distance, exact = _distance(quoted, value)
    if exact:
        return bool(distance <= tolerance)
    return bool(distance <= max(allowed, sympy.Float("1e-40")))


@functools.lru_cache(maxsize=8192)
def _distance(quoted: sympy.Expr, value: sympy.Expr) -> tuple[sympy.Expr, bool]:
    """|quoted - value|, and whether that is exact (rational; else it is to 50 digits).
    Remembered: a lesson compares the same pair several times (with and without a unit,
    at the author's tolerance and at the written digits), and evaluating an expression of
    exponentials to 50 digits is most of a comparison. SymPy values are immutable and compare by
    type (`Float(2.0) != Integer(2)`), so a remembered answer is the answer."""
    difference = quoted - value
    if difference.is_Rational:
        return abs(difference), True
    return abs(sympy.N(difference, 50)), False


SLIP = 3  # an author's slip moves a result less than this factor, or by a decimal point


def far_off(stated: Any, computed: Any) -> bool:
    """Whether a computed value is too far from the stated one to be the author's slip: of
    the other sign, zero against nonzero, or more than `SLIP` times apart, unless exactly a
    decimal point apart (`3 × 4 = 120`). A typo moves one digit (`30 K` for 31 K), a
    slipped point a power of ten; what misses further is more likely a reading gone wrong
    (a unit the text does not write, a number bound to the wrong symbol: 11 of the 17
    false errors of blind batches 37-45), so it is no error."""
    try:
        a, b = float(stated), float(computed)
    except (TypeError, ValueError):
        return False
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    if a == 0 or b == 0:
        return a != b
    ratio = b / a
    if ratio < 0:
        return True
    if 1 / SLIP <= ratio <= SLIP:
        return False
    return not any(abs(ratio / 10.0**k - 1) < 0.02 for k in (-2, -1, 1, 2))


def terminating(value: Any) -> bool:
    """An exact value with a finite decimal expansion (1/4 = 0.25, not 1/3 or ln 3)."""
    if not isinstance(value, sympy.Rational):
        return False
    denominator = int(value.q)
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return denominator == 1


def auto_tolerance(
    quantity: numbers.Quantity,
    computed: Any,
    decimals: int | None,
    approximate: bool | Precision = False,
) -> sympy.Expr:
    """Exact terminating values must be written exactly unless the lesson marks an
    approximation; a precision stated in the sentence ("to five decimals", "to three
    significant figures") sets the tolerance; otherwise half a unit in the last written
    digit (of the finest number in the same list, since lists are written at one precision)."""
    exact = sympy.Integer(computed) if isinstance(computed, int) else computed
    stated = _stated(quantity, approximate) if isinstance(approximate, Precision) else None
    if stated is None and not (quantity.approx or approximate) and terminating(exact):
        return sympy.Integer(0)
    return digits_tolerance(quantity, decimals, approximate)


def digits_tolerance(
    quantity: numbers.Quantity, decimals: int | None = None, approximate: bool | Precision = False
) -> sympy.Expr:
    """How far the written digits say the number may be from the value: a stated precision,
    else half a unit in the last written digit (of the finest number of its list), with the
    trailing zeros of a hedged integer not counted. Zero for exact forms (`1/4`, `ln 3`)."""
    stated = _stated(quantity, approximate) if isinstance(approximate, Precision) else None
    if stated is not None:
        return stated
    if decimals is not None and quantity.decimals is not None and decimals > quantity.decimals:
        return sympy.Rational(1, 2) * sympy.Integer(10) ** (quantity.exponent - decimals)
    zeros = _trailing_zeros(quantity)
    if zeros and (quantity.approx or approximate):
        # `about 900 kHz` rounds to the hundreds: its zeros are not digits, as with a
        # stated number of significant figures
        return sympy.Rational(1, 2) * sympy.Integer(10) ** (quantity.exponent + zeros)
    return quantity.tolerance


def _trailing_zeros(quantity: numbers.Quantity) -> int:
    """Zeros ending an integer written without a decimal point (`900`: 2; `905`, `9.00`: 0)."""
    found = re.search(r"\d[\d,]*", quantity.text)
    digits = found.group().replace(",", "") if found else ""
    if quantity.decimals != 0 or not digits.isdigit() or not digits.strip("0"):
        return 0
    return len(digits) - len(digits.rstrip("0"))


def _stated(quantity: numbers.Quantity, precision: Precision) -> sympy.Expr | None:
    """The tolerance a stated precision gives `quantity`: never looser than its written
    digits (a phrase in the sentence cannot widen `ε = 10⁻⁵` or `0.00096`), except that
    the trailing zeros of an integer are not digits (`1100 to two significant figures`)."""
    half = sympy.Rational(1, 2)
    if precision.decimals is not None:
        stated = half * sympy.Integer(10) ** (-precision.decimals)
    else:
        # Places of the number as written (in its own unit, like every other tolerance
        # here: `_converted` scales it), so 0.458 ms to three figures allows ±0.0005 ms.
        place = _leading_place(quantity.value)
        if precision.significant is None or place is None:
            return None
        stated = half * sympy.Integer(10) ** (place - precision.significant + 1)
        if quantity.decimals == 0 and str(quantity.value).endswith("0"):
            return stated
    return min(stated, quantity.tolerance)


def _decimal(value: Any) -> decimal.Decimal | None:
    try:
        return _decimal_of(_number(value))
    except TypeError:
        return None


@functools.lru_cache(maxsize=8192)
def _decimal_of(number: sympy.Expr | float) -> decimal.Decimal | None:
    """`number` to 60 digits, remembered like `_distance` (the same written numbers and
    computed values are rounded and placed again and again)."""
    try:
        evaluated = sympy.N(number, 60)
        if not evaluated.is_finite or not evaluated.is_real:
            return None
        return decimal.Decimal(str(sympy.Float(evaluated, 60)))
    except (TypeError, ValueError, ArithmeticError, decimal.InvalidOperation):
        return None


def _leading_place(value: Any) -> int | None:
    """The power of ten of the first significant digit (0.0249925 -> -2)."""
    number = _decimal(value)
    if number is None or number == 0:
        return None
    return number.adjusted()


def rounded(value: Any, quantity: numbers.Quantity, stated: Precision | None = None) -> str:
    """`value` rounded half to even the way the lesson writes (or says it writes) it."""
    number = _decimal(value)
    written = _decimal(quantity.value)
    if number is None:
        return ""
    if written is not None and not (written != 0 and 0.5 <= number / written <= 2):
        return ""  # not a rounding slip: 0.0014 for 1.4 is another unit or another number
    if stated is not None and stated.significant is not None and number != 0:
        places = stated.significant - 1 - number.adjusted()
        how = f"to {stated.significant} significant figures"
    elif stated is not None and stated.decimals is not None:
        places, how = stated.decimals, f"to {plural(stated.decimals, 'decimal')}"
    elif quantity.decimals and quantity.exponent == 0:
        places, how = quantity.decimals, f"to {plural(quantity.decimals, 'decimal')}"
    else:
        return ""
    with decimal.localcontext() as context:
        context.prec = 80
        text = number.quantize(decimal.Decimal(1).scaleb(-places), decimal.ROUND_HALF_EVEN)
    return f"{how}, rounded half to even, it is {text:f}"


def parse_tolerance(value: Any) -> sympy.Expr | None:
    """A tolerance from a claims file, read without eval: a number, a number lessons
    write (`"1e-3"`, `"1/100"`), or `auto` (None: the default rule)."""
    if value is None or value == "auto":
        return None
    if isinstance(value, bool):
        raise ValueError("a tolerance must be a number or `auto`")
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, float):
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"tolerance {value!r} must be a finite number >= 0")
        return sympy.Rational(str(value))
    quantity = numbers.parse_quantity(str(value))
    if quantity.unit is not None:  # `5%` was read as an absolute 5
        raise ValueError(
            f"tolerance {value!r} has a unit: a tolerance is absolute, a bare number in the "
            "unit each number is written in (0.05 for `16.1 mV`), never a percentage"
        )
    parsed = quantity.value
    if not parsed.is_number or parsed.is_negative:
        raise ValueError(f"tolerance {value!r} must be a number >= 0 or `auto`")
    return parsed


def _scalar(
    quantity: numbers.Quantity,
    computed: Any,
    tolerance: Any,
    unit: str | None,
    decimals: int | None = None,
    approximate: bool | Precision = False,
    interval: bool = False,
) -> Verdict:
    value = quantity.value
    if tolerance is None:
        allowed = auto_tolerance(quantity, computed, decimals, approximate)
    else:
        allowed = parse_tolerance(tolerance)
        if allowed is None:
            allowed = auto_tolerance(quantity, computed, decimals, approximate)
    shown = show(computed)
    if unit is not None and quantity.unit is not None and quantity.unit != unit:
        try:
            value, allowed = _converted(value, allowed, quantity.unit, unit, interval)
        except UnitError as error:
            return Verdict(False, quantity.text, f"{shown} {unit} ({error})")
        shown = f"{shown} {unit}"
    elif unit is not None and quantity.unit == unit and unit != "dimensionless":
        shown = f"{shown} {unit}"  # `computed ≈ 31.1154 Ω`: the unit the lesson wrote
    ok = close(value, computed, allowed)
    if not ok and quantity.unit is not None and unit is not None and quantity.unit != unit:
        shown += f" (the lesson's {quantity.text} is {show(value)} {unit})"
    stated = approximate if isinstance(approximate, Precision) else None
    hint = "" if ok or unit is not None else rounded(computed, quantity, stated)
    converted = unit is not None and quantity.unit is not None and quantity.unit != unit
    unmarked = not ok and allowed == 0 and not converted
    unmarked = unmarked and close(value, computed, quantity.tolerance)
    if unmarked:
        hint = (  # the documented exactness rule, not a wrong number
            f"{shown} is exact and ends, so the lesson must write it in full, or mark "
            f"the rounding: ≈ {quantity.text}, 'about', or 'to N decimals'"
        )
    return Verdict(ok, quantity.text, shown, show(allowed), hint, unmarked)


def _converted(
    value: sympy.Expr, allowed: sympy.Expr, written: str, unit: str, interval: bool = False
) -> tuple[sympy.Expr, sympy.Expr]:
    """A quoted number and its tolerance, from the unit the lesson writes to the unit the
    computed value is in (exact: 32 MB is 32,000,000 B, not 32 MiB). Percent and byte
    units keep their own fast path; every other unit goes through the units library. An
    `interval` (a temperature difference: 10 °C of rise is 10 K) converts without the
    scales' zeros."""
    try:
        if unit is None or numbers.scale_reference(written) == numbers.scale_reference(unit):
            scale = numbers.unit_scale(written) / numbers.unit_scale(unit)
            return value * scale, allowed * scale
    except ValueError:
        pass
    (angle, cycles, moves), (other_angle, other_cycles, other_moves) = map(
        frequency_kind, (written, unit)
    )
    if angle != other_angle and (cycles or other_cycles):
        raise UnitError(  # SI makes the radian 1, so 311 MHz would pass for 3.11e8 rad/s
            f"{written} and {unit} are not converted: an angular frequency in rad/s is 2π "
            "times the frequency in Hz (ω = 2πf), though SI gives both the dimension 1/s"
        )
    if moves != other_moves and (cycles or other_cycles):
        raise UnitError(  # a count per second, so 1600 MT/s would pass for a 1600 MHz clock
            f"{written} and {unit} are not converted: a transfer is not a clock cycle "
            "(a double-data-rate bus makes 2 per cycle: 3200 MT/s at 1600 MHz)"
        )
    ratio = convert(1, written, unit) - convert(0, written, unit)
    if interval:
        return value * ratio, allowed * abs(ratio)
    converted = convert(value, written, unit)
    return converted, allowed * abs(ratio)


def frequency_kind(unit: str) -> tuple[bool, bool, bool]:
    """Whether a unit holds an angle (`rad/s`, `°/s`, which SI counts as dimensionless),
    whether it holds hertz, and whether transfers (`MT/s`, a count like the radian)."""
    try:
        keys = [atom.key for atom, power in units_of(unit).atoms() if power]
    except UnitError:
        return False, False, False
    angle = any(key.endswith("radian") or key == "degree" for key in keys)
    hertz, moves = (any(key.endswith(name) for key in keys) for name in ("hertz", "transfer"))
    return angle, hertz, moves


BOUNDS = {">": sympy.Gt, ">=": sympy.Ge, "<": sympy.Lt, "<=": sympy.Le}


def bound(quantity: numbers.Quantity, computed: Any, relation: str, unit: str | None) -> Verdict:
    """`computed RELATION quoted`: the lesson states a bound (exceeds 0.9999, below 0.34)."""
    value = quantity.value
    if unit is not None and quantity.unit is not None and quantity.unit != unit:
        try:
            value, _ = _converted(value, sympy.Integer(0), quantity.unit, unit)
        except UnitError as error:
            return Verdict(False, quantity.text, f"{show(computed)} {unit} ({error})")
    number = _number(computed)
    holds = BOUNDS[relation](sympy.N(number, 50), sympy.N(value, 50))
    return Verdict(
        bool(holds), quantity.text, f"{show(computed)} (must be {relation} {quantity.text})"
    )


def compare(
    item: numbers.Item,
    computed: Any,
    *,
    tolerance: Any = None,
    unit: str | None = None,
    relation: str | None = None,
    approximate: bool | Precision = False,
    interval: bool = False,
) -> Verdict:
    """Whether the number(s) written in the lesson agree with the computed value.

    `approximate` says the prose marks the number as rounded ("about", "to three
    decimals"), which allows half a unit in the last digit even for exact values.
    """
    try:
        if relation is not None:
            if relation not in BOUNDS or not isinstance(item, numbers.Quantity):
                return Verdict(False, item.text, f"bound {relation!r} needs one number")
            return bound(item, computed, relation, unit)
        if isinstance(item, numbers.Quantity):
            return _scalar(item, computed, tolerance, unit, None, approximate, interval)
        if isinstance(item, numbers.Arithmetic):
            return _scalar(item.result, computed, tolerance, unit, None, approximate, interval)
        if isinstance(item, numbers.NumberList):
            values = list(_iterable(computed))
            if len(values) != len(item.items):
                return Verdict(False, item.text, show(computed))
            finest = max((q.decimals for q in item.items if q.decimals is not None), default=None)
            verdicts = [
                _scalar(q, v, tolerance, unit, finest, approximate)
                for q, v in zip(item.items, values, strict=True)
            ]
            hints = [
                f"{q.text}: {v.hint}" for q, v in zip(item.items, verdicts, strict=True) if v.hint
            ]
            return Verdict(
                all(v.ok for v in verdicts),
                item.text,
                show(computed),
                verdicts[0].tolerance if verdicts else None,
                "; ".join(hints),
            )
        if isinstance(item, numbers.SlotSet):
            if isinstance(computed, OpenSlots):
                ok = item.open_end and len(item.slots) == 1 and min(item.slots) == computed.start
            elif isinstance(computed, int) and not isinstance(computed, bool):
                ok = not item.open_end and item.slots == frozenset({computed})
            elif isinstance(computed, sympy.Basic) and computed.is_number:
                ok = not item.open_end and computed.is_Integer and item.slots == {int(computed)}
            elif not isinstance(computed, (set, frozenset, list, tuple)):
                kind = type(computed).__name__
                return Verdict(False, item.text, f"{show(computed)} (a {kind}, not slot numbers)")
            else:
                ok = not item.open_end and item.slots == frozenset(int(v) for v in computed)
            return Verdict(ok, item.text, show(computed))
    except (TypeError, ValueError) as error:
        return Verdict(False, item.text, f"{show(computed)} ({error})")
    return Verdict(False, item.text, show(computed))


def _iterable(value: Any) -> Iterable[Any]:
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return value
    raise TypeError(f"expected a list of values, got {type(value).__name__}")
