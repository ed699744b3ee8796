"""A quiz's stated answer must be one of its options."""

from __future__ import annotations

from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson.context import RULES, LessonSubject

STAGE = "lesson"
NOT_AN_OPTION = define(
    "A301",
    "quiz-answer-not-an-option",
    Severity.ERROR,
    "The text after `Answer and reasoning` is not exactly one of the quiz's numbered options.",
    example="options `1. −0.75.` `2. +0.75.`, answer `−0.7`",
    fix="Make the answer repeat the correct option's text exactly.",
    stage=STAGE,
)
INCOMPLETE = define(
    "A302",
    "quiz-incomplete",
    Severity.WARNING,
    "A question under `Check your understanding` has no numbered options or no answer.",
    example="a `###` question followed only by prose",
    fix="Add an ordered list of options, `Answer and reasoning`, the answer and the reasoning.",
    stage=STAGE,
)


def normalize(text: str) -> str:
    return " ".join(text.split()).casefold()


@RULES.rule("quiz-answers", order=10)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    for quiz in subject.lesson.quizzes:
        if not quiz.options or quiz.answer is None or quiz.answer_offset is None:
            missing = "numbered options" if not quiz.options else "an answer"
            yield at(
                INCOMPLETE, subject.at(quiz.offset), f"quiz {quiz.question!r} has no {missing}"
            )
            continue
        options = [text for text, _ in quiz.options]
        if normalize(quiz.answer) not in {normalize(option) for option in options}:
            listed = "; ".join(repr(option) for option in options)
            yield at(
                NOT_AN_OPTION,
                subject.at(quiz.answer_offset),
                f"answer {quiz.answer!r} to {quiz.question!r} is not one of its options ({listed})",
            )
