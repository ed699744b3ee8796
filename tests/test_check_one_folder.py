"""Checking one lesson folder (or its file) resolves `related`, `supersedes` and
`supersededBy` against every lesson of its content directory: A240 only for ids that
exist nowhere there, and the cached report follows the content directory."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from atlas_build import pipeline

OTHER = "atlas-lesson-other"


def a240(diagnostics) -> list[str]:
    return sorted(d.message for d in diagnostics if d.code == "A240")


def lesson_with_id(seed: dict[str, Any], identifier: str) -> dict[str, Any]:
    other = copy.deepcopy(seed)
    other["id"] = identifier
    return other


@pytest.mark.parametrize("target", ["attention", "attention/record.json"])
def test_a_neighbour_lesson_is_known_and_a_missing_one_is_not(
    target, seed, write_record, content_dir, diagnose
):
    seed["related"] = [OTHER, "atlas-lesson-nowhere"]
    seed["supersedes"] = [OTHER]
    write_record(seed)
    write_record(lesson_with_id(seed, OTHER) | {"related": []}, slug="other")
    assert a240(diagnose(content_dir / target)) == [
        "related names 'atlas-lesson-nowhere', not a checked lesson"
    ]


def test_a_neighbour_lesson_md_is_read_for_its_id(seed, write_record, content_dir, diagnose):
    seed["related"] = [OTHER]
    write_record(seed)
    folder = content_dir / "other"
    folder.mkdir()
    (folder / "lesson.md").write_text(f"---\nid: {OTHER}\n---\nBody.\n", encoding="utf-8")
    assert a240(diagnose(content_dir / "attention")) == []


def test_a_neighbour_linked_from_outside_the_content_directory_is_not_read(
    seed, write_record, content_dir, diagnose, tmp_path
):
    seed["related"] = [OTHER]
    write_record(seed)
    outside = tmp_path / "elsewhere" / "other"
    outside.mkdir(parents=True)
    (outside / "record.json").write_text(json.dumps(lesson_with_id(seed, OTHER)), "utf-8")
    (content_dir / "other").symlink_to(outside, target_is_directory=True)
    assert a240(diagnose(content_dir / "attention")) == [
        f"related names {OTHER!r}, not a checked lesson"
    ]


def test_an_unreadable_neighbour_is_no_lesson(seed, write_record, content_dir, diagnose):
    seed["related"] = [OTHER]
    write_record(seed)
    write_record('{"id": "atlas-lesson-other", ', slug="other")  # not JSON: no id to read
    assert len(a240(diagnose(content_dir / "attention"))) == 1


def test_the_cached_report_follows_the_content_directory(
    seed, write_record, content_dir, tmp_path: Path
):
    """A neighbour appearing changes no byte of the checked lesson, but its report."""
    seed["related"] = [OTHER]
    write_record(seed)
    options = pipeline.Options(cache_dir=str(tmp_path / "cache"))

    def check() -> tuple[list[str], bool]:
        report, checked = pipeline.check([str(content_dir / "attention")], options)
        [item] = checked
        return a240(report.records[0].diagnostics), item.cached

    assert check() == ([f"related names {OTHER!r}, not a checked lesson"], False)
    assert check()[1] is True
    write_record(lesson_with_id(seed, OTHER), slug="other")
    assert check() == ([], False)


def test_links_to_a_neighbour_lesson_resolve(seed, write_record, content_dir, diagnose):
    """`../other/` and `/learn/atlas/other/` name a lesson of the content directory: no
    A331 error, no A332 note; a folder that holds no lesson still gets them."""
    seed["content"] += (
        "\n\n[Other](../other/) and [upstream](/learn/atlas/other/); "
        "[gone](../gone/) and [far](/learn/atlas/gone/).\n"
    )
    write_record(seed)
    write_record(lesson_with_id(seed, OTHER) | {"related": []}, slug="other")
    found = diagnose(content_dir / "attention")
    links = sorted(
        (d.code, d.message)
        for d in found
        if d.code in ("A331", "A332") and ("other" in d.message or "gone" in d.message)
    )
    assert links == [
        (
            "A331",
            "relative link '../gone/' matches no lesson; use ../<slug>/ or /learn/atlas/<slug>/",
        ),
        ("A332", "links lesson 'gone', not in content"),
    ]
