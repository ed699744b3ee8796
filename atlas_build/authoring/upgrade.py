"""Claims files written for an earlier atlas-build, rewritten to the form it reads now.

`atlas-build fix` runs this on the `claims.yaml` beside every lesson it is given. A claims
file that passed with an earlier release keeps passing, or `fix` rewrites the forms this
release reads differently and says, per value, what it changed and why. The rewrites:

- **A value written with a unit** (rule `value-unit`). Until 42b91c7 (2026-12-02) a formula
  claim's `values: {Z: "9 s"}` dropped the unit and used the bare number; since, it is an
  A404 ("carries a unit"): a value is a bare number in the unit the lesson's symbol table
  gives its symbol. `fix` writes the number in that unit: the number as written when the
  units agree (`"9 s"` -> `9` for Z in seconds), converted exactly when they differ in
  scale (`"80 ms"` -> `0.08`), a percentage as its fraction for a dimensionless symbol
  (`"5%"` -> `0.05`), and the bare number the old release used when the table gives the
  symbol no unit. It leaves the value as it is, and says why, when the written unit and
  the table's are of different dimensions, when either does not read, or for a temperature
  whose zeros differ (a point shifts by 273.15, an interval does not): the author decides.

The file is edited in place, span by span: PyYAML's composer only locates each value, the
text around it (comments, layout, quoting style, the order of keys) is kept, and the edited
file must read back as the old one with exactly those values replaced, or nothing is
written. Only the claims file of the lesson folder is written, atomically; a folder or a
file that is a symbolic link is refused (A507) and nothing is written through it, and a
file that is not a regular file is not read (`paths.read_regular`).

A new rewrite is a function over one value (or one claim) that returns its replacement
and the reason, added to `_rewrite`, with a compatibility lesson in `tests/compat/` that
needs it and a test in `tests/test_authoring_upgrade.py` (see tests/compat/README.md).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy
import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from atlas_build import paths, safeyaml
from atlas_build.atomic import write_text
from atlas_build.diagnostics import Diagnostic, Location, at
from atlas_build.load import CLAIMS_FILE, LESSON_FILE, RECORD_FILE
from atlas_build.outputcodes import OUTPUT_LINK

_STR = "tag:yaml.org,2002:str"
_DECIMALS = 24  # a converted value longer than this as a decimal is written as a fraction


@dataclass(frozen=True)
class Change:
    """One value rewritten: where it is (1-based), the text it had and has, and why."""

    line: int
    column: int
    claim: str
    where: str
    old: str
    new: str
    why: str
    rule: str = "value-unit"


@dataclass(frozen=True)
class Kept:
    """A value a rule recognised as an old form but could not rewrite, and why."""

    line: int
    column: int
    claim: str
    where: str
    text: str
    why: str


@dataclass
class Upgraded:
    """The rewritten text of a claims file (the same text when nothing changed)."""

    text: str
    changes: list[Change] = field(default_factory=list)
    kept: list[Kept] = field(default_factory=list)


class UpgradeError(Exception):
    """The file cannot be upgraded (it does not read as YAML, say); nothing was changed."""


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    token: str
    pointer: tuple[str | int, ...]
    value: Any


def upgrade_text(text: str, units: Mapping[str, Any]) -> Upgraded:
    """Rewrite the old forms of a claims file's text. `units` maps a symbol name to the
    `UnitSpec` the lesson's symbol table gives it, or to its text where it does not read
    (`lesson_units`)."""
    try:
        document = safeyaml.load(text)
    except safeyaml.YamlError as error:
        raise UpgradeError(f"line {error.line}: {error.message}") from None
    offset = 1 if text.startswith("\ufeff") else 0
    try:
        root = yaml.compose(text[offset:], Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError) as error:
        raise UpgradeError(f"does not read as YAML: {error}") from None
    result = Upgraded(text)
    edits: list[_Edit] = []
    for index, claim, node in _formula_claims(root):
        params = _get(node, "params")
        values = _get(params, "values") if isinstance(params, MappingNode) else None
        if not isinstance(values, MappingNode):
            continue
        symbols = _symbols(params)
        for key_node, value_node in values.value:
            if not isinstance(key_node, ScalarNode):
                continue
            key = key_node.value
            pointer: tuple[str | int, ...] = ("claims", index, "params", "values", key)
            for path, scalar in _scalars(value_node, pointer):
                found = _rewrite(key, scalar.value, units, symbols)
                if found is None:
                    continue
                where = "values." + key + "".join(f"[{i}]" for i in path[len(pointer) :])
                line, column = scalar.start_mark.line + 1, scalar.start_mark.column + 1
                old = text[offset + scalar.start_mark.index : offset + scalar.end_mark.index]
                if isinstance(found, str):
                    result.kept.append(Kept(line, column, claim, where, old, found))
                    continue
                value, written, why = found
                token = _token(written, value, old)
                start, end = offset + scalar.start_mark.index, offset + scalar.end_mark.index
                edits.append(_Edit(start, end, token, path, yaml.safe_load(token)))
                result.changes.append(Change(line, column, claim, where, old, token, why))
    if not edits:
        return result
    rewritten = text
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        rewritten = rewritten[: edit.start] + edit.token + rewritten[edit.end :]
    _same_but(document.data, rewritten, edits)
    result.text = rewritten
    return result


def _formula_claims(root: Node | None) -> Iterator[tuple[int, str, MappingNode]]:
    """(index, id, node) of every `formula` claim of the file."""
    claims = _get(root, "claims") if isinstance(root, MappingNode) else None
    if not isinstance(claims, SequenceNode):
        return
    for index, node in enumerate(claims.value):
        if not isinstance(node, MappingNode):
            continue
        kind, ident = _get(node, "kind"), _get(node, "id")
        if isinstance(kind, ScalarNode) and kind.value == "formula":
            name = ident.value if isinstance(ident, ScalarNode) else f"#{index}"
            yield index, name, node


def _get(node: Node | None, key: str) -> Node | None:
    if not isinstance(node, MappingNode):
        return None
    for key_node, value in node.value:
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            return value
    return None


def _symbols(params: Node | None) -> list[str]:
    """The claim's `symbols` (`e` or `pi` read as plain symbols), which name keys too."""
    node = _get(params, "symbols")
    if not isinstance(node, SequenceNode):
        return []
    return [item.value for item in node.value if isinstance(item, ScalarNode)]


