"""Find the numbers a lesson's prose states, with exact values and source offsets.

Claims bind prose numbers to computed quantities, so extraction has to be exact (``0.25`` is
``Rational(1, 4)``, ``ln3`` stays ``log(3)``), positional (every item carries ``start``/``end``
offsets into the input, so a mismatch is reported at its line and column) and total: arbitrary
text never raises and is scanned in roughly linear time. Nothing is evaluated with ``eval`` or
``sympify``; arithmetic such as ``0.25×(2−5)=−0.75`` goes through a small recursive-descent
parser. The module knows no lesson: slot nouns and units are plain configuration.

Long module: one scanner over prose; the literal, unit, list and arithmetic readers share
its patterns and offsets, and must agree on where a number starts and ends.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

import sympy

from atlas_build.claims.prose import worked
from atlas_build.units import UnitError, UnitSpec, convert, parse_unit
from atlas_build.units.prose import level_after, unit_after, unread_unit_after
from atlas_build.units.spec import ABSTRACT

DEFAULT_SLOT_NOUNS = tuple("slot slots position positions token tokens index indices".split())
BYTE_SPELLINGS = "[KMGTP]iB|[KkMGTP]B|bytes|byte|B"
"""How the scanner spells a byte unit after a number (`128 KiB`, `3.2 GB/s`): spellings
only. What each one means (kB is 1000 B, KiB 1024 B, `KB` refused as 1000 or 1024 B) is
the units vocabulary's (`atlas_build.units.vocabulary`, docs/units.md), read by
`unit_scale`. `KB` is spelled here so that a bound `128 KB` fails to convert at the
number, naming kB and KiB, instead of being compared as 128000 B or bare; exabytes and
longer spellings (`kilobytes`) are read by the vocabulary's own path (`unit_after`)."""
_BYTES = re.compile("(?:" + BYTE_SPELLINGS + r")(/s)?")

# Size limits keep pathological input cheap: a longer literal or expression is simply not a match.
MAX_DIGITS = 1000
MAX_POWER = 99  # `2²⁰ bytes` is a number of the prose (16 left it out of coverage)
MAX_POWER_DIGITS = 10_000  # digits of base times exponent: results stay small
MAX_RANGE = 100_000
MAX_EXPR = 200
MAX_DEPTH = 8

_DIGITS = "0123456789"
_SPACES = " \t\u00a0\u2009\u202f"
_WS = f"[{_SPACES}]"
_SUPER = "[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]"
_TO_ASCII = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻−", "0123456789+--")
_GROUP_SPACES = " \u00a0\u2009\u202f"  # `300 000`, SI style: a space, no-break or thin
_INT_GROUPED = re.compile(
    r"[1-9][0-9]{0,2}(?:,[0-9]{3})++(?![0-9])"
    rf"|[1-9][0-9]{{0,2}}(?:[{_GROUP_SPACES}][0-9]{{3}})++(?![0-9])"
    r"|[0-9]++"
)
_INT = re.compile(r"[0-9]++")
_FRAC = re.compile(r"\.([0-9]++)")
_E_EXP = re.compile(r"[eE]([+\-−]?[0-9]{1,3}+)(?![0-9])")
_X10 = re.compile(
    _WS + r"?[×x·*]" + _WS + r"?10(?:\^\{?([+\-−]?[0-9]{1,3}+)\}?|(" + _SUPER + "{1,3}+))(?![0-9])"
)
_EXPONENT = r"[+\-−]?[0-9]{1,2}+(?:\.[0-9]{1,6}+)?"  # `2^1.75` is 2^(7/4), not 2^1 then .75
_POW = re.compile(
    r"\^\{(" + _EXPONENT + r")\}"
    r"|\^(" + _EXPONENT + r")(?![0-9]|\.[0-9])"
    r"|(" + _SUPER + "{1,2}+)(?![0-9])"
)
_OVER = re.compile(r"/([1-9][0-9]{0,2}(?:,[0-9]{3})++|[0-9]++)(?![/.]?[0-9]|,[0-9]{3})")
MAGNITUDES = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}  # the short scale
_MAGNITUDE = re.compile(_WS + "(" + "|".join(MAGNITUDES) + r")(?!\w)")
SHORT_MAGNITUDES = {"M": 6, "bn": 9, "B": 9, "G": 9, "T": 12}  # after a result of working only
MAGNITUDE_WORD = re.compile(  # ends a number's text: `2197 million`, `176.2 M`
    "(" + "|".join([*MAGNITUDES, *SHORT_MAGNITUDES]) + r")$"
)
_PERCENT = re.compile(
    _WS + r"?(?:[Pp]er(?:" + _WS + r")?cent(?!\w)|percentage" + _WS + r"points?(?!\w))"
)
_POINTS = re.compile(_WS + r"(?:points?|pp)(?!\w)")  # a result in percentage points
_RESOURCE_TIME = re.compile(_WS + r"[A-Za-z]{2,12}-(hour|second|minute|day)s?(?![\w-])")
_TIME_UNITS = {"hour": "h", "second": "s", "minute": "min", "day": "d"}
_COUNTED = r"(?:MACs?|FLOPs?|flops|ops|OPs|tokens|parameters|params|weights|instructions)\b"
_SHORT_MAGNITUDE = re.compile(  # `176.2 M weights`; `14.8 G MACs` (G, T: before a count only)
    _WS + "(?:(?:M|bn|B)(?=" + _WS + r"[a-z])|[GT](?=" + _WS + _COUNTED + "))"
)
_TABLE_TIME = re.compile(_WS + r"(?:years?|months?|weeks?|yr)(?!\w)")
_VERSION_TAIL = re.compile(r"\.[0-9]")
_BASED_LOG = r"(?!(?:10|2)" + _WS + r"?\()"  # `log10(0.2)` is a base-10 call, not ln(10)·(0.2)
_SPACED_BASE = r"(?:10|2)(?=" + _WS + r"+[0-9])"  # `log10 255`: log₁₀ of 255, not log(10255)
_FUNC_NAMES = r"(ln|log₂|log₁₀|log" + _SPACED_BASE + r"|log" + _BASED_LOG + r"|√)"
_FUNC = re.compile(_FUNC_NAMES + _WS + r"?(\(" + _WS + r"*)?(?=[0-9])")
_ONE_SPACE_FUNC = re.compile(
    _WS + r"(?=(?:ln|log₂|log₁₀|log" + _BASED_LOG + r")" + _WS + r"?[0-9])"
)
_LOG_BASES = {"log₂": 2, "log₁₀": 10, "log2": 2, "log10": 10}  # a bare `log` is ln here
_EXP_FN = re.compile(r"e\^(\{)?([+\-−]?)(?=[0-9])")
_EXP_SUPER = re.compile(r"e(" + _SUPER + r"{1,2}+)(?![0-9⁰¹²³⁴⁵⁶⁷⁸⁹])")
_CLOSE_PAREN = re.compile(_WS + r"*\)")
_CLOSE_BRACE = re.compile(r"\}")
_SIGN = re.compile(r"[+\-−]")
_APPROX = re.compile(r"[≈~∼]" + _WS + "*")
_UNIT = re.compile(_WS + r"?(%|" + BYTE_SPELLINGS + r")(/s)?(?!\w)")
_UNIT_START = re.compile(_WS + r"?[^\W\d_°µΩ]|" + _WS + r"?[°µΩ]")
# A unit as inline LaTeX writes it: `1600\,\mathrm{Hz}`, `1.4\,\mathrm{\mu S}`,
# `1400\,\mu\mathrm{S}`, `2\,\mathrm{k}\Omega`, `10^{16}\,\mathrm{cm}^{-3}`, `12.5\%`,
# and degrees: `20^\circ\mathrm{F}`, `20\,^{\circ}\mathrm{C}`, `20\,\mathrm{^\circ C}`, `90^\circ`.
_DEGREE = r"(?:\^\{\\circ\}|\^\\circ(?![A-Za-z])|\\degree(?![A-Za-z]))"
_LATEX_UNIT = re.compile(
    r"(?:\\[,;: ]|~|" + _WS + r")*"
    r"((?:\\(?:mathrm|text|textrm|rm|operatorname)\{(?:[^{}]|\{[^{}]*\}){1,40}\}"
    r"|" + _DEGREE + r"(?:" + _WS + r"?[CF](?![A-Za-z]))?"
    r"|\\(?:mu|Omega)(?![A-Za-z])" + _WS + r"?)"
    r"(?:\\(?:mathrm|text|textrm|rm|operatorname)\{(?:[^{}]|\{[^{}]*\}){1,40}\}"
    r"|\\(?:mu|Omega)(?![A-Za-z])|\^\{?[-−]?[0-9]\}?|/|\\cdot" + _WS + r"?){0,8})"
    r"|\\(%)"
)
_OPEN = re.compile(r"\\?([\[(])" + _WS + "*")
_CLOSE = {"[": re.compile(_WS + r"*\\?\]"), "(": re.compile(_WS + r"*\\?\)")}
_LIST_SEP = re.compile(_WS + r"*[,;](" + _WS + "*)")
_ADD = re.compile(_WS + r"*([+\-−])" + _WS + "*")
_TIMES_X = (  # `6.02 x 12`, `2.0x(1 + 50.4²)`: times typed as a letter x
    _WS + r"+x" + _WS + r"+(?=[0-9(√π])|x(?=\()"
)
_MUL = re.compile(
    _WS + r"*(×|\\?\*|·|⋅|/|÷)" + _WS + "*"
    r"|" + _TIMES_X + r"|" + _WS + r"+()(?=(?:log10|log₁₀|log2|log₂|lg|log|ln)" + _WS + r"?\()"
    r"|()(?=√?\()"
)  # and a coefficient before a logarithm: `20 log₁₀(5)` is 20 × log₁₀(5); a factor glued to a
# parenthesis or root is a product: `2π√(0.5×10⁻⁹ × 10⁻⁷)`, `2(1 − 0.3)`
_LPAREN = re.compile(r"\(" + _WS + "*")
_ROUNDED = re.compile("([⌊⌈])" + _WS + "*")  # `⌊228/49⌋ = 4`: a count rounded down or up
_ROUNDING = {
    "⌊": (re.compile(_WS + "*⌋"), sympy.floor),
    "⌈": (re.compile(_WS + "*⌉"), sympy.ceiling),
}
_HEDGE = re.compile("[≈~∼]" + _WS + "*")
_RELATION = re.compile("[=≈~∼≃]")


