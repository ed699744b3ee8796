"""Untrusted repositories, round 2 (issue 32): what a repository commits cannot send a write
outside it, replace an author's file, take another lesson's address, or leave a deleted
lesson published.

- A link at an output folder (`build`, `build/docs`, `site`) is refused before anything is
  written (A507); links inside `build/` (records/, lesson-data/, the lock) are replaced.
- `import` and `new` read only regular files (a `claims.yaml -> /proc/self/environ` is not
  copied, a FIFO record does not hang), write nothing through a linked lesson folder and
  replace no author's file without `--force` (A507, A508; exit 1).
- Two lessons with one page or one record are each an A509 naming the other; a build then
  stops with `build/` as it was, and no page moves to `<slug>-1`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from atlas_build import pipeline
from atlas_build.authoring.sources import new_lesson
from atlas_build.site.pages import docs

SEED = Path(__file__).resolve().parent.parent / "content" / "attention" / "record.json"
BUILD = ("build", "content/", "--no-cache", "-j", "1")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with one lesson (`new`'s skeleton), and a folder outside it."""
    monkeypatch.chdir(tmp_path)
    new_lesson("speed", tmp_path / "content", title="Speed", topic="Tests")
    (tmp_path / "outside").mkdir()
    return tmp_path


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


# --- links at output folders ---------------------------------------------------------------


@pytest.mark.parametrize("link", ["build", "build/docs", "site"])
def test_build_writes_nothing_through_a_linked_output_folder(
    repo: Path, run_cli, link: str
) -> None:
    target = repo / link
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(repo / "outside")
    result = run_cli(*BUILD)
    assert result.code == 1
    assert result.err.startswith(f"{link}:1:1: error A507 {link} is a symbolic link (to ")
    assert "Traceback" not in result.err and "nothing was written" in result.err
    assert list((repo / "outside").iterdir()) == []
    assert not (repo / "build" / "records").exists()


def test_links_inside_the_output_folder_are_replaced_not_followed(repo: Path, run_cli) -> None:
    secret = repo / "outside" / "secret"
    secret.write_text("the author's", encoding="utf-8")
    (repo / "build").mkdir()
    for name in ("records", "lesson-data"):
        (repo / "build" / name).symlink_to(repo / "outside")
    (repo / "build" / ".atlas-build.lock").symlink_to(secret)  # filelock truncated it
    result = run_cli(*BUILD, "--no-site")
    assert result.code == 0, result.err
    assert _files(repo / "outside") == {"secret": b"the author's"}
    for name in ("records", "lesson-data"):
        folder = repo / "build" / name
        assert folder.is_dir() and not folder.is_symlink()
        assert len(list(folder.iterdir())) == 1
    assert not (repo / "build" / ".atlas-build.lock").is_symlink()


# --- import and new ------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["secret", "/proc/self/environ"])
def test_import_does_not_copy_a_claims_file_that_is_a_link(
    repo: Path, run_cli, target: str
) -> None:
    secret = repo / "outside" / "secret"
    secret.write_text("API_KEY=hunter2\n", encoding="utf-8")
    published = repo / "published"
    published.mkdir()
    shutil.copy(SEED, published / "record.json")
    (published / "claims.yaml").symlink_to(secret if target == "secret" else target)
    lesson = repo / "content" / "imported"
    result = run_cli("import", published / "record.json", "--to", lesson)
    assert result.code == 0, result.err
    assert (lesson / "lesson.md").is_file() and not os.path.lexists(lesson / "claims.yaml")
    assert f"note: {published / 'claims.yaml'} was not copied: " in result.out
    assert "is a symbolic link; it is not followed" in result.out
    assert "hunter2" not in result.out + result.err


@pytest.mark.parametrize("kind", ["fifo", "link", "device"])
def test_import_reads_only_a_regular_record_file(repo: Path, run_script, kind: str) -> None:
    """A FIFO hung the command, /dev/zero ran it out of memory, a link was followed."""
    record = repo / "record.json"
    if kind == "fifo":
        os.mkfifo(record)
    elif kind == "link":
        record.symlink_to(SEED)
    else:
        record = Path("/dev/zero")
    lesson = repo / "content" / "imported"
    result = run_script("import", record, "--to", lesson, cwd=repo, timeout=60)
    assert result.code == 1, result.err
    assert f"{record}:1:1: error A123 " in result.err and "Traceback" not in result.err
    assert not lesson.exists()


