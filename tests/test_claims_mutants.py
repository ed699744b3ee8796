"""Single-edit mutants of the attention lesson must each fail the claim that states the edit.

Every mutant is one edit of `content/attention/record.json`'s `content`, re-hashed with
atlas-build's own `refresh` (so integrity passes), written with the unchanged
`content/attention/claims.yaml` into a temporary lesson folder and run through
`atlas_build.pipeline.check`. Each test asserts the diagnostic code, the claim id, the
quoted and computed values in the message, and the exact `line:col` of the diagnostic,
computed here independently of atlas-build: the content offset of the edit is mapped
through JSON string escaping into the written file.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from atlas_build import safeyaml

REPO = Path(__file__).resolve().parent.parent
SEED_DIR = REPO / "content" / "attention"
SEED: dict[str, Any] = json.loads((SEED_DIR / "record.json").read_text(encoding="utf-8"))
CLAIMS_TEXT = (SEED_DIR / "claims.yaml").read_text(encoding="utf-8")
CLAIM_IDS = re.findall(r"^  - id: (\S+)$", CLAIMS_TEXT, flags=re.MULTILINE)
# quiz claim -> the claim computing its fact
QUIZ_SOURCES = {
    claim["id"]: claim["params"]["fact"].partition(".")[0]
    for claim in safeyaml.load(CLAIMS_TEXT).data["claims"]
    if claim["kind"] == "quiz"
}
QUOTE = "quote"  # `at` marker: the diagnostic points at the claim's quote in claims.yaml


@dataclass(frozen=True)
class Mutant:
    """Replace the first `old` inside the `occurrence`-th `anchor` of the content by `new`.

    `expect` lists (code, at): the diagnostic must point at the edit itself (`at` None),
    at the nearest start of the text `at` at or before the edit (the list, worked
    arithmetic or relation that contains it), or at the claim's quote in claims.yaml.
    """

    name: str
    anchor: str
    old: str
    new: str
    claim: str
    expect: tuple[tuple[str, str | None], ...]
    says: tuple[str, ...] = ()
    occurrence: int = 0


MUTANTS = [
    Mutant(
        "probabilities",
        "attention probabilities are \\[0.25,0.75\\]",
        "0.25,0.75",
        "0.3,0.7",
        "worked-mixture",
        (("A401", "\\["),),
        ("probabilities", "\\[0.3,0.7\\]", "1/4"),
    ),
    Mutant(
        "output-second-occurrence",
        "and output is 5.",
        "5",
        "4",
        "worked-mixture",
        (("A401", None),),
        ("output: the lesson says 4, computed 5",),
        occurrence=1,
    ),
    Mutant(
        "derivative-one",
        "=−0.75 and score two",
        "−0.75",
        "−0.25",
        "worked-derivatives",
        (("A401", None), ("A408", None)),
        ("dout_ds[0]", "−0.25", "-3/4"),
    ),
    Mutant(
        "derivative-two",
        "(6−5)=0.75.",
        "0.75",
        "0.5",
        "worked-derivatives",
        (("A401", None), ("A408", None)),
        ("dout_ds[1]", "0.5", "3/4"),
    ),
    Mutant(
        "arithmetic-operand",
        "×(2−5)=",
        "5",
        "4",
        "worked-derivatives",
        (("A408", None), ("A401", None)),
        ("the left side is -1/2", "output: the lesson says 4, computed 5"),
        occurrence=1,
    ),
    Mutant(
        "first-position-output",
        "so output is 2 regardless",
        "2",
        "6",
        "first-position",
        (("A401", None),),
        ("output: the lesson says 6, computed 2",),
    ),
    Mutant(
        "first-position-allowed-value",
        "only value 2 is allowed",
        "2",
        "6",
        "first-position",
        (("A401", None),),
        ("allowed_values[0]: the lesson says 6, computed 2",),
        occurrence=1,
    ),
    Mutant(
        "allowed-slots",
        "can attend to slots5,6,7.",
        "5,6,7",
        "4,5,6,7",
        "packed-keys",
        (("A401", "slots"),),
        ("allowed: the lesson says slots4,5,6,7", "{5, 6, 7}"),
    ),
    Mutant(
        "packed-future-slots",
        "and slots8 onward",
        "8",
        "9",
        "packed-context",
        (("A401", "slots"),),
        ("future: the lesson says slots9 onward, computed 8 onward",),
    ),
    Mutant(
        "packed-query-slot",
        "its query at slot7",
        "7",
        "6",
        "packed-keys",
        (("A401", "slot"),),
        ("query: the lesson says slot6, the claim fixes 7",),
    ),
    Mutant(
        "quiz-derivative-answer",
        "Answer and reasoning\n\n−0.75.\n",
        "−0.75.",
        "+0.75.",
        "quiz-derivative",
        (("A403", None),),
        ("'+0.75.'", "-0.75"),
    ),
    Mutant(
        "quiz-allowed-keys-answer",
        "Answer and reasoning\n\nOnly slots5–7\n",
        "Only slots5–7",
        "Every earlier slot0–7",
        "quiz-allowed-keys",
        (("A403", None),),
        ("'Every earlier slot0–7'", "{5, 6, 7}"),
    ),
    Mutant(
        "gradient-sign",
        "a_j(v_j-o)",
        "-",
        "+",
        "score-gradient",
        (("A403", "\\frac{\\partial o}"),),
        ("derive-1", "a_j(v_j+o)", "simplifies to"),
    ),
    Mutant(
        "sqrt-dk-to-dk",
        "{\\sqrt{d_k}}",
        "\\sqrt{d_k}",
        "d_k",
        "attention-definition",
        (("A403", "A&="),),
        ("sample-0", "{QK^{\\mathsf T}}{d_k}", "sides differ by"),
    ),
    Mutant(
        "variance-result",
        "\\approx d_k\\end",
        "d_k",
        "2d_k",
        "score-variance",
        (("A403", "\\operatorname{Var}"),),
        ("derived-equals-stated", "sympy.stats derives d_k", "the lesson writes 2*d_k"),
    ),
    Mutant(
        "deleted-sentence",
        "score scale: a sum of dₖ independent unit-variance products has variance dₖ.",
        ": a sum of dₖ independent unit-variance products has variance dₖ",
        "",
        "score-variance",
        (("A402", QUOTE),),
        ("quote not found",),
    ),
    Mutant(
        "dense-score-shape",
        "T × T per head",
        "T × T",
        "T × d",
        "dense-score-shape",
        (("A402", QUOTE),),
        ("quote not found",),
    ),
    Mutant(
        "scores-input-ln3",
        "scores \\[0,ln3\\]",
        "ln3",
        "ln4",
        "worked-mixture",
        (("A401", "\\["),),
        ("scores", "\\[0,ln4\\]", "log(3)"),
        occurrence=1,
    ),
]


def mutate(mutant: Mutant) -> tuple[str, int]:
    """The mutated content and the content offset of the edit."""
    content = SEED["content"]
    start = -1
    for _ in range(mutant.occurrence + 1):
        start = content.index(mutant.anchor, start + 1)
    edit = start + mutant.anchor.index(mutant.old)
    return content[:edit] + mutant.new + content[edit + len(mutant.old) :], edit


def file_position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and code-point column of `offset` in `text`."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def content_to_file(record_text: str, content: str, offset: int) -> tuple[int, int]:
    """Where content offset `offset` lies in the record file, through JSON escaping."""
    marker = '"content": "'
    assert record_text.count(marker) == 1
    base = record_text.index(marker) + len(marker)
    escaped = json.dumps(content[:offset], ensure_ascii=False)[1:-1]
    return file_position(record_text, base + len(escaped))


def quote_position(claim_id: str) -> tuple[int, int]:
    """Where the quote of `claim_id` starts in content/attention/claims.yaml."""
    lines = CLAIMS_TEXT.splitlines()
    start = lines.index(f"  - id: {claim_id}")
    for number in range(start + 1, len(lines)):
        if lines[number].lstrip().startswith("quote: "):
            return number + 1, lines[number].index("quote: ") + len("quote: ") + 1
    raise AssertionError(f"claim {claim_id} has no quote")


@dataclass
class Outcome:
    record_path: Path
    claims_path: Path
    record_text: str
    content: str
    edit: int
    report: Any  # RecordReport
    exit_code: int

    def claims(self) -> dict[str, dict[str, Any]]:
        return {claim["id"]: claim for claim in self.report.claims}

    def errors(self) -> list[Any]:
        return [d for d in self.report.diagnostics if d.severity.value == "error"]


@pytest.fixture(scope="module")
def fast_variance() -> Iterator[None]:
    """Memoise `derived_variance`, a pure function of the width symbol (3-4 s of sympy.stats
    per call), so sixteen pipeline runs do not repeat the same derivation. The variance
    claim still runs in full (its first call is real, and test_claims.py runs it unpatched)."""
    from atlas_build.claims.kinds import variance

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            variance,
            "derived_variance",
            functools.lru_cache(maxsize=None)(variance.derived_variance),
        )
        yield


@pytest.fixture(scope="module")
def run_mutant(
    tmp_path_factory: pytest.TempPathFactory, fast_variance: None
) -> Callable[[Mutant | None], Outcome]:
    """Build and check one mutant (None: the unmutated seed); each is run once per module."""
    from atlas_build import pipeline
    from atlas_build.load.records import refresh

    @functools.cache
    def run(mutant: Mutant | None) -> Outcome:
        record = json.loads(json.dumps(SEED))
        edit = 0
        if mutant is not None:
            record["content"], edit = mutate(mutant)
            record, changes = refresh(record)
            assert {name for name, _, _ in changes} >= {"contentHash", "recordHash"}
        folder = tmp_path_factory.mktemp(mutant.name if mutant else "seed") / "attention"
        folder.mkdir()
        record_text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
        (folder / "record.json").write_text(record_text, encoding="utf-8")
        shutil.copyfile(SEED_DIR / "claims.yaml", folder / "claims.yaml")
        report, _ = pipeline.check([str(folder)], pipeline.Options())
        assert len(report.records) == 1
        return Outcome(
            folder / "record.json",
            folder / "claims.yaml",
            record_text,
            record["content"],
            edit,
            report.records[0],
            report.exit_code(),
        )

    return run


def same_file(reported: str, expected: Path) -> bool:
    return Path(reported).resolve() == expected.resolve()


def test_there_are_at_least_twelve_distinct_mutants():
    assert len(MUTANTS) >= 12
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)
    edited = {mutate(m)[0] for m in MUTANTS}
    assert len(edited) == len(MUTANTS) and SEED["content"] not in edited
    for mutant in MUTANTS:
        assert mutant.claim in CLAIM_IDS
    assert set(QUIZ_SOURCES.values()) & {m.claim for m in MUTANTS}  # some edits reach a quiz


def test_unmutated_seed_passes_every_claim(run_mutant):
    outcome = run_mutant(None)
    statuses = {claim_id: claim["status"] for claim_id, claim in outcome.claims().items()}
    assert statuses == dict.fromkeys(CLAIM_IDS, "pass")
    assert outcome.errors() == []
    assert outcome.exit_code == 0
    # only notes: numbers left unaccounted (A410) and symbols the table gives no unit (A422)
    assert not [
        d
        for d in outcome.report.diagnostics
        if d.code.startswith("A4") and d.code not in {"A410", "A422"}
    ]
    # every number of the seed is accounted for, except the question's own slot numbers
    unaccounted = outcome.report.coverage["numbers"]["unaccountedAt"]
    assert [n["text"] for n in unaccounted] == ["slot7", "slot5"]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_fails_its_claim_at_the_edit(mutant: Mutant, run_mutant):
    outcome = run_mutant(mutant)
    assert outcome.exit_code == 1
    assert outcome.report.status == "error"

    # exactly the claim that states the edited text fails; every other claim still passes,
    # except a quiz whose fact that claim computes: it proves nothing (claims/running/facts.py)
    statuses = outcome.claims()
    assert statuses[mutant.claim]["status"] == "fail", statuses[mutant.claim]
    readers = {quiz for quiz, source in QUIZ_SOURCES.items() if source == mutant.claim}
    others = {cid: c["status"] for cid, c in statuses.items() if cid != mutant.claim}
    assert others == {cid: "unchecked" if cid in readers else "pass" for cid in others}
    for reader in readers:
        said = statuses[reader]["message"]
        assert f"comes from claim {mutant.claim!r}, which failed" in said, said

    # the only errors are this claim's (integrity passes: the record was re-hashed)
    errors = outcome.errors()
    assert errors
    for diagnostic in errors:
        assert diagnostic.code.startswith("A4"), diagnostic
        if diagnostic.code != "A408":  # worked arithmetic is checked with or without a claim
            assert diagnostic.message.startswith(f"claim {mutant.claim}: "), diagnostic

    for code, at in mutant.expect:
        found = [d for d in errors if d.code == code]
        assert found, f"no {code} among {[(d.code, d.message) for d in errors]}"
        if at == QUOTE:
            line, column = quote_position(mutant.claim)
            assert any(
                same_file(d.path, outcome.claims_path) and (d.line, d.column) == (line, column)
                for d in found
            ), [(d.path, d.line, d.column) for d in found]
            continue
        offset = outcome.edit
        if at is not None:
            offset = outcome.content.rfind(at, 0, outcome.edit + len(at))
            assert offset != -1
        line, column = content_to_file(outcome.record_text, outcome.content, offset)
        content_line, content_column = file_position(outcome.content, offset)
        located = [
            d
            for d in found
            if same_file(d.path, outcome.record_path) and (d.line, d.column) == (line, column)
        ]
        assert located, (
            f"{code} expected at {line}:{column}, got "
            f"{[(d.path, d.line, d.column, d.message) for d in found]}"
        )
        assert (located[0].content_line, located[0].content_column) == (
            content_line,
            content_column,
        )

    messages = " | ".join(d.message for d in errors)
    for text in mutant.says:
        assert text in messages


def test_reworded_quote_names_the_edited_paragraph(run_mutant):
    """A402 sits at the quote in claims.yaml; its hint points at the reworded paragraph.

    (For a deleted sentence the closest remaining text is some other paragraph, so only
    the reworded shape is checked here.)"""
    mutant = next(m for m in MUTANTS if m.name == "dense-score-shape")
    outcome = run_mutant(mutant)
    [lost] = [d for d in outcome.errors() if d.code == "A402"]
    paragraph = outcome.content.rfind("\n", 0, outcome.edit) + 1
    line, column = content_to_file(outcome.record_text, outcome.content, paragraph)
    content_line, _ = file_position(outcome.content, paragraph)
    hint = re.search(r"closest text is at (.+):(\d+):(\d+) \(content line (\d+)\)", lost.message)
    assert hint, lost.message
    assert same_file(hint.group(1), outcome.record_path)
    assert (int(hint.group(2)), int(hint.group(3))) == (line, column)
    assert int(hint.group(4)) == content_line
    shown = outcome.content[paragraph:].partition("\n")[0].strip()[:159]  # the text itself
    assert json.loads(lost.message.partition(f"(content line {content_line}): ")[2])[:159] == shown


def test_claims_json_records_quoted_and_computed_for_a_mutant(run_mutant):
    """The report's claims entry carries the failing value with both sides and its position."""
    mutant = next(m for m in MUTANTS if m.name == "output-second-occurrence")
    outcome = run_mutant(mutant)
    claim = outcome.claims()["worked-mixture"]
    bad = [value for value in claim["values"] if not value["ok"]]
    assert [(v["name"], v["quoted"], v["computed"]) for v in bad] == [("output", "4", "5")]
    line, column = content_to_file(outcome.record_text, outcome.content, outcome.edit)
    assert (bad[0]["line"], bad[0]["column"]) == (line, column)
    assert claim["message"].startswith("claim worked-mixture: output: the lesson says 4")
    # the claim is located at its first occurrence (unchanged), the failure at the second
    first = outcome.content.index("With allowed scores")
    assert (claim["location"]["line"], claim["location"]["column"]) == content_to_file(
        outcome.record_text, outcome.content, first
    )


