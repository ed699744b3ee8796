"""Incremental site builds: what is laid out again, byte-identity with a cold build, and that
nothing persisted between builds (spare folder, site, cache) can change the published site."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import (
    MKDOCS_CONFIG,
    edit_text,
    site_build,
    site_cold,
    site_content,
    site_tree,
)

from atlas_build import pipeline
from atlas_build.cache import Cache
from atlas_build.site.mkdocs import build, docsfolder, incremental, pagestore, publish, state
from atlas_build.site.mkdocs.stats import Stats
from atlas_build.site.pages import docs

REPO = Path(__file__).resolve().parent.parent


def _search(site: Path) -> list[dict[str, str]]:
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def test_edit_lays_out_one_page_and_equals_a_cold_build(tmp_path: Path) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    edit_text(content / "alpha" / "lesson.md", "and pangolins", "and pangolins and quetzals")
    code, log = site_build(content, work, cache)
    assert code == 0 and "MkDocs rendered 1 of 10 pages: lessons/alpha/index.md" in log, log
    edit_text(content / "alpha" / "lesson.md", "quetzals", "quetzals and wombats")
    code, log = site_build(content, work, cache)  # now laid out in the recycled spare folder
    assert code == 0 and "MkDocs rendered 1 of 10 pages: lessons/alpha/index.md" in log, log
    assert publish.spare_path(work / "site").is_dir()
    incremental_site = site_tree(work / "site")
    cold = site_cold(content, tmp_path / "cold")
    assert incremental_site == cold
    entries = _search(work / "site")
    assert any(
        "wombats" in e["text"] and e["location"].startswith("lessons/alpha/") for e in entries
    )
    assert any(
        "capybaras" in e["text"] and e["location"].startswith("lessons/beta/") for e in entries
    )
    assert not any("wombats" in e["text"] for e in _search(publish.spare_path(work / "site")))


def test_cold_build_is_mkdocs_build(tmp_path: Path) -> None:
    """With nothing cached, the driver is `mkdocs build --strict`, byte for byte."""
    content = site_content(tmp_path)
    cold = site_cold(content, tmp_path / "cold")
    config = tmp_path / "bare.yml"
    config.write_text(
        build.mkdocs_config(MKDOCS_CONFIG, tmp_path / "cold" / "docs", tmp_path / "bare")
    )
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(command, check=True, env=env, capture_output=True)
    assert site_tree(tmp_path / "bare") == cold


def test_nothing_changed_means_mkdocs_does_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    before = {p: p.stat().st_mtime_ns for p in (work / "site").rglob("*")}

    def refuse(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("MkDocs ran although nothing changed")

    monkeypatch.setattr(build, "run_mkdocs", refuse)
    code, log = site_build(content, work, cache)
    assert code == 0 and "site up to date" in log
    assert {p: p.stat().st_mtime_ns for p in (work / "site").rglob("*")} == before
    monkeypatch.undo()
    (work / "site" / "index.html").write_bytes(b"defaced")  # site/ is checked, not trusted
    code, log = site_build(content, work, cache)
    assert code == 0 and "MkDocs rendered no page, reused all 10" in log, log
    assert site_tree(work / "site") == site_cold(content, tmp_path / "cold")


def _docs_site(tmp_path: Path, content: Path) -> tuple[Path, Path]:
    """The docs tree of `content` and a config building it into tmp_path/out."""
    options = pipeline.Options()
    report, checked = pipeline.check([str(content)], options)
    docsfolder.write_tree(docs.generate_docs(report, checked, options=options), tmp_path / "docs")
    config = tmp_path / "mkdocs.yml"
    config.write_text(build.mkdocs_config(MKDOCS_CONFIG, tmp_path / "docs", tmp_path / "out"))
    return tmp_path / "docs", config


def _run(config: Path, cache: Path, site: Path) -> Stats:
    shutil.rmtree(site, ignore_errors=True)
    return incremental.build(config, str(cache), stream=io.StringIO())


def test_every_input_invalidates_what_it_should(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content, cache, site = site_content(tmp_path), tmp_path / "cache", tmp_path / "out"
    docs_dir, config = _docs_site(tmp_path, content)
    assert len(_run(config, cache, site).rendered) == 10
    assert _run(config, cache, site).rendered == []
    page = docs_dir / "lessons" / "beta" / "index.md"
    edit_text(page, "capybaras", "capybaras and okapis")  # a lesson's text
    assert _run(config, cache, site).rendered == ["lessons/beta/index.md"]
    claims = content / "gamma" / "claims.yaml"  # a claims file: the lesson's page and indexes
    claims.write_text(
        "lesson: atlas-lesson-gamma\nclaims:\n  - id: nope\n    kind: no_such_kind\n", "utf-8"
    )
    docs_dir, config = _docs_site(tmp_path, content)
    rendered = _run(config, cache, site).rendered
    assert "lessons/gamma/index.md" in rendered and "lessons/alpha/index.md" not in rendered
    changed = tmp_path / "other.yml"  # the MkDocs configuration: every page
    changed.write_text(f"INHERIT: {json.dumps(str(MKDOCS_CONFIG))}\nsite_name: Renamed\n")
    config.write_text(build.mkdocs_config(changed, docs_dir, site))
    assert len(_run(config, cache, site).rendered) == 10
    assert _run(config, cache, site).rendered == []
    monkeypatch.setattr(state, "__version__", "999.0")  # an atlas_build version: every page
    state.environment.cache_clear()
    try:
        assert len(_run(config, cache, site).rendered) == 10
    finally:
        monkeypatch.undo()
        state.environment.cache_clear()


def test_markdown_links_to_other_pages_are_always_laid_out(tmp_path: Path) -> None:
    docs_dir, site, cache = tmp_path / "docs", tmp_path / "out", tmp_path / "cache"
    docs_dir.mkdir()
    (docs_dir / "index.md").write_text("# Home\n\n[to b](b.md#there)\n", encoding="utf-8")
    (docs_dir / "b.md").write_text("# B\n\n## There {#there}\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"site_name: Links\ndocs_dir: {json.dumps(str(docs_dir))}\n"
        f"site_dir: {json.dumps(str(site))}\nstrict: true\ntheme: {{name: material}}\n"
        "plugins: [search]\nmarkdown_extensions: [attr_list]\nnav: [{Home: index.md}, {B: b.md}]\n"
        "validation: {links: {anchors: warn}}\n"
    )
    assert sorted(_run(config, cache, site).rendered) == ["b.md", "index.md"]
    assert _run(config, cache, site).rendered == ["index.md"]  # b's anchors come from the cache
    (docs_dir / "b.md").write_text("# B\n\n## Gone {#gone}\n", encoding="utf-8")
    from mkdocs.exceptions import Abort

    with pytest.raises(Abort):  # as a cold build: the link's anchor is missing
        _run(config, cache, site)


def test_tampered_spare_site_and_cache_cannot_change_the_site(tmp_path: Path) -> None:
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    for word in ("sloths", "tapirs"):
        assert site_build(content, work, cache)[0] == 0
        edit_text(content / "alpha" / "lesson.md", "pangolins", f"pangolins and {word}")
    spare = publish.spare_path(work / "site")
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me", encoding="utf-8")
    (spare / "lessons" / "beta" / "index.html").write_bytes(b"<p>planted</p>")
    (spare / "lessons" / "gamma" / "index.html").unlink()
    (spare / "lessons" / "gamma" / "index.html").symlink_to(outside)
    os.link(outside, spare / "lessons" / "planted.html")
    (spare / "extra.html").write_bytes(b"<p>extra</p>")
    for entry in (cache / pagestore.HTML).rglob("*"):  # forged entries fail their HMAC
        if entry.is_file():
            header = entry.read_bytes().split(b"\n", 1)[0]
            entry.write_bytes(header + b"\n<p>forged</p>")
    code, log = site_build(content, work, cache)
    assert code == 0, log
    assert outside.read_text(encoding="utf-8") == "keep me"
    assert site_tree(work / "site") == site_cold(content, tmp_path / "cold")
    assert b"planted" not in b"".join(site_tree(work / "site").values())


def test_site_state_is_authenticated(tmp_path: Path) -> None:
    """A state entry that does not verify is no state: the build lays the site out."""
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    recorded = state.load(Cache(cache), work / "site")
    assert recorded.inputs and recorded.site
    entries = [p for p in (cache / state.NAMESPACE).rglob("*") if p.is_file()]
    assert len(entries) == 1
    forged = json.dumps({"inputs": "0" * 64, "site": {}, "spare": {}}).encode()
    entries[0].write_bytes(entries[0].read_bytes().split(b"\n", 1)[0] + b"\n" + forged)
    assert state.load(Cache(cache), work / "site").inputs is None
    code, log = site_build(content, work, cache)
    assert code == 0 and "site up to date" not in log


def test_unchanged_build_is_answered_before_checking(tmp_path: Path, run_cli) -> None:
    """`uptodate` (for `atlas-build build`): the last report and status while lessons,
    options and outputs are as the last build left them; None as soon as any changed."""
    from atlas_build import cli
    from atlas_build.site.mkdocs import uptodate

    content = site_content(tmp_path)
    argv = ["build", str(content), "--out", str(tmp_path / "out"), "--site-dir",
            str(tmp_path / "site"), "--mkdocs-config", str(MKDOCS_CONFIG), "--cache-dir",
            str(tmp_path / "cache"), "-q"]  # fmt: skip
    args = cli.build_parser().parse_args(argv)
    assert uptodate.replay(args, io.StringIO()) is None  # never built
    result = run_cli(*argv)
    assert result.code == 0, result.err
    uptodate.record(args, "the report\n", 0)
    out = io.StringIO()
    assert uptodate.replay(args, out) == 0
    assert out.getvalue().startswith("the report\n") and "nothing changed" in out.getvalue()
    strict = cli.build_parser().parse_args([*argv, "--strict"])
    assert uptodate.replay(strict, io.StringIO()) is None  # other options
    record = next((tmp_path / "out" / "records").glob("*.json"))
    record.write_bytes(record.read_bytes())  # same bytes, new stamp: an output was touched
    assert uptodate.replay(args, io.StringIO()) is None
    uptodate.record(args, "the report\n", 0)
    assert uptodate.replay(args, io.StringIO()) == 0
    (tmp_path / "site" / "planted.html").write_text("x", encoding="utf-8")
    assert uptodate.replay(args, io.StringIO()) is None
    (tmp_path / "site" / "planted.html").unlink()
    assert uptodate.replay(args, io.StringIO()) == 0
    edit_text(content / "beta" / "lesson.md", "capybaras", "capybaras and tenrecs")
    assert uptodate.replay(args, io.StringIO()) is None
    no_cache = cli.build_parser().parse_args([*argv, "--no-cache"])
    uptodate.record(no_cache, "x", 0)
    assert uptodate.replay(no_cache, io.StringIO()) is None


def test_other_mkdocs_versions_get_a_plain_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver wraps MkDocs internals of the versions it was tested on; any other version
    is built by MkDocs as it is, with the same result."""
    from atlas_build.site.mkdocs import mkcontext

    content, cache, site = site_content(tmp_path), tmp_path / "cache", tmp_path / "out"
    _, config = _docs_site(tmp_path, content)
    assert _run(config, cache, site).incremental
    reference = site_tree(site)
    monkeypatch.setitem(mkcontext.SUPPORTED, "mkdocs", (9, 9))
    stats = _run(config, cache, site)
    assert not stats.incremental and len(stats.rendered) == 0 and site_tree(site) == reference