def _scalars(
    node: Node, pointer: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], ScalarNode]]:
    """The string scalars of a value: itself, or a vector's or a matrix's entries."""
    if isinstance(node, ScalarNode) and node.tag == _STR:
        yield pointer, node
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.value):
            yield from _scalars(item, (*pointer, index))


def _rewrite(
    key: str, written: str, units: Mapping[str, Any], symbols: list[str]
) -> tuple[sympy.Expr, str, str] | str | None:
    """Rule `value-unit` on one value: None when it is not an old form, the reason it is
    kept when it cannot be rewritten, else (value, number text, why)."""
    from atlas_build.claims.prose import numbers

    try:
        quantity = numbers.parse_quantity(written)
    except ValueError:
        return None
    if quantity.unit is None:
        return None
    unit = quantity.unit
    number = _number_text(written, unit)
    name = _symbol_name(key, symbols)
    spec = units.get(name) if name is not None else None
    if spec is None:
        if unit == "%":
            return quantity.value / 100, "", "a percentage is written as its fraction"
        why = (
            f"the symbol table gives {key} no unit: the bare number, as the releases that "
            "accepted a unit here read it"
        )
        return quantity.value, number, why
    return _converted(key, quantity.value, number, unit, spec)


def _converted(
    key: str, value: sympy.Expr, number: str, unit: str, spec: Any
) -> tuple[sympy.Expr, str, str] | str:
    """`value` in `unit`, written in the unit the table gives `key` (`spec`)."""
    from atlas_build import units as unitlib

    table = spec if isinstance(spec, str) else spec.text
    same = f"values are bare numbers in the symbol table's unit ({table})"
    if isinstance(spec, str) or spec.units is None:
        if _plain(unit) == _plain(table):
            return value, number, same
        return (
            f"the symbol table's unit for {key} ({table!r}) does not read; write the number in it"
        )
    source = unitlib.parse_unit(unit)
    if not isinstance(source, unitlib.UnitSpec) or source.units is None:
        return f"{unit!r} does not read as a unit; write the number in {table}"
    if not unitlib.convertible(source, spec):
        return (
            f"{unit!r} and the symbol table's {table!r} measure different things; the old "
            f"release used the bare number as {table}: write the value {key} is meant to have"
        )
    if source.units.offset != spec.units.offset:
        return (
            f"a temperature in {unit} where the table gives {table}: convert it by hand (a "
            "point shifts its zero, an interval does not)"
        )
    converted = unitlib.convert(value, source, spec)
    if converted == value:
        return value, number, same
    if not isinstance(converted, sympy.Rational):
        return f"{value} {unit} in {table} is not a rational number; write it by hand"
    why = f"values are bare numbers in the symbol table's unit: {number} {unit} in {table}"
    return converted, "", why