def test_console_script_reports_a_mutant_at_its_line_and_column(run_mutant, run_cli):
    """`atlas-build check` on a mutant exits 1 and prints `path:line:col: error A401 ...`."""
    mutant = next(m for m in MUTANTS if m.name == "first-position-output")
    outcome = run_mutant(mutant)
    result = run_cli("check", outcome.record_path.parent, "--no-cache")
    assert result.code == 1
    line, column = content_to_file(outcome.record_text, outcome.content, outcome.edit)
    printed = [row for row in result.out.splitlines() if " error A401 " in row]
    assert len(printed) == 1
    where, _, message = printed[0].partition(": error A401 ")
    path, printed_line, printed_column = where.rsplit(":", 2)
    assert same_file(path, outcome.record_path)
    assert (int(printed_line), int(printed_column)) == (line, column)
    assert "claim first-position: output: the lesson says 6, computed 2" in message
    assert re.search(r"claims 11/12 passed", result.out.splitlines()[-1])


def test_equivalent_rewrites_still_pass(fast_variance, tmp_path):
    """Same values written differently (ASCII minus signs, `5.0` for 5) are not failures."""
    from atlas_build import pipeline
    from atlas_build.load.records import refresh

    record = json.loads(json.dumps(SEED))
    content = record["content"]
    content = content.replace("0.25×(2−5)=−0.75", "0.25×(2-5)=-0.75", 1)
    content = content.replace("and output is 5.", "and output is 5.0.", 1)
    assert content.count("5.0.") == 1 and content.count("(2-5)=-0.75") == 1
    record["content"] = content
    record, _ = refresh(record)
    folder = tmp_path / "attention"
    folder.mkdir()
    (folder / "record.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    shutil.copyfile(SEED_DIR / "claims.yaml", folder / "claims.yaml")
    report, _ = pipeline.check([str(folder)], pipeline.Options())
    [checked] = report.records
    assert {claim["status"] for claim in checked.claims} == {"pass"}
    assert [d for d in checked.diagnostics if d.severity.value == "error"] == []