def _sign(relation: re.Match[str]) -> str:
    """`=`, or `≈` for any sign of approximation (`~`, `∼`, `≃` as plain-text authors type it)."""
    return relation.group() if relation.group() == "=" else "≈"


_MORE = re.compile(
    _WS + r"*(?:[×*·⋅/÷+\-−^±∓]|\\\*)" + _WS + r"*(?:[0-9(√π]|(?:exp|ln|log|sqrt|e\^)(?![A-Za-z]))"
    r"|" + _TIMES_X + r"|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]"  # `= 8/2² = 2 h`: the number is raised, so working goes on
    r"|π"  # `= 2π × 100 ≈ 628`: the number multiplies π
    r"|" + _WS + r"*(?:√|(?:ln|log|lg|exp|sqrt)(?![A-Za-z]))"  # `= 10 log₁₀(1025) ≈ 30.1`
)
_PER = re.compile(_WS + r"+per" + _WS)  # `0.137 kWh per cubic metre`: the unit goes on in words
_OPERATOR = re.compile(r"[×*·⋅/÷+\-−^⁰¹²³⁴⁵⁶⁷⁸⁹]|\S" + _WS + "+x" + _WS + r"+[0-9(√π]|[0-9]x\(")
_PI = re.compile(r"π(?!\w)")
VULGAR = {
    char: sympy.Rational(p, q)
    for char, (p, q) in {
        "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5),
        "⅖": (2, 5), "⅗": (3, 5), "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅐": (1, 7),
        "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8), "⅑": (1, 9), "⅒": (1, 10),
    }.items()
}  # fmt: skip
"""Vulgar fractions a reader reads as numbers: every number a reader sees is one the
checker sees (`d = 6½ m` once verified against 6 m)."""
_OPERAND = re.compile("[0-9(+\\-−√letπ⌊⌈" + "".join(VULGAR) + "]")  # `½ × 3.125 × 628.3²`
FOLD = str.maketrans({chr(0xFF10 + n): str(n) for n in range(10)} | {"．": ".", "，": ","})
"""Fullwidth digits (`７０`) as the ASCII ones NFKC makes of them, one character for one,
so offsets stay those of the text."""
_CALL = re.compile(
    r"(e\^|exp|tanh|ln|log10|log₁₀|log2|log₂|lg|log|√|sqrt)" + _WS + r"?\(" + _WS + "*"
)
_FUNCTION_WORD = re.compile(r"(?<![A-Za-z])(?:ln|log|lg|exp|tanh)(?![A-Za-z])|√|e\^")
_POW_PAREN = re.compile(r"\^\(" + _WS + "*")


def _small(value: sympy.Expr) -> bool:
    """A number small enough to be an exponent: |value| <= MAX_POWER, known to be real."""
    try:
        return bool(value.is_real) and abs(float(value)) <= MAX_POWER
    except (TypeError, ValueError, OverflowError):
        return False


_START = re.compile(r"[^\W\d_]\w*+(?:\.[0-9]\w*+)*+|[0-9]++|\\?[\[(]|[+\-−≈~∼√⌊⌈]")


@dataclass(frozen=True)
class Quantity:
    """One stated number. ``decimals`` is the count of digits written after the point (``None``
    for exact forms: fractions, powers, ``ln3``, ``√2``), so ``tolerance`` can honour rounding.
    ``unit`` is recorded, never applied: ``3.2 GB`` has value 16/5; see ``unit_scale``. A
    magnitude word is part of the number (``3.2 billion`` is 3.2e9, ``exponent`` 9)."""

    value: sympy.Expr
    text: str
    start: int
    end: int
    decimals: int | None = 0
    exponent: int = 0
    unit: str | None = None
    approx: bool = False
    kind: Literal["number"] = "number"
    base: tuple[sympy.Expr, int, sympy.Expr] | None = None
    """For a power of a decimal (`0.0344²`): the base, its written decimals, the exponent."""
    call: tuple[str, sympy.Expr, int] | None = None
    """For a function of a decimal (`e^0.942`, `ln 2.5`): the function (`apply`'s name: `exp`,
    `ln`, `log2`, `log10`, `√`), its argument and the argument's written decimals."""

    @property
    def figures(self) -> int:
        """Where the number itself starts, past a hedge read with it (`≈ 184 ms`)."""
        hedge = _HEDGE.match(self.text)
        return self.start + (hedge.end() if hedge else 0)

    @property
    def tolerance(self) -> sympy.Expr:
        """Half a unit in the last written place (``0.665`` -> 0.0005); zero for exact forms."""
        if self.decimals is None:
            return sympy.Integer(0)
        return sympy.Rational(1, 2) * sympy.Integer(10) ** (self.exponent - self.decimals)


