"""Figures: drawn from claims' params with the engine, SVG, byte-for-byte reproducible."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np

from atlas_build import engine
from atlas_build.site.pages import figures

CLAIMS = """lesson: atlas-lesson-figures
claims:
  - id: keys
    kind: packed_mask
    quote: "its query at slot7 can attend to slots5,6,7."
    params: {docs: [[1, 11, 3, 12, 2], [1, 21, 3, 22, 23, 2]], block_size: 16, query: 7}
  - id: context
    kind: packed_mask
    quote: "Slots0–4 belong to the prior example."
    params: {docs: [[1, 11, 3, 12, 2], [1, 21, 3, 22, 23, 2]], block_size: 16, query: 9}
  - id: mixture
    kind: softmax_mixture
    quote: "probabilities are [0.25,0.75] and output is 5."
    params: {scores: ["0", "ln 3"], values: [2, 6]}
  - id: too-big
    kind: loss_mask
    params: {docs: [[1, 2, 3, 4]], block_size: 2}
  - id: one-temperature
    kind: softmax
    params: {logits: [2, 1, 0], temperature: 1}
"""

RESULTS = [
    {"id": "keys", "location": {"contentLine": 12}},
    {"id": "context", "location": {"contentLine": 13}},
    {"id": "mixture", "location": None},
]


def _figures(tmp_path: Path, text: str = CLAIMS) -> tuple[list[figures.Figure], list[str]]:
    path = tmp_path / "claims.yaml"
    path.write_text(text, encoding="utf-8")
    return figures.lesson_figures(str(path), RESULTS, "figure")


def test_claims_choose_the_figures_and_share_them(tmp_path: Path) -> None:
    found, messages = _figures(tmp_path)
    assert [f.name.split("-")[1] for f in found] == ["mask", "mixture"]
    mask, mixture = found
    assert mask.claim_ids == ("keys", "context") and mask.content_line == 12
    assert mixture.claim_ids == ("mixture",) and mixture.content_line is None
    assert "16 slots" in mask.caption and "slots 0–4, slots 5–10" in mask.caption
    assert "probabilities [0.25, 0.75], output 5" in mixture.caption
    assert "score gradients [−0.75, 0.75]" in mixture.caption
    assert len(messages) == 1 and "too-big" in messages[0] and "block_size" in messages[0]


def test_figures_are_well_formed_svg(tmp_path: Path) -> None:
    for figure in _figures(tmp_path)[0]:
        assert figure.name.endswith(".svg")
        root = ElementTree.fromstring(figure.svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert b"<dc:date>" not in figure.svg  # no timestamp


def test_figures_are_deterministic_across_processes(tmp_path: Path) -> None:
    first = {f.name: f.svg for f in _figures(tmp_path)[0]}
    again = {f.name: f.svg for f in _figures(tmp_path)[0]}
    assert first == again
    script = (
        "import sys, hashlib; from atlas_build.site.pages import figures; "
        "found, _ = figures.lesson_figures(sys.argv[1], [], 'figure'); "
        "print(' '.join(hashlib.sha256(f.svg).hexdigest() for f in found))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "claims.yaml")],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    ).stdout.split()
    import hashlib

    assert out == [hashlib.sha256(svg).hexdigest() for svg in first.values()]


def test_mask_figure_follows_the_engine(tmp_path: Path) -> None:
    """The drawn grid is the engine's mask: a different packing gives a different figure."""
    block = engine.pack_documents([np.array([1, 11, 3, 12, 2]), np.array([1, 21, 2])], 16)
    allowed = np.asarray(engine.allowed_keys(block.doc_ids))
    assert allowed[7].tolist()[:9] == [False] * 5 + [True] * 3 + [False]
    other = CLAIMS.replace("[1, 21, 3, 22, 23, 2]], block_size: 16, query: 7", "[1, 21, 2]], "
                           "block_size: 16, query: 7")  # fmt: skip
    original = _figures(tmp_path)[0][0]
    changed = _figures(tmp_path, other)
    assert {f.name for f in changed[0]} != {original.name}
    assert any("slots 5–7" in f.caption for f in changed[0])


def test_temperature_figure_needs_two_temperatures(tmp_path: Path) -> None:
    two = CLAIMS + (
        "  - id: sharper\n    kind: softmax\n    params: {logits: [2, 1, 0], temperature: 0.5}\n"
    )
    found, _ = _figures(tmp_path, two)
    temperature = [f for f in found if "-temperature-" in f.name]
    assert len(temperature) == 1 and temperature[0].claim_ids == ("one-temperature", "sharper")
    assert "temperatures 0.5, 1" in temperature[0].caption


def test_figures_are_bounded_and_never_raise(tmp_path: Path) -> None:
    """A block of 8,000 slots took 1.8 GB and ended in MemoryError; a huge integer in the
    documents overflowed. Both now skip their figure with a message."""
    claims = tmp_path / "claims.yaml"
    claims.write_text(
        "claims:\n"
        "  - id: wide\n    kind: packed_mask\n"
        "    params: {docs: [[1, 2, 3]], block_size: 8000, query: 1}\n"
        "  - id: overflow\n    kind: loss_mask\n"
        f"    params: {{docs: [[1, {10**30}]], block_size: 4}}\n"
        "  - id: many\n    kind: softmax_mixture\n"
        f"    params: {{scores: {list(range(65))}, values: {list(range(65))}}}\n",
        encoding="utf-8",
    )
    found, messages = figures.lesson_figures(str(claims), [], "figure")
    assert found == []
    assert len(messages) == 3
    assert "8000 slots is more than a mask figure shows (64)" in messages[0]
    assert "more than 64 scores" in " ".join(messages)
