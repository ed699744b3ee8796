"""Pages laid out in several processes before MkDocs runs (atlas_build/site/mkdocs/prerender.py).

Proven here: a docs folder laid out with two processes equals one laid out by one, byte
for byte, and the build itself lays out no page of it; a page that warns is not stored
by a worker, and the build lays it out again and reports the warning once, as with one
process; too few missing pages start no process; workers leave no scratch folder.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
from support import MKDOCS_CONFIG, UNSTABLE_SITE_FILES

from atlas_build.site.mkdocs import build, incremental, prerender
from atlas_build.site.mkdocs.prepared import prepare
from atlas_build.site.mkdocs.stats import Stats

NAV = ("index.md", "topics/index.md", "report/index.md", "selftest/index.md", "codes/index.md")


def _docs(root: Path, pages: int, body: str = "") -> Path:
    docs = root / "docs"
    for name in NAV:
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(f"# {name}\n", encoding="utf-8")
    for number in range(pages):
        page = docs / "lessons" / f"p{number}" / "index.md"
        page.parent.mkdir(parents=True)
        text = f"# Page {number}\n\nWords of page {number}: aardvark{number}.\n\n## Part\n\nMore.\n"
        page.write_text(text + (body if number == 3 else ""), encoding="utf-8")
    return docs


def _lay_out(root: Path, docs: Path, jobs: int) -> tuple[Stats, str, Path]:
    site = root / f"site-{jobs}"
    config = root / f"mkdocs-{jobs}.yml"
    config.write_text(build.mkdocs_config(MKDOCS_CONFIG, docs, site), encoding="utf-8")
    log = io.StringIO()
    stats = incremental.build(config, str(root / f"cache-{jobs}"), stream=log, jobs=jobs)
    return stats, log.getvalue(), site


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name not in UNSTABLE_SITE_FILES
    }


def test_two_processes_lay_out_what_one_does(tmp_path: Path) -> None:
    docs = _docs(tmp_path, 24)
    before = set(Path(tempfile.gettempdir()).glob("atlas-prerender-*"))
    two, _, site_two = _lay_out(tmp_path, docs, 2)
    one, _, site_one = _lay_out(tmp_path, docs, 1)
    assert two.prerendered == 29 and two.jobs == 2 and not two.rendered
    assert one.prerendered == 0 and len(one.rendered) == 29
    assert _tree(site_two) == _tree(site_one)
    assert set(Path(tempfile.gettempdir()).glob("atlas-prerender-*")) == before


def test_a_page_that_warns_is_laid_out_and_reported_by_the_build(tmp_path: Path) -> None:
    from mkdocs.exceptions import Abort

    docs = _docs(tmp_path, 20, "\n[gone](../nowhere/missing.md)\n")
    for jobs in (2, 1):
        config = tmp_path / f"warn-{jobs}.yml"
        config.write_text(build.mkdocs_config(MKDOCS_CONFIG, docs, tmp_path / f"warn-{jobs}"))
        log = io.StringIO()
        with pytest.raises(Abort):
            incremental.build(config, str(tmp_path / f"cache-{jobs}"), stream=log, jobs=jobs)
        assert log.getvalue().count("contains a link") == 1, (jobs, log.getvalue())


def test_a_few_missing_pages_start_no_process(tmp_path: Path) -> None:
    docs = _docs(tmp_path, prerender.LEAST - 1 - len(NAV))
    stats, _, _ = _lay_out(tmp_path, docs, 2)
    assert stats.prerendered == 0 and len(stats.rendered) == prerender.LEAST - 1


def test_the_docs_tree_given_lists_what_the_folder_does(tmp_path: Path) -> None:
    """`missing` with the parent's docs tree (`sources`) finds what listing the folder does."""
    import hashlib

    docs = _docs(tmp_path, 20)
    config = tmp_path / "mkdocs.yml"
    config.write_text(build.mkdocs_config(MKDOCS_CONFIG, docs, tmp_path / "site"), encoding="utf-8")
    prepared = prepare(config, str(tmp_path / "cache"))
    sources = {
        p.relative_to(docs).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in docs.rglob("*.md")
    }
    listed = prerender.missing(prepared, {})
    assert len(listed) == 25 and sorted(prerender.missing(prepared, sources)) == sorted(listed)
