"""The safe YAML reader: its libyaml fast path must give exactly what the Python parser gives."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from atlas_build import safeyaml

REPO = Path(__file__).resolve().parent.parent
PIECES = list(":-[]{}&*!|>'\"#%@`, \n\t?~\\0é\u2028\x85\r\x00\ufeff.=<\u0301\U0001f600\u00a0")
PIECES += ["\n  ", "\n- ", ": ", "- ", "!!str ", "&a ", "*a", "...", "---", "'"]


def _seeds() -> list[str]:
    texts = [path.read_text(encoding="utf-8") for path in REPO.glob("content/*/claims.yaml")]
    for path in REPO.glob("content/*/lesson.md"):
        texts.append(path.read_text(encoding="utf-8").split("\n---", 1)[0][4:])
    return texts


def _outcome(read: Any, text: str) -> tuple[Any, ...]:
    try:
        document = read(text)
    except safeyaml.YamlError as error:
        return ("refused", error.kind, error.message, error.line, error.column)
    return ("read", document.data, document.values, document.keys)


def _python_only(text: str) -> safeyaml.Document:
    return safeyaml._read(safeyaml._Loader, text, 0)


def _mutants(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    seeds = _seeds()
    found = []
    for _ in range(count):
        text = rng.choice(seeds)
        for _ in range(rng.randint(1, 4)):
            at, roll = rng.randrange(len(text) + 1), rng.random()
            if roll < 0.5:
                text = text[:at] + rng.choice(PIECES) * rng.randint(1, 3) + text[at:]
            elif roll < 0.8:
                text = text[:at] + text[at + rng.randint(1, 5) :]
            else:
                start = rng.randrange(len(text) + 1)
                text = text[:at] + text[start : start + 20] + text[at:]
        found.append(text)
    return found


@pytest.mark.skipif(safeyaml.CParser is None, reason="PyYAML built without libyaml")
def test_fast_path_agrees_with_the_python_parser_on_mutated_files() -> None:
    texts = _seeds() + _mutants(1500, seed=20261129)
    fast = [text for text in texts if safeyaml._fast(text)]
    assert len(fast) > len(texts) // 2  # the fast path is the common one
    for text in texts:
        assert _outcome(safeyaml.load, text) == _outcome(_python_only, text), text


@pytest.mark.parametrize(
    "text",
    ["a:\tb\n", "a: 1\r\nb: 2\r\n", "\ufeffa: 1\n", "? a\n: 1\n", "{a: , b: 1}\n", "[a, b]\u2028"],
)
def test_known_disagreements_take_the_python_path(text: str) -> None:
    assert not safeyaml._fast(text)


def test_lone_surrogates_take_the_python_path() -> None:
    assert not safeyaml._fast("a: '\ud800'\n")


def test_reader_works_without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / "content" / "attention" / "claims.yaml").read_text(encoding="utf-8")
    expected = _outcome(safeyaml.load, text)
    monkeypatch.setattr(safeyaml, "CParser", None)
    assert not safeyaml._fast(text)
    assert _outcome(safeyaml.load, text) == expected
    assert _outcome(safeyaml.load, "a: &x 1\nb: *x\n")[:2] == ("refused", "unsafe")


# --- numbers: built only when short and finite ----------------------------------------------


@pytest.mark.parametrize(
    "literal",
    [
        "0x" + "f" * 5000,
        "0" + "7" * 5000,
        "0b" + "1" * 5000,
        "1" + ":59" * 400,
        "9" * 5000,
        "!!int " + "9" * 1001,
        "!!float 1." + "0" * 1001,
    ],
    ids=["hex", "octal", "binary", "sexagesimal", "decimal", "tagged-int", "tagged-float"],
)
def test_long_number_refused_at_the_value(literal: str) -> None:
    outcome = _outcome(safeyaml.load, f"a: 1\nb: [2, {literal}]\n")
    assert outcome[:2] == ("refused", "unsafe"), outcome
    assert "characters; the limit is 1000" in outcome[2]
    assert outcome[3:] == (2, 8)


@pytest.mark.parametrize(
    "literal", [".inf", "-.Inf", "+.INF", ".nan", ".NaN", "1.0e+999", "-2.5e+400"]
)
def test_non_finite_float_refused_at_the_value(literal: str) -> None:
    outcome = _outcome(safeyaml.load, f"timeout: {literal}\n")
    assert outcome[:2] == ("refused", "non-finite"), outcome
    assert outcome[3:] == (1, 10)


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("0x" + "f" * 998, int("f" * 998, 16)),
        ("1" + ":30" * 333, None),
        ("1.5e+300", 1.5e300),
        ("1e999", "1e999"),  # YAML 1.1: no dot, so a string
        ("'.inf'", ".inf"),
    ],
)
def test_numbers_within_the_limit_are_read(literal: str, value: object) -> None:
    data = safeyaml.load(f"a: {literal}\n").data["a"]
    assert data == value if value is not None else isinstance(data, int)


def test_sexagesimal_at_the_limit_is_fast() -> None:
    """PyYAML builds `1:2:3...` by repeated multiplication (quadratic); at the limit it
    stays a few hundred digits and is printable."""
    data = safeyaml.load("a: 1" + ":59" * 333 + "\n").data["a"]
    assert 590 < len(str(data)) < 600


def test_lone_surrogates_are_reported_by_path() -> None:
    from atlas_build.load.schema import lone_surrogates

    document = safeyaml.load('a: "ok"\nb: ["x", "\\ud800"]\n"\\udc00k": 1\n')
    assert lone_surrogates(document.data) == [(["b", 1], False), (["\udc00k"], True)]
