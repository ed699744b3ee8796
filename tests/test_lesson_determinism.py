"""Lesson-model reports must not depend on set or dict iteration order.

`atlas-build check` runs as a subprocess under several `PYTHONHASHSEED` values, on the
seed lessons and on a lesson with nested sums and shared indices (the case that once
left a sum's bound behind, so `n` was reported undefined under some seeds only), and the
JSON reports must be byte-identical, but for the wall-clock `seconds` each claim took.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from support import lesson_text

REPO = Path(__file__).resolve().parent.parent
CLI = Path(sys.executable).parent / "atlas-build"
NESTED = r"y=\sum_{i=1}^{n}\left(\sum_{j=1}^{m} a_{ij}\right)^2"
SHARED = (
    r"z=\sum_{i=1}^{n}\sum_{k=1}^{K}\left(w_{ik}\sum_{j=1}^{m} a_{ij}\right)"
    r"+\prod_{k=1}^{K}b_k"
)

NESTED_BODY = f"""Probe topic · Atlas v0.1.0

# Nested sums

A lesson with nested sums that share their indices.

## Science

### Squared row sums

$$
{NESTED}
$$

$$
{SHARED}
$$

Symbols and units

y

Sum of squared row sums

squared units of a

a_ij

Matrix entry

units of a

z

Weighted total

units of a

w_ik

Weight

dimensionless

b_k

Factor

dimensionless

## Sources

- [Primary source](https://example.org/primary)
"""
SEEDS = ("0", "1", "7", "42")
TIMING = re.compile(rb'"seconds": [0-9.eE+-]+')


def test_the_nested_sum_names_are_the_same_under_every_order():
    from atlas_build.latex import parse_relations
    from atlas_build.lesson.usage import tree_names

    relations = parse_relations(NESTED)
    found = tree_names([side for relation in relations for side in (relation.lhs, relation.rhs)])
    assert list(found.names) == ["y"]
    assert set(found.bound) == {"i", "j", "m", "n"}
    assert list(found.bases) == ["a"]


def _report(content: Path, seed: str) -> bytes:
    environment = {**os.environ, "PYTHONHASHSEED": seed}
    environment.pop("ATLAS_BUILD_CACHE_DIR", None)
    result = subprocess.run(
        [str(CLI), "check", str(content), "--no-cache", "-j", "1", "--format", "json", "-q"],
        capture_output=True,
        env=environment,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr.decode()
    assert not TIMING.search(result.stdout)  # no timings: reports are byte-identical as written
    return result.stdout


def test_check_reports_are_byte_identical_under_every_hash_seed(tmp_path):
    content = tmp_path / "content"
    for slug in ("attention", "softmax-temperature"):
        shutil.copytree(REPO / "content" / slug, content / slug)
    (content / "nested").mkdir()
    (content / "nested" / "lesson.md").write_text(lesson_text(NESTED_BODY, "nested"), "utf-8")
    reports = {seed: _report(content, seed) for seed in SEEDS}
    first = reports[SEEDS[0]]
    assert b'"A320"' not in first and b'"A321"' not in first
    assert b"atlas-lesson-nested" in first
    for seed, report in reports.items():
        assert report == first, f"PYTHONHASHSEED={seed} gives a different report"