@pytest.mark.parametrize(("folder", "link"), [("content", "content/fresh"), ("linked", "linked")])
def test_new_writes_nothing_through_a_linked_folder(
    repo: Path, run_cli, folder: str, link: str
) -> None:
    (repo / link).symlink_to(repo / "outside")
    result = run_cli("new", "fresh", "--dir", folder)
    assert result.code == 1
    assert result.err.startswith(f"{link}:1:1: error A507 {link} is a symbolic link")
    assert list((repo / "outside").iterdir()) == []


def test_new_replaces_an_author_file_only_with_force(repo: Path, run_cli) -> None:
    folder = repo / "content" / "fresh"
    folder.mkdir()
    claims = folder / "claims.yaml"
    claims.write_text("the author's claims\n", encoding="utf-8")
    result = run_cli("new", "fresh", "--dir", "content")
    assert result.code == 1
    shown = "content/fresh/claims.yaml"
    assert (
        result.err.strip()
        == f"{shown}:1:1: error A508 {shown} exists; pass --force to overwrite it"
    )
    assert os.listdir(folder) == ["claims.yaml"]
    assert claims.read_text(encoding="utf-8") == "the author's claims\n"
    assert run_cli("new", "fresh", "--dir", "content", "--force").code == 0
    assert claims.read_text(encoding="utf-8").startswith("# What the build proves")
    (folder / "record.json").write_text("{}", encoding="utf-8")  # a folder holds one source
    result = run_cli("new", "fresh", "--dir", "content", "--force")
    assert result.code == 1 and "error A508" in result.err


# --- two lessons, one address --------------------------------------------------------------


def _twin(repo: Path, folder: str, identifier: str) -> Path:
    """A second lesson, in `folder`, whose id is `identifier`."""
    new_lesson("twin", repo / "content", title="Twin", topic="Tests")
    moved = repo / "content" / folder
    (repo / "content" / "twin").rename(moved)
    lesson = moved / "lesson.md"
    text = lesson.read_text(encoding="utf-8").replace("id: atlas-lesson-twin", f"id: {identifier}")
    lesson.write_text(text, encoding="utf-8")
    return lesson


@pytest.mark.parametrize("folder", ["Speed Lesson", "spee?", "sp[e]ed", "*"])
def test_a_folder_taking_another_lessons_page_is_an_error_naming_both(
    repo: Path, run_cli, folder: str
) -> None:
    """The folder's name is not a plain slug, so its id (`speed`) names its page: the
    page of content/speed/. That lesson moved to /lessons/speed-1/ and its lesson data
    was deleted; now each is an A509 naming the other and `build/` is left as it was."""
    assert run_cli(*BUILD, "--no-site").code == 0
    before = _files(repo / "build")
    twin = _twin(repo, folder, "speed")
    result = run_cli(*BUILD, "--no-site")
    assert result.code == 1
    found = [line for line in result.err.splitlines() if " error A509 " in line]
    mine = repo / "content" / "speed" / "lesson.md"
    assert sorted(found) == sorted(
        [
            f"content/speed/lesson.md:1:1: error A509 this lesson and content/{folder}/lesson.md "
            "would both be published at /lessons/speed/; rename a folder or change an id "
            "(neither is published)",
            f"content/{folder}/lesson.md:3:5: error A509 this lesson and content/speed/lesson.md "
            "would both be published at /lessons/speed/; rename a folder or change an id "
            "(neither is published)",
        ]
    ), result.err
    assert mine.is_file() and twin.is_file()
    assert _files(repo / "build") == before


def test_two_lessons_with_one_id_are_an_error(repo: Path, run_cli) -> None:
    _twin(repo, "twin", "atlas-lesson-speed")
    result = run_cli("check", "content/", "--no-cache", "-j", "1")
    assert result.code == 1
    assert (
        "content/twin/lesson.md:3:5: error A509 this lesson and content/speed/lesson.md would "
        "both be published at records/atlas-lesson-speed.json" in result.out
    )
    assert "content/speed/lesson.md:3:5: error A509 this lesson and content/twin/" in result.out


def test_no_page_moves_to_another_address(repo: Path) -> None:
    """With --allow-errors neither twin gets a page, and no page is renamed `<slug>-N`."""
    _twin(repo, "Speed", "speed")
    new_lesson("other", repo / "content", title="Other", topic="Tests")
    report, checked = pipeline.check(["content"], pipeline.Options(jobs=1))
    tree = docs.generate_docs(report, checked)
    assert sorted(tree.pages) == ["other"]
    assert not [name for name in tree.files if name.startswith("lessons/speed")]
