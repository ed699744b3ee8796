"""Lesson structures recognised by shape: glossary marks, quiz sections and answer marks,
assumptions, sources and specifications in other wordings read as the published format
does, with offsets for every span; what is not recognised stays plain."""

from __future__ import annotations

import json

import pytest
from support import CONTENT, PROBE_BODY

from atlas_build import lesson
from atlas_build.lesson import shapes


@pytest.fixture(scope="module")
def seed_content() -> str:
    return json.loads((CONTENT / "attention" / "record.json").read_text("utf-8"))["content"]


@pytest.fixture(scope="module")
def seed(seed_content) -> lesson.Lesson:
    return lesson.build(seed_content)


def shape(model: lesson.Lesson) -> tuple:
    """What a renderer would show, without the wording of the marks."""
    return (
        [(g.section, [(e.symbol, e.meaning, e.unit, e.names) for e in g.entries])
         for g in model.glossaries],
        [(q.question, [t for t, _ in q.options], q.answer, q.reasoning) for q in model.quizzes],
        [(a.section, a.text) for a in model.assumptions],
        [(link.text, link.url) for link in model.sources],
    )  # fmt: skip


@pytest.mark.parametrize(
    ("glossary", "quiz", "answer", "sources"),
    [
        ("Symbols", "Quiz", "Answer", "References"),
        ("Notation", "Test yourself", "Solution", "Bibliography"),
        ("Symbols & units", "Self-check", "Answer and explanation", "Primary sources"),
        ("Variables", "Questions", "Answer and reasoning:", "Sources"),
        ("Symbols and units:", "Check your understanding", "Answer & reasoning", "Sources"),
    ],
)
def test_other_wordings_of_the_same_format_read_the_same(glossary, quiz, answer, sources):
    reworded = (
        PROBE_BODY.replace("Symbols and units", glossary)
        .replace("## Check your understanding", f"## {quiz}")
        .replace("Answer and reasoning", answer)
        .replace("## Sources", f"## {sources}")
    )
    assert shape(lesson.build(reworded)) == shape(lesson.build(PROBE_BODY))
    assert lesson.build(reworded).glossaries[0].mark == glossary


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Symbols and units", True),
        ("Notation", True),
        ("Key quantities", True),
        ("Units", False),
        ("Symbols and units appear below in a long sentence.", False),
        ("The variables", True),
        ("symbols", False),  # a unit column (an ECC lesson's codeword lengths in symbols)
    ],
)
def test_glossary_marks(text, expected):
    assert shapes.is_glossary_mark(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Check your understanding", True),
        ("Knowledge check", True),
        ("Self-test", True),
        ("Review", False),
        ("Historical context", False),
        ("Question 1", False),
    ],
)
def test_quiz_headings(text, expected):
    assert shapes.is_quiz_heading(text) is expected


def test_a_glossary_of_terms_stays_plain():
    content = "## Terms\n\nNotation\n\nAttention\n\nA weighted mixture of values\n\nmixing\n"
    assert lesson.build(content).glossaries == []
    assert not shapes.is_glossary_mark("Glossary")


def test_marks_followed_by_prose_stay_plain():
    content = (
        "## Notes\n\nNotation\n\nWe write vectors in bold throughout. Matrices are capitals.\n"
    )
    assert lesson.build(content).glossaries == []


def test_glossary_entries_carry_every_offset(seed, seed_content):
    for glossary in seed.glossaries:
        assert seed_content[glossary.offset :].startswith(glossary.mark)
        assert glossary.end > glossary.entries[-1].unit_offset
        for entry in glossary.entries:
            unit = entry.unit.replace("_", "\\_")  # as written, escaped
            assert seed_content[entry.meaning_offset :].startswith(entry.meaning)
            assert seed_content[entry.unit_offset :].startswith(unit)
            assert seed_content[entry.offset : entry.end].rstrip().endswith(unit)
    names = [entry.names for entry in seed.glossaries[0].entries]
    assert names[6:9] == [("d_k",), ("d_v",), ("T_q", "T_k")]


