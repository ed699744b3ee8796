"""What a lesson's checks proved (claims/coverage/verification.py, claims/coverage/relations.py,
claims/prose/exempt.py).

Each relation status and each number class on small lessons written here: a definition is
`defined`, not verified, and a definition-only relation that is mutated is never reported
verified; a definition whose computed numbers match the prose is verified by evaluation;
listed, unreadable and unverified relations; verified, input, failed, exempt and
unaccounted numbers, each exemption rule, worked arithmetic checked without any claim,
quiz answers (none verified against a fact whose claim did not pass), `--require-accounted`,
and the lesson's verification verdict.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
import sympy
from support import QUIZ_BODY, QUIZ_CLAIMS, Checked, check, position, write_lesson, yaml_string

from atlas_build import pipeline
from atlas_build.claims.prose import exempt
from atlas_build.lesson import build as build_lesson
from atlas_build.report import coverage as report_coverage
from atlas_build.site.pages import panels

DECAY = """
## Science and assumptions

### Decay

$$
m=\\beta\\cdot g,\\qquad s=m+1
$$

With β = 0.9 and g = 0.5 the decayed value is m = 0.45 and the shifted one s = 1.45.
"""
SENTENCE = "With β = 0.9 and g = 0.5 the decayed value is m = 0.45 and the shifted one s = 1.45."


def _claims(bind: str, extra: str = "") -> str:
    return f"""
claims:
  - id: decay
    kind: formula
    quote: {yaml_string(SENTENCE)}
    bind: {bind}
    params:
      values: {{beta: 0.9, g: 0.5}}
      use: [{{equation: 0, relation: 0}}, {{equation: 0, relation: 1}}]
{extra}"""


def _lesson(tmp_path: Path, body: str, claims: str, slug: str = "probe") -> Checked:
    return check(write_lesson(tmp_path, slug, body, claims))


def _relations(result: Checked) -> list[str]:
    return [item["status"] for item in result.record.coverage["relations"]["items"]]


def _numbers(result: Checked) -> dict[str, int]:
    numbers = result.record.coverage["numbers"]
    return {name: numbers[name] for name in ("verified", "input", "failed", "exempt",
                                             "unaccounted") if numbers[name]}  # fmt: skip


def test_definitions_whose_numbers_match_are_verified_by_evaluation(tmp_path: Path) -> None:
    result = _lesson(tmp_path, DECAY, _claims("[beta, g, m, s]"))
    assert result.status() == {"decay": "pass"}
    assert _relations(result) == ["verified", "verified"]
    items = result.record.coverage["relations"]["items"]
    assert items[0]["reason"] == "evaluated: numbers computed from it match the lesson"
    assert _numbers(result) == {"input": 2, "verified": 2}
    assert result.record.coverage["verification"] == "verified"


def test_a_definition_nothing_evaluates_is_defined_not_verified(tmp_path: Path) -> None:
    result = _lesson(tmp_path, DECAY, _claims("[beta, g, m, null]"))
    assert _relations(result) == ["verified", "defined"]
    assert result.record.coverage["relations"]["defined"] == 1
    assert _numbers(result) == {"input": 2, "verified": 1, "unaccounted": 1}
    assert result.record.coverage["verification"] == "partial"


def test_a_mutated_definition_only_relation_is_never_verified(tmp_path: Path) -> None:
    """Flipping the sign of a relation only marked `definition` used to pass silently."""
    body = """
## Science and assumptions

$$
u=-\\alpha\\cdot g,\\qquad \\frac{\\partial u}{\\partial g}=-\\alpha
$$

Nothing else.
"""
    claims = """
claims:
  - id: update
    kind: equation
    params:
      equation: 0
      relations:
        - {relation: 0, check: definition}
        - {relation: 1, check: derive}
"""
    honest = _lesson(tmp_path, body, claims)
    assert _relations(honest) == ["defined", "verified"]
    mutated = _lesson(tmp_path / "m", body.replace("u=-\\alpha", "u=+\\alpha"), claims)
    assert _relations(mutated)[0] == "defined"  # still not verified, whatever it says
    assert mutated.record.coverage["relations"]["verified"] <= 1


def test_a_claim_that_checks_nothing_is_unchecked_not_pass(tmp_path: Path) -> None:
    claims = """
