"""Binding quoted numbers to computed quantities: list lengths, occurrences, tolerance rules,
bounds and units; coverage; the claims array in the JSON report and in every output format."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from support import Checked, at, check, position, write_lesson, yaml_string

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def lesson(tmp_path: Path):
    """Write lesson.md + claims.yaml under tmp_path and run the real pipeline on them."""

    def make(body: str, claims: str, slug: str = "probe") -> Checked:
        return check(write_lesson(tmp_path, slug, body, claims))

    return make


def mixture_claim(claim_id: str, quote: str, bind: str, extra: str = "") -> str:
    return f"""
  - id: {claim_id}
    kind: softmax_mixture
    quote: {yaml_string(quote)}
    bind: {bind}
    params: {{scores: ["0", "ln 3"], values: [2, 6]}}{extra}
"""


# --- bind lists and occurrences -----------------------------------------------------------

WORKED = "With scores \\[0,ln3\\] and values \\[2,6\\] the output is 5."


def number_classes(result) -> dict[str, int]:  # type: ignore[no-untyped-def]
    numbers = result.record.coverage["numbers"]
    classes = ("verified", "input", "failed", "exempt", "unaccounted")
    assert numbers["total"] == sum(numbers[name] for name in classes)
    return {name: numbers[name] for name in classes if numbers[name]}


def test_bind_list_shorter_than_the_quote_is_a409_at_bind(lesson):
    body = f"## Worked example\n\n{WORKED}\n"
    result = lesson(body, "claims:" + mixture_claim("mix", WORKED, "[scores, values]"))
    assert result.status() == {"mix": "error"}
    [problem] = result.found("A409")
    assert "the quote has 3 numbers (\\[0,ln3\\], \\[2,6\\], 5) but bind lists 2" in (
        problem.message
    )
    assert at(problem) == result.claims_at("bind: ", shift=6)
    assert number_classes(result) == {"unaccounted": 5}  # the claim errored: nothing bound


def test_bind_list_longer_than_the_quote_is_a409(lesson):
    body = f"## Worked example\n\n{WORKED}\n"
    bind = "[scores, values, output, probabilities]"
    result = lesson(body, "claims:" + mixture_claim("mix", WORKED, bind))
    [problem] = result.found("A409")
    assert "has 3 numbers" in problem.message and "bind lists 4" in problem.message


def test_occurrences_checks_every_copy(lesson):
    body = f"## Worked example\n\n{WORKED}\n\n## Again\n\n{WORKED.replace('5.', '4.')}\n"
    claims = "claims:" + mixture_claim(
        "mix", WORKED, "[scores, values, output]", "\n    occurrences: 2"
    )
    result = lesson(body, claims)
    assert result.status() == {"mix": "fail"}
    [mismatch] = result.found("A401")
    assert "output: the lesson says 4, computed 5" in mismatch.message
    assert at(mismatch) == result.lesson_at("the output is 4", shift=len("the output is "))
    # both copies counted: the scores and values are the claim's inputs, one output is wrong
    assert number_classes(result) == {"input": 8, "verified": 1, "failed": 1}


def test_occurrences_two_with_one_removed_is_a402(lesson):
    body = f"## Worked example\n\n{WORKED}\n\n## Again\n\nThe same example, reworded.\n"
    claims = "claims:" + mixture_claim(
        "mix", WORKED, "[scores, values, output]", "\n    occurrences: 2"
    )
    result = lesson(body, claims)
    assert result.status() == {"mix": "fail"}
    [lost] = result.found("A402")
    assert "claim mix: found 1 of 2 occurrences" in lost.message
    assert at(lost) == result.claims_at("quote: ", shift=7)
    # the copy that is left is still checked
    assert [v["ok"] for v in result.claim("mix")["values"]] == [True, True, True]


def test_occurrences_two_both_present_passes(lesson):
    body = f"## Worked example\n\n{WORKED}\n\n## Again\n\n{WORKED}\n"
    claims = "claims:" + mixture_claim(
        "mix", WORKED, "[scores, values, output]", "\n    occurrences: 2"
    )
    result = lesson(body, claims)
    assert result.status() == {"mix": "pass"}
    assert len(result.claim("mix")["values"]) == 6


def test_null_binding_is_counted_but_not_bound(lesson):
    body = f"## Worked example\n\n{WORKED}\n"
    result = lesson(body, "claims:" + mixture_claim("mix", WORKED, "[null, values, output]"))
    assert result.status() == {"mix": "pass"}
    assert number_classes(result) == {"unaccounted": 2, "input": 2, "verified": 1}
    assert [v["name"] for v in result.claim("mix")["values"]] == ["values", "output"]


def test_edited_number_keeps_its_anchor(lesson):
    """The quote is matched on its words: `\\[2,7\\]` is found and compared, not lost."""
    body = f"## Worked example\n\n{WORKED.replace('[2,6', '[2,7')}\n"
    result = lesson(body, "claims:" + mixture_claim("mix", WORKED, "[scores, values, output]"))
    assert result.found("A402") == []
    [mismatch] = result.found("A401")
    assert "values: the lesson says \\[2,7\\], the claim fixes [2, 6]" in mismatch.message
    assert at(mismatch) == result.lesson_at("\\[2,7")


# --- quotes whose words occur at several places (table rows) ------------------------------

TABLE = """## Worked example

$$
d = v t
$$

At v = 3 m/s the distance grows with the time:

| t (s) | d (m) |
|---|---|
| 1 | {d1} |
| 2 | {d2} |
| 4 | {d4} |
"""


def row_claims(*rows: tuple[str, str], extra: str = "") -> str:
    """One formula claim per table row, quoting only its row."""
    claims = "claims:"
    for t, d in rows:
        claims += f"""
  - id: row-{t}
    kind: formula
    quote: "| {t} | {d} |"
    bind: [t, d]
    params:
      values: {{v: 3, t: {t}}}
      use: [{{equation: 0, relation: 0}}]{extra}