def _plain(unit: str) -> str:
    return re.sub(r"\s+", "", unit)


def _symbol_name(key: str, symbols: list[str]) -> str | None:
    """The symbol a `values` key names, as the formula kind reads it (`lambda`, `\\lambda`)."""
    from atlas_build.claims.kinds import _values
    from atlas_build.claims.running.registry import ClaimError

    try:
        return str(_values.symbol(key, symbols))
    except (ClaimError, ValueError):
        return None


def _number_text(written: str, unit: str) -> str:
    """The number of `"9 s"` as written (`9`), or "" when the unit is not at its end."""
    stripped = written.strip()
    if not stripped.endswith(unit):
        return ""
    return stripped[: -len(unit)].strip()


def _token(number: str, value: sympy.Expr, old: str) -> str:
    """The YAML text of the new value: the number as the author wrote it where YAML reads
    it as that number, else quoted (in the old quotes) so the claims reader parses it."""
    text = number or _decimal(value)
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError:
        loaded = None
    if isinstance(loaded, int) and not isinstance(loaded, bool) and loaded == value:
        return text
    if isinstance(loaded, float) and sympy.Rational(repr(loaded)) == value and "e" not in text:
        return text
    if old.startswith("'"):
        return "'" + text.replace("'", "''") + "'"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _decimal(value: sympy.Expr) -> str:
    """An exact rational as a decimal when it ends within `_DECIMALS` digits, else as
    LaTeX (`\\frac{1}{3}`), which the claims reader evaluates exactly."""
    rational = sympy.Rational(value)
    if rational.q == 1:
        return str(rational.p)
    denominator, twos, fives = rational.q, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    if denominator == 1:
        places = max(twos, fives)
        digits = str(abs(rational.p) * 10**places // rational.q)
        sign = "-" if rational < 0 else ""
        text = sign + digits[:-places].rjust(1, "0") + "." + digits[-places:].rjust(places, "0")
        if len(text) <= _DECIMALS:
            return text
    sign = "-" if rational < 0 else ""
    return f"{sign}\\frac{{{abs(rational.p)}}}{{{rational.q}}}"


def _same_but(data: Any, rewritten: str, edits: list[_Edit]) -> None:
    """The rewritten text must read back as the old data with exactly the edited values
    replaced; anything else (an edit that broke the layout) writes nothing."""
    try:
        after = safeyaml.load(rewritten).data
    except safeyaml.YamlError as error:
        raise UpgradeError(f"the rewritten file would not read (line {error.line})") from None
    expected = _copy(data)
    for edit in edits:
        target = expected
        for step in edit.pointer[:-1]:
            target = target[step]
        target[edit.pointer[-1]] = edit.value
    if after != expected:
        raise UpgradeError("the rewritten file would read differently than intended")


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_copy(value) for value in data]
    return data