def test_quiz_spans_for_folding_answers(seed, seed_content):
    for quiz in seed.quizzes:
        assert quiz.section == "Check your understanding"
        assert quiz.mark == "Answer and reasoning"
        assert seed_content[quiz.mark_offset :].startswith("Answer and reasoning")
        assert seed_content[quiz.answer_offset : quiz.answer_end] == quiz.answer
        assert seed_content[quiz.reasoning_offset :].startswith(quiz.reasoning.split("\n")[0])
        assert (
            seed_content[quiz.reasoning_offset : quiz.end]
            .rstrip()
            .endswith(quiz.reasoning.split("\n\n")[-1])
        )
        assert quiz.offset < quiz.options[0][1] < quiz.options_end <= quiz.mark_offset


def test_an_inline_answer_after_the_mark(seed_content):
    content = "## Quiz\n\n### Which?\n\n1. One\n2. Two\n\nAnswer: Two\n\nBecause two is right.\n"
    (quiz,) = lesson.build(content).quizzes
    assert (quiz.mark, quiz.answer, quiz.reasoning) == ("Answer", "Two", "Because two is right.")
    assert content[quiz.answer_offset : quiz.answer_end] == "Two"


def test_questions_as_paragraphs_ending_in_a_question_mark():
    content = (
        "## Questions\n\nSome intro text.\n\nWhat is 2 + 2?\n\n1. 3\n2. 4\n\nSolution\n\n4\n\n"
        "Two and two.\n\nWhich is larger?\n\n1. 5\n2. 6\n\nSolution\n\n6\n\nSix.\n"
    )
    quizzes = lesson.build(content).quizzes
    assert [(q.question, q.answer, q.reasoning) for q in quizzes] == [
        ("What is 2 + 2?", "4", "Two and two."),
        ("Which is larger?", "6", "Six."),
    ]


def test_assumption_variants():
    content = (
        "## A\n\nAssumptions: Linear response.\n\nAssumption. One head.\n\n"
        "Assumptions\n\nSmall signals only.\n\nAssumptions matter.\n"
    )
    got = [(a.section, a.text) for a in lesson.build(content).assumptions]
    assert got == [
        ("A", "Linear response."),
        ("A", "One head."),
        ("A", "Small signals only."),
        ("A", "matter."),
    ]


def test_seed_specifications(seed, seed_content):
    rows = [(s.group, s.label, s.value, s.context, s.role) for s in seed.specifications]
    assert rows == [
        (
            "",
            "Dense score shape",
            "T × T per head",
            "T is sequence length; algorithms need not store the full matrix.",
            "",
        ),
        ("", "Causality", "Future positions masked", "For an autoregressive decoder.", ""),
        ("Interfaces", "Representations Input", "Queries, keys, values", "", "input"),
        ("Interfaces", "Residual stream Output", "Context-dependent value mixtures", "", "output"),
    ]
    for spec in seed.specifications:
        assert spec.section == "Specifications and interfaces"
        assert seed_content[spec.offset :].startswith(spec.label)
        assert seed_content[spec.value_offset :].startswith(spec.value)
        if spec.context_offset is not None:
            assert seed_content[spec.context_offset :].startswith(spec.context)
        assert seed_content[spec.offset : spec.end].rstrip().endswith(spec.context or spec.value)


@pytest.mark.parametrize("slug", ["kv-cache", "softmax-temperature"])
def test_authored_lessons_specifications(slug):
    text = (CONTENT / slug / "lesson.md").read_text(encoding="utf-8")
    model = lesson.build(text.split("---\n", 2)[2])
    groups = {spec.group for spec in model.specifications}
    assert groups == {"", "Interfaces"}
    assert all(spec.context for spec in model.specifications if not spec.group)
    assert {spec.role for spec in model.specifications if spec.group} == {"input", "output"}


def test_specifications_in_other_wordings_and_prose_that_stays_plain():
    content = (
        "## Interfaces\n\nThe rows below are approximate. They hold for one layer.\n\n"
        "Input width\n\nd elements\n\nOne vector per token.\n\nOutput width\n\nd elements\n"
    )
    rows = [(s.label, s.value, s.context) for s in lesson.build(content).specifications]
    assert rows == [
        ("Input width", "d elements", "One vector per token."),
        ("Output width", "d elements", ""),
    ]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Percentile level, e.g. 0.95 or 0.99", 1),
        ("One minus the level (i.e. 0.05 for 95%)", 1),
        ("Mobility, cf. Eq. 3 above", 1),
        ("The rate is fixed. Then it decays.", 2),
    ],
)
def test_an_abbreviation_ends_no_sentence(text, count):
    assert shapes.sentences(text) == count
