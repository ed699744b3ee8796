"""Output paths stay inside their root: `paths.inside`, and `paths.Root` for many paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from atlas_build import paths

GOOD = ["index.md", "lessons/a/index.md", "lessons/a/figure-1.svg", "assets/atlas.css"]


def inside_all(root: Path, relatives: list[str]) -> dict[str, Path]:
    """One `Root` for every path, as a build uses it."""
    folder = paths.Root(root)
    return {relative: folder.inside(relative) for relative in relatives}


def test_one_root_for_many_paths_agrees_with_inside(tmp_path: Path) -> None:
    (tmp_path / "lessons" / "a").mkdir(parents=True)
    assert inside_all(tmp_path, GOOD) == {p: paths.inside(tmp_path, p) for p in GOOD}


@pytest.mark.parametrize("bad", ["", "../x", "a/../../x", "/etc/passwd", ".hidden", "a/.b", "a//b"])
def test_names_that_are_not_plain_are_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(paths.UnsafePath):
        paths.inside(tmp_path, bad)
    with pytest.raises(paths.UnsafePath):
        inside_all(tmp_path, ["index.md", bad])


def test_a_folder_linking_outside_is_refused(tmp_path: Path) -> None:
    root, outside = tmp_path / "docs", tmp_path / "elsewhere"
    (root / "lessons").mkdir(parents=True)
    outside.mkdir()
    os.symlink(outside, root / "lessons" / "a")
    with pytest.raises(paths.UnsafePath, match="resolves outside"):
        paths.inside(root, "lessons/a/index.md")
    with pytest.raises(paths.UnsafePath, match="resolves outside"):
        inside_all(root, ["lessons/b/index.md", "lessons/a/index.md"])


def test_a_file_linking_outside_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (tmp_path / "secret").write_text("x", encoding="utf-8")
    os.symlink(tmp_path / "secret", root / "index.md")
    with pytest.raises(paths.UnsafePath):
        inside_all(root, ["index.md"])


def test_a_link_that_stays_inside_is_followed(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    (root / "real").mkdir(parents=True)
    os.symlink(root / "real", root / "alias")
    assert inside_all(root, ["alias/index.md"]) == {"alias/index.md": root / "alias" / "index.md"}


def test_a_root_reached_through_a_link_is_fine(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "linked")
    assert inside_all(tmp_path / "linked", GOOD)["index.md"] == tmp_path / "linked" / "index.md"


def test_real_is_resolve_with_links_on_the_way(tmp_path: Path) -> None:
    (tmp_path / "real" / "deep").mkdir(parents=True)
    os.symlink(tmp_path / "real", tmp_path / "link")
    seen: dict[Path, Path] = {}
    for path in [
        tmp_path / "link" / "deep" / "file.md",
        tmp_path / "real" / "deep" / "file.md",
        tmp_path / "link" / ".." / "real",
        Path("relative") / "file.md",
    ]:
        assert paths.real(path, seen) == path.resolve()
