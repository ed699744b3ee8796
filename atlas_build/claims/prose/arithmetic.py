"""Worked arithmetic in prose: when it is proved, when it is wrong, and when it cannot be told.

An error must mean a defect (A408), so a computation is judged wrong only when it was
read unambiguously and misses the stated result by more than that result's written
precision:

- The result's precision is half a unit in its last written digit, always: `1−0.75^5 =
  0.762695` holds (exactly 0.7626953125). A hedged integer (`≈ 269` for 269.8 gross dies)
  may be rounded either way, as counts are.
- Operands that may themselves be rounded results widen the tolerance by what half a unit
  in their last digits can move the left side: a value the lesson states elsewhere as
  approximate (`about 116 W`; `Rounded`), one hedged where it stands, or a decimal of
  three or more significant digits (`1 − 0.0344² ≈ 0.99881`, `1.585 + 9/31.62 ≈ 1.869`:
  authors carry longer values than they write), in scientific notation by its mantissa
  (`3.99×10⁻⁴`). Short operands are taken as written, and integers too, unless the
  working amplifies their error tenfold (`(325/430)^22`). On the right of a link of a chain
  (`= 9/39.8`), every number is a rounded partial result.
- Units: when every operand carries a unit, or the bare ones are plain factors (the
  dimensions agree without them: `6 m/3 = 2 m`), the value is compared in the result's
  unit and dimensions that disagree are wrong. Otherwise the bare numbers carry units the
  text does not write (`0.75/10 = 75 ms`, `120 × 164 µΩ ≈ 19.7 mV`): the working is
  proved when its value in base units (or as written) is the result; it is wrong only
  when no decimal prefix (nor a minute, hour, KiB or bit-per-byte factor) can make the
  digits agree, since `√(5.0×10⁻¹³) ≈ 7 nm` with the operand in cm² is right. A percent
  added to a quantity in a unit is that share of it (`3.3 V + 10% = 3.63 V`). A bare
  term added to one in a unit (`0.4 × 0.03 − 0.8 × 2.77 ms`) cannot be told at all.
- A result further from every reading of the working than a slip moves a number (more
  than three times off, or of the other sign, but not a slipped decimal point:
  `compare.far_off`) is unclear: the reading is more likely wrong than the arithmetic.
- A percent result of bare working is the working times 100 (`12/16 = 75%`), or the
  working itself when it already multiplies by 100. An unmarked `log` is ln, or log10
  when ln misses. A dB result of bare working is the number itself or its power or
  amplitude level (`ln 2 ≈ −1.59 dB`): which one cannot be told, so it is never wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import sympy

from atlas_build.claims.binding.compare import digits_tolerance, far_off, show
from atlas_build.claims.prose import numbers, reconcile, unwritten, worked
from atlas_build.units.product import ONE
from atlas_build.units.prose import is_level

Status = Literal["verified", "wrong", "unclear"]
SIGNIFICANT = 3  # operands written to this many significant digits may be rounded values
Rounded = frozenset[sympy.Expr]
"""Values a lesson states as approximate somewhere (`≈ 0.9656`, `about 116 W`): where one
is an operand of working, it may stand for a longer value (`approximate_values`)."""


def approximate_values(items: list[numbers.Item], content: str) -> Rounded:
    """Every value the text hedges: a `≈` result, a number written with `≈`, or one after
    `about`, `approximately`, `roughly`, `nearly`, `around`."""
    found: set[sympy.Expr] = set()
    for item in items:
        if isinstance(item, numbers.Arithmetic):
            if item.relation == "≈" and _distinctive(item.result):
                found.add(item.result.value)
            continue
        if isinstance(item, numbers.Quantity) and (
            item.approx or _HEDGE.search(content, max(0, item.start - 16), item.start)
        ):
            if _distinctive(item):
                found.add(item.value)
    return frozenset(found)


_TRAILING_ZERO = re.compile(r"\.[0-9]*0(?![0-9])")


def _distinctive(quantity: numbers.Quantity) -> bool:
    """Whether a hedged value has two significant digits or more (116, 0.9656, 45), or is
    written to a place that shows it was rounded (`about 0.50 Ω`): one such value hedged
    in one place is likely the same quantity where it is an operand; `about 1` or `≈ 10`
    elsewhere says nothing of the 1 in `(1 + 10⁴)`."""
    return _two_digits(quantity.value) or bool(_TRAILING_ZERO.search(quantity.text))


def _two_digits(value: sympy.Expr) -> bool:
    try:
        text = f"{abs(float(value)):.12g}"
    except (TypeError, ValueError):
        return False
    mantissa = text.split("e")[0].replace(".", "").strip("0")
    return len(mantissa) >= 2


_HEDGE = re.compile(r"(?:about|approximately|roughly|nearly|around|some)\s+$", re.IGNORECASE)


@dataclass(frozen=True)
class Judgement:
    status: Status
    message: str = ""


def _places(value: sympy.Expr, decimals: int) -> int:
    """Significant digits of a decimal written with `decimals` places (0.0344: 3)."""
    digits = str(abs(int(value * sympy.Integer(10) ** decimals)))
    return len(digits.lstrip("0"))


def _third_digit(value: sympy.Expr) -> sympy.Expr:
    """Half a unit in the third significant digit of `value` (20: 0.05)."""
    place = math.floor(math.log10(abs(float(value)))) - (SIGNIFICANT - 1)
    return sympy.Rational(1, 2) * sympy.Integer(10) ** place


def _moves(quantity: numbers.Quantity, rounded: Rounded = frozenset()) -> list[sympy.Expr]:
    """How much an operand's value moves when its written decimals (or its base's, for
    `0.0344²`) are off by half a unit; none when it is not a possibly rounded value (see
    the module docstring)."""
    if quantity.base is not None:
        base, decimals, power = quantity.base
        if base in rounded or (decimals and _places(base, decimals) >= SIGNIFICANT):
            # `about 233 ps`, then `√(350² + 233²)`: a hedged integer is rounded too
            half = sympy.Rational(1, 2) * sympy.Integer(10) ** -decimals
            return [(base + sign * half) ** power - base**power for sign in (1, -1)]
        return []
    hedged = quantity.approx or abs(quantity.value) in rounded or quantity.value in rounded
    if quantity.call is not None:  # `e^0.942`: its argument's digits, through the function
        name, argument, decimals = quantity.call
        places = _places(abs(argument), decimals)
        carried = argument in rounded and places < SIGNIFICANT  # `≈ 20.0`, then `e²⁰`
        if not (hedged or carried or places >= SIGNIFICANT) or not (decimals or carried):
            return []  # an integer argument (`√10`, `e²`) is as written
        half = sympy.Rational(1, 2) * sympy.Integer(10) ** -decimals
        if carried and not hedged and argument:  # rounded to three digits, as stated
            half = _third_digit(argument)
        at = numbers.apply(name, argument)
        return [numbers.apply(name, argument + sign * half) - at for sign in (1, -1)]
    if quantity.exponent:  # `3.99×10⁻⁴`: the mantissa's digits, at its power of ten
        mantissa = abs(quantity.value) / sympy.Integer(10) ** quantity.exponent
        decimals = quantity.decimals or 0
        if decimals and (hedged or _places(mantissa, decimals) >= SIGNIFICANT):
            return [quantity.tolerance, -quantity.tolerance]
        return []
    if quantity.decimals:
        if hedged or _places(abs(quantity.value), quantity.decimals) >= SIGNIFICANT:
            return [quantity.tolerance, -quantity.tolerance]
    elif quantity.decimals == 0 and quantity.value.is_Integer and hedged:
        # `40/116 ≈ 0.35 K/W` where `about 116 W` was itself rounded from 115.9
        return [sympy.Rational(1, 2), -sympy.Rational(1, 2)]
    return []


def _spread(item: numbers.Arithmetic, log10: bool, rounded: Rounded = frozenset()) -> sympy.Expr:
    """How far the left side can move when each possibly rounded operand moves by half a
    unit in its last digit (first order: the largest change of each, summed)."""
    base = _reread(item, {}, log10)
    if base is None:
        return sympy.Integer(0)
    total = sympy.Integer(0)
    for index, operand in enumerate(item.operands):
        shifts = _moves(operand, rounded) or _amplified(item, index, base, log10)
        if not shifts:
            continue
        moved = [_reread(item, {index: shift}, log10) for shift in shifts]
        changes = [abs(sympy.N(m.value - base.value, 30)) for m in moved if m is not None]
        if len(changes) < 2:
            return sympy.oo  # rounding an operand breaks the working (a root of < 0)
        total += max(changes)
    return total


def _amplified(
    item: numbers.Arithmetic, index: int, base: worked.Measure, log10: bool
) -> list[sympy.Expr]:
    """Half a unit of an integer operand of three or more digits, where the working
    multiplies its relative error by `AMPLIFIED` or more: `1 mA × (325/430)^22 ≈ 2.2 µA`
    with 325 V the peak of 230 V rms (325.3): a rounding no one writes becomes a 4% result."""
    operand = item.operands[index]
    value = abs(operand.value)
    if operand.decimals or operand.exponent or operand.call or operand.base is not None:
        return []
    if not (operand.value.is_Integer and value >= 100) or base.value == 0:
        return []
    half = [sympy.Rational(1, 2), -sympy.Rational(1, 2)]
    moved = _reread(item, {index: half[0]}, log10)
    if moved is None:
        return []
    elasticity = abs((moved.value - base.value) / base.value) / (half[0] / value)
    return half if sympy.N(elasticity) >= AMPLIFIED else []


AMPLIFIED = 10


def _reread(
    item: numbers.Arithmetic, shift: dict[int, sympy.Expr], log10: bool
) -> worked.Measure | None:
    return numbers.evaluate(item, shift=shift, log10=log10)


def _close(value: sympy.Expr, target: sympy.Expr, allowed: sympy.Expr) -> bool:
    """Within `allowed`; an exact result (`ln 4`, tolerance 0) to 30 digits."""
    try:
        distance = abs(sympy.N(value - target, 40))
        if not distance.is_real:
            return False
        floor = sympy.Float(10) ** -30 * max(1, abs(sympy.N(target, 40)))
        return bool(distance <= max(allowed * (1 + sympy.Rational(1, 10**9)), floor))
    except (TypeError, ValueError, ArithmeticError):
        return False


def _counts(result: numbers.Quantity, value: sympy.Expr, approx: bool) -> bool:
    """A hedged whole number without a unit (`≈ 269` gross dies, `171 cores`) may be the
    value rounded down or up, as counts are; a measured one (`≈ 98 °C`) may not."""
    if not approx or result.decimals != 0 or not result.value.is_Integer or result.unit:
        return False
    try:
        return bool(abs(sympy.N(value - result.value, 30)) < 1)
    except (TypeError, ValueError):
        return False


def _agrees(result: numbers.Quantity, approx: bool, value: sympy.Expr, spread: sympy.Expr) -> bool:
    allowed = digits_tolerance(result, None, approx) + spread
    return _close(value, result.value, allowed) or _counts(result, value, approx)


def fraction_of(item: numbers.Arithmetic, earlier: numbers.Quantity) -> bool:
    """Whether bare working is that fraction of a quantity stated before it, its `of that`
    left out: `V_out = 15/16 of that ≈ 125.8 MB and V_inter = 8/16 ≈ 67.1 MB`, after
    `≈ 134.2 MB`. Such working is no wrong number, though its own digits disagree."""
    if any(operand.unit for operand in item.operands) or not item.result.unit:
        return False
    target = worked.units(item.result.unit)
    source = worked.units(earlier.unit) if earlier.unit else None
    if target is None or source is None or target.dimension != source.dimension:
        return False
    measure = numbers.evaluate(item)
    if measure is None or measure.units != ONE:
        return False
    scale = earlier.value * source.scale / target.scale
    approx = item.relation == "≈" or item.result.approx or earlier.approx
    moved = _spread(item, False) * abs(scale) + abs(measure.value) * earlier.tolerance
    return _agrees(item.result, approx, measure.value * scale, moved)


def _wrong(
    item: numbers.Arithmetic, value: sympy.Expr, unit: str, readings: Iterable[sympy.Expr] = ()
) -> Judgement:
    """Wrong, shown as `value` in `unit`; unclear where that and every other reading of
    the working (`readings`) miss the result by more than a slip does: more likely misread
    than miscomputed (`far_off`)."""
    if all(far_off(item.result.value, v) for v in (value, *readings)):
        return Judgement("unclear")
    shown = f" {unit}" if unit else ""
    message = f"the left side is {show(value)}{shown}, not {item.result.text}"
    return Judgement("wrong", message)


def judge(item: numbers.Arithmetic, rounded: Rounded = frozenset()) -> Judgement:
    """Whether worked arithmetic holds, is wrong, or cannot be told (see the module doc);
    `rounded`: the values the lesson states as approximate (`approximate_values`)."""
    readings = [False, True] if item.logs else [False]
    verdicts = [_judge(item, log10, rounded) for log10 in readings]
    for status in ("verified", "unclear"):
        if any(v.status == status for v in verdicts):
            return next(v for v in verdicts if v.status == status)
    return verdicts[0]


def _judge(item: numbers.Arithmetic, log10: bool, rounded: Rounded) -> Judgement:
    measure = numbers.evaluate(item, log10=log10)
    if measure is None:
        return Judgement("unclear")
    result = item.result
    approx = item.relation == "≈" or result.approx
    written = [operand.unit is not None for operand in item.operands]
    if any(written) and result.unit is None and result.text.startswith("√"):
        return Judgement("unclear")  # `√(2 × 100 nC × 100 A/µs / 2) = √10 ≈ 3.16 A`: a form
    spread = _spread(item, log10, rounded)
    settled = worked.settle(measure, result.unit) if any(written) else None
    if any(written) and (all(written) or (settled is not None and not settled[2])):
        # every unit written, or the bare numbers are plain factors (`6 m/3 = 2 m`)
        if settled is None:
            return Judgement("unclear")  # a result in a unit that cannot be computed with
        value, unit, problem = settled
        if problem and item.named and result.unit is None and not measure.problem:
            # `7,000 MB/s ÷ 131,072 B ≈ 53,400 IOPS`: the noun's unit is the left side's
            based = measure.value * measure.units.scale
            if _agrees(result, approx, based, spread * _ratio(measure, based)):
                return Judgement("verified")
            return Judgement("unclear")
        if problem and (converted := reconcile.per_unit_conversion(item, measure)) is not None:
            if _agrees(result, approx, converted, spread * _ratio(measure, converted)):
                return Judgement("unclear")  # `1.2 L/min × 0.997 kg/L ÷ 60 s ≈ 0.0199 kg/s`
        if problem and (counted := reconcile.without_counts(item, measure)) is not None:
            # `47 bytes × 8 µs = 376 µs`: 8 µs per byte, the count written on one side only
            if _agrees(result, approx, counted, spread * _ratio(measure, counted)):
                return Judgement("verified")
            return Judgement("unclear")
        if problem and (roots := list(reconcile.under_root(item, measure))):
            # `√17.58 Hz` for √(17.58 Hz): wrong only where it is wrong read either way
            if any(_agrees(result, approx, v, spread * _ratio(measure, v)) for v in roots):
                return Judgement("verified")
            return _wrong(item, roots[0], result.unit or "", roots)
        if problem and item.abbreviated and result.unit is None:
            return Judgement("unclear")  # `flops / 10 µs = 24,576 "MFLOPS"`: an unread unit
        if problem:
            return Judgement("wrong", problem)
        if _agrees(result, approx, value, spread * _ratio(measure, value)):
            return Judgement("verified")
        if _BITS.search(unit) and any(o.unit is None and o.value == 8 for o in item.operands):
            # `65,535 bytes × 8 / 0.1 s ≈ 5.24 Mb/s`: the 8 is the bits of each byte
            if _agrees(result, approx, value / 8, spread * _ratio(measure, value) / 8):
                return Judgement("verified")
            return _wrong(item, value, unit, [value / 8])
        return _wrong(item, value, unit)
    if (item.level or is_level(result.unit)) and not all(written):
        # a level of bare working (`ln 2 ≈ −1.59 dB`): the number itself, or its 10·log10
        # (power) or 20·log10 (amplitude) level; which one cannot be told, so no error,
        # unless the working is the level itself (`−20 log10(0.2) ≈ 14.0 dB`)
        for value, moved in _levels(measure.value, spread):
            if _agrees(result, approx, value, moved):
                return Judgement("verified")
        if any(
            _agrees(result, approx, -value, moved)
            for value, moved in _levels(measure.value, spread)
        ):
            return Judgement("unclear")  # `falls by 10 log₁₀ 0.5 ≈ 3.0 dB`: a loss as a size
        relative = (item.level or result.unit or "") == "dB"  # no reference level to guess
        if relative or _LOGARITHM.search(item.working) or not measure.value.is_positive:
            levels = [v for value, _ in _levels(measure.value, spread) for v in (value, -value)]
            return _wrong(item, measure.value, result.unit or "", levels)
        return Judgement("unclear")  # `0.1 W × 10 = 30 dBm`: a level against 1 mW
    if not any(written) and result.unit is None:
        for scale in _counted(result):
            if _agrees(result, approx, measure.value * scale, spread * scale):
                return Judgement("verified")
        if _agrees(result, approx, -measure.value, spread) or item.abbreviated:
            return Judgement("unclear")  # a loss as a size; `≈ 141 CFM`, an unread unit
        sizes = [measure.value * k for k in (*_counted(result), -1)]  # -1: a loss as a size
        return _wrong(item, measure.value, "", sizes)
    if not any(written) and result.unit == "%":
        for value, scale in ((measure.value * 100, 100), (measure.value, 1)):
            if _agrees(result, approx, value, spread * scale):
                return Judgement("verified")
        return _wrong(item, measure.value * 100, "%", [measure.value])
    # the bare numbers carry units the text does not say (`0.75/10 = 75 ms`,
    # `120 × 164 µΩ ≈ 19.7 mV`, whose dimensions only agree once 120 is in amperes)
    if measure.problem:
        # a bare term added to one in a unit (`0.4 × 0.03 − 0.8 × 2.77 ms`, the first in
        # V·s): the sum was taken in the written unit, which the bare term need not share
        return Judgement("unclear")
    candidates: list[sympy.Expr] = []
    if (converted := unwritten.base(item, measure)) is not None:
        candidates.append(converted)
    candidates.append(measure.value)
    for value in candidates:
        if _agrees(result, approx, value, spread * _ratio(measure, value)):
            return Judgement("verified")
    if unwritten.digits_agree(result, approx, measure.value, spread):
        return Judgement("unclear")
    # any unwritten prefix may be meant, so the digits at the nearest one are what missed
    prefixed = [measure.value * sympy.Float(k) for k in unwritten.nearest(measure.value, result)]
    if converted is not None and result.unit:  # shown in the result's unit
        shown = f"{result.unit} (its bare numbers in base units)"
        return _wrong(item, converted, shown, candidates + prefixed)
    return _wrong(item, measure.value, "", candidates + prefixed)


_BITS = re.compile(r"(?:^|[^A-Za-z])[kMGT]?(?:b|bit)(?:/s|ps)?$")  # Mb/s, kbit/s, Gbps
_LOGARITHM = re.compile(r"(?<![\d.])[12]0\s*[×·*⋅]?\s*(?:log|lg)")  # 10·log10(…), 20 log10(…)


def _levels(value: sympy.Expr, spread: sympy.Expr) -> list[tuple[sympy.Expr, sympy.Expr]]:
    """The number a level's working gives, read as the level itself or as the power
    (10·log10) or amplitude (20·log10) level of a ratio, each with how far the operands'
    rounding moves it (d(10·log10 v) = 10/ln 10 · dv/v)."""
    levels = [(value, spread)]
    if value.is_positive:
        for times in (10, 20):
            moved = times / sympy.log(10) * spread / value
            levels.append((times * sympy.log(value, 10), moved))
    return levels


def _ratio(measure: worked.Measure, value: sympy.Expr) -> sympy.Expr:
    """How much larger a value converted from the working is than the working itself (the
    spread of the operands' rounding scales with it)."""
    if measure.value == 0:
        return sympy.Integer(1)
    return abs(value / measure.value)


def _counted(result: numbers.Quantity) -> tuple[sympy.Expr, ...]:
    """How a bare result may count: as written, and where it ends in a magnitude word or
    letter, also in that many (`13³ = 2197 million`: a bearing's life in millions of
    revolutions; `≈ 176.2 M weights`)."""
    word = numbers.MAGNITUDE_WORD.search(result.text)
    if word is None:
        return (sympy.Integer(1),)
    if word.group(1) in numbers.MAGNITUDES:  # read into the number: 2197 million is 2.197e9
        return (sympy.Integer(1), sympy.Integer(10) ** numbers.MAGNITUDES[word.group(1)])
    return (sympy.Integer(1), sympy.Integer(10) ** -numbers.SHORT_MAGNITUDES[word.group(1)])


def judge_step(step: numbers.Step, rounded: Rounded = frozenset()) -> Judgement:
    """A link of a chain: working equal to working (within what the rounded numbers of
    either side allow), or a number equal to itself in another unit (`0.184 s ≈ 184 ms`:
    to the right number's written digits, widened by the left's where it is longer or
    itself rounded)."""
    if isinstance(step.right, numbers.Quantity) and isinstance(step.left, numbers.Quantity):
        return _conversion(step.left, step.right, step.relation == "≈", rounded)
    if not isinstance(step.left, numbers.Arithmetic) or not isinstance(
        step.right, numbers.Arithmetic
    ):
        return Judgement("unclear")
    left, right = step.left, step.right
    restated = rounded | {q.value for q in right.operands}  # partial results, rounded
    allowed = _spread(left, False, rounded) + _spread(right, False, frozenset(restated))
    if _close(left.lhs, right.lhs, allowed):
        return Judgement("verified")
    if left.logs or right.logs or far_off(right.lhs, left.lhs):
        return Judgement("unclear")
    return Judgement(
        "wrong", f"the left side is {show(left.lhs)}, the right side {show(right.lhs)}"
    )


def _conversion(
    left: numbers.Quantity, right: numbers.Quantity, approx: bool, rounded: Rounded
) -> Judgement:
    source, target = worked.units(left.unit or ""), worked.units(right.unit or "")
    if source is None or target is None or source.dimension != target.dimension:
        return Judgement("unclear")  # another quantity, or a unit that does not convert
    scale = source.scale / target.scale
    value = left.value * scale
    # `0.0249 kg/s ≈ 24.93 g/s`: from a longer value; `≈ 0.0130 rad ≈ 0.744°`, converted
    # from the 0.012995 rad that 0.0130 rounds
    longer = _digits(right) > _digits(left) or left.approx or left.value in rounded
    spread = left.tolerance * scale if longer else sympy.Integer(0)
    if _agrees(right, approx or right.approx, value, spread):
        return Judgement("verified")
    return _conversion_wrong(left, right, value)


def _digits(quantity: numbers.Quantity) -> int:
    digits = "".join(c for c in quantity.text if c in "0123456789").lstrip("0")
    return len(digits)


def _conversion_wrong(
    left: numbers.Quantity, right: numbers.Quantity, value: sympy.Expr
) -> Judgement:
    if far_off(right.value, value):
        return Judgement("unclear")
    return Judgement("wrong", f"{left.text} is {show(value)} {right.unit}, not {right.text}")