def test_preview_rebuilds_equal_a_cold_build(tmp_path: Path) -> None:
    """`serve` lays out in process, keeping pages and the theme's templates between saves:
    after edits its site is still the cold build's, byte for byte."""
    from atlas_build.site.mkdocs import serve

    content, scratch = site_content(tmp_path), tmp_path / "scratch"
    scratch.mkdir()
    options = pipeline.Options(cache_dir=str(tmp_path / "cache"))
    out = io.StringIO()
    preview = serve.Preview([str(content)], tmp_path / "docs", MKDOCS_CONFIG, scratch, options, out)
    preview()
    for word in ("civets", "dugongs"):
        edit_text(content / "gamma" / "lesson.md", "axolotls", f"axolotls and {word}")
        preview()
    assert "rendered 1 of 10 pages: lessons/gamma/index.md" in out.getvalue()
    assert site_tree(preview.site) == site_cold(content, tmp_path / "cold")


def test_build_replays_an_unchanged_build_and_rebuilds_after_an_edit(
    tmp_path: Path, run_cli
) -> None:
    """`atlas-build build` itself: the second run with nothing changed answers with the
    first run's report and touches nothing; an edit makes the next run build again."""
    content = site_content(tmp_path)
    argv = ["build", str(content), "--out", str(tmp_path / "out"), "--site-dir",
            str(tmp_path / "site"), "--mkdocs-config", str(MKDOCS_CONFIG), "--cache-dir",
            str(tmp_path / "cache")]  # fmt: skip
    first = run_cli(*argv)
    assert first.code == 0, first.err
    before = site_tree(tmp_path / "site")
    again = run_cli(*argv)
    assert again.code == 0 and "nothing changed since the last build" in again.err
    assert first.err.splitlines()[0] in again.err  # the first build's report, again
    assert site_tree(tmp_path / "site") == before
    edit_text(content / "beta" / "lesson.md", "capybaras", "capybaras and tenrecs")
    edited = run_cli(*argv)
    assert edited.code == 0 and "nothing changed" not in edited.err
    assert "MkDocs rendered 1 of" in edited.err + edited.out


