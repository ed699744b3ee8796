"""Records and lesson data a build writes (atlas_build/outputs.py).

Proven here: a second build with nothing changed reads no `emit` cache entry and
rewrites nothing; a record or lesson-data file edited, deleted, or replaced by a hard
link after the build is written again with the right bytes (a symbolic link is refused,
the file it names untouched); an edited lesson gets its new record; results equal a
build without the cache.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from atlas_build import outputs, pipeline

CONTENT = Path(__file__).resolve().parent.parent / "content"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for slug in ("rc-delay", "roofline"):
        shutil.copytree(CONTENT / slug, tmp_path / "content" / slug)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(cache: str | None = "cache", out: str = "build") -> int:
    options = pipeline.Options(jobs=1, cache_dir=cache)
    _, checked = pipeline.check(["content"], options)
    return outputs.write_records(checked, options, Path(out))


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def test_nothing_changed_means_nothing_read_or_written(
    work: Path, cache_reads: list[tuple[str, str]]
) -> None:
    assert _write() == 2
    stamps = {p: os.stat(p).st_mtime_ns for p in (work / "build").rglob("*.json")}
    cache_reads.clear()
    assert _write() == 2
    namespaces = {namespace for namespace, _ in cache_reads}
    assert "emit" not in namespaces and outputs.LEDGER in namespaces
    assert {p: os.stat(p).st_mtime_ns for p in (work / "build").rglob("*.json")} == stamps
    assert _files(work / "build") == (_write(None, "plain") and _files(work / "plain"))


@pytest.mark.parametrize("damage", ["edited", "deleted", "hard link", "symbolic link"])
def test_a_touched_output_is_written_again(work: Path, damage: str) -> None:
    _write()
    expected = _files(work / "build")
    (record,) = (work / "build" / "records").glob("*rc-delay*.json")
    (data,) = (work / "build" / "lesson-data").glob("rc-delay-*.json")
    outside = work / "outside.json"
    outside.write_bytes(b"{}")
    if damage == "edited":
        record.write_bytes(record.read_bytes().replace(b'"title"', b'"titel"'))
    elif damage == "deleted":
        data.unlink()
    elif damage == "hard link":
        record.unlink()
        os.link(outside, record)
    else:  # a write through it would land outside: refused, as without the ledger
        record.unlink()
        record.symlink_to(outside)
        assert _write() == 1
        assert outside.read_bytes() == b"{}"
        return
    assert _write() == 2
    assert _files(work / "build") == expected
    assert outside.read_bytes() == b"{}"


def test_an_edited_lesson_gets_its_new_record(work: Path) -> None:
    _write()
    lesson = work / "content" / "rc-delay" / "lesson.md"
    lesson.write_text(lesson.read_text(encoding="utf-8") + "\nOne more line.\n", "utf-8")
    _write()
    _write(None, "plain")
    assert _files(work / "build") == _files(work / "plain")


def test_a_deleted_lesson_leaves_no_output_behind(work: Path) -> None:
    """Its page went, its record and lesson data stayed published; now the build leaves
    exactly its lessons' files, and files that are not atlas-build's names stay."""
    _write()
    foreign = [work / "build" / "records" / "notes.txt", work / "build" / "lesson-data" / "x.json"]
    for path in foreign:
        path.write_text("someone else's", encoding="utf-8")
    shutil.rmtree(work / "content" / "roofline")
    assert _write() == 1
    left = sorted(p.relative_to(work / "build").as_posix() for p in (work / "build").rglob("*.*"))
    assert [name for name in left if "roofline" in name] == []
    assert "records/atlas-lesson-rc-delay.json" in left
    assert [name for name in left if name.startswith("lesson-data/rc-delay-")]
    assert all(path.read_text(encoding="utf-8") == "someone else's" for path in foreign)
    _write(None, "plain")
    assert _files(work / "build") == {
        **_files(work / "plain"),
        "records/notes.txt": b"someone else's",
        "lesson-data/x.json": b"someone else's",
    }