claims:
  - id: only-definitions
    kind: formula
    params: {values: {beta: 0.9, g: 0.5}, use: [{equation: 0, relation: 0}]}
"""
    result = _lesson(tmp_path, DECAY, claims)
    assert result.status() == {"only-definitions": "unchecked"}
    assert "ran no check" in result.claim("only-definitions")["message"]
    assert result.record.coverage["claims"]["unchecked"] == 1
    assert result.record.coverage["verification"] == "unverified"  # nothing was proved


def test_inputs_only_is_unchecked(tmp_path: Path) -> None:
    result = _lesson(tmp_path, DECAY, _claims("[beta, g, null, null]"))
    assert result.status() == {"decay": "unchecked"}
    assert "only compared the inputs it fixes" in result.claim("decay")["message"]


def test_wrong_numbers_are_failed_and_the_lesson_fails(tmp_path: Path) -> None:
    result = _lesson(tmp_path, DECAY.replace("m = 0.45", "m = 0.46"), _claims("[beta, g, m, s]"))
    assert result.status() == {"decay": "fail"}
    assert _numbers(result)["failed"] == 1
    assert result.record.coverage["verification"] == "failed"


def test_unreadable_unchecked_and_unverified_relations(tmp_path: Path) -> None:
    body = DECAY + "\n$$\nq=\\unknowncommand{x}\n$$\n\n$$\nr=s+1\n$$\n"
    listed = 'unchecked:\n  - {equation: 2, reason: "stated for context"}\n'
    result = _lesson(tmp_path, body, listed + _claims("[beta, g, m, s]"))
    assert _relations(result) == ["verified", "verified", "unreadable", "unchecked"]
    unreadable = result.record.coverage["relations"]["items"][2]
    assert "unknowncommand" in unreadable["reason"]
    [warning] = result.found("A406")
    assert warning.severity.value == "warning" and "counted as unreadable" in warning.message
    assert result.found("A407") == []
    unlisted = _lesson(tmp_path / "u", body, _claims("[beta, g, m, s]"))
    assert _relations(unlisted)[3] == "unverified"
    [open_] = unlisted.found("A407")
    assert "relation 0 `r=s+1` not verified" in open_.message


def test_worked_arithmetic_is_checked_without_any_claim(tmp_path: Path) -> None:
    body = "## Work\n\nThe mean is (9+4+0+25)/4 = 9.5 and 0.25×(2−5)=−0.5 is wrong.\n"
    result = _lesson(tmp_path, body, "claims: []\n")
    [wrong] = result.found("A408")
    assert (wrong.line, wrong.column) == result.lesson_at("−0.5")
    assert "the left side is -3/4" in wrong.message
    numbers = result.record.coverage["numbers"]
    assert numbers["arithmetic"] == {"checked": 2, "wrong": 1}
    assert numbers["verified"] == 1 and numbers["failed"] == 1


@pytest.mark.parametrize(
    ("work", "wrong", "message"),
    [
        ("6 m/3 = 3 m", "3 m", "the left side is 2 m, not 3 m"),
        ("10 MHz/12 = 909.1 kHz", "909.1 kHz", "the left side is 2500/3 = 833.333 kHz"),
        ("5.5 V/2 = 2 V", "2 V", "the left side is 11/4 = 2.75 V, not 2 V"),
        ("3 m/s × 2 s = 7 m", "7 m", "the left side is 6 m, not 7 m"),
        ("3 m/s × 2 s = 6 s", "6 s", "the left side is in m, the result in s"),
        # 51.2 may itself be rounded (±0.05 allows 167.61-167.94 ms): 168.5 is wrong anyway
        ("8 GiB/51.2 GB/s ≈ 168.5 ms", "168.5 ms", "167.772 ms, not 168.5 ms"),
    ],
)
def test_worked_arithmetic_with_units_is_checked_at_its_result(
    tmp_path: Path, work: str, wrong: str, message: str
) -> None:
    """A chain with units was two or three loose quantities (an A410 info, or nothing at
    all for the `3` of `m/3`): now each operand counts and a wrong result is A408."""
    result = _lesson(tmp_path, f"## Work\n\nAs a check, {work}.\n", "claims: []\n")
    [found] = result.found("A408")
    assert (found.line, found.column) == result.lesson_at(wrong, occurrence=work.count(wrong) - 1)
    assert message in found.message
    numbers = result.record.coverage["numbers"]
    assert numbers["arithmetic"] == {"checked": 1, "wrong": 1}
    assert numbers["total"] == len(numbers["unaccountedAt"]) + 1 == 3
    assert result.record.coverage["verification"] == "failed"


@pytest.mark.parametrize(
    "work",
    [
        "6 m/2 = 3 m",
        "10 MHz/12 = 833.3 kHz",
        "3 m/s × 2 s = 6 m",
        "8 GiB/51.2 GB/s ≈ 167.8 ms",
        "8 GiB/51.2 GB/s = 167.8 ms",  # 167.772: within half a unit of its last digit
    ],
)
def test_right_worked_arithmetic_with_units_verifies_its_result(tmp_path: Path, work: str) -> None:
    result = _lesson(tmp_path, f"## Work\n\nAs a check, {work}.\n", "claims: []\n")
    assert result.found("A408") == [] and result.errors() == []
    assert result.record.coverage["numbers"]["arithmetic"] == {"checked": 1, "wrong": 0}
    assert _numbers(result) == {"verified": 1, "input": 2}  # operands of working that holds


HALF = """
## Science and assumptions

