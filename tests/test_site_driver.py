"""What keys the pages MkDocs laid out, and which library versions the driver runs on.

Proven here: every module of the driver (atlas_build/site/mkdocs/, the speed-ups
included) enters the key of cached pages, read from the folder, so editing any of them,
or adding one, lays every page out again; the MkDocs, Material and Python-Markdown
versions the speed-ups were written against are the ones pyproject.toml pins and the
ones installed, and any other version of one of them switches the speed-ups off.
"""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import tomllib
from pathlib import Path

import pytest

import atlas_build.site.mkdocs
from atlas_build.site.mkdocs import mkcontext, state

REPO = Path(__file__).resolve().parent.parent
SPEEDUPS = {"patches.py", "htmlfeed.py", "rawblocks.py", "searchparser.py"}


@pytest.fixture
def driver_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`state.DRIVER` pointed at a copy of the driver's folder, the key recomputed."""
    copy = tmp_path / "mkdocs"
    shutil.copytree(state.DRIVER, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(state, "DRIVER", copy)
    state.environment.cache_clear()
    yield copy
    monkeypatch.undo()
    state.environment.cache_clear()


def _key() -> str:
    state.environment.cache_clear()
    return state.environment()


def test_the_driver_is_the_mkdocs_folder() -> None:
    assert state.DRIVER == Path(atlas_build.site.mkdocs.__file__).resolve().parent
    names = {p.name for p in (state.DRIVER / "speedups").glob("*.py")}
    assert names >= SPEEDUPS


def test_editing_any_driver_module_changes_the_page_key(driver_copy: Path) -> None:
    before = _key()
    modules = sorted(driver_copy.rglob("*.py"))
    assert {p.name for p in modules} >= SPEEDUPS | {"incremental.py", "prerender.py", "tree.py"}
    for module in modules:
        original = module.read_bytes()
        module.write_bytes(original + b"\n# edited\n")
        assert _key() != before, f"{module.relative_to(driver_copy)} is not in the key"
        module.write_bytes(original)
    assert _key() == before


def test_a_new_driver_module_changes_the_page_key(driver_copy: Path) -> None:
    before = _key()
    (driver_copy / "speedups" / "another.py").write_text('"""A new speed-up."""\n', "utf-8")
    assert _key() != before


def test_moving_a_module_changes_the_page_key(driver_copy: Path) -> None:
    before = _key()
    (driver_copy / "speedups" / "htmlfeed.py").rename(driver_copy / "htmlfeed.py")
    assert _key() != before


def _pins() -> dict[str, str]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    found = {}
    for requirement in data["project"]["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name is not None
        found[name[0].lower()] = requirement[name.end() :]
    return found


@pytest.mark.parametrize("library", sorted(mkcontext.SUPPORTED))
def test_each_gated_library_is_pinned_to_its_minor_version(library: str) -> None:
    major, minor = mkcontext.SUPPORTED[library]
    spec = _pins().get(library.lower())
    assert spec is not None, f"{library} is gated but not pinned in pyproject.toml"
    assert re.fullmatch(rf">={major}\.{minor}(\.\d+)?,<{major}\.{minor + 1}", spec), spec
    installed = importlib.metadata.version(library).split(".")
    assert (int(installed[0]), int(installed[1])) == (major, minor)
    assert library in state.LIBRARIES  # its version keys the cached pages too


def test_python_markdown_is_gated() -> None:
    assert "Markdown" in mkcontext.SUPPORTED
    assert mkcontext.supported()


@pytest.mark.parametrize("library", sorted(mkcontext.SUPPORTED))
def test_another_version_of_any_gated_library_switches_the_speedups_off(
    library: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.metadata.version

    def version(name: str) -> str:
        return "99.0.0" if name == library else real(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    assert not mkcontext.supported()
