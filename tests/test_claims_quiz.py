"""The `quiz` kind (claims/kinds/quiz.py): an answer may state several facts, numbers a
quiz restates from the inputs of its facts' claims are accounted as inputs, and a quiz
proves no more than the fact it compares with (claims/running/facts.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import OHM_BODY, QUIZ_BODY, QUIZ_CLAIMS, Checked, at, check, write_lesson

INTERVAL = """
## Science and assumptions

$$
a=m-d,\\qquad b=m+d
$$

With m = 1 and d = 0.5 the interval runs from a = 0.5 to b = 1.5.

## Check your understanding

### Where does the interval run?

1. From 0 to 2
2. From {option}
3. From 1 to 1.5

Answer and reasoning

From {answer}

Subtract d from m, then add it.
"""

INTERVAL_CLAIMS = """
claims:
  - id: interval
    kind: formula
    quote: "With m = 1 and d = 0.5 the interval runs from a = 0.5 to b = 1.5."
    bind: [m, d, a, b]
    params:
      values: {{m: 1, d: 0.5}}
      use: [{{equation: 0, relation: 0}}, {{equation: 0, relation: 1}}]
  - id: quiz
    kind: quiz
    params: {{question: "Where does the interval run", fact: {fact}}}
"""


def _interval(
    tmp_path: Path, answer: str = "0.5 to 1.5", fact: str = "[interval.a, interval.b]"
) -> Checked:
    body = INTERVAL.format(option=answer, answer=answer)
    return check(write_lesson(tmp_path, "interval", body, INTERVAL_CLAIMS.format(fact=fact)))


def _numbers(result: Checked) -> dict:
    return result.record.coverage["numbers"]


def _answer_at(result: Checked, text: str) -> tuple[int, int]:
    """Where `text` is first written in the stated answer (after the answer mark)."""
    mark = "Answer and reasoning\n\n"
    answer = result.lesson_text.index(mark) + len(mark)
    line = result.lesson_text[answer:].partition("\n")[0]
    return result.lesson_at(mark + line, shift=len(mark) + line.index(text))


def test_an_answer_may_state_several_facts(tmp_path: Path) -> None:
    """`0.5 and 1.5` was uncheckable: a fact was one value. With `fact: [a, b]` the answer
    states each, and both numbers of the answer and of the right option are verified."""
    result = _interval(tmp_path)
    assert result.status() == {"interval": "pass", "quiz": "pass"}
    assert result.errors() == []
    assert _numbers(result)["unaccounted"] == 0
    assert result.record.coverage["quizzes"]["verified"] == 1
    assert result.record.coverage["verification"] == "verified"


def test_an_answer_with_one_number_edited_fails_at_that_number(tmp_path: Path) -> None:
    result = _interval(tmp_path, answer="0.5 to 1.6")
    assert result.status()["quiz"] == "fail"
    [wrong, _] = sorted(result.found("A403"), key=lambda d: d.message)
    assert "answer-agrees: answer 'From 0.5 to 1.6' should state 1/2 = 0.5 and 3/2" in (
        wrong.message
    )
    assert at(wrong) == _answer_at(result, "1.6")
    assert result.record.coverage["verification"] == "failed"


def test_every_number_of_the_answer_must_be_stated_by_a_fact_or_an_input(
    tmp_path: Path,
) -> None:
    """One fact does not make a two-number answer right: 1.5 is neither a or an input."""
    result = _interval(tmp_path, fact="interval.a")
    assert result.status()["quiz"] == "fail"
    answer = [d for d in result.found("A403") if "answer-agrees" in d.message]
    assert [at(d) for d in answer] == [_answer_at(result, "1.5")]


@pytest.mark.parametrize("fact", ["[interval.a, interval.a]", "[interval.a, interval.m]"])
def test_a_fact_list_names_computed_quantities_once_each(tmp_path: Path, fact: str) -> None:
    result = _interval(tmp_path, fact=fact)
    assert result.status()["quiz"] == "error"
    [problem] = result.found("A404")
    assert "twice" in problem.message or "fixes itself" in problem.message


def test_a_question_that_restates_an_input_accounts_it(tmp_path: Path) -> None:
    """`What is y when x is 3?`: the 3 is the input x = 3 of the claim the fact comes from,
    an input like the 3 the quote binds, not a number left unaccounted."""
    result = check(write_lesson(tmp_path, "probe", QUIZ_BODY, QUIZ_CLAIMS))
    assert result.status() == {"double": "pass", "quiz": "pass"}
    assert (_numbers(result)["input"], _numbers(result)["unaccounted"]) == (2, 0)
    assert result.record.coverage["verification"] == "verified"


def test_a_question_that_names_an_input_with_another_value_fails_at_it(tmp_path: Path) -> None:
    body = QUIZ_BODY.replace("### What is y when x is 3?", "### What is y when x is 4?")
    result = check(write_lesson(tmp_path, "probe", body, QUIZ_CLAIMS))
    assert result.status() == {"double": "pass", "quiz": "fail"}
    [finding] = result.found("A403")
    assert "question-values: the question states x = 4" in finding.message
    assert "from x = 3" in finding.message
    assert at(finding) == result.lesson_at("when x is 4", shift=len("when x is "))
    assert _numbers(result)["failed"] == 1


def test_a_question_may_give_an_input_other_values_beside_the_claims(tmp_path: Path) -> None:
    """A question that compares the worked example with another case names x twice: one
    of them is the claim's value, so the other is not a misstatement (nor an input)."""
    body = QUIZ_BODY.replace("### What is y when x is 3?", "### What is y when x is 3, not x = 5?")
    result = check(write_lesson(tmp_path, "probe", body, QUIZ_CLAIMS))
    assert result.status() == {"double": "pass", "quiz": "pass"}
    assert [n["text"] for n in _numbers(result)["unaccountedAt"]] == ["5"]