$$
d=v t
$$

Symbols and units

d

Distance travelled

m

v

Constant speed

m/s

t

Time elapsed

s

With v = 3 m/s and t = 2 s the distance is d = 6 m.

Half of that distance is 6 m/{divisor} = 3 m.
"""


HALF_CLAIMS = """
claims:
  - id: main
    kind: formula
    quote: "With v = 3 m/s and t = 2 s the distance is d = 6 m."
    bind: [v, t, d]
    params: {values: {v: 3, t: 2}, use: [{equation: 0, relation: 0}]}
  - id: half
    kind: formula
    extends: main
    quote: "Half of that distance is 6 m/2 = 3 m."
"""


@pytest.mark.parametrize("divisor", ["2", "3"])
def test_a_claim_binding_a_unit_chain_checks_its_working_too(tmp_path: Path, divisor: str) -> None:
    """trial7/repro-5: `6 m/3 = 3 m` with both ends bound read verified, its `3` never
    counted. Now the claim binds the chain (its result and first operand) and the working
    is checked on its own; the divisor is a number of the text like any other."""
    claims = (
        HALF_CLAIMS
        + """    bind: [{value: half, operands: [d]}]
    params: {expressions: {half: "\\\\frac{d}{2}"}}
"""
    )
    result = _lesson(tmp_path, HALF.replace("{divisor}", divisor), claims)
    assert result.status() == {"main": "pass", "half": "pass"}  # d and d/2 are as stated
    at_divisor = result.lesson_at(f"m/{divisor}", shift=2)
    unaccounted = result.record.coverage["numbers"]["unaccountedAt"]
    if divisor == "2":  # the working holds, so its divisor is one of its inputs: accounted
        assert unaccounted == []
        assert result.errors() == [] and result.record.coverage["verification"] == "verified"
        return
    [wrong] = result.found("A408")  # the claim proved 6 m and 3 m: the divisor is wrong
    assert (wrong.line, wrong.column) == at_divisor
    assert "the left side is 2 m, not 3 m" in wrong.message
    assert unaccounted == [] and _numbers(result)["failed"] == 1
    assert result.record.coverage["verification"] == "failed"


def test_binding_a_unit_chain_as_two_numbers_says_it_is_one_entry(tmp_path: Path) -> None:
    claims = (
        HALF_CLAIMS
        + """    bind: [d, half]
    params: {expressions: {half: "\\\\frac{d}{2}"}}
