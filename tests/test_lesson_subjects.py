"""Lessons on other subjects (device physics, circuits, hardware, ML; `lesson_subjects/`),
written in the published format with other wordings: every glossary entry is recognised,
none of them gives a false A320/A321/A322, and real mistakes (an entry removed, a symbol
misspelled, a unit paragraph missing) are still found."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import lesson_text

from atlas_build import lesson

SUBJECTS = Path(__file__).resolve().parent / "lesson_subjects"
PN, RC, LINK, ML = (
    (SUBJECTS / f"{slug}.md").read_text(encoding="utf-8") for slug in ("pn", "rc", "link", "ml")
)
LESSONS = {"pn": PN, "rc": RC, "link": LINK, "ml": ML}
NAMES = {
    "pn": [
        [("V_bi",), ("k_B",), ("T",), ("q",), ("N_A", "N_D"), ("n_i",), ("V_T",), ()],
        [("W",), ("epsilon_s",), ("DeltaV",), ("mu_n",)],
    ],
    "rc": [
        [("H",), ("omega",), ("R",), ("C",), ("f_c",)],
        [("v_out",), ("V_0",), ("tau",), ("t",)],
    ],
    "link": [[("B_Gen5",), ("N_lanes",), ("R",), (), ()]],
    "ml": [
        [("L_cal",), ("theta",), ("E_bb",), ("p_theta",), ("x", "y"), ("y_hat_i",), ("z",)]
        + [("softmax",)],
        [("y_j",), ("z_j",)],
    ],
}


def findings(content_dir: Path, diagnose, lessons: dict[str, str]) -> list[tuple[str, str, str]]:
    for slug, body in lessons.items():
        folder = content_dir / slug
        folder.mkdir()
        (folder / "lesson.md").write_text(lesson_text(body, slug, citations=[]), "utf-8")
    return sorted(
        (d.path.split("/")[-2], d.code, d.message)
        for d in diagnose(content_dir)
        if d.code.startswith("A32")
    )


@pytest.mark.parametrize("slug", LESSONS)
def test_every_glossary_entry_is_recognised(slug):
    model = lesson.build(LESSONS[slug])
    assert [[entry.names for entry in g.entries] for g in model.glossaries] == NAMES[slug]
    assert all(not glossary.notes for glossary in model.glossaries)


def test_other_structures_of_these_lessons():
    rc, link, ml = (lesson.build(LESSONS[slug]) for slug in ("rc", "link", "ml"))
    assert [(q.answer, q.mark) for q in rc.quizzes] == [("159 Hz", "Solution")]
    assert [(q.answer, q.mark, q.reasoning) for q in ml.quizzes] == [
        ("−0.3", "Answer", "ŷ − 1 = −0.3.")
    ]
    assert [(s.group, s.label, s.value, s.context, s.role) for s in link.specifications] == [
        ("", "Line rate", "32 GT/s per lane", "Gen5 signalling.", ""),
        ("Interfaces", "Root complex Input", "Transaction-layer packets", "", "input"),
        ("Interfaces", "Endpoint Output", "Completions", "", "output"),
    ]


def test_no_false_glossary_findings(content_dir, diagnose):
    assert findings(content_dir, diagnose, LESSONS) == []


def test_real_mistakes_are_found(content_dir, diagnose):
    edited = {
        "pn": PN.replace("q\n\nElementary charge\n\nC\n\n", "").replace(
            "W\n\nDepletion width", "W_x\n\nDepletion width"
        ),
        "rc": RC.replace("R\n\nResistance\n\nΩ\n\n", "R\n\nResistance\n\n"),
    }
    assert findings(content_dir, diagnose, edited) == [
        ("pn", "A320", "glossary symbol 'W_x' is used in no equation, formula or text"),
        ("pn", "A321", "equation symbol 'W' is not defined under `Symbols and units`"),
        ("pn", "A321", "equation symbol 'q' is not defined under `Symbols and units`"),
        ("rc", "A321", "equation symbol 'C' is not defined under `Symbols and units`"),
        (
            "rc",
            "A322",
            "glossary entries stop at 'Capacitance', which cannot be a symbol (a word no "
            "formula writes) (entry 4 of the block); the rest is read as prose",
        ),
    ]