def test_a_memo_lays_out_without_reading_page_entries_again(
    tmp_path: Path, cache_reads: list[tuple[str, str]]
) -> None:
    """`serve` passes a memo of page entries: the next layout reads none of them from the
    cache, one by one or in shards, and its site is the same, byte for byte."""
    content, cache, site = site_content(tmp_path), tmp_path / "cache", tmp_path / "out"
    _, config = _docs_site(tmp_path, content)
    memo: pagestore.Pages = {}
    first = incremental.build(config, str(cache), stream=io.StringIO(), memo=memo)
    assert len(first.rendered) == 10 and memo
    built = site_tree(site)
    shutil.rmtree(site)
    cache_reads.clear()
    second = incremental.build(config, str(cache), stream=io.StringIO(), memo=memo)
    assert not {namespace for namespace, _ in cache_reads} & {pagestore.PAGES, pagestore.BATCH}
    assert second.reused >= len(memo)
    assert site_tree(site) == built


def test_the_theme_listing_is_cached_with_a_custom_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """atlas-build's own partials are a `custom_dir`; its file names join the listing's key,
    so the theme's ~14,500 files are listed once, and again only when that folder changes."""
    from mkdocs.structure.files import Files

    content, cache, site = site_content(tmp_path), tmp_path / "cache", tmp_path / "out"
    custom = tmp_path / "partials-dir"
    shutil.copytree(build.THEME_DIR, custom)
    _, config = _docs_site(tmp_path, content)
    config.write_text(config.read_text().replace(str(build.THEME_DIR), str(custom)))
    listed: list[int] = []
    original = Files.add_files_from_theme

    def counted(self: Files, env: object, config: object) -> None:
        listed.append(1)
        original(self, env, config)

    monkeypatch.setattr(Files, "add_files_from_theme", counted)
    _run(config, cache, site)
    _run(config, cache, site)
    assert len(listed) == 1
    (custom / "partials" / "extra.html").write_text("<p>more</p>\n", encoding="utf-8")
    _run(config, cache, site)
    assert len(listed) == 2