"""
    )
    result = _lesson(tmp_path, HALF.replace("{divisor}", "2"), claims)
    [binding] = result.found("A409")
    assert "the quote has 1 numbers (6 m/2 = 3 m) but bind lists 2" in binding.message
    assert "`{value: name, operands: [...]}`" in binding.message
    assert result.record.coverage["verification"] == "failed"


def test_lessons_without_claims_report_honestly(tmp_path: Path) -> None:
    folder = write_lesson(tmp_path, "bare", DECAY, "claims: []\n")
    (folder / "claims.yaml").unlink()
    report, _ = pipeline.check([str(folder)], pipeline.Options())
    [record] = report.records
    assert record.coverage["verification"] == "unverified"
    assert [i["status"] for i in record.coverage["relations"]["items"]] == ["unverified"] * 2
    assert record.coverage["numbers"]["unaccounted"] == 4
    assert not [d for d in record.diagnostics if d.code in ("A407", "A410")]


def test_require_accounted_fails_an_unchecked_step(tmp_path: Path) -> None:
    folder = write_lesson(tmp_path, "probe", DECAY, _claims("[beta, g, m, null]"))
    plain, _ = pipeline.check([str(folder)], pipeline.Options())
    assert plain.exit_code() == 0
    strict, _ = pipeline.check([str(folder)], pipeline.Options(require_accounted=True))
    [step] = [d for r in strict.records for d in r.diagnostics if d.code == "A411"]
    text = (folder / "lesson.md").read_text("utf-8")
    assert strict.exit_code() == 1
    assert "1.45 is not accounted for" in step.message
    assert (step.line, step.column) == position(text, "1.45")


def test_quiz_answers_are_verified_and_distractors_exempt(tmp_path: Path) -> None:
    result = _lesson(tmp_path, QUIZ_BODY, QUIZ_CLAIMS)
    assert result.status() == {"double": "pass", "quiz": "pass"}
    numbers = result.record.coverage["numbers"]
    assert numbers["exempted"] == {"numbering": 3, "quiz distractor": 2}  # list markers too
    # x = 3 in the quote is an input, y = 6 verified, option 6 and answer 6 verified by the
    # quiz, and the 3 of the question restates the input x = 3 of the fact's claim
    assert (numbers["input"], numbers["verified"], numbers["unaccounted"]) == (2, 3, 0)


DOUBLING = (
    QUIZ_BODY.replace("when x is 3", "in the worked example")
    + """
### What does doubling x do to y?

1. Halves it
2. Doubles it
3. Leaves it unchanged

Answer and reasoning

Doubles it

y is proportional to x.
"""
)
RATIO = """
  - id: doubled
    kind: formula
    extends: double
    params:
      values: {x: 6}
      expressions: {ratio: "\\\\frac{y}{6}"}
  - id: quiz-doubling
    kind: quiz
    params: {question: "doubling x", fact: doubled.ratio, ratio: true}
