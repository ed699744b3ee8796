"""Physical constants a glossary names: `k — Boltzmann constant, 8.617×10⁻⁵ eV/K`, `q —
Elementary charge`, `g — Gravitational acceleration, 9.81`.

A lesson lists k, q, h or c in its glossary and then writes `V_T = kT/q ≈ 25.85 mV` with
no `k = …` in its prose: the constant is known, so the relation can be evaluated. An entry
is a constant when the name its meaning starts with is one of `_CONSTANTS` (a Stefan–
Boltzmann constant is no Boltzmann constant; a specific gas constant in J/(kg·K) does not
convert to J/(mol·K) and is left alone). Its value is the number the meaning writes, with
the digits written, when that number is the constant to `SLACK`; otherwise, or when none
is written, the CODATA value, taken as good to `SLACK` because an author may have worked
with 1.38×10⁻²³ or 1.6×10⁻¹⁹. A value the glossary's unit cannot take is no constant.
"""

from __future__ import annotations

import re
from dataclasses import replace

import sympy

from atlas_build.claims.infer.statements import CONSTANT, Stated, in_unit, meaning_head
from atlas_build.claims.infer.values import Known, Reading, known
from atlas_build.claims.prose import numbers
from atlas_build.lesson.model import Lesson
from atlas_build.units import UnitError, UnitSpec, convert

SLACK = sympy.Rational(2, 1000)  # relative: 1.6×10⁻¹⁹ is the elementary charge to 0.14%

_THE = r"^(?:the\s+)?"
_TAIL = r"(?:\s+(?:magnitude|value|constant))?$"
_CONSTANTS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(_THE + pattern + _TAIL, re.IGNORECASE), value, unit)
    for pattern, value, unit in (
        (r"boltzmann(?:'s)?\s+constant", "1.380649e-23", "J/K"),
        (
            r"(?:elementary|electron(?:ic)?)\s+charge|charge\s+of\s+(?:an|the)\s+electron",
            "1.602176634e-19",
            "C",
        ),
        (r"planck(?:'s)?\s+constant", "6.62607015e-34", "J*s"),
        (r"speed\s+of\s+light(?:\s+in\s+(?:a\s+)?(?:vacuum|free\s+space))?", "299792458", "m/s"),
        (
            r"vacuum\s+permittivity|permittivity\s+of\s+(?:free\s+space|vacuum)|electric\s+constant",
            "8.8541878128e-12",
            "F/m",
        ),
        (
            r"vacuum\s+permeability|permeability\s+of\s+(?:free\s+space|vacuum)|magnetic\s+constant",
            "1.25663706212e-6",
            "H/m",
        ),
        (r"stefan[–-]boltzmann\s+constant", "5.670374419e-8", "W/(m^2*K^4)"),
        (r"avogadro(?:'s)?\s+(?:constant|number)", "6.02214076e23", "1/mol"),
        (r"(?:universal\s+|molar\s+|ideal\s+)?gas\s+constant", "8.314462618", "J/(mol*K)"),
        (
            r"standard\s+gravity|gravitational\s+acceleration|acceleration\s+(?:due\s+to|of)\s+gravity",
            "9.80665",
            "m/s^2",
        ),
    )
)


def known_constants(lesson: Lesson, table: dict[str, UnitSpec]) -> dict[str, Known]:
    """The constants the lesson's glossaries name (see the module docstring), by symbol."""
    found: dict[str, Known] = {}
    for glossary in lesson.glossaries:
        for entry in glossary.entries:
            if len(entry.names) != 1 or entry.names[0] in found:
                continue
            name = entry.names[0]
            head = meaning_head(entry.meaning).strip()
            spec = table.get(name)
            constant = next((c for c in _CONSTANTS if c[0].match(head)), None)
            if constant is None or spec is None or spec.units is None:
                continue
            _, written, unit = constant
            try:
                value = convert(sympy.Rational(written), unit, spec)
            except (UnitError, ValueError, TypeError):
                continue
            item = _written(entry.meaning, entry.meaning_offset, name, value, spec)
            text = f"{written} {unit} (CODATA)"
            found[name] = item or _codata(name, value, spec, text, entry.offset)
    return found


def _written(
    meaning: str, offset: int, name: str, value: sympy.Expr, spec: UnitSpec
) -> Known | None:
    """The value the meaning writes for the constant, when it is the constant to `SLACK`."""
    quantity = next((q for q in numbers.extract(meaning) if isinstance(q, numbers.Quantity)), None)
    if quantity is None:
        return None
    quantity = replace(quantity, start=quantity.start + offset, end=quantity.end + offset)
    stated = in_unit(quantity, spec)
    if stated is None or value == 0 or abs(stated / value - 1) > SLACK:
        return None
    return known(Stated(name, quantity, stated, -1, False, CONSTANT), spec)


def _codata(name: str, value: sympy.Expr, spec: UnitSpec, text: str, offset: int) -> Known:
    """The CODATA value in the glossary's unit, good to `SLACK`; its statement has no span
    (the prose writes no number for it)."""
    quantity = numbers.Quantity(value, text, offset, offset, None, unit=None)
    stated = Stated(name, quantity, value, -1, False, CONSTANT)
    slack = abs(value) * SLACK
    assert spec.units is not None
    scale = spec.units.scale
    glossary = Reading(value, slack, slack)
    base = Reading(value * scale + spec.units.offset, slack * scale, slack * scale)
    return Known(name, (glossary, base), stated)
