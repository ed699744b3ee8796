"""`atlas-build fix` on claims files written for an earlier release (authoring/upgrade.py):
each rewrite, what it keeps of the author's text, what it refuses, and where it writes.
The compatibility corpus that needs these rewrites is tests/test_compat.py's."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from atlas_build.authoring import sources, upgrade
from atlas_build.units import parse_unit

pytestmark = pytest.mark.filterwarnings("error")


def _units(**table: str) -> dict[str, Any]:
    """As `upgrade.lesson_units` gives them: a UnitSpec, or the text of a unit that does
    not read."""
    specs = {name: parse_unit(text) for name, text in table.items()}
    return {
        name: spec if getattr(spec, "units", None) is not None else table[name]
        for name, spec in specs.items()
    }


def _claims(values: str, kind: str = "formula") -> str:
    return (
        "# kept: the author's comment\n"
        "claims:\n"
        "  - id: worked\n"
        f"    kind: {kind}\n"
        '    quote: "With v = 3 m/s and t = 2 s the distance is d = 6 m."  # trailing note\n'
        "    bind: [v, t, d]\n"
        "    params:\n"
        f"      values: {values}\n"
        "      use: [{equation: 0, relation: 0}]\n"
    )


def test_a_value_in_the_tables_unit_loses_only_its_unit_and_the_rest_is_kept() -> None:
    text = _claims('{v: "3 m/s", t: "2 s"}')
    done = upgrade.upgrade_text(text, _units(v="m/s", t="s", d="m"))
    assert done.text == _claims("{v: 3, t: 2}")
    assert [(c.where, c.old, c.new, c.line, c.column) for c in done.changes] == [
        ("values.v", '"3 m/s"', "3", 8, 19),
        ("values.t", '"2 s"', "2", 8, 31),
    ]
    assert all("symbol table's unit" in change.why for change in done.changes)
    assert done.kept == []


def test_block_style_single_quotes_and_plain_scalars_are_edited_in_place() -> None:
    text = _claims("\n        v: '3 m/s'   # speed\n        t: 2 s\n        d: '6'")
    done = upgrade.upgrade_text(text, _units(v="m/s", t="seconds"))
    assert done.text == _claims("\n        v: 3   # speed\n        t: 2\n        d: '6'")


def test_a_value_in_another_unit_of_the_same_dimension_is_converted_exactly() -> None:
    text = _claims('{t: "80 ms", R: "2 kΩ", T: "1.5 min", x: "1 s"}')
    done = upgrade.upgrade_text(text, _units(t="s", R="Ω", T="s", x="ms"))
    assert done.text == _claims("{t: 0.08, R: 2000, T: 90, x: 1000}")
    assert "80 ms in s" in done.changes[0].why


def test_a_conversion_that_does_not_end_is_written_as_an_exact_fraction() -> None:
    text = _claims('{t: "1 s"}')
    done = upgrade.upgrade_text(text, _units(t="min"))
    assert done.text == _claims('{t: "\\\\frac{1}{60}"}')
    from atlas_build.claims.kinds import _values

    assert str(_values.number("\\frac{1}{60}", "values.t")) == "1/60"


def test_a_percentage_is_its_fraction_unless_the_table_counts_in_percent() -> None:
    text = _claims('{p: "95%", q: "12.5%", e: "40 %"}')
    done = upgrade.upgrade_text(text, _units(p="dimensionless", e="%"))
    assert done.text == _claims("{p: 0.95, q: 0.125, e: 40}")
    assert "fraction" in done.changes[1].why


def test_no_table_unit_keeps_the_bare_number_the_old_release_used() -> None:
    done = upgrade.upgrade_text(_claims('{v: "3 m/s"}'), {})
    assert done.text == _claims("{v: 3}")
    assert "gives v no unit" in done.changes[0].why


def test_a_table_unit_that_does_not_read_takes_only_the_same_text() -> None:
    done = upgrade.upgrade_text(_claims('{v: "3 nH"}'), {"v": "nH "})
    assert done.text == _claims("{v: 3}")


def test_vector_entries_are_rewritten_one_by_one() -> None:
    text = _claims('{x: ["1 V", 2, "3 mV"], M: [["1 V", "2 V"]]}')
    done = upgrade.upgrade_text(text, _units(x="V", M="V"))
    assert done.text == _claims("{x: [1, 2, 0.003], M: [[1, 2]]}")
    assert [c.where for c in done.changes] == ["values.x[0]", "values.x[2]", "values.M[0][0]",
                                               "values.M[0][1]"]  # fmt: skip


def test_written_numbers_keep_their_digits_and_forms() -> None:
    text = _claims('{a: "1,000 W", b: "10⁻⁸ s", c: "−5 V", d: "0.50 A"}')
    done = upgrade.upgrade_text(text, _units(a="W", b="s", c="V", d="A"))
    assert done.text == _claims('{a: "1,000", b: "10⁻⁸", c: "−5", d: 0.50}')


@pytest.mark.parametrize(
    ("value", "table", "reason"),
    [
        ('"2 kΩ"', "V", "measure different things"),
        ('"20 °C"', "K", "temperature"),
        ('"3 nH"', "nh", "does not read"),
    ],
)
def test_what_cannot_be_rewritten_is_left_as_it_is_with_the_reason(
    value: str, table: str, reason: str
) -> None:
    text = _claims(f"{{v: {value}}}")
    done = upgrade.upgrade_text(text, _units(v=table))
    assert done.text == text
    assert done.changes == []
    [kept] = done.kept
    assert kept.where == "values.v" and kept.text == value and reason in kept.why


def test_values_in_the_current_form_and_other_kinds_are_not_touched() -> None:
    current = _claims('{v: 3, t: "ln 3", s: "10^{-8}", u: "v - 1", w: "2×10⁻³", x: "√9.5"}')
    assert upgrade.upgrade_text(current, _units(v="m/s")).changes == []
    other = _claims('{v: "3 m/s"}', kind="equation")
    assert upgrade.upgrade_text(other, _units(v="m/s")).text == other


def test_a_key_written_in_latex_finds_its_table_entry() -> None:
    text = _claims('{"\\\\lambda": "0.5 s", "W_{\\\\mathrm{max}}": "4 ms"}')
    done = upgrade.upgrade_text(text, _units(**{"lambda": "s", "W_max": "s"}))
    assert done.text == _claims('{"\\\\lambda": 0.5, "W_{\\\\mathrm{max}}": 0.004}')


def test_a_file_that_does_not_read_is_not_upgraded() -> None:
    with pytest.raises(upgrade.UpgradeError, match="line"):
        upgrade.upgrade_text("claims: [\n", {})
    with pytest.raises(upgrade.UpgradeError):
        upgrade.upgrade_text("claims: &a [*a]\n", {})  # aliases: refused as ever


SKELETON_VALUES = "values: {v: 3, t: 2}"


def _lesson(tmp_path: Path, values: str = '{v: "3 m/s", t: "2 s"}') -> Path:
    sources.new_lesson("walk", tmp_path / "content", title=None, topic="Mechanics")
    folder = tmp_path / "content" / "walk"
    claims = folder / "claims.yaml"
    text = claims.read_text(encoding="utf-8")
    assert SKELETON_VALUES in text
    claims.write_text(text.replace(SKELETON_VALUES, f"values: {values}"), encoding="utf-8")
    return folder


def test_fix_dry_run_says_what_it_would_change_and_writes_nothing(
    tmp_path: Path, run_cli: Any
) -> None:
    folder = _lesson(tmp_path)
    before = (folder / "claims.yaml").read_bytes()
    result = run_cli("fix", "--dry-run", folder)
    assert result.code == 0, result.err
    claims = folder / "claims.yaml"
    assert f'{claims}:11:19: claim main-relation: values.v: "3 m/s" -> 3 (' in result.out
    assert f"{claims}: would rewrite 2 values (--dry-run: nothing written)" in result.out
    assert claims.read_bytes() == before


def test_fix_rewrites_the_file_says_so_and_the_lesson_passes(tmp_path: Path, run_cli: Any) -> None:
    folder = _lesson(tmp_path)
    assert run_cli("check", "--no-cache", folder).code == 1  # A404: carries a unit
    result = run_cli("fix", folder)
    claims = folder / "claims.yaml"
    assert result.code == 0 and f"{claims}: rewrote 2 values" in result.out, result.out
    assert SKELETON_VALUES in claims.read_text(encoding="utf-8")
    assert run_cli("check", "--no-cache", folder).code == 0
    again = run_cli("fix", folder)
    assert f"{claims}: claims up to date" in again.out


def test_fix_never_writes_through_a_linked_claims_file(tmp_path: Path, run_cli: Any) -> None:
    folder = _lesson(tmp_path)
    target = tmp_path / "elsewhere.yaml"
    os.replace(folder / "claims.yaml", target)
    original = target.read_bytes()
    (folder / "claims.yaml").symlink_to(target)
    outcome = upgrade.upgrade_claims(folder / "lesson.md", max_bytes=1 << 20)
    assert [d.code for d in outcome.diagnostics] == ["A507"]
    assert target.read_bytes() == original and (folder / "claims.yaml").is_symlink()


def test_fix_never_writes_into_a_linked_lesson_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _lesson(tmp_path)
    real = tmp_path / "real-walk"
    os.replace(folder, real)
    folder.symlink_to(real, target_is_directory=True)
    original = (real / "claims.yaml").read_bytes()
    monkeypatch.chdir(tmp_path)
    outcome = upgrade.upgrade_claims(Path("content/walk/lesson.md"), max_bytes=1 << 20)
    assert [d.code for d in outcome.diagnostics] == ["A507"]
    assert (real / "claims.yaml").read_bytes() == original


def test_a_claims_file_that_is_not_a_regular_file_is_not_read(tmp_path: Path) -> None:
    folder = _lesson(tmp_path)
    (folder / "claims.yaml").unlink()
    os.mkfifo(folder / "claims.yaml")
    outcome = upgrade.upgrade_claims(folder / "lesson.md", max_bytes=1 << 20)
    assert outcome.diagnostics == [] and not outcome.changed
    assert any("not upgraded" in message for message in outcome.messages)


def test_a_lesson_that_does_not_read_leaves_its_claims_as_they_are(tmp_path: Path) -> None:
    folder = _lesson(tmp_path)
    (folder / "lesson.md").write_text("no front matter\n", encoding="utf-8")
    before = (folder / "claims.yaml").read_bytes()
    outcome = upgrade.upgrade_claims(folder / "lesson.md", max_bytes=1 << 20)
    assert any("symbol table is unknown" in message for message in outcome.messages)
    assert (folder / "claims.yaml").read_bytes() == before