@dataclass(frozen=True)
class NumberList:
    """A bracketed list such as ``[0.25,0.75]`` or markdown-escaped ``\\[0,ln3\\]``."""

    items: tuple[Quantity, ...]
    text: str
    start: int
    end: int
    kind: Literal["list"] = "list"

    @property
    def values(self) -> tuple[sympy.Expr, ...]:
        return tuple(q.value for q in self.items)


@dataclass(frozen=True)
class SlotSet:
    """Positions named by a noun: ``slot7``, ``slots5,6,7``, ``Slots0–4``, ``slots8 onward``.
    ``open_end`` means the set also holds every integer above its largest member."""

    slots: frozenset[int]
    text: str
    start: int
    end: int
    noun: str
    open_end: bool = False
    kind: Literal["slots"] = "slots"

    def __contains__(self, slot: object) -> bool:
        if not isinstance(slot, int):
            return False
        return slot in self.slots or (self.open_end and slot > max(self.slots))


@dataclass(frozen=True)
class Arithmetic:
    """A worked computation ``lhs = result`` (or ``≈``). ``lhs`` is evaluated exactly by this
    module's parser, so a caller can check the working (``consistent``) and the stated result
    against its own computed value separately. When operands carry units (``6 m/3 = 2 m``),
    ``lhs`` is in the result's unit, shown as ``unit``; ``problem`` says why it cannot be
    (dimensions that disagree), and such arithmetic never holds."""

    lhs: sympy.Expr
    operands: tuple[Quantity, ...]
    result: Quantity
    relation: str
    text: str
    start: int
    end: int
    unit: str = ""
    problem: str = ""
    working: str = ""  # the left side as written, for `evaluate`
    logs: bool = False  # an unmarked `log` was read (as ln; `evaluate` can read log10)
    level: str = ""  # a level unit after the result (`≈ −1.59 dB`), which no unit reads
    named: bool = False  # a bare result a noun qualifies (`≈ 53,400 IOPS`): see `_named`
    abbreviated: bool = False  # that noun is in capitals (`≈ 141 CFM`): a unit, unread
    kind: Literal["arithmetic"] = "arithmetic"


Item = Quantity | NumberList | SlotSet | Arithmetic


def scale_reference(unit: str) -> str:
    """What `unit_scale(unit)` is a factor to: `1` for `%`, `B/s` for a byte rate, `B` for
    bytes; `ValueError` for a unit it does not scale. Units of different references are
    never one a multiple of the other."""
    written = _BYTES.fullmatch(unit)
    if unit != "%" and written is None:
        raise ValueError(f"unknown unit {unit!r}")
    return "1" if written is None else "B/s" if written.group(1) else "B"


@lru_cache(maxsize=256)
def unit_scale(unit: str | None) -> sympy.Expr:
    """Factor to base units: bytes (per second for ``/s``) for the byte units the scanner
    spells (`BYTE_SPELLINGS`), 1/100 for ``%``, 1 for no unit; `ValueError` for any other
    unit and for one the units vocabulary refuses (`KB`). The factors are the units
    library's (`convert` to `B`, `B/s` or `1`): numbers keeps no table of its own."""
    if unit is None:
        return sympy.Integer(1)
    reference = scale_reference(unit)
    try:
        return convert(1, unit, reference)
    except UnitError as error:
        raise ValueError(f"unknown unit {unit!r}") from error


def to_bytes(quantity: Quantity) -> sympy.Expr:
    """Byte count of a quantity with a byte unit (``128 KiB`` -> 131072, ``3.2 GB`` -> 3.2e9)."""
    if quantity.unit is not None and _BYTES.fullmatch(quantity.unit):
        with contextlib.suppress(ValueError):  # `KB`: no byte count (see `BYTE_SPELLINGS`)
            return quantity.value * unit_scale(quantity.unit)
    raise ValueError(f"{quantity.text!r} has no byte unit")


@dataclass(frozen=True)
class _Literal:
    value: sympy.Expr
    end: int
    decimals: int | None
    exponent: int
    power: bool = False
    base: tuple[sympy.Expr, int, sympy.Expr] | None = None  # a power's (base, decimals, n)
    call: bool = False  # a function of a literal (`ln 3`, `√2`, `e²`): an operation
    argument: tuple[str, sympy.Expr, int] | None = None  # its (function, argument, decimals)


def _int(text: str) -> int:
    return int(text.translate(_TO_ASCII))


_SEPARATORS = {ord(c): None for c in "," + _GROUP_SPACES}


def _ungrouped(digits: str) -> str:
    """`300 000` and `300,000` as `300000`."""
    return digits.translate(_SEPARATORS)


def _literal(
    text: str,
    i: int,
    end: int,
    *,
    grouped: bool = True,
    fractions: bool = True,
    powers: bool = True,
    pi: bool = False,
) -> _Literal | None:
    """An unsigned literal at ``i``: decimal with exponent, fraction, power or ln/log/√/e^
    (and, inside worked arithmetic, ``π`` and ``2π``); a whole number may end in a vulgar
    fraction (`6½`), which may also stand alone (`¾`); 0s and 1s ending in ``₂`` are a
    binary numeral (`0111₂` is 7)."""
    if i < end and text[i] in VULGAR:
        return _Literal(VULGAR[text[i]], i + 1, None, 0)
    if i >= end or text[i] not in _DIGITS:
        return _function(text, i, end, pi)
    digits_match = (_INT_GROUPED if grouped else _INT).match(text, i, end)
    if digits_match is None:
        return None
    digits, j, frac = _ungrouped(digits_match.group()), digits_match.end(), ""
    if point := _FRAC.match(text, j, end):
        frac, j = point.group(1), point.end()
    if len(digits) + len(frac) > MAX_DIGITS or _VERSION_TAIL.match(text, j, end):
        return None  # "1.2.3" is a version string, not a number
    if not frac and j < end and text[j] == "₂" and set(digits) <= {"0", "1"}:
        return _Literal(sympy.Integer(int(digits, 2)), j + 1, None, 0)  # `0111₂` is 7
    value: sympy.Expr = sympy.Rational(int(digits + frac), 10 ** len(frac))
    if sci := _E_EXP.match(text, j, end) or _X10.match(text, j, end):
        exponent = _int(sci.group(1) or sci.group(2))
        return _Literal(value * sympy.Integer(10) ** exponent, sci.end(), len(frac), exponent)
    if magnitude := _MAGNITUDE.match(text, j, end):  # `3.2 billion` is 3.2×10⁹, to 0.05×10⁹
        exponent = MAGNITUDES[magnitude.group(1)]
        scaled = value * sympy.Integer(10) ** exponent
        return _Literal(scaled, magnitude.end(), len(frac), exponent)
    if powers and (power := _POW.match(text, j, end)):
        written = (power.group(1) or power.group(2) or power.group(3)).translate(_TO_ASCII)
        n = sympy.Rational(written)
        if (
            abs(n) > MAX_POWER
            or (value == 0 and n < 0)
            or ((len(digits) + len(frac)) * abs(n) > MAX_POWER_DIGITS)
        ):
            return None
        return _Literal(value**n, power.end(), None, 0, power=True, base=(value, len(frac), n))
    if fractions and not frac and (over := _OVER.match(text, j, end)):
        denominator = over.group(1).replace(",", "")
        if len(denominator) > MAX_DIGITS or int(denominator) == 0:
            return None
        return _Literal(sympy.Rational(int(digits), int(denominator)), over.end(), None, 0)
    if not frac and j < end and text[j] in VULGAR:  # `6½ m` is 6.5 m, not 6 m
        return _Literal(value + VULGAR[text[j]], j + 1, None, 0)
    glued = j + 1 if _ONE_SPACE_FUNC.match(text, j, end) else j  # "2 ln 3" as "2ln3"
    if (product := _function(text, glued, end, pi)) is not None:  # `0.925 ln 0.925`
        return _Literal(value * product.value, product.end, None, 0, call=product.call)
    return _Literal(value, j, len(frac), 0)