def lesson_units(lesson_path: Path, max_bytes: int) -> dict[str, Any]:
    """Symbol name -> the UnitSpec the lesson's symbol tables give it, or the unit's text
    where it does not read (A421); UpgradeError when the lesson does not read (without its
    tables, no value's unit can be judged)."""
    from atlas_build import lesson, load
    from atlas_build.claims.coverage.dimensions import lesson_units as table
    from atlas_build.claims.coverage.dimensions import unread_units

    source = load.read(load.Found(lesson_path, lesson_path.parent.resolve()), max_bytes=max_bytes)
    content = source.data.get("content") if isinstance(source.data, dict) else None
    if not isinstance(content, str):
        raise UpgradeError(f"{lesson_path} does not read, so its symbol table is unknown")
    model = lesson.build(content)
    return {**unread_units(model), **table(model)}


@dataclass
class Outcome:
    """What `fix` says about one claims file (sources.fix_lesson adds it to the lesson's):
    a message per value rewritten or left, a summary line; A507 for a link."""

    messages: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    changed: bool = False


def upgrade_claims(lesson_path: Path, *, max_bytes: int, dry_run: bool = False) -> Outcome:
    """Upgrade the claims.yaml beside a lesson file (record.json or lesson.md): a message
    per value rewritten or left, then one that sums the file up; A507 for a link."""
    outcome = Outcome()
    claims = lesson_path.parent / CLAIMS_FILE
    if lesson_path.name not in (RECORD_FILE, LESSON_FILE) or not os.path.lexists(claims):
        return outcome
    name = str(claims)
    link = paths.first_link(claims)
    if link is not None:  # the file or its folder: nothing is read or written through it
        message = f"{link} is a symbolic link (to {os.readlink(link)}); nothing is written there"
        outcome.diagnostics.append(at(OUTPUT_LINK, Location(str(link), 1, 1), message))
        return outcome
    try:
        raw = paths.read_regular(claims, max_bytes)
    except paths.UnsafePath as error:  # a FIFO, a device: not read, not written
        outcome.messages.append(f"{name}: not upgraded: {error}")
        return outcome
    if len(raw) > max_bytes:
        outcome.messages.append(f"{name}: not upgraded: larger than {max_bytes} bytes")
        return outcome
    try:
        upgraded = upgrade_text(raw.decode("utf-8"), lesson_units(lesson_path, max_bytes))
    except UnicodeDecodeError:
        outcome.messages.append(f"{name}: not upgraded: not UTF-8 text")
        return outcome
    except UpgradeError as error:
        outcome.messages.append(f"{name}: not upgraded: {error}")
        return outcome
    for change in upgraded.changes:
        outcome.messages.append(
            f"{name}:{change.line}:{change.column}: claim {change.claim}: {change.where}: "
            f"{change.old} -> {change.new} ({change.why})"
        )
    for kept in upgraded.kept:
        outcome.messages.append(
            f"{name}:{kept.line}:{kept.column}: claim {kept.claim}: {kept.where}: {kept.text} "
            f"left as is: {kept.why}"
        )
    count = len(upgraded.changes)
    values = f"{count} value{'s' if count != 1 else ''}"
    if not count:
        outcome.messages.append(f"{name}: claims up to date")
    elif dry_run:
        outcome.messages.append(f"{name}: would rewrite {values} (--dry-run: nothing written)")
    else:
        outcome.changed = write_text(claims, upgraded.text)
        outcome.messages.append(f"{name}: rewrote {values}")
    return outcome