@pytest.mark.parametrize(("restated", "status"), [("3", "pass"), ("4", "fail")])
def test_an_option_may_restate_an_input_beside_the_fact(
    tmp_path: Path, restated: str, status: str
) -> None:
    """`6, from x = 3`: the 6 states the fact, the 3 restates the input and is an input;
    with `x = 4` the option states a number that is neither, and the answer is wrong."""
    said = f"6, from x = {restated}"
    body = QUIZ_BODY.replace("2. 6\n", f"2. {said}\n")
    body = body.replace("\n\n6\n\nDoubling", f"\n\n{said}\n\nDoubling")
    result = check(write_lesson(tmp_path, "probe", body, QUIZ_CLAIMS))
    assert result.status()["quiz"] == status
    if status == "pass":
        assert (_numbers(result)["input"], _numbers(result)["verified"]) == (4, 3)
        assert result.record.coverage["verification"] == "verified"
    else:
        [finding] = [d for d in result.found("A403") if "answer-agrees" in d.message]
        mark = "Answer and reasoning\n\n"
        assert at(finding) == result.lesson_at(mark + said, shift=len(mark) + len(said) - 1)


OHM = (
    OHM_BODY
    + """
## Check your understanding

### What is the drop across the resistor, in volts?

1. 5
2. 6
3. 7

Answer and reasoning

6

Ohm's law multiplies them.
"""
)

OHM_CLAIMS = """
claims:
  - id: ohm
    kind: formula
    quote: "With I = 2 A and R = 3 Ω the drop is V = {drop}."
    bind: [I, R, V]
    params:
      values: {{I: 2, R: 3}}
      use: [{{equation: 0, relation: 0}}]
  - id: drop
    kind: quiz
    params: {{question: "What is the drop", fact: ohm.V}}
"""


def _ohm(tmp_path: Path, drop: str) -> Checked:
    body, claims = OHM.format(drop=drop), OHM_CLAIMS.format(drop=drop)
    return check(write_lesson(tmp_path, "ohm", body, claims))


def test_a_quiz_on_a_fact_whose_number_is_proved_passes(tmp_path: Path) -> None:
    """V has no table entry: the claim works it out in A·Ω, and 6 V converts to it."""
    result = _ohm(tmp_path, "6 V")
    assert result.status() == {"ohm": "pass", "drop": "pass"}
    assert result.record.coverage["quizzes"]["verified"] == 1


def test_a_quiz_on_a_fact_whose_number_is_unproven_proves_nothing(tmp_path: Path) -> None:
    """`V = 6 mV` agrees with the computed 6 (A·Ω) only as a bare number (A423): the value
    of V is not proved, so neither is the quiz answer 6 that states it. The quiz used to
    pass, and credit `ohm` with a pass "through" it."""
    result = _ohm(tmp_path, "6 mV")
    [unproven] = result.found("A423")
    assert at(unproven) == result.lesson_at("6 mV")
    assert result.status() == {"ohm": "unchecked", "drop": "unchecked"}
    reason = (
        "fact ohm.V is not proved: claim 'ohm' binds V = 6 mV, which agrees only as a bare "
        "number (A423)"
    )
    assert result.claim("drop")["message"] == f"proves nothing: {reason}"
    assert result.claim("ohm")["message"] == "proves no number: see the warnings at its numbers"
    [item] = result.record.coverage["quizzes"]["items"]
    assert (item["status"], item["reason"]) == ("unverified", reason)
    [note] = result.found("A412")
    assert reason in note.message
    assert not result.found("A414")
    assert _numbers(result)["verified"] == 0