def apply(name: str, argument: sympy.Expr) -> sympy.Expr:
    """The function a literal calls (`Quantity.call`'s name: `exp`, `√`, `ln`, `log2`,
    `log10`) at `argument`."""
    if name == "exp":
        return sympy.exp(argument)
    if name == "√":
        return sympy.sqrt(argument)
    if name.startswith("log"):
        return sympy.log(argument, int(name[3:]))
    return sympy.log(argument)


def _function(text: str, i: int, end: int, pi: bool = False) -> _Literal | None:
    """``ln 3``, ``log(2)``, ``√2``, ``e^2`` or (with `pi`) ``π``: exact symbolic values of
    a plain literal."""
    if pi and _PI.match(text, i, end):
        return _Literal(sympy.pi, i + 1, None, 0)
    if func := _FUNC.match(text, i, end):
        arg = _literal(text, func.end(), end, fractions=False, powers=False)
        if arg is None or not arg.value.is_positive:
            return None
        j = arg.end
        if func.group(2) is not None:
            if not (close := _CLOSE_PAREN.match(text, j, end)):
                return None
            j = close.end()
        base = _LOG_BASES.get(func.group(1))
        name = "√" if func.group(1) == "√" else f"log{base}" if base else "ln"
        argument = (name, arg.value, arg.decimals or 0)
        return _Literal(apply(name, arg.value), j, None, 0, call=True, argument=argument)
    if exp := _EXP_FN.match(text, i, end):
        arg = _literal(text, exp.end(), end, grouped=False, fractions=False, powers=False)
        brace = arg and exp.group(1) and _CLOSE_BRACE.match(text, arg.end, end)
        if arg is None or (exp.group(1) and not brace):
            return None
        j = brace.end() if brace else arg.end
        power = -arg.value if exp.group(2) else arg.value
        argument = ("exp", power, arg.decimals or 0)
        return _Literal(apply("exp", power), j, None, 0, call=True, argument=argument)
    if exp := _EXP_SUPER.match(text, i, end):
        power = sympy.Integer(_int(exp.group(1)))
        argument = ("exp", power, 0)
        return _Literal(sympy.exp(power), exp.end(), None, 0, call=True, argument=argument)
    return None


def _quantity(
    text: str, i: int, end: int, *, signed: bool, grouped: bool = True
) -> Quantity | None:
    """A quantity at ``i``: optional ``≈``, sign (if ``signed``), literal, optional unit."""
    j, approx, negative = i, False, False
    if mark := _APPROX.match(text, j, end):
        j, approx, signed = mark.end(), True, True
    if signed and (sign := _SIGN.match(text, j, end)):
        j, negative = sign.end(), sign.group() != "+"
    literal = _literal(text, j, end, grouped=grouped)
    if literal is None:
        return None
    unit, k = _suffix(text, literal.end, end)
    value = -literal.value if negative else literal.value
    return Quantity(
        value, text[i:k], i, k, literal.decimals, literal.exponent, unit, approx,
        call=literal.argument,
    )  # fmt: skip


def _suffix(text: str, k: int, end: int) -> tuple[str | None, int]:
    """The unit written after a number ending at ``k`` (or None), and where it ends.
    `percent` and `per cent` are `%`, the one spelling the comparisons know."""
    if percent := _PERCENT.match(text, k, end):
        return "%", percent.end()
    if suffix := _UNIT.match(text, k, end):
        # `bytes per second` is one unit: the vocabulary's reading wins when it is longer
        after = unit_after(text[:end], k)
        if after is not None and after[1] > suffix.end():
            return after
        return suffix.group(1) + (suffix.group(2) or ""), suffix.end()
    if _UNIT_START.match(text, k, end) and (after := unit_after(text[:end], k)) is not None:
        return after  # any unit the units vocabulary reads: 0.7 V, 2.1 ms, 10¹⁶ cm⁻³
    if (latex := _LATEX_UNIT.match(text, k, end)) and (read := _latex_unit(latex)):
        return "%" if _PERCENT.fullmatch(read) else read, latex.end()
    return None, k


_LATEX_WRAPPER = re.compile(r"\\(?:mathrm|text|textrm|rm|operatorname)\{((?:[^{}]|\{[^{}]*\})*)\}")
_LATEX_SYMBOLS = ((re.compile(r"\\mu\s*"), "µ"), (re.compile(r"\\Omega\s*"), "Ω"),
                  (re.compile(r"\\cdot\s*"), "·"), (re.compile(r"\\[,; ]"), ""))  # fmt: skip
_DEGREE_SIGN = re.compile(r"(?:\^\{\\circ\}|\^\\circ|\\degree)\s*")
_UPRIGHT = re.compile(r"\\(?:mathrm|rm|mu|Omega)(?![A-Za-z])")


def _latex_unit_text(latex: str) -> str:
    """`\\mathrm{\\mu S}` -> `µS`, `\\mu\\mathrm{A}` -> `µA`, `\\mathrm{cm}^{-3}` -> `cm^{-3}`,
    `^\\circ\\mathrm{F}` and `\\mathrm{^\\circ F}` -> `°F`."""
    text = _LATEX_WRAPPER.sub(r"\1", _DEGREE_SIGN.sub("°", latex))
    for command, plain in _LATEX_SYMBOLS:
        text = command.sub(plain, text)
    return text.strip()


def _latex_unit(latex: re.Match[str]) -> str | None:
    """The unit of a `_LATEX_UNIT` match: one the vocabulary reads; or, written upright as
    units are (`\\mathrm{\\mu S}`, `\\mu\\mathrm{S}`) and one word, the text itself, so a
    claim reports a unit it cannot read instead of comparing the bare number. `\\text{ if }`
    after a number is prose, not a unit."""
    if not latex.group(1):
        return "%"
    text = _latex_unit_text(latex.group(1))
    if _readable(text):
        return text
    upright = _UPRIGHT.match(latex.group(1)) is not None
    return text if upright and text and not any(c.isspace() for c in text) else None