def test_the_theme_listing_key_does_not_follow_links_in_a_custom_dir(tmp_path: Path) -> None:
    """A repository's custom_dir is untrusted: links looping back into it neither hang the
    key nor enter it (the theme's template loader does not follow them either)."""
    from types import SimpleNamespace

    from atlas_build.site.mkdocs import mkcontext

    custom = tmp_path / "custom"
    (custom / "partials").mkdir(parents=True)
    (custom / "partials" / "a.html").write_text("<p>a</p>\n", encoding="utf-8")
    theme = SimpleNamespace(dirs=[str(custom)], static_templates=[])
    before = mkcontext.theme_key(SimpleNamespace(theme=theme))
    for name in ("loop", "loop2"):
        os.symlink(tmp_path, custom / "partials" / name)
    assert mkcontext.theme_key(SimpleNamespace(theme=theme)) == before


def test_a_first_build_leaves_a_spare_the_next_lays_out_in(tmp_path: Path) -> None:
    """No site was replaced, so the first build copies its site to the spare: the next
    build rewrites only what changed (an untouched page keeps its change time)."""
    content, cache, work = site_content(tmp_path), tmp_path / "cache", tmp_path / "work"
    assert site_build(content, work, cache)[0] == 0
    spare = publish.spare_path(work / "site")
    assert site_tree(spare) == site_tree(work / "site")
    untouched = spare / "lessons" / "beta" / "index.html"
    before = untouched.stat().st_ctime_ns
    edit_text(content / "alpha" / "lesson.md", "and pangolins", "and pangolins and quetzals")
    code, log = site_build(content, work, cache)
    assert code == 0 and "MkDocs rendered 1 of 10 pages" in log, log
    assert (work / "site" / "lessons" / "beta" / "index.html").stat().st_ctime_ns == before
    assert site_tree(work / "site") == site_cold(content, tmp_path / "cold")


def test_pages_mkdocs_lays_out_are_scanned_for_links_as_they_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The link check of a build reads the ids and links of the pages MkDocs laid out from
    the cache (`linkcheck.note`) and scans none itself (the theme's 404 page, which MkDocs
    makes from a template, is not checked), with the same findings as a plain scan."""
    from atlas_build.site.mkdocs import linkcheck

    code, log = site_build(site_content(tmp_path), tmp_path, tmp_path / "cache")
    assert code == 0, log
    site, store = tmp_path / "site", Cache(tmp_path / "cache")
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert len(pages) >= 8
    files = {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in site.rglob("*")
        if p.is_file()
    }
    noted = {name for name in pages if linkcheck._stored(store, files[name]) is not None}
    assert noted == set(pages) - {"404.html"}
    plain = linkcheck.broken_links(site)
    scanned: list[str] = []
    original = linkcheck._scan_file
    monkeypatch.setattr(
        linkcheck, "_scan_file", lambda path: scanned.append(path) or original(path)
    )
    assert linkcheck.broken_links(site, cache=store, files=files, jobs=2) == plain
    assert scanned == []
