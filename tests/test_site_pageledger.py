"""The page ledger (atlas_build/site/pages/pageledger.py): pages the docs folder holds are not read.

Proven here: after an edit, the pages of untouched lessons are not read from the cache,
and the site equals a cold build; a docs page or figure edited, deleted or replaced by a
link since the last build is written again from its cache entry (the site equals a cold
build, a file outside is untouched); a forged or malformed ledger is a miss; a broken
link in a lesson whose page was not read is still located in its lesson.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support import edit_text, site_build, site_cold, site_content, site_tree

from atlas_build.cache import Cache
from atlas_build.site.pages import pageledger


def test_an_edit_reads_only_the_edited_page(
    tmp_path: Path, cache_reads: list[tuple[str, str]]
) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    edit_text(content / "alpha" / "lesson.md", "and pangolins", "and pangolins and quetzals")
    cache_reads.clear()
    code, log = site_build(content, work, cache)
    assert code == 0, log
    pages = [key for namespace, key in cache_reads if namespace == "page"]
    assert len(pages) == 1  # the edited lesson's, a miss: it is rendered
    assert site_tree(work / "site") == site_cold(content, tmp_path / "cold")


@pytest.mark.parametrize("damage", ["edited", "deleted", "hard link", "symbolic link"])
def test_a_touched_docs_page_is_written_again(tmp_path: Path, damage: str) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    page = work / "docs" / "lessons" / "beta" / "index.md"
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n", encoding="utf-8")
    if damage == "edited":
        edit_text(page, "capybaras", "aardvarks")
    elif damage == "deleted":
        page.unlink()
    elif damage == "hard link":
        page.unlink()
        os.link(outside, page)
    else:
        page.unlink()
        page.symlink_to(outside)
    edit_text(content / "alpha" / "lesson.md", "and pangolins", "and pangolins and quetzals")
    code, log = site_build(content, work, cache)
    assert code == 0, log
    assert site_tree(work / "site") == site_cold(content, tmp_path / "cold")
    assert outside.read_text(encoding="utf-8") == "# Outside\n"
    assert "capybaras" in page.read_text(encoding="utf-8") and not page.is_symlink()


def _ledger_path(cache: Path, docs: Path) -> Path:
    key = pageledger.Ledger(Cache(None), docs).key
    return cache / pageledger.NAMESPACE / key[:2] / key


@pytest.mark.parametrize("damage", ["forged", "malformed"])
def test_a_damaged_ledger_is_a_miss(tmp_path: Path, damage: str) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    path = _ledger_path(cache, work / "docs")
    header, _, payload = path.read_bytes().partition(b"\n")
    rows = json.loads(payload)
    for row in rows.values():  # every page claims another title and an outside file
        row["head"]["title"] = "Forged"
        row["files"]["../../outside.md"] = next(iter(row["files"].values()))
    data = json.dumps(rows).encode("ascii")
    if damage == "forged":
        path.write_bytes(header + b"\n" + data)
    else:  # authenticated, but not what the ledger writes: every row is refused
        Cache(cache).put(pageledger.NAMESPACE, path.name, data)
    edit_text(content / "alpha" / "lesson.md", "and pangolins", "and pangolins and quetzals")
    code, log = site_build(content, work, cache)
    assert code == 0, log
    site = site_tree(work / "site")
    assert site == site_cold(content, tmp_path / "cold")
    assert not any(b"Forged" in data for data in site.values())


def test_a_broken_link_of_an_unread_page_is_located_in_its_lesson(tmp_path: Path) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    edit_text(content / "beta" / "lesson.md", "capybaras.", "capybaras ([more](../alpha/)).")
    assert site_build(content, work, cache)[0] == 0
    (content / "alpha" / "lesson.md").unlink()  # beta's link now leads nowhere
    (content / "alpha" / "claims.yaml").unlink(missing_ok=True)
    code, log = site_build(content, work, cache)
    beta = content / "beta" / "lesson.md"
    line = next(n for n, text in enumerate(beta.read_text().splitlines(), 1) if "more" in text)
    assert f"content/beta/lesson.md:{line}:" in log, log  # shown relative to the cwd