def _readable(unit: str) -> bool:
    """Whether the units vocabulary reads a unit written in LaTeX braces as a unit."""
    spec = parse_unit(unit.strip())
    return isinstance(spec, UnitSpec) and spec.units is not None and spec.kind != ABSTRACT


def _glued(text: str, i: int) -> bool:
    """Whether ``text[i]`` continues an identifier or number: ``fp16``, ``x_2``, ``1/2/2020``."""
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_./")


def _divides(items: list[Item], text: str, i: int) -> bool:
    """Whether the number at ``i`` divides a quantity written with a unit (``6 m/3``,
    ``10 MHz/12``): a number of the text, though glued to the ``/`` (``m/s`` is a unit
    and ends in no digit, so it never gets here)."""
    last = items[-1] if items else None
    return (
        text[i - 1] == "/" and isinstance(last, Quantity) and last.unit is not None
        and last.end == i - 1
    )  # fmt: skip


def _attached(text: str, i: int) -> bool:
    """Whether a sign at ``i`` follows an operand, so is a hyphen or binary minus, not a sign."""
    return _glued(text, i) or (i > 0 and text[i - 1] in ")]}%")


def _list_items(
    text: str, j: int, close: re.Pattern[str], grouped: bool
) -> tuple[list[Quantity], int, bool] | None:
    """Items up to the closing bracket, its end, and whether any separator was spaced."""
    items: list[Quantity] = []
    spaced = False
    while (item := _quantity(text, j, len(text), signed=True, grouped=grouped)) is not None:
        items.append(item)
        if shut := close.match(text, item.end):
            return items, shut.end(), spaced
        if not (sep := _LIST_SEP.match(text, item.end)):
            return None
        j, spaced = sep.end(), spaced or bool(sep.group(1))
    return None


def _number_list(text: str, i: int) -> NumberList | None:
    """Brackets first read every comma as a separator; ``1,024`` grouping applies only when the
    separators are spaced (``[1,024, 2,048]``), since ``[1,100]`` is more likely two numbers."""
    opening = _OPEN.match(text, i)
    if opening is None:
        return None
    close = _CLOSE[opening.group(1)]
    parsed = _list_items(text, opening.end(), close, grouped=False)
    if parsed is not None and parsed[2]:
        parsed = _list_items(text, opening.end(), close, grouped=True)
    if parsed is None or (opening.group(1) == "(" and len(parsed[0]) < 2):
        return None  # "(2)" is a parenthesis, not a tuple
    items, end, _ = parsed
    return NumberList(tuple(items), text[i:end], i, end)