"""
    return claims


def test_a_claim_per_table_row_checks_only_its_row(lesson):
    """`| 2 | 6 |` has the skeleton of every row; only the row that writes 2 and 6 is its."""
    body = TABLE.format(d1=3, d2=6, d4=12)
    result = lesson(body, row_claims(("1", "3"), ("2", "6"), ("4", "12")))
    assert result.status() == {"row-1": "pass", "row-2": "pass", "row-4": "pass"}
    assert result.errors() == [] and result.found("A415") == []
    for t, d in (("1", "3"), ("2", "6"), ("4", "12")):
        [t_value, d_value] = result.claim(f"row-{t}")["values"]
        assert (t_value["quoted"], d_value["quoted"]) == (t, d)
        row = result.lesson_at(f"| {t} | {d} |", shift=len(f"| {t} | "))
        assert (d_value["line"], d_value["column"]) == row
    assert number_classes(result)["verified"] == 3


def test_an_edited_cell_fails_at_its_row_only(lesson):
    """The edited row differs from its claim's quote in one cell, every other row in two:
    one A401, at the edited cell, and the other rows' claims pass."""
    body = TABLE.format(d1=3, d2=7, d4=12)
    result = lesson(body, row_claims(("1", "3"), ("2", "6"), ("4", "12")))
    assert result.status() == {"row-1": "pass", "row-2": "fail", "row-4": "pass"}
    [mismatch] = result.found("A401")
    assert "claim row-2: d: the lesson says 7, computed 6" in mismatch.message
    assert at(mismatch) == result.lesson_at("| 2 | 7 |", shift=len("| 2 | "))
    assert result.found("A415") == []


def test_a_quote_of_two_rows_checks_the_window_that_writes_them(lesson):
    body = TABLE.format(d1=3, d2=6, d4=12)
    claims = row_claims(("1", "3")).replace('"| 1 | 3 |"', '"| 1 | 3 | | 2 | 6 |"')
    result = lesson(body, claims.replace("bind: [t, d]", "bind: [t, d, null, null]"))
    assert result.status() == {"row-1": "pass"}
    [spans] = [claim["spans"] for claim in result.record.claims]
    assert len(spans) == 1  # not also the window of rows 2 and 4


def test_a_quote_nearest_to_several_rows_checks_each_and_warns(lesson):
    """`| 2 | 6 |` against rows `| 2 | 7 |` and `| 4 | 6 |`: each differs in one number, so
    both are checked, and A415 says the quote is ambiguous and where."""
    body = TABLE.format(d1=3, d2=7, d4=6)
    result = lesson(body, row_claims(("2", "6")))
    assert result.status() == {"row-2": "fail"}
    [ambiguous] = result.found("A415")
    assert ambiguous.severity.value == "warning"
    assert at(ambiguous) == result.claims_at("quote: ", shift=7)
    two, four = result.lesson_at("| 2 | 7 |")[0], result.lesson_at("| 4 | 6 |")[0]
    assert f"fits 2 places that write different numbers (line {two}, line {four})" in (
        ambiguous.message
    )
    assert len(result.found("A401")) == 2  # 7 for d at t = 2, and 4 for the fixed t


def test_a_verbatim_repeated_sentence_is_checked_at_every_place(lesson):
    body = f"## Worked example\n\n{WORKED}\n\n## Again\n\n{WORKED}\n"
    result = lesson(body, "claims:" + mixture_claim("mix", WORKED, "[scores, values, output]"))
    assert result.status() == {"mix": "pass"}
    assert len(result.claim("mix")["spans"]) == 2
    assert len(result.claim("mix")["values"]) == 6
    assert result.found("A415") == []


def test_an_edited_copy_of_a_repeated_sentence_is_a_wrong_number_there(lesson):
    """A prose quote checks every place it fits: the copy edited to `output is 4` fails
    at the 4, with or without `occurrences`, whatever the verbatim copy says."""
    body = f"## Worked example\n\n{WORKED}\n\n## Again\n\n{WORKED.replace('5.', '4.')}\n"
    claim = mixture_claim("mix", WORKED, "[scores, values, output]")
    for slug, extra in (("alone", ""), ("both", "    occurrences: 2\n")):
        result = lesson(body, "claims:" + claim + extra, slug=slug)
        [mismatch] = result.found("A401")
        assert at(mismatch) == result.lesson_at("the output is 4", shift=len("the output is "))
        assert result.found("A415") == []


def test_occurrences_takes_the_nearest_places_of_a_table(lesson):
    """`occurrences: 2` on a row quote: the two rows nearest the quote are checked."""
    body = TABLE.format(d1=3, d2=6, d4=12) + "\n| 2 | 5 |\n"
    result = lesson(body, row_claims(("2", "6"), extra="\n    occurrences: 2"))
    [mismatch] = result.found("A401")
    assert "the lesson says 5, computed 6" in mismatch.message
    assert len(result.claim("row-2")["spans"]) == 2


# --- tolerance rules ----------------------------------------------------------------------