"""


def _quizzes(result: Checked) -> list[tuple[str, str]]:
    return [(q["status"], q["reason"]) for q in result.record.coverage["quizzes"]["items"]]


def test_a_quiz_no_claim_checks_keeps_the_lesson_partial(tmp_path: Path) -> None:
    result = _lesson(tmp_path, DOUBLING, QUIZ_CLAIMS)
    assert _quizzes(result) == [("verified", ""), ("unverified", "")]
    [finding] = result.found("A412")
    assert finding.severity.value == "warning"
    assert (finding.line, finding.column) == result.lesson_at("### What does doubling")
    assert result.record.coverage["verification"] == "partial"


def test_a_quiz_listed_unchecked_names_its_reason(tmp_path: Path) -> None:
    listed = 'unchecked:\n  - {quiz: "doubling x", reason: "a proportionality, in words"}\n'
    result = _lesson(tmp_path, DOUBLING, listed + QUIZ_CLAIMS)
    assert _quizzes(result) == [("verified", ""), ("unchecked", "a proportionality, in words")]
    assert not result.found("A412")
    assert result.record.coverage["quizzes"]["unchecked"] == 1
    assert result.record.coverage["verification"] == "verified"


@pytest.mark.parametrize("text", ["no such question", "What"])
def test_an_unchecked_quiz_must_name_exactly_one_question(tmp_path: Path, text: str) -> None:
    listed = f'unchecked:\n  - {{quiz: "{text}", reason: "a word answer"}}\n'
    result = _lesson(tmp_path, DOUBLING, listed + QUIZ_CLAIMS)
    [finding] = result.found("A400")
    assert finding.pointer == "/unchecked/0/quiz"
    assert "not exactly 1" in finding.message


def test_a_ratio_in_words_is_proved_and_proves_the_claim_it_reads(tmp_path: Path) -> None:
    result = _lesson(tmp_path, DOUBLING, QUIZ_CLAIMS + RATIO)
    assert result.status() == {
        "double": "pass", "doubled": "pass", "quiz": "pass", "quiz-doubling": "pass"
    }  # fmt: skip
    # `doubled` binds nothing itself: the quiz checked the ratio it computes
    assert result.claim("doubled")["message"] == "checked through claim 'quiz-doubling'"
    assert _quizzes(result) == [("verified", ""), ("verified", "")]
    assert result.record.coverage["verification"] == "verified"


def test_a_wrong_ratio_answer_fails_and_credits_nothing(tmp_path: Path) -> None:
    mark = "Answer and reasoning\n\n"
    wrong = DOUBLING.replace(mark + "Doubles it", mark + "Halves it")
    result = _lesson(tmp_path, wrong, QUIZ_CLAIMS + RATIO)
    assert result.status()["quiz-doubling"] == "fail"
    assert result.status()["doubled"] == "unchecked"
    assert _quizzes(result)[1] == ("failed", "")
    assert result.record.coverage["verification"] == "failed"
    # the ratio was compared, by the quiz that failed: no A414 telling the author it proves
    # nothing and to bind a number, which is not what is wrong
    message = "checked only through claim 'quiz-doubling', which failed"
    assert result.claim("doubled")["message"] == message
    assert not result.found("A414")


WRONG_FACT = QUIZ_BODY.replace("the output is y = 6.", "the output is y = 7.")


@pytest.mark.parametrize(
    ("body", "claims", "why"),
    [
        (
            WRONG_FACT,
            QUIZ_CLAIMS,
            "failed",
        ),  # the fact's claim binds a number the lesson gets wrong
        (QUIZ_BODY, QUIZ_CLAIMS.replace("bind: [x, y]", "bind: [x, z]"), "ended in an error"),
    ],
    ids=["fact-claim-failed", "fact-claim-errored"],
)
def test_a_quiz_whose_facts_claim_did_not_pass_is_not_verified(
    tmp_path: Path, body: str, claims: str, why: str
) -> None:
    """The answer 6 agrees with the computed y, but the claim computing y did not pass, so
    the answer is compared with a value nothing proved: not a verified quiz answer, not a
    passing claim, not verified numbers, and the message names the fact and its claim."""
    result = _lesson(tmp_path, body, claims)
    reason = f"fact double.y comes from claim 'double', which {why}"
    assert result.status()["quiz"] == "unchecked"
    assert result.claim("quiz")["message"] == f"proves nothing: {reason}"
    coverage = result.record.coverage
    assert _quizzes(result) == [("unverified", reason)]
    assert (coverage["quizzes"]["verified"], coverage["quizzes"]["unverified"]) == (0, 1)
    [finding] = result.found("A412")
    said = f"quiz 'What is y when x is 3?': its answer is not proved, since its {reason};"
    assert finding.message.startswith(said)
    assert (finding.line, finding.column) == result.lesson_at("### What is y")
    assert not result.found("A414")
    # the right option and the answer are not verified numbers: nothing proved what they state
    question = result.lesson_at("### What is y")[0]
    assert "verified" not in _numbers(result)
    below = [n["text"] for n in coverage["numbers"]["unaccountedAt"] if n["line"] > question]
    assert below == ["6", "6"]
    assert coverage["verification"] == "failed"
    assert "0 of 1 quiz answer verified, 1 not checked" in report_coverage.sentence(coverage)
    panel = panels.coverage(coverage)
    assert "What is y when x is 3?" in panel and html.escape(reason) in panel


@pytest.mark.parametrize("answer", ["Less than doubles it", "Doubles x, not y"])
def test_a_ratio_word_inside_another_statement_is_not_that_ratio(
    tmp_path: Path, answer: str
) -> None:
    mark = "Answer and reasoning\n\n"
    body = DOUBLING.replace("2. Doubles it", f"2. {answer}")
    body = body.replace(mark + "Doubles it", mark + answer)
    result = _lesson(tmp_path, body, QUIZ_CLAIMS + RATIO)
    assert result.status()["quiz-doubling"] == "fail"


def test_words_are_read_as_ratios_only_when_the_claim_says_so(tmp_path: Path) -> None:
    result = _lesson(tmp_path, DOUBLING, QUIZ_CLAIMS + RATIO.replace(", ratio: true", ""))
    assert result.status()["quiz-doubling"] == "fail"
    assert "should state 2" in result.claim("quiz-doubling")["message"]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Run `python -m x 42` first.", "code"),
        ("See [part 3 of the guide](https://example.org/7).", "link"),
        ("Released on 2026-10-07.", "date"),
        ("Published in March 2024.", "date"),
        ("(Vaswani et al., 2017)", "date"),
        ("This is step 4 of the method.", "numbering"),
        ("Figure 2 shows it.", "numbering"),
        ("Atlas version 3 ships it.", "version"),
        ("GPT-2 and ResNet-50 are models.", "name"),
    ],
)
def test_exemption_rules(text: str, rule: str) -> None:
    lesson = build_lesson(f"# Title\n\n{text}\n")
    found = [spot for spot in exempt.spots(lesson) if spot.text.strip("()")]
    assert found and all(spot.exempt == rule for spot in found), found


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("The clock runs at [1700 MHz](https://example.org/7).", [""]),
        ("Read [RFC 2119](https://example.org/7) first.", ["link"]),
        ("At 1600 MHz (1700 ticks per microsecond) it stalls.", ["", ""]),
        ("The t_CAS is 13.75 nsec here.", [""]),
        ("In that case 3 transfers happen, and each step 3 more.", ["", ""]),
        ("In case 3 nothing moves.", ["numbering"]),
    ],
)
def test_a_stated_quantity_is_not_exempt_where_a_name_or_year_would_be(
    text: str, rules: list[str]
) -> None:
    """A number with a unit in a link's text states a quantity (`RFC 2119` names a
    document); a four-digit number after `(` is a year only when nothing but `)`, `,` or `;`
    follows it; `nsec` is a unit, so its number is not read bare."""
    spots = exempt.spots(build_lesson(f"# Title\n\n{text}\n"))
    assert [spot.exempt for spot in spots] == rules, spots


def test_a_hyphen_after_a_lowercase_word_or_a_letter_is_no_name() -> None:
    lesson = build_lesson("# T\n\nA top-5 list, and N-2 tokens.\n")
    assert [spot.exempt for spot in exempt.spots(lesson)] == ["", ""]


def test_numbers_inside_formulas_are_not_counted() -> None:
    lesson = build_lesson("# T\n\nInline $x^2 + 3$ and\n\n$$\ny=4x\n$$\n\nthen 5 apples.\n")
    assert [spot.text for spot in exempt.spots(lesson)] == ["5"]


def test_numbers_stated_in_inline_math_are_counted_but_not_its_indices() -> None:
    body = (
        "# T\n\nThe cutoff is $f_c \\approx 1600\\,\\mathrm{Hz}$, $h_{t-1} = 2^{10}$ and"
        " $p < \\frac{1}{2}$, but $x_1 + 2\\pi$ states nothing.\n"
    )
    assert [spot.text for spot in exempt.spots(build_lesson(body))] == [
        "1600\\,\\mathrm{Hz}",
        "2^{10}",
        "1",
        "2",
    ]


def test_sources_and_headings_numbering() -> None:
    body = (
        "# T\n\n### 2017 · A milestone\n\n### 1. Setup\n\nUse 3 steps.\n\n## Sources\n\n"
        "- Smith, 4 pages\n"
    )
    spots = {spot.text: spot.exempt for spot in exempt.spots(build_lesson(body))}
    assert spots == {"2017": "date", "1": "numbering", "3": "", "4": "citation"}


@pytest.mark.parametrize(
    "text",
    [
        "In the worst case 999 m is covered.",
        "The serial part 37% of the time is idle.",
        "Each round 77 s is lost.",
        "Example 44 m is typical.",
    ],
)
def test_a_number_with_a_unit_after_a_numbering_word_is_stated_not_numbering(text: str) -> None:
    [spot] = exempt.spots(build_lesson(f"# Title\n\n{text}\n"))
    assert spot.exempt == ""


def test_a_heading_that_starts_with_a_quantity_is_not_numbering() -> None:
    body = "# T\n\n### 7 s of travel\n\n### 2 Setup\n"
    spots = {spot.text: spot.exempt for spot in exempt.spots(build_lesson(body))}
    assert spots == {"7 s": "", "2": "numbering"}


@pytest.mark.parametrize(
    ("answer", "status"),
    [("To 200% of it", "pass"), ("Doubles it", "pass"), ("Quarters it", "fail"),
     ("Cuts it in half", "fail")],
)  # fmt: skip
def test_ratio_answers_in_percent_and_more_words(tmp_path: Path, answer: str, status: str) -> None:
    """`To 200% of it` states 2 (not 200); `Quarters it` and `Cuts it in half` are read as
    1/4 and 1/2, so they state the wrong ratio here and fail, rather than reading as no
    ratio at all."""
    mark = "Answer and reasoning\n\n"
    body = DOUBLING.replace("2. Doubles it", f"2. {answer}").replace(
        mark + "Doubles it", mark + answer
    )
    result = _lesson(tmp_path, body, QUIZ_CLAIMS + RATIO)
    assert result.status()["quiz-doubling"] == status
    if status == "fail":
        message = result.claim("quiz-doubling")["message"]
        assert "should state 2" in message


def test_a_percent_option_equal_to_the_ratio_is_a_second_right_option(tmp_path: Path) -> None:
    body = DOUBLING.replace("1. Halves it", "1. To 200% of it")
    result = _lesson(tmp_path, body, QUIZ_CLAIMS + RATIO)
    assert result.status()["quiz-doubling"] == "fail"
    assert "found 2" in result.claim("quiz-doubling")["message"]


def test_ratio_words_for_quarters_and_halves() -> None:
    from atlas_build.claims.kinds.quiz import _ratio_word

    words = ("Quarters it", "Cuts it to a quarter", "Cuts it in half", "Falls to an eighth")
    values = [_ratio_word(text) for text in words]
    assert [v.value if v else None for v in values] == [
        sympy.Rational(1, 4), sympy.Rational(1, 4), sympy.Rational(1, 2), sympy.Rational(1, 8)
    ]  # fmt: skip


def test_the_operands_of_working_that_holds_are_accounted(tmp_path: Path) -> None:
    """In `7 + 3 = 10` only the 10 was accounted: the 7 and the 3 stayed unaccounted
    until a claim bound them as operands. Working that checks out accounts for them."""
    right = _lesson(tmp_path / "right", "## Work\n\nWe add 7 + 3 = 10 here.\n", "claims: []\n")
    assert _numbers(right) == {"verified": 1, "input": 2}
    wrong = _lesson(tmp_path / "wrong", "## Work\n\nWe add 7 + 3 = 11 here.\n", "claims: []\n")
    assert _numbers(wrong) == {"failed": 1, "unaccounted": 2}