@lru_cache(maxsize=32)
def _slot_pattern(nouns: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(sorted(map(re.escape, nouns), key=len, reverse=True))
    span = r"[0-9]{1,9}+(?:" + _WS + r"*(?:–|—|-|−|\.\.)" + _WS + "*[0-9]{1,9}+|" + _WS
    span += "+to" + _WS + "+[0-9]{1,9}+)?"
    sep = "(?:" + _WS + "*,(?:" + _WS + "?and)?" + _WS + "?|" + _WS + "+and" + _WS + "+)"
    tail = "(?P<open>" + _WS + "+(?:and" + _WS + r"+)?(?:onwards?|beyond|later)\b|\+)?"
    body = "(?P<noun>" + names + ")" + _WS + "?(?P<spec>" + span + "(?:" + sep + span + ")*+)"
    return re.compile(body + tail + r"(?![0-9]|\.[0-9])", re.IGNORECASE)


def _slot_set(text: str, i: int, pattern: re.Pattern[str]) -> SlotSet | None:
    match = pattern.match(text, i)
    if match is None:
        return None
    slots: set[int] = set()
    for part in re.split(r"\s*(?:,|&|\band\b)\s*", match.group("spec"), flags=re.I):
        bounds = re.findall("[0-9]+", part)
        if not bounds:
            continue
        low, high = int(bounds[0]), int(bounds[-1])
        if high < low or high - low + len(slots) > MAX_RANGE:
            return None  # "slots7–5" is a mistake to report, not a range to repair
        slots.update(range(low, high + 1))
    end = match.end()
    return SlotSet(frozenset(slots), text[i:end], i, end, match.group("noun"), bool(match["open"]))


class _Expression:
    """Recursive-descent parser for the left side of ``lhs = result``: sums and products of
    signed literals and parentheses, powers of literals and of parentheses (``10^(1/4)``,
    ``(1 − 0.05)²``), functions of a parenthesis (``e^(−0.0876)``, ``exp(…)``, ``ln(…)``,
    ``log(…)``, ``√(…)``) and ``π``. Exponents are bounded (``MAX_POWER``) so results stay
    small. An operand may carry a unit (``3 m/s × 2 s``): values are ``worked.Measure``s.

    `shift` adds an amount to the operand of that index (in the order written), so a caller
    can ask what the working gives when an operand is off by its rounding; `log10` reads an
    unmarked ``log`` as the common logarithm (lessons write both), and `logs` says whether
    one was read."""

    def __init__(
        self,
        text: str,
        end: int,
        shift: dict[int, sympy.Expr] | None = None,
        log10: bool = False,
    ) -> None:
        self.text, self.end = text, end
        self.operands: list[Quantity] = []
        self.operations = 0
        self.united = False  # whether an operand is written with a unit
        self.shift = shift or {}
        self.log10 = log10
        self.logs = False

    def _chain(self, i: int, depth: int, operator: re.Pattern[str], operand: _Parse) -> _Parsed:
        """The longest valid chain from ``i``; a dangling operator ends it before the operator."""
        first = operand(i, depth)
        if first is None:
            return None
        value, j = first
        while (op := operator.match(self.text, j, self.end)) is not None:
            mark = (len(self.operands), self.operations)
            right = operand(op.end(), depth)
            if right is None:
                del self.operands[mark[0] :]
                self.operations = mark[1]
                break
            symbol = op.group(1) or "×"  # a coefficient before a logarithm or a glued factor
            if symbol in "+-−":
                value = value + right[0] if symbol == "+" else value - right[0]
            else:
                value = value / right[0] if symbol in "/÷" else value * right[0]
            j, self.operations = right[1], self.operations + 1
        return value, j

    def expr(self, i: int, depth: int) -> _Parsed:
        return self._chain(i, depth, _ADD, self.term)

    def term(self, i: int, depth: int) -> _Parsed:
        return self._chain(i, depth, _MUL, self.factor)

    def _operand(self, i: int, literal: _Literal, value: sympy.Expr) -> _Parsed:
        """One written operand, with the unit after it if any (`6 m` in `6 m/3`); `π` is a
        constant, not a number the lesson states."""
        if literal.value is sympy.pi and self.text[i] == "π":
            return worked.Measure(value), literal.end  # `π = 300 TFLOP/s` names a symbol
        value = value + self.shift.get(len(self.operands), 0)
        unit, end = _suffix(self.text, literal.end, self.end)
        measure = worked.Measure(value)
        if unit is not None:
            units = worked.units(unit)
            if units is None:
                return None
            measure, self.united = worked.Measure(value, units), True
        self.operands.append(
            Quantity(
                value,
                self.text[i:end],
                i,
                end,
                literal.decimals,
                literal.exponent,
                unit,
                base=literal.base,
                call=literal.argument,
            )  # fmt: skip
        )
        self.operations += literal.power or literal.call
        return measure, end

    def _signed_literal(self, i: int, sign: re.Match[str]) -> _Parsed:
        """`−0.1` in `0.9×(−0.1)`: one operand written with its sign, quoted as such."""
        literal = _literal(self.text, sign.end(), self.end, fractions=False, pi=True)
        if literal is None or _POW_PAREN.match(self.text, literal.end, self.end):
            return None  # `−2^(…)` is −(2^(…)): the sign applies to the power
        return self._operand(i, literal, literal.value if sign.group() == "+" else -literal.value)

    def factor(self, i: int, depth: int) -> _Parsed:
        if depth > MAX_DEPTH:
            return None
        if sign := _SIGN.match(self.text, i, self.end):
            if signed := self._signed_literal(i, sign):
                return signed
            inner = self.factor(sign.end(), depth + 1)
            if inner is None or sign.group() == "+":
                return inner
            return -inner[0], inner[1]
        if call := _CALL.match(self.text, i, self.end):  # `e^(−0.0876)`, `ln(2)`, `√(9.5)`
            return self._power(self._call(call, depth), depth)
        if paren := _LPAREN.match(self.text, i, self.end):
            inner = self._power(self._group(paren.end(), depth), depth)
            return self._united(inner)
        if opening := _ROUNDED.match(self.text, i, self.end):
            close, rounding = _ROUNDING[opening.group(1)]
            inner = self._group(opening.end(), depth, close)
            return self._power(self._rounded(inner, rounding), depth)
        literal = _literal(self.text, i, self.end, fractions=False, pi=True)
        if literal is None:
            return None
        return self._power(self._operand(i, literal, literal.value), depth)

    def _united(self, parsed: _Parsed) -> _Parsed:
        """`(5 − 0.5) V / 10 V/µs`: a unit after a bracket of bare numbers is theirs."""
        if parsed is None or parsed[0].units != worked.Measure(0).units:
            return parsed
        unit, end = _suffix(self.text, parsed[1], self.end)
        if unit is None or end == parsed[1] or (units := worked.units(unit)) is None:
            return parsed
        self.united = True
        return worked.Measure(parsed[0].value, units), end

    def _group(self, i: int, depth: int, close: re.Pattern[str] = _CLOSE_PAREN) -> _Parsed:
        """The expression inside a bracket opened before `i`, up to its closing one."""
        inner = self.expr(i, depth + 1)
        closed = inner and close.match(self.text, inner[1], self.end)
        return (inner[0], closed.end()) if inner and closed else None

    def _rounded(self, inner: _Parsed, rounding: Callable[[sympy.Expr], sympy.Expr]) -> _Parsed:
        """`⌊228/49⌋`, `⌈1,000,000/1460⌉`: a count rounded down or up, of a pure number."""
        if inner is None or inner[0].units != worked.Measure(0).units:
            return None
        self.operations += 1
        return worked.Measure(rounding(inner[0].value)), inner[1]

    def _call(self, call: re.Match[str], depth: int) -> _Parsed:
        inner = self._group(call.end(), depth)
        name = call.group(1)
        root = name in ("√", "sqrt")
        if inner is None or inner[0].units != worked.Measure(0).units and not root:
            return None  # a function of a quantity with a unit is not arithmetic to check
        value = inner[0].value
        self.operations += 1
        if root:
            return (inner[0].sqrt(), inner[1]) if not value.is_negative else None
        if name in ("e^", "exp"):
            return (worked.Measure(sympy.exp(value)), inner[1]) if _small(value) else None
        if name == "tanh":  # `tanh(1.0)/1.0 ≈ 0.762`: a fin's efficiency
            return worked.Measure(sympy.tanh(value)), inner[1]
        if not value.is_positive:
            return None
        if name == "log":
            self.logs = True
        ten = name in ("log10", "log₁₀", "lg") or (name == "log" and self.log10)
        base = 2 if name in ("log2", "log₂") else 10 if ten else None
        logarithm = sympy.log(value, base) if base else sympy.log(value)
        return worked.Measure(logarithm), inner[1]

    def _power(self, parsed: _Parsed, depth: int) -> _Parsed:
        """A power after an operand or a parenthesis: `^(1/4)`, `^2`, `²`."""
        if parsed is None:
            return None
        base, j = parsed
        exponent: sympy.Expr | None = None
        if opening := _POW_PAREN.match(self.text, j, self.end):
            inner = self._group(opening.end(), depth)
            if inner is None or inner[0].units != worked.Measure(0).units:
                return None
            exponent, j = inner[0].value, inner[1]
        elif self.text[j - 1 : j] == ")" and (power := _POW.match(self.text, j, self.end)):
            written = (power.group(1) or power.group(2) or power.group(3)).translate(_TO_ASCII)
            exponent, j = sympy.Rational(written), power.end()
        if exponent is None:
            return parsed
        if not _small(exponent) or (base.value == 0 and not exponent.is_positive):
            return None
        if base.units != worked.Measure(0).units and not exponent.is_Rational:
            return None
        self.operations += 1
        return base**exponent, j


_Parsed = tuple[worked.Measure, int] | None
_Parse = Callable[[int, int], _Parsed]


def _arithmetic(text: str) -> dict[int, Arithmetic]:
    """Worked computations, keyed by start. Anchoring on each ``=``/``≈`` and scanning at most
    ``MAX_EXPR`` characters back keeps the search linear on long or hostile input."""
    found: dict[int, Arithmetic] = {}
    floor = 0
    for relation in _RELATION.finditer(text):
        r = relation.start()
        low, floor = max(floor, r - MAX_EXPR), r + 1
        after, lhs_end = r + 1, r
        while after < len(text) and text[after] in _SPACES:
            after += 1
        while lhs_end > low and text[lhs_end - 1] in _SPACES:
            lhs_end -= 1
        if not _OPERATOR.search(text, low, lhs_end) and not _FUNCTION_WORD.search(
            text, low, lhs_end
        ):
            continue
        stated = _quantity(text, after, len(text), signed=True)
        if stated is not None and _MORE.match(text, stated.end):
            stated = None  # `= 0.075/0.19 ≈ 0.39`: an intermediate step, not the result
        if stated is not None and stated.call is not None and stated.call[2]:
            stated = None  # `= e^0.942 ≈ 2.57`: a rounded restatement, checked as a link
        if stated is not None and _unread(text, stated):
            stated = None  # `≈ 99.7 fM`: a unit that does not read is no bare number
        if stated is not None and stated.unit is None:
            stated = _worded(text, stated)
        k = low
        while stated is not None and (candidate := _OPERAND.search(text, k, lhs_end)):
            k = candidate.start()
            if (_attached if text[k] in "+-−" else _glued)(text, k):
                k += 1
                continue
            parser = _Expression(text, lhs_end)
            parsed = parser.expr(k, 0)
            if parsed is not None and parsed[1] == lhs_end and parser.operations:
                measure, operands, end = parsed[0], tuple(parser.operands), stated.end
                settled = worked.settle(measure, stated.unit) if parser.united else None
                if parser.united and (settled is None or settled[2] and _PER.match(text, end)):
                    break  # a result in a unit that cannot be computed with, or not all written
                if _partial(text, k, low) or _coefficient(text, k, low, stated.end):
                    break  # `π × 300²/400`, `10^(…)` not read whole: the working is not all here
                lhs, unit, problem = settled or (measure.value, "", "")
                level = level_after(text, stated.end) if stated.unit is None else None
                found[k] = Arithmetic(
                    lhs, operands, stated, _sign(relation), text[k:end], k, end, unit, problem,
                    text[k:lhs_end], parser.logs, level[0] if level else "",
                    _named(text, stated), _abbreviated(text, stated),
                )  # fmt: skip
                break
            k = parsed[1] if parsed is not None and parsed[1] > k else k + 1
    return found


@dataclass(frozen=True)
class Step:
    """One link of a chain of working whose middle is itself working or a conversion:
    `(12 − 3.3) × 0.275/(4.7×10⁻⁶ × 5×10⁵) = 2.3925/2.35` (`right` is working) or
    `0.184 s ≈ 184 ms` (`right` is one number in another unit). `left` and `right` are
    what is written on each side; the arithmetic check holds them equal."""

    left: Arithmetic | Quantity
    right: Arithmetic | Quantity
    relation: str


def steps(text: str, items: list[Item]) -> list[Step]:
    """The links of chains `extract` reads no number for: working equal to working, and a
    number equal to the same quantity in another unit. `items` is `extract(text)`."""
    found: list[Step] = []
    by_end: dict[int, Quantity] = {}
    for item in items:
        if isinstance(item, Arithmetic):
            by_end[item.result.end] = item.result
        elif isinstance(item, Quantity):
            by_end[item.end] = item
    starts: dict[int, Quantity] = {}
    for item in items:
        if isinstance(item, Quantity):  # `≈ 184 ms` is read with its ≈: key its digits
            starts[item.figures] = item
    for relation in _RELATION.finditer(text):
        r = relation.start()
        lhs_end, after = r, r + 1
        while lhs_end > 0 and text[lhs_end - 1] in _SPACES:
            lhs_end -= 1
        while after < len(text) and text[after] in _SPACES:
            after += 1
        left = by_end.get(lhs_end)
        right = starts.get(after)
        if left is not None and right is not None and left.unit and right.unit:
            if _partial(text, left.figures, 0):
                continue  # `0.38 × 1 ns = 380 ps`: the left side is more than the number
            if left.unit != right.unit and not _MORE.match(text, right.end):
                found.append(Step(left, right, _sign(relation)))
            continue
        step = _working_step(text, r, lhs_end, after, _sign(relation))
        if step is not None:
            found.append(step)
    return found


def _working(
    text: str, start: int, end: int, value: sympy.Expr, parser: _Expression, relation: str
) -> Arithmetic:
    """Working read on one side of a step, as an `Arithmetic` whose result is itself."""
    itself = Quantity(value, text[start:end], start, end, None)
    return Arithmetic(value, tuple(parser.operands), itself, relation, text[start:end], start,
                      end, working=text[start:end], logs=parser.logs)  # fmt: skip


def _working_step(text: str, r: int, lhs_end: int, after: int, relation: str) -> Step | None:
    """`working = working` where the right side is followed by another relation sign."""
    parser = _Expression(text, len(text))
    parsed = parser.expr(after, 0)
    if parsed is None or not parser.operations or parser.united:
        return None
    end = parsed[1]
    follow = end
    while follow < len(text) and text[follow] in _SPACES:
        follow += 1
    if follow >= len(text) or text[follow] not in "=≈":
        return None
    low = max(0, r - MAX_EXPR)
    k = low
    while candidate := _OPERAND.search(text, k, lhs_end):
        k = candidate.start()
        if (_attached if text[k] in "+-−" else _glued)(text, k):
            k += 1
            continue
        left = _Expression(text, lhs_end)
        read = left.expr(k, 0)
        if read is not None and read[1] == lhs_end and left.operations and not left.united:
            if _partial(text, k, low) or _coefficient(text, k, low, lhs_end):
                return None
            return Step(
                _working(text, k, lhs_end, read[0].value, left, relation),
                _working(text, after, end, parsed[0].value, parser, relation),
                relation,
            )
        k = read[1] if read is not None and read[1] > k else k + 1
    return None


_BINARY = frozenset("×*·⋅/÷^√")
_CALLS = "exp|ln|log|lg|sqrt|sin|cos|tan|tanh"  # functions prose calls by name
_CALLED = re.compile(rf"(?:\^|(?<![A-Za-z])(?:{_CALLS})|\b[A-Za-z])$")
_TOKEN = re.compile(r"(\w+)$")
_BARE_CALL = re.compile(rf"(?<![A-Za-z])(?:{_CALLS}|sinh|cosh)$")
_WORDS = frozenset("is of to by at so as be or an in on it we and the its".split())
_FUNCTION_START = re.compile(r"(?:ln|log|lg|exp|tanh|√)(?![A-Za-z])")
_SYMBOL_BEFORE = re.compile(  # `τ`, `R_s`, `t₀`, `kT`, `RC`: symbols, not a word (`adds ln 2`)
    r"(?<![\w])(?:[α-ωΑ-Ωϑϕϵ]|[B-HJ-Zb-z](?=$)|[A-Za-zα-ωΑ-Ω](?:_\w+|[₀-₉ₐ-ₜ]+)"
    r"|(?:[a-z][A-Z]|[A-Z]{2,3})(?=$))$"
)


def _coefficient(text: str, k: int, low: int, end: int) -> bool:
    """Whether a symbol or a number multiplies the function the working starts with (`τ ln
    2 = 26.7 × 0.693`: the working is τ ln 2, not ln 2), unless the result is that symbol's
    multiple too (`τ ln 9 ≈ 2.2τ`: ln 9 ≈ 2.2)."""
    i = k
    while i > low and text[i - 1] in _SPACES:
        i -= 1
    if i == k or not _FUNCTION_START.match(text, k):
        return False
    if text[i - 1].isdigit():
        return True  # `4.12 √16 = 4.12 × 4`: the number multiplies the root
    symbol = _SYMBOL_BEFORE.search(text, max(0, i - 8), i)
    if symbol is None:
        return False
    after = text[end : end + 12].lstrip(" \t\u00a0\u202f·×")
    return not after.startswith(symbol.group())


def _partial(text: str, k: int, low: int) -> bool:
    """Whether the working that starts at `k` continues to its left in a form the parser
    does not read (`π × 300²/400`, `x·0.2 + 1`, `e^(−0.09)`, `sin(0.5)`), so what was read
    is a part of it and its value is not the result's. A sign after a word (`is −0.75 × 2`)
    is a sign; after a symbol or a number (`T − 0.5 × 2`) it is an operator."""
    i = k
    while i > low and text[i - 1] in _SPACES:
        i -= 1
    if i <= 0:
        return False
    before, spaced = text[i - 1], i < k
    if before in _BINARY or before in ")]}":
        return True
    if before == "x" and spaced and i >= 2 and text[i - 2] in _SPACES:
        return True  # `6.02 x 12 + 1.76`, `40 x π x 25 mm`: times typed as a letter x
    if spaced and before.isdigit() and _CALL.match(text, k):
        return True  # `2 log₁₀(100)` read from `log₁₀`: the coefficient is left out
    if before in "([":
        return bool(_CALLED.search(text[max(0, i - 8) : i - 1]))
    if spaced and _BARE_CALL.search(text, max(0, i - 8), i):
        return True  # `1 − cos 10°`: the argument of a function written without brackets
    if before not in "+-−±∓":
        return False
    j = i - 1
    while j > 0 and text[j - 1] in _SPACES:
        j -= 1
    if j <= 0:
        return False
    operand = text[j - 1]
    if operand.isdigit() or operand in ")]}²³⁴π…⋯" or text[max(0, j - 3) : j] == "...":
        return True  # `1 + 1/2 + … + 1/10 ≈ 2.93`: the terms the ellipsis stands for too
    token = _TOKEN.search(text[max(0, j - 40) : j])
    if token is None or not operand.isalpha():
        return False
    word = token.group(1)
    if j == i - 1 and not spaced:
        return False  # `rate-5/6`: a hyphenated word
    return not (word.lower() in _WORDS or (len(word) >= 3 and word.isalpha()))


def evaluate(
    item: Arithmetic, *, shift: dict[int, sympy.Expr] | None = None, log10: bool = False
) -> worked.Measure | None:
    """The left side of `item` read again: with operands shifted (by index) or an unmarked
    `log` read as log10."""
    parser = _Expression(item.working, len(item.working), shift, log10)
    parsed = parser.expr(0, 0)
    if parsed is None or parsed[1] != len(item.working):
        return None
    return parsed[0]


def extract(text: str, *, slot_nouns: Iterable[str] = DEFAULT_SLOT_NOUNS) -> list[Item]:
    """Every number, list, slot set and worked computation in ``text``, in order, without
    overlaps; ``text[item.start:item.end] == item.text`` for each."""
    nouns = (slot_nouns,) if isinstance(slot_nouns, str) else tuple(slot_nouns)
    slot_pattern = _slot_pattern(nouns)
    text = text.translate(FOLD)  # an item's `text` holds ASCII digits for fullwidth ones
    worked = _arithmetic(text)
    items: list[Item] = []
    pos = 0
    while (start := _START.search(text, pos)) is not None:
        i, c = start.start(), text[start.start()]
        item: Item | None = None
        if c in _DIGITS:
            if not _glued(text, i) or _divides(items, text, i):
                item = worked.get(i) or _quantity(text, i, len(text), signed=False)
        elif c in "\\[(":
            item = _number_list(text, i) or worked.get(i)
        elif c in "+-−≈~∼√":
            if c not in "+-−" or not _attached(text, i):
                item = worked.get(i) or _hedged(worked, text, i)
                item = item or _quantity(text, i, len(text), signed=True)
        else:
            item = worked.get(i) or _slot_set(text, i, slot_pattern)
            if item is None and (c in "le" or c in VULGAR):
                item = _quantity(text, i, len(text), signed=False)
        if item is not None:
            items.append(item)
        pos = start.end() if item is None else item.end
    return items


def _unread(text: str, stated: Quantity) -> bool:
    """Whether a bare result is followed by a word meant as a unit that does not read (a
    level, `dB`, is read apart and is no such word), or by a unit only tables read
    (`2³² s ≈ 136 years`)."""
    if stated.unit is not None or level_after(text, stated.end):
        return False
    bracketed = _BRACKETED_UNIT.match(text, stated.end)
    if bracketed is not None and _readable(bracketed.group(1)):
        return True  # `≈ 7,340 (Gb/s)²·km`: a unit that opens with a bracket
    return unread_unit_after(text, stated.end) is not None or bool(
        _TABLE_TIME.match(text, stated.end)
    )


_BRACKETED_UNIT = re.compile(_WS + r"\(([^()\s]{1,24})\)")


_NOUN = re.compile(_WS + r"+([A-Za-z][A-Za-z-]*)")
_NOT_NOUNS = frozenset(
    "a an and as at but by for in is it of on or so than that the then to was were when "
    "where which while with".split()
)


def _named(text: str, stated: Quantity) -> bool:
    """Whether a result without a unit is followed by a noun that says what it counts
    (`≈ 53,400 IOPS`, `= 0.6 defects`): the noun may hold a dimension the vocabulary does
    not read (operations per second), so a left side with a dimension is no proof of a
    mistake there."""
    if stated.unit is not None:
        return False
    found = _NOUN.match(text, stated.end)
    return found is not None and found.group(1).lower() not in _NOT_NOUNS


def _abbreviated(text: str, stated: Quantity) -> bool:
    """Whether the noun after a result without a unit is an abbreviation in capitals
    (`≈ 141 CFM`, `IOPS`, `GPM`, `"MFLOPS"`): a unit the vocabulary does not read, which
    the working may have been converted to without a word."""
    found = _QUOTED_NOUN.match(text, stated.end) if stated.unit is None else None
    return found is not None and 2 <= len(found.group(1)) <= 7 and found.group(1).isupper()


_QUOTED_NOUN = re.compile(_WS + r"+[\"“'‘]?([A-Za-z][A-Za-z-]*)")  # `= 24,576 "MFLOPS"` too


def _worded(text: str, stated: Quantity) -> Quantity:
    """A bare result of working as the word after it counts it: in percentage points
    (`5.0/14 ≈ 35.7 points`: a percent), in the time of a resource (`CPU-hours`: hours),
    or in millions or billions written as a letter,
    which the result's text then ends in (`≈ 176.2 M weights`; `arithmetic` compares it)."""
    if _POINTS.match(text, stated.end):
        return replace(stated, unit="%")
    if timed := _RESOURCE_TIME.match(text, stated.end):  # `≈ 41 CPU-hours`: in hours
        return replace(stated, unit=_TIME_UNITS[timed.group(1)])
    if short := _SHORT_MAGNITUDE.match(text, stated.end):
        return replace(stated, text=text[stated.start : short.end()], end=short.end())
    return stated


def _hedged(worked: dict[int, Arithmetic], text: str, i: int) -> Arithmetic | None:
    """The working after a hedge (`g_m ≈ 1.322/25.85 ≈ 51.1 mS`): the `≈` relates a symbol
    to it, and the working is judged as any other (read as one hedged number, `≈ 1.322`,
    it was never checked)."""
    hedge = _HEDGE.match(text, i)
    return worked.get(hedge.end()) if hedge else None


def quantities(items: Iterable[Item]) -> list[Quantity]:
    """The stated numbers among ``items``: list members, arithmetic operands then result."""
    out: list[Quantity] = []
    for item in items:
        if isinstance(item, Quantity):
            out.append(item)
        elif isinstance(item, NumberList):
            out.extend(item.items)
        elif isinstance(item, Arithmetic):
            out.extend((*item.operands, item.result))
    return out


def parse_quantity(text: str) -> Quantity:
    """Parse one number (``−0.75.``, ``+0.75``, ``1,024``, ``≈ 0.665``, ``ln 3``, ``12.5%``);
    surrounding whitespace and one trailing punctuation mark are ignored. Offsets refer to
    ``text``. Raises ``ValueError`` when the text is not exactly one number."""
    start = len(text) - len(text.lstrip())
    end = len(text.rstrip())
    if end > start and text[end - 1] in ".,;:!?":
        end = len(text[: end - 1].rstrip())
    quantity = _quantity(text, start, end, signed=True) if end > start else None
    if quantity is None or quantity.end != end:
        raise ValueError(f"not a single number: {text!r}")
    return quantity


def parse_number(text: str) -> sympy.Expr:
    """The exact value of the single number in ``text`` (see ``parse_quantity``)."""
    return parse_quantity(text).value