def softmax_top(sentence_number: str, bind: str = "[top]") -> tuple[str, str]:
    sentence = f"The top probability is {sentence_number}."
    claims = f"""
claims:
  - id: top
    kind: softmax
    quote: {yaml_string(sentence)}
    bind: {bind}
    params: {{logits: [2, 1, 0], temperature: 1}}
"""
    return f"## Worked example\n\n{sentence}\n", claims


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("0.665", "pass"),  # 0.66524..., half a unit in the last digit
        ("0.67", "pass"),
        ("0.6652", "pass"),
        ("0.666", "fail"),
        ("0.6653", "fail"),
        ("0.66", "fail"),
    ],
)
def test_half_a_unit_in_the_last_digit_for_inexact_values(lesson, written, status):
    result = lesson(*softmax_top(written))
    assert result.status() == {"top": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        assert f"top: the lesson says {written}, computed" in mismatch.message
        assert "0.665241" in mismatch.message
        assert at(mismatch) == result.lesson_at(written)


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("0.25", "pass"),
        ("0.250", "pass"),
        ("1/4", "pass"),
        ("0.3", "fail"),  # 1/4 is exact: an unmarked 0.3 is wrong, not rounded
        ("0.2", "fail"),
        ("0.251", "fail"),
        ("about 0.3", "pass"),  # a hedge marks rounding
        ("≈0.3", "pass"),
        ("about 0.4", "fail"),
    ],
)
def test_exact_terminating_values_must_be_written_exactly(lesson, written, status):
    sentence = f"The first weight is {written}."
    claims = "claims:" + mixture_claim("weight", sentence, '["probabilities[0]"]')
    result = lesson(f"## Worked example\n\n{sentence}\n", claims)
    assert result.status() == {"weight": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        assert "the lesson says" in mismatch.message and "computed 1/4 = 0.25" in mismatch.message


READ_BODY = """
## Science and assumptions

### Reading time

$$
t=\\frac{{B}}{{w}}
$$

{sentence}
"""


def reading(sentence: str, bind: str) -> tuple[str, str]:
    claims = f"""
claims:
  - id: read
    kind: formula
    quote: {yaml_string(sentence)}
    bind: {bind}
    params:
      values: {{B: 1073741824, w: 1000000000}}
      use: [{{equation: 0, relation: 0}}]
"""
    return READ_BODY.format(sentence=sentence), claims


@pytest.mark.parametrize(
    ("time_text", "status"),
    [
        ("about 1.07", "pass"),  # t = 1.073741824 exactly; the hedge allows rounding
        ("roughly 1.074", "pass"),
        ("1.073741824", "pass"),
        ("1.07", "fail"),  # exact and terminating, written without a hedge
        ("about 1.08", "fail"),
        ("about 1.1", "pass"),
        ("about 1.0", "fail"),
    ],
)
def test_hedged_rounding(lesson, time_text, status):
    sentence = f"Reading 1 GiB at 10⁹ bytes per second takes {time_text} seconds."
    result = lesson(*reading(sentence, "[{value: B, unit: bytes}, w, t]"))
    assert result.status() == {"read": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        assert "2097152/1953125 = 1.07374" in mismatch.message


def test_an_unmarked_rounding_of_an_exact_value_says_the_rule(lesson):
    sentence = "Reading 1 GiB at 10⁹ bytes per second takes 1.07 seconds."
    result = lesson(*reading(sentence, "[{value: B, unit: bytes}, w, t]"))
    [mismatch] = result.found("A401")
    assert "is exact and ends, so the lesson must write it in full" in mismatch.message
    assert "≈ 1.07" in mismatch.message


def test_stated_precision_in_the_sentence_allows_rounding(lesson):
    sentence = "Reading 1 GiB at 10⁹ bytes per second takes 1.07 seconds to two decimals."
    result = lesson(*reading(sentence, "[{value: B, unit: bytes}, w, t]"))
    assert result.status() == {"read": "pass"}


@pytest.mark.parametrize(
    ("tolerance", "status"), [("0.01", "pass"), ("0.001", "fail"), ("0", "fail")]
)
def test_explicit_tolerance_overrides_the_rule(lesson, tolerance, status):
    sentence = "Reading 1 GiB at 10⁹ bytes per second takes 1.07 seconds."
    result = lesson(
        *reading(sentence, f"[{{value: B, unit: bytes}}, w, {{value: t, tolerance: {tolerance}}}]")
    )
    assert result.status() == {"read": status}
    [value] = [v for v in result.claim("read")["values"] if v["name"] == "t"]
    assert value["quoted"] == "1.07 seconds" and value["ok"] is (status == "pass")


def test_claim_level_tolerance_applies_to_every_number(lesson):
    body, claims = softmax_top("0.7")
    result = lesson(body, claims.replace("    bind: [top]", "    tolerance: 0.05\n    bind: [top]"))
    assert result.status() == {"top": "pass"}
    result = lesson(
        body, claims.replace("    bind: [top]", "    tolerance: 0.01\n    bind: [top]"), "probe2"
    )
    assert result.status() == {"top": "fail"}


def test_binding_level_auto_tolerance_is_the_default_rule(lesson):
    result = lesson(*softmax_top("0.665", "[{value: top, tolerance: auto}]"))
    assert result.status() == {"top": "pass"}


@pytest.mark.parametrize(
    ("sentence", "bind", "status"),
    [
        ("At temperature 0.1 the top probability exceeds 0.9999.", '">"', "pass"),
        ("At temperature 0.1 the top probability exceeds 0.99999.", '">"', "fail"),
        ("At temperature 0.1 the top probability is at least 0.99995.", '">="', "pass"),
        ("At temperature 0.1 the top probability is below 0.9999.", '"<"', "fail"),
        ("At temperature 0.1 the top probability is at most 1.", '"<="', "pass"),
        ("At temperature 0.1 the top probability p > 0.9999.", '">"', "pass"),
        ("At temperature 0.1 the top probability p < 0.9999.", '">"', "fail"),  # says <
        ("At temperature 0.1 the top probability p ≈ 0.9999.", '">"', "fail"),  # says ≈
    ],
)
def test_relation_bounds(lesson, sentence, bind, status):
    # top probability at temperature 0.1: 1 / (1 + e^-10 + e^-20) = 0.99995460...
    claims = f"""
claims:
  - id: bound
    kind: softmax
    quote: {yaml_string(sentence)}
    bind: [temperature, {{value: top, relation: {bind}}}]
    params: {{logits: [2, 1, 0], temperature: 0.1}}
"""
    result = lesson(f"## Worked example\n\n{sentence}\n", claims)
    assert result.status() == {"bound": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        stated = "the bind's relation must be the one the sentence states"
        assert f"(must be {json.loads(bind)} " in mismatch.message or stated in mismatch.message
        number = re.findall(r"[0-9.]+", sentence)[-1].rstrip(".")
        number = f"≈ {number}" if "≈" in sentence else number  # the mark is the number's
        assert at(mismatch) == result.lesson_at(number, occurrence=0)


# --- units --------------------------------------------------------------------------------

BYTES_BODY = """
## Science and assumptions

### Buffer size

$$
S=n\\cdot b
$$

{sentence}
"""


@pytest.mark.parametrize(
    ("size", "status"),
    [
        ("128 KiB", "pass"),
        ("131072 bytes", "pass"),
        ("0.125 MiB", "pass"),
        ("131072 B", "pass"),
        ("128 KB", "fail"),  # KB is 1000 or 1024 bytes: refused, not read as 128000 B
        ("131 kB", "fail"),
        ("about 131 kB", "pass"),
        ("129 KiB", "fail"),
    ],
)
def test_units_convert_before_comparing(lesson, size, status):
    sentence = f"A buffer of 65536 two-byte elements needs {size}."
    claims = f"""
claims:
  - id: buffer
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [n, {{value: S, unit: bytes}}]
    params:
      values: {{n: 65536, b: 2}}
      use: [{{equation: 0, relation: 0}}]
"""
    result = lesson(BYTES_BODY.format(sentence=sentence), claims)
    assert result.status() == {"buffer": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        assert f"S: the lesson says {size}, computed 131072" in mismatch.message
        assert at(mismatch) == result.lesson_at(size)


@pytest.mark.parametrize("size", ["128 KB", "128 KB/s"])
@pytest.mark.parametrize("bind", ["{value: S, unit: bytes}", "S"])
def test_kb_is_ambiguous_and_fails_at_the_number_even_for_128000_bytes(lesson, size, bind):
    """`128 KB` read as 128000 B by the byte units' fast path and verified for 128000 B,
    though docs/units.md refuses KB (1000 or 1024 B?). It is kept as written and fails to
    convert, at the number, naming kB and KiB, whether the bind or the table gives bytes."""
    sentence = f"A buffer of 64000 two-byte elements needs {size}."
    table = "Symbols and units\n\nS\n\nBuffer size\n\nbytes\n\n"
    unit = "bytes" if size.endswith("KB") else "B/s"
    claims = f"""
claims:
  - id: buffer
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [n, {bind.replace("bytes", unit)}]
    params:
      values: {{n: 64000, b: 2}}
      use: [{{equation: 0, relation: 0}}]
"""
    body = BYTES_BODY.format(sentence=table.replace("bytes", unit) + sentence)
    result = lesson(body, claims)
    assert result.status() == {"buffer": "fail"}
    [mismatch] = result.found("A401")
    assert f"S: the lesson says {size}, computed 128000" in mismatch.message
    assert "ambiguous: write kB (1000 B) or KiB (1024 B)" in mismatch.message
    assert at(mismatch) == result.lesson_at(size)
    assert result.record.coverage["verification"] == "failed"


def test_kb_in_lower_case_is_1000_bytes(lesson):
    sentence = "A buffer of 64000 two-byte elements needs 128 kB."
    claims = f"""
claims:
  - id: buffer
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [n, {{value: S, unit: bytes}}]
    params:
      values: {{n: 64000, b: 2}}
      use: [{{equation: 0, relation: 0}}]
"""
    result = lesson(BYTES_BODY.format(sentence=sentence), claims)
    assert result.status() == {"buffer": "pass"} and result.errors() == []


UNREAD = """
## Science and assumptions
{equation}
Symbols and units

E

Energy drawn

Wh

P

Power drawn

{power}

t

Time

h

{sentence}
"""


def _unread(lesson, power: str, written: str, equation: bool = True) -> Any:
    """P's table unit `mw` (meant as mW) does not read (A421); the claim fixes P = 0.54
    and computes E = P t, in Wh by the table, from it."""
    sentence = f"Drawing P = {written} for t = 20 h uses E = 10.8 Wh of the charge."
    use = "use: [{equation: 0, relation: 0}]" if equation else 'expressions: {E: "P t"}'
    claims = f"""
claims:
  - id: energy
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [P, t, E]
    params: {{values: {{P: 0.54, t: 20}}, {use}}}
"""
    shown = "\n$$\nE=P t\n$$\n" if equation else ""
    body = UNREAD.format(equation=shown, power=power, sentence=sentence)
    return lesson(body, claims)


@pytest.mark.parametrize("written", ["0.54 mW", "0.54 W", "0.54 kW"])
@pytest.mark.parametrize("equation", [True, False])
def test_a_table_unit_that_does_not_read_proves_no_number_through_it(lesson, written, equation):
    """With P's unit `mw` unread, `P = 0.54 kW` (any prefix) passed as the input 0.54,
    and E = P t matched 10.8 Wh as if P were in W: verified, with only A421 to say
    anything, when E is computed by an expression. Neither number is compared through a
    unit that was not understood now: each is an A423 naming `mw`, and not verified."""
    result = _unread(lesson, "mw", written, equation)
    assert [d.message for d in result.found("A421")][0].endswith("did you mean mW or MW?")
    own, computed = result.found("A423")
    assert f"P: {written} is compared only as a bare number" in own.message
    assert "the symbol table gives P the unit `mw`, which does not read (A421)" in own.message
    assert at(own) == result.lesson_at(written)
    assert "E: 10.8 Wh agrees, but the claim computes E from P (`mw`)" in computed.message
    assert at(computed) == result.lesson_at("10.8 Wh")
    assert result.errors() == [] and result.found("A414") == []
    coverage = result.record.coverage
    assert coverage["numbers"]["verified"] == 0
    assert coverage["verification"] in ("partial", "unverified")


def test_a_table_unit_that_reads_checks_the_inputs_prefix(lesson):
    """The same lesson with P in mW: `0.54 W` is 540 mW, not the 0.54 mW the claim fixes."""
    result = _unread(lesson, "mW", "0.54 W")
    assert result.found("A423") == [] and result.found("A421") == []
    [first, _] = result.found("A401")
    assert "P: the lesson says 0.54 W, the claim fixes 27/50 = 0.54 mW" in first.message


def test_a_number_written_in_its_tables_unread_unit_is_compared_as_written(lesson):
    """`P = 0.54 mw` under the table's own `mw` states the number in the table's unit: the
    input is compared bare (E, computed from it, still proves nothing)."""
    result = _unread(lesson, "mw", "0.54 mw")
    [computed] = result.found("A423")
    assert computed.message.startswith("claim energy: E: 10.8 Wh agrees, but")


# --- coverage and the JSON report ---------------------------------------------------------

COVERAGE_BODY = """
## Science and assumptions

### Doubling

$$
y=2\\cdot x
$$

### A note

$$
z=y+1
$$

With x = 3 and 2 steps the output is y = 6.
"""
COVERAGE_CLAIMS = """
claims:
  - id: double
    kind: formula
    quote: "With x = 3 and 2 steps the output is y = 6."
    bind: [x, null, y]
    params: {values: {x: 3}, use: [{equation: 0, relation: 0}]}
"""
UNCHECKED = """
unchecked:
  - {equation: 1, reason: "a definition used only in prose"}
"""


@pytest.fixture
def cli_in(tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch):
    """Run the CLI from tmp_path (so nothing is written into the repository), uncached."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str | Path):
        return run_cli("check", *args, "--no-cache")

    return run


def test_coverage_numbers_in_the_json_report(tmp_path, cli_in):
    write_lesson(tmp_path, "probe", COVERAGE_BODY, UNCHECKED + COVERAGE_CLAIMS)
    result = cli_in("probe", "--format", "json")
    assert result.code == 0, result.out
    [record] = result.json()["records"]
    relations = record["coverage"]["relations"]
    assert [(r["equation"], r["relation"], r["status"]) for r in relations["items"]] == [
        (0, 0, "verified"),  # evaluated: y computed from it matches the lesson's 6
        (1, 0, "unchecked"),
    ]
    assert relations["items"][1]["reason"] == "a definition used only in prose"
    numbers = record["coverage"]["numbers"]
    assert (numbers["total"], numbers["input"], numbers["verified"], numbers["unaccounted"]) == (
        3,
        1,
        1,
        1,
    )
    assert numbers["unaccountedAt"][0]["text"] == "2"
    assert record["coverage"]["claims"]["pass"] == 1
    assert record["coverage"]["verification"] == "partial"  # the 2 steps are unaccounted
    assert not [d for d in record["diagnostics"] if d["code"] == "A407"]


def test_uncovered_equation_is_an_a407_warning(tmp_path, cli_in):
    folder = write_lesson(tmp_path, "probe", COVERAGE_BODY, COVERAGE_CLAIMS)
    result = cli_in("probe", "--format", "json")
    assert result.code == 0  # a warning
    [record] = result.json()["records"]
    [warning] = [d for d in record["diagnostics"] if d["code"] == "A407"]
    assert warning["severity"] == "warning"
    assert "display equation 1: relation 0 `z=y+1` not verified" in warning["message"]
    text = (folder / "lesson.md").read_text(encoding="utf-8")
    assert (warning["line"], warning["column"]) in {
        position(text, "$$\nz=", shift=2),
        position(text, "z=y+1"),
    }
    statuses = [r["status"] for r in record["coverage"]["relations"]["items"]]
    assert statuses == ["verified", "unverified"]
    assert cli_in("probe", "--strict").code == 1


def test_unchecked_needs_a_reason(tmp_path, cli_in):
    write_lesson(
        tmp_path, "probe", COVERAGE_BODY, "unchecked:\n  - {equation: 1}\n" + COVERAGE_CLAIMS
    )
    result = cli_in("probe", "--format", "json")
    assert result.code == 1
    [record] = result.json()["records"]
    [problem] = [d for d in record["diagnostics"] if d["code"] == "A400"]
    assert "'reason' is a required property" in problem["message"]
    assert problem["line"] == 2


@pytest.fixture
def failing_lesson(tmp_path: Path) -> Path:
    """Two claims: one passes, one states y = 7 (computed 6)."""
    body = COVERAGE_BODY + "\nWith x = 3 the doubled value is y = 7.\n"
    claims = (
        UNCHECKED
        + COVERAGE_CLAIMS
        + """
  - id: wrong
    kind: formula
    quote: "With x = 3 the doubled value is y = 7."
    bind: [x, y]
    params: {values: {x: 3}, use: [{equation: 0, relation: 0}]}
"""
    )
    return write_lesson(tmp_path, "probe", body, claims)


def wrong_position(folder: Path) -> tuple[int, int]:
    text = (folder / "lesson.md").read_text(encoding="utf-8")
    return position(text, "y = 7", shift=4)


def report_validator() -> jsonschema.protocols.Validator:
    schema = json.loads((REPO / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_report_claims_validate_against_the_report_schema(failing_lesson, cli_in):
    result = cli_in("probe", "--format", "json")
    assert result.code == 1
    report = result.json()
    validator = report_validator()
    assert list(validator.iter_errors(report)) == []
    [record] = report["records"]
    claims = {claim["id"]: claim for claim in record["claims"]}
    assert {k: c["status"] for k, c in claims.items()} == {"double": "pass", "wrong": "fail"}
    wrong = claims["wrong"]
    assert wrong["kind"] == "formula"
    assert wrong["quote"] == "With x = 3 the doubled value is y = 7."
    assert wrong["message"].startswith("claim wrong: y: the lesson says 7, computed 6")
    assert [(v["name"], v["quoted"], v["computed"], v["ok"]) for v in wrong["values"]] == [
        ("x", "3", "3", True),
        ("y", "7", "6", False),
    ]
    text = (failing_lesson / "lesson.md").read_text(encoding="utf-8")
    assert (wrong["location"]["line"], wrong["location"]["column"]) == position(
        text, "With x = 3 the doubled"
    )
    assert report["summary"]["claims"] == 2 and report["summary"]["claimsFailed"] == 1
    # the schema really constrains the claims array
    broken = json.loads(json.dumps(report))
    broken["records"][0]["claims"][0]["status"] = "ok"
    del broken["records"][0]["claims"][1]["message"]
    assert len(list(validator.iter_errors(broken))) == 2


def test_text_summary_counts_claims(failing_lesson, cli_in):
    result = cli_in("probe")
    assert result.code == 1
    lines = result.out.splitlines()
    assert re.search(r"claims 1/2 passed", lines[-1]), lines[-1]
    line, column = wrong_position(failing_lesson)
    [row] = [row for row in lines if " A401 " in row]
    assert row.startswith(f"probe/lesson.md:{line}:{column}: error A401 claim wrong: y: ")
    assert "the lesson says 7, computed 6" in row


def test_junit_includes_the_failing_claim(failing_lesson, cli_in):
    result = cli_in("probe", "--format", "junit")
    assert result.code == 1
    root = ElementTree.fromstring(result.out.encode("utf-8"))
    failures = root.findall(".//testcase/failure")
    assert len(failures) == 1
    line, column = wrong_position(failing_lesson)
    assert f"probe/lesson.md:{line}:{column}: error A401 claim wrong: y: the lesson says 7" in (
        failures[0].text or ""
    )


def test_sarif_includes_the_failing_claim(failing_lesson, cli_in):
    result = cli_in("probe", "--format", "sarif")
    assert result.code == 1
    sarif = json.loads(result.out)
    results = [r for run in sarif["runs"] for r in run["results"] if r["ruleId"] == "A401"]
    assert len(results) == 1
    assert results[0]["level"] == "error"
    assert "claim wrong: y: the lesson says 7, computed 6" in results[0]["message"]["text"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == wrong_position(failing_lesson)


def test_github_includes_the_failing_claim(failing_lesson, cli_in):
    result = cli_in("probe", "--format", "github")
    assert result.code == 1
    line, column = wrong_position(failing_lesson)
    [annotation] = [row for row in result.out.splitlines() if "A401" in row]
    assert annotation.startswith(f"::error file=probe/lesson.md,line={line},col={column},")
    assert annotation.endswith("::claim wrong: y: the lesson says 7, computed 6")
    assert re.search(r"claims 1/2 passed", result.out.splitlines()[-1])


@pytest.mark.parametrize(
    ("sentence", "status"),
    [
        ("Reading takes 1.07374 seconds to five decimals.", "pass"),
        ("Reading takes 1.07375 seconds to five decimals.", "fail"),
        ("Reading takes 1.1 seconds to two significant figures.", "pass"),
        ("Reading takes 1.07 seconds to three significant figures.", "pass"),
        ("Reading takes 1.08 seconds to three significant figures.", "fail"),
    ],
)
def test_stated_precision_sets_the_tolerance(lesson, sentence, status):
    result = lesson(*reading(sentence, "[t]"))
    assert result.status() == {"read": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        digits = "five decimals" in sentence
        expected = "to 5 decimals, rounded half to even, it is 1.07374" if digits else "1.07"
        assert expected in mismatch.message


@pytest.mark.parametrize(
    ("sentence", "status"),
    [
        ("Reading takes 1074 ms to four significant figures.", "pass"),
        ("Reading takes 1073.7 ms to five significant figures.", "pass"),
        ("Reading takes 1075 ms to four significant figures.", "fail"),
        ("Reading takes 1073.74 ms to two decimals.", "pass"),
        ("Reading takes 1073.75 ms to two decimals.", "fail"),
    ],
)
def test_stated_precision_is_in_the_written_unit(lesson, sentence, status):
    """t is computed in seconds and written in ms: the precision is the written number's
    (the tolerance was once taken from the value in seconds and scaled again, 1000x tight)."""
    result = lesson(*reading(sentence, "[{value: t, unit: s}]"))
    assert result.status() == {"read": status}, result.record.claims


@pytest.mark.parametrize(
    ("sentence", "status"),
    [
        # the nearest phrase speaks for a number, not the first in the sentence
        ("Reading takes 1.07374 seconds to five decimals, or 1.0737 seconds to four.", "pass"),
        ("It is 1.07374 seconds to five decimals; to four decimals, 1.0737 seconds.", "pass"),
        # a phrase never loosens a number beyond its written digits
        ("Reading takes 1.0747 seconds; to one decimal place that is 1.1 seconds.", "fail"),
        ("Reading takes 1.0737 seconds; to one decimal place that is 1.1 seconds.", "pass"),
        # nor does it reach past another number: the second reading keeps its own digits
        ("Reading takes 1.07374 seconds to five decimals; in step 3 about 1.074 seconds.", "pass"),
    ],
)
def test_a_stated_precision_belongs_to_the_numbers_near_it(lesson, sentence, status):
    bind = "[t, null, t]" if "step 3" in sentence else "[t, t]"
    result = lesson(*reading(sentence.replace("to four.", "to four decimals."), bind))
    assert result.status() == {"read": status}, result.record.claims


def test_rounding_hint_rounds_half_to_even(lesson):
    # t = 1.0737418240 to nine decimals is 1.073741824; written 1.073741825 it is wrong
    sentence = "Reading takes 1.073741825 seconds to nine decimals."
    result = lesson(*reading(sentence, "[t]"))
    [mismatch] = result.found("A401")
    assert "to 9 decimals, rounded half to even, it is 1.073741824" in mismatch.message


def test_a_negative_operand_is_quoted_with_its_sign(lesson):
    sentence = "The step is 0.9×(−0.1) = −0.09 here."
    claims = f"""
claims:
  - id: step
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [{{value: s, operands: [b, g]}}]
    params:
      values: {{b: 0.9, g: -0.1}}
      expressions: {{s: "b \\\\cdot g"}}
"""
    result = lesson(f"## Worked example\n\n{sentence}\n", claims)
    assert result.status() == {"step": "pass"}, result.record.claims
    assert [v["quoted"] for v in result.claim("step")["values"]] == ["−0.09", "0.9", "−0.1"]


@pytest.mark.parametrize("quote", ["so f\\_c is 5", "so f_c is 5"])
def test_a_quote_matches_with_or_without_the_sources_escapes(quote):
    """Quotes are copied from rendered text as often as from the source: `f_c` finds the
    markdown `f\\_c` at the same place, and the number keeps the source's position."""
    from atlas_build.claims.binding import anchors

    content = "Intro.\nThe cutoff (so f\\_c is 5 Hz).\n"
    _, [occurrence] = anchors.occurrences(quote, anchors.skeleton(content))
    assert content[occurrence.start : occurrence.end] == "so f\\_c is 5 Hz"  # with its unit
    [number] = occurrence.items
    assert content[number.start : number.end] == "5 Hz"
    assert anchors.occurrences("so f_d is 5", anchors.skeleton(content))[1] == []


def test_an_occurrence_ending_in_a_number_covers_all_of_it():
    """The site highlights content[start:end]; a quote ending in 1.62221 stopped at the 1."""
    from atlas_build.claims.binding import anchors

    content = "Intro.\nThe mean is 1.62221\nNext 5."
    _, [found] = anchors.occurrences("The mean is 1.62221", anchors.skeleton(content))
    assert content[found.start : found.end] == "The mean is 1.62221"


@pytest.mark.parametrize(
    ("written", "status"),
    [("0.0259 V", "pass"), ("25.9 mV", "pass"), ("25.9 V", "fail"), ("25.9 ms", "error-unit")],
)
def test_any_unit_is_converted_before_comparing(lesson, written, status):
    """Generalises `unit: bytes`: the computed value is in volts, the prose may write mV."""
    sentence = f"At room temperature the thermal voltage is about {written}."
    claims = f"""
claims:
  - id: thermal
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [{{value: V_T, unit: V}}]
    params:
      values: {{k: 1.380649e-23, T: 300, q: 1.602176634e-19}}
      expressions: {{V_T: "\\\\frac{{k T}}{{q}}"}}
"""
    result = lesson(f"## Worked example\n\n{sentence}\n", claims)
    expected = "fail" if status == "error-unit" else status
    assert result.status() == {"thermal": expected}
    if status == "error-unit":
        [mismatch] = result.found("A401")
        assert "cannot convert" in mismatch.message and "ms" in mismatch.message


def test_32_mb_is_not_32_mib(lesson):
    sentence = "The cache holds 32 MB."
    claims = f"""
claims:
  - id: size
    kind: formula
    quote: {yaml_string(sentence)}
    bind: [{{value: S, unit: bytes}}]
    params:
      values: {{S: 33554432}}
"""
    result = lesson(f"## Worked example\n\n{sentence}\n", claims)
    [mismatch] = result.found("A401")
    assert "the lesson says 32 MB, the claim fixes 33554432" in mismatch.message
    assert at(mismatch) == result.lesson_at("32 MB")


def test_claims_carry_where_they_were_found(tmp_path):
    """`spans`: every place the quote was found, as offsets into the record's content (the
    site marks these and does not search again); `anchor`: the equation or quiz question
    of a claim without a quote."""
    from atlas_build import pipeline

    body = (
        f"## Worked example\n\n{WORKED}\n\nAgain: {WORKED}\n\n$$\ny = 2 x\n$$\n"
        "\n## Quiz\n\n### What is y at x = 3?\n\n1. 6\n2. 7\n\n"
        "#### Answer and reasoning\n\n6.\n"
    )
    claims = "claims:" + mixture_claim("mix", WORKED, "[scores, values, output]")
    claims += """
  - id: doubling
    kind: equation
    params: {equation: 0, relations: [{relation: 0, check: definition}]}
"""
    folder = write_lesson(tmp_path, "probe", body, claims)
    report, checked = pipeline.check(
        [str(folder)], pipeline.Options(), after=lambda item, _s, _o: item.record.content
    )
    [record], [item] = report.records, checked
    content = item.made
    assert isinstance(content, str)
    found = {claim["id"]: claim for claim in record.claims}
    spans = found["mix"]["spans"]
    assert len(spans) == 2 and spans[0][0] < spans[1][0]
    assert [content[start:end] for start, end in spans] == [WORKED, WORKED]
    assert found["mix"]["anchor"] is None
    assert found["doubling"]["spans"] == [] and found["doubling"]["anchor"] == {"equation": 0}
    assert list(report_validator().iter_errors(report.to_json())) == []


TABLE_WITH_UNITS = """## Worked example

$$
d = v t
$$

Symbols and units

d

Distance

m

v

Speed

m/s

t

Time

s

At v = 3 m/s the distance grows with the time:

| {t_head} | {d_head} |
|---|---|
| {t} | {d} |
"""


def header_lesson(lesson, t_head: str, d_head: str, t: str, d: str) -> Checked:
    body = TABLE_WITH_UNITS.format(t_head=t_head, d_head=d_head, t=t, d=d)
    claims = f"""claims:
  - id: row
    kind: formula
    quote: "| {t} | {d} |"
    bind: [t, d]
    params:
      values: {{v: 3, t: 2}}
      use: [{{equation: 0, relation: 0}}]
"""
    return lesson(body, claims)


@pytest.mark.parametrize(
    ("t_head", "d_head", "t", "d", "status"),
    [
        ("t (s)", "d (m)", "2", "6", "pass"),
        ("t [ms]", "d [mm]", "2000", "6000", "pass"),
        ("t (s)", "d (km)", "2", "0.006", "pass"),
        ("t (s)", "d (cm)", "2", "600", "pass"),
        ("t", "d", "2", "6", "pass"),  # no header unit: compared in the table's unit
        ("t (s)", "d (see text)", "2", "6", "pass"),  # not a unit: compared bare
        ("t (s)", "d (m)", "2", "600 cm", "pass"),  # the cell's own unit wins
        ("t (s)", "d (cm)", "2", "6", "fail"),  # 6 cm is not 6 m
        ("t (s)", "d (km)", "2", "6", "fail"),
        ("t (ms)", "d (m)", "2", "6", "fail"),  # t is 2 ms, not the 2 s the claim fixes
        ("t (bits)", "d (m)", "2", "6", "fail"),  # a time in bits does not convert
    ],
)
def test_a_bare_cell_is_in_its_column_header_unit(lesson, t_head, d_head, t, d, status):
    """`q (kW)` over a bare `161.3` was compared as 161.3 in the table's W, and passed."""
    result = header_lesson(lesson, t_head, d_head, t, d)
    assert result.status() == {"row": status}
    if status == "fail":
        [mismatch] = result.found("A401")
        assert "as its column's header says" in mismatch.message
        shift = len("| ") if t_head != "t (s)" else len(f"| {t} | ")  # at the wrong cell
        assert at(mismatch) == result.lesson_at(f"| {t} | {d} |", shift=shift)


def test_a_misspelt_key_is_named_and_pointed_at(tmp_path, cli_in):
    """A bind entry is one of several shapes (`oneOf`); the message names the branch that
    came closest, the stray key, and its position, not "not valid under any schema"."""
    claims = UNCHECKED + COVERAGE_CLAIMS.replace("[x, null, y]", "[x, null, {value: y, unti: m}]")
    write_lesson(tmp_path, "probe", COVERAGE_BODY, claims)
    result = cli_in("probe", "--format", "json")
    assert result.code == 1
    [record] = result.json()["records"]
    [problem] = [d for d in record["diagnostics"] if d["code"] == "A400"]
    assert "('unti' was unexpected)" in problem["message"]
    assert problem["pointer"] == "/claims/0/bind/2/unti"
    written = (tmp_path / "probe" / "claims.yaml").read_text(encoding="utf-8")
    line = written.splitlines()[problem["line"] - 1]
    assert line[problem["column"] - 1 :].startswith("unti")


REGISTERS = "\nThe scheme needs 4 registers per lane.\n"


def _listed(tmp_path: Path, cli_in: Any, body: str, entry: str) -> tuple[Any, dict[str, Any]]:
    claims = f"unchecked:\n  - {{equation: 1, reason: a definition}}\n  - {entry}\n"
    write_lesson(tmp_path, "probe", COVERAGE_BODY + body, claims + COVERAGE_CLAIMS)
    result = cli_in("probe", "--format", "json")
    [record] = result.json()["records"]
    return result, record


def test_an_unchecked_statement_exempts_its_numbers_with_the_reason(tmp_path, cli_in):
    entry = '{quote: "needs 4 registers per lane", reason: "a design choice"}'
    result, record = _listed(tmp_path, cli_in, REGISTERS, entry)
    numbers = record["coverage"]["numbers"]
    [listed] = numbers["listedUnchecked"]
    assert (listed["text"], listed["reason"]) == ("4", "a design choice")
    assert numbers["exempted"]["listed unchecked"] == 1
    assert "4" not in [n["text"] for n in numbers["unaccountedAt"]]
    assert not [d for d in record["diagnostics"] if d["code"] == "A400"]
    text = cli_in("probe")
    assert "exempt (1 listed unchecked)" in text.out


def test_an_edited_number_ends_the_exemption(tmp_path, cli_in):
    entry = '{quote: "needs 5 registers per lane", reason: "a design choice"}'
    result, record = _listed(tmp_path, cli_in, REGISTERS, entry)
    assert result.code == 1
    [problem] = [d for d in record["diagnostics"] if d["code"] == "A400"]
    assert "is not in the lesson; the closest text with other numbers" in problem["message"]
    assert problem["pointer"] == "/unchecked/1/quote"
    assert "4" in [n["text"] for n in record["coverage"]["numbers"]["unaccountedAt"]]
    assert record["coverage"]["numbers"]["listedUnchecked"] == []


@pytest.mark.parametrize(("occurrences", "errors"), [("", 1), (", occurrences: 2", 0)])
def test_a_statement_written_twice_needs_occurrences(tmp_path, cli_in, occurrences, errors):
    entry = f'{{quote: "needs 4 registers per lane", reason: "a design choice"{occurrences}}}'
    result, record = _listed(tmp_path, cli_in, REGISTERS * 2, entry)
    problems = [d for d in record["diagnostics"] if d["code"] == "A400"]
    assert len(problems) == errors
    assert not problems or "is written at 2 places, not 1" in problems[0]["message"]
    assert len(record["coverage"]["numbers"]["listedUnchecked"]) == 2 * (1 - errors)


def test_an_unchecked_statement_without_a_number_is_a400(tmp_path, cli_in):
    entry = '{quote: "registers per lane", reason: "a design choice"}'
    result, record = _listed(tmp_path, cli_in, REGISTERS, entry)
    [problem] = [d for d in record["diagnostics"] if d["code"] == "A400"]
    assert "holds no number" in problem["message"]


def test_a_checked_number_in_an_unchecked_statement_stays_checked(tmp_path, cli_in):
    entry = '{quote: "the output is y = 6", reason: "a design choice"}'
    result, record = _listed(tmp_path, cli_in, REGISTERS, entry)
    numbers = record["coverage"]["numbers"]
    assert numbers["listedUnchecked"] == []
    assert numbers["verified"] >= 1
    [value] = [v for claim in record["claims"] for v in claim["values"] if v["name"] == "y"]
    assert value["ok"]
