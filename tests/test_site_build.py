"""The whole site stage: docs tree, MkDocs build, links and anchors, atomic replacement."""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from support import assert_inert, write_site_lesson

from atlas_build import outputs, pipeline
from atlas_build.cache import Cache
from atlas_build.catalog import codes as registry
from atlas_build.report import coverage as coverage_words
from atlas_build.site import cli
from atlas_build.site.mkdocs import build, docsfolder, linkcheck
from atlas_build.site.pages import docs

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "mkdocs.yml"
LESSONS = sorted(p.parent.name for p in (REPO / "content").glob("*/*") if p.name != "claims.yaml")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, docs.DocsTree, Path]:
    """content/ checked once and built into a temporary site (errors allowed: see the pages)."""
    root = tmp_path_factory.mktemp("built")
    report, checked = pipeline.check([str(REPO / "content")], pipeline.Options())
    tree = docs.generate_docs(report, checked)
    status = build.build_site(
        report,
        checked,
        docs_dir=root / "docs",
        site_dir=root / "site",
        allow_errors=True,
        config=CONFIG,
    )
    assert status == 0
    return root / "docs", tree, root / "site"


def _article(html: str) -> str:
    return html[html.index("<article") : html.index("</article>")]


def test_docs_tree_has_every_page(built: tuple[Path, docs.DocsTree, Path]) -> None:
    docs_dir, tree, _ = built
    expected = {"index.md", "topics/index.md", "report/index.md", "codes/index.md"}
    expected |= {f"lessons/{slug}/index.md" for slug in LESSONS}
    expected |= {"assets/atlas.css", "assets/latinmodern-math.otf"}
    assert expected <= set(tree.files)
    assert any(re.fullmatch(r"topics/[a-z0-9-]+/index\.md", path) for path in tree.files)
    on_disk = {p.relative_to(docs_dir).as_posix() for p in docs_dir.rglob("*") if p.is_file()}
    assert on_disk == set(tree.files) | {docsfolder.MARKER}
    attention = tree.text("lessons/attention/index.md")
    assert attention.startswith('---\ntitle: "Self-attention"\n')
    heading = '\n### <span id="scaled-dot-product-attention"></span>Scaled dot-product attention'
    assert heading + " {#section-4}\n" in attention


def test_navigation_stays_small(built: tuple[Path, docs.DocsTree, Path]) -> None:
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert [next(iter(item)) for item in config["nav"]] == [
        "Home",
        "Topics",
        "Report",
        "Selftest",
        "Diagnostic codes",
    ]
    assert config["strict"] is True and config["validation"]["links"]["anchors"] == "warn"
    assert config["plugins"] == ["search"] and config["theme"]["font"] is False
    html = (built[2] / "lessons" / "attention" / "index.html").read_text(encoding="utf-8")
    primary = html[html.index('md-nav--primary"') : html.index("md-sidebar--secondary")]
    assert "lessons/kv-cache" not in primary and primary.count("md-nav__link") <= 8


def test_lesson_page_anchors_math_marks_and_figures(
    built: tuple[Path, docs.DocsTree, Path],
) -> None:
    _, tree, site = built
    html = (site / "lessons" / "attention" / "index.html").read_text(encoding="utf-8")
    article = _article(html)
    record = tree.full["attention"].record
    for section in record.sections:
        assert f'id="{section.id}"' in article, section.id
    assert re.search(r'<h3 id="section-4"><span id="scaled-dot-product-attention"></span>'
                     r"Scaled dot-product attention", article)  # fmt: skip
    assert article.count("<math") >= 2 and "$$" not in article
    assert '<div class="atlas-math" id="equation-0">' in article
    report = tree.full["attention"].report
    quoted = [c for c in report.claims if c.get("quote")]
    assert quoted and all(f'<mark id="claim-{c["id"]}"' in article for c in quoted)
    assert 'id="claim-worked-mixture--2"' in article  # the quote occurs twice
    figures = re.findall(r'<img src="(figure-[a-z]+-[0-9a-f]+\.svg)"', article)
    assert {name.split("-")[1] for name in figures} == {"mask", "mixture"}
    assert all((site / "lessons" / "attention" / name).is_file() for name in figures)
    for label in ("Version", "Revision date", "contentHash", "Canonical URL", "License"):
        assert f"<dt>{label}</dt>" in article
    assert record.contentHash in article and 'id="atlas-citations"' in article
    assert_inert(article[article.index('id="atlas-summary"') :])


def test_validation_panel_lists_claims_with_values(
    built: tuple[Path, docs.DocsTree, Path],
) -> None:
    _, tree, site = built
    article = _article((site / "lessons" / "attention" / "index.html").read_text("utf-8"))
    panel = article[article.index('id="atlas-validation"') : article.index('id="atlas-metadata"')]
    report = tree.full["attention"].report
    for claim in report.claims:
        row = f'id="atlas-row-claim-{claim["id"]}"'
        assert f'data-status="{claim["status"]}" {row}' in panel
    assert '<a href="#claim-worked-derivatives">worked-derivatives</a>' in panel
    assert "quoted <strong>−0.75</strong>, computed <strong>-3/4 = -0.75</strong>" in panel
    # an input agreeing with the prose is shown as given, not with the check mark of a proof
    given = [v for c in report.claims for v in c.get("values", []) if v["input"] and v["ok"]]
    assert given and panel.count('data-input="true"') == len(given)
    assert panel.count("○ <code>") == len(given) and "given as input <strong>" in panel
    assert "4 of 5 relations verified, 1 definition" in panel
    assert '<a href="#equation-1">equation 1, relation 0</a>' in panel  # the definition
    coverage = report.coverage
    dimensions = coverage["dimensions"]
    assert f"<strong>Dimensions:</strong> {coverage_words.dimensions_text(dimensions)}." in panel
    assert "<th>Dimensions</th>" in panel
    table = panel[panel.index('class="atlas-relations"') :]
    for item in coverage["relations"]["items"]:
        assert f">{item['dimensions']['status']}<" in table
    if dimensions["incomplete"]:
        assert "no unit for" in table  # which symbols kept the check partial
    quizzes = coverage["quizzes"]
    assert f"<strong>Quizzes:</strong> {coverage_words.quizzes_text(quizzes)}." in panel
    listed = [q for q in quizzes["items"] if q["status"] == "unchecked"]
    assert listed and all(f"{q['question']} <small>line {q['line']}: " in panel for q in listed)
    assert panel.count("<li>", panel.index('class="atlas-quizzes"')) >= len(listed)
    summary = article[article.index('id="atlas-summary"') :][:3000]
    assert "partly verified" in summary and "2 unaccounted" in summary
    assert 'href="../../codes/#A202"' in panel


def test_built_site_links_and_anchors_resolve(built: tuple[Path, docs.DocsTree, Path]) -> None:
    site = built[2]
    assert linkcheck.check(site) == []
    report = (site / "report" / "index.html").read_text(encoding="utf-8")
    assert 'href="../lessons/attention/#atlas-validation"' in report
    for status in ("all", "error", "warning", "pass"):
        assert f'id="atlas-status-{status}"' in report
    assert '<tr data-status="pass"><td><a href="../lessons/attention/">' in report
    assert "atlas-row-claim" not in report  # the claims are on the lesson pages


def test_code_reference_lists_every_code(built: tuple[Path, docs.DocsTree, Path]) -> None:
    page = (built[2] / "codes" / "index.html").read_text(encoding="utf-8")
    codes = registry()
    assert {"A101", "A201", "A210", "A301", "A401", "A501", "A507", "A901"} <= set(codes)
    for code in codes.values():
        assert f'id="{code.code}"' in page, code.code
        assert code.name in page


def test_home_and_topic_pages_show_status(built: tuple[Path, docs.DocsTree, Path]) -> None:
    site = built[2]
    home = _article((site / "index.html").read_text(encoding="utf-8"))
    for slug in LESSONS:
        assert f'href="lessons/{slug}/"' in home
    assert "atlas-badge" in home and 'href="report/"' in home
    topic = next((site / "topics").glob("*/index.html")).read_text(encoding="utf-8")
    assert 'href="../../lessons/' in topic and "claims pass" in topic


def test_docs_generation_is_deterministic(tmp_path: Path) -> None:
    trees = []
    for _ in range(2):
        report, checked = pipeline.check([str(REPO / "content" / "attention")], pipeline.Options())
        trees.append(docs.generate_docs(report, checked).files)
    assert trees[0] == trees[1]


def _small_site(tmp_path: Path, body: str = "# Fine\n\nAll good: $x^2$.\n") -> dict[str, object]:
    content = tmp_path / "content"
    write_site_lesson(content, "fine", body)
    report, checked = pipeline.check([str(content)], pipeline.Options())
    return {"report": report, "checked": checked}


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _build(tmp_path: Path, inputs: dict[str, object], **extra: object) -> int:
    arguments: dict[str, object] = {
        "docs_dir": tmp_path / "docs",
        "site_dir": tmp_path / "site",
        "config": CONFIG,
        **extra,
    }
    return build.build_site(inputs["report"], inputs["checked"], **arguments)  # type: ignore[arg-type]


def _leftovers(tmp_path: Path) -> list[str]:
    return [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")]


def test_failed_build_leaves_previous_site_untouched(tmp_path: Path) -> None:
    assert _build(tmp_path, _small_site(tmp_path)) == 0
    before = _snapshot(tmp_path / "site")
    assert "lessons/fine/index.html" in before
    broken = _small_site(tmp_path / "b", "# Broken\n\n$$\n\\frac{1}{\n$$\n")
    assert _build(tmp_path, broken) == 1
    assert _snapshot(tmp_path / "site") == before and _leftovers(tmp_path) == []
    bad_config = tmp_path / "bad.yml"
    bad_config.write_text(f"INHERIT: {CONFIG}\nnav:\n  - Missing: missing.md\n", encoding="utf-8")
    assert _build(tmp_path, _small_site(tmp_path / "c"), config=bad_config) == 1
    assert _snapshot(tmp_path / "site") == before and _leftovers(tmp_path) == []


def test_interrupted_build_leaves_previous_site_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = _small_site(tmp_path)
    assert _build(tmp_path, inputs) == 0
    before = _snapshot(tmp_path / "site")

    def interrupted(config: Path, docs_dir: Path, target: Path, **extra: object) -> list[str]:
        (target / "index.html").write_text("half a site", encoding="utf-8")
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "run_mkdocs", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _build(tmp_path, _small_site(tmp_path / "again"))
    assert _snapshot(tmp_path / "site") == before and _leftovers(tmp_path) == []


def test_swap_restores_the_old_site_when_the_rename_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site, staged = tmp_path / "site", tmp_path / "staged"
    site.mkdir()
    (site / "old.html").write_text("old", encoding="utf-8")
    staged.mkdir()
    real_rename = os.rename

    def failing(source: object, target: object) -> None:
        if Path(str(source)) == staged:
            raise OSError("disk full")
        real_rename(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rename", failing)
    with pytest.raises(OSError):
        build.swap(staged, site)
    assert (site / "old.html").read_text(encoding="utf-8") == "old"


def test_errors_stop_the_build_unless_allowed(tmp_path: Path) -> None:
    body = "# Linked\n\n[bad](../nowhere/)\n"
    inputs = _small_site(tmp_path, body)
    assert _build(tmp_path, inputs) == 1 and not (tmp_path / "site").exists()
    assert _build(tmp_path, inputs, allow_errors=True) == 0
    page = (tmp_path / "site" / "lessons" / "fine" / "index.html").read_text(encoding="utf-8")
    assert "A331" in page and 'data-status="error"' in page


def test_cli_wiring_builds_from_arguments(tmp_path: Path) -> None:
    content = tmp_path / "content"
    write_site_lesson(content, "fine", "# Fine\n\nText.\n")
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--out", default=str(tmp_path / "build"))
    parser.add_argument("--allow-errors", action="store_true")
    cli.add_build_arguments(parser)
    args = parser.parse_args(
        [str(content), "--site-dir", str(tmp_path / "site"), "--mkdocs-config", str(CONFIG)]
    )
    assert cli.run_build(args) == 0
    assert (tmp_path / "build" / "docs" / "lessons" / "fine" / "index.md").is_file()
    assert (tmp_path / "site" / "lessons" / "fine" / "index.html").is_file()
    assert cli.run_build(parser.parse_args([str(content), "--no-site"])) == 0


def test_docs_dir_with_foreign_files_is_refused(tmp_path: Path) -> None:
    inputs = _small_site(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "precious.txt").write_text("keep me", encoding="utf-8")
    assert _build(tmp_path, inputs) == 1
    assert (tmp_path / "docs" / "precious.txt").read_text(encoding="utf-8") == "keep me"
    assert not (tmp_path / "site").exists()


def test_stale_staging_folders_are_removed(tmp_path: Path) -> None:
    old, fresh = tmp_path / ".site.new-abc", tmp_path / ".site.old-def"
    for folder in (old, fresh):
        folder.mkdir()
        (folder / "index.html").write_text("x", encoding="utf-8")
    os.utime(old, (0, 0))
    build.remove_stale(tmp_path / "site")
    assert not old.exists() and fresh.exists()


def test_unpublishable_lesson_is_listed_not_paged(tmp_path: Path) -> None:
    inputs = _small_site(tmp_path)
    broken = tmp_path / "content" / "broken" / "lesson.md"
    broken.parent.mkdir()
    text = (tmp_path / "content" / "fine" / "lesson.md").read_text(encoding="utf-8")
    broken.write_text(text.replace("version: 0.1.0", "version: one"), encoding="utf-8")
    report, checked = pipeline.check([str(tmp_path / "content")], pipeline.Options())
    assert _build(tmp_path, {"report": report, "checked": checked}, allow_errors=True) == 0
    assert inputs and not (tmp_path / "site" / "lessons" / "broken").exists()
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "not published" in home and "broken/lesson.md" in home


def test_linkcheck_reports_missing_files_anchors_and_escapes(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<html><body><p id="here">x</p>'
        '<a href="../b/">missing page</a>'
        '<a href="#nowhere">missing anchor</a>'
        '<a href="#here">fine</a>'
        '<a href="../../etc/passwd">escape</a>'
        "<a href='#h&amp;x'>entity</a><span id=\"h&amp;x\"></span>"
        "<!-- <a href='#commented'> --></body></html>",
        encoding="utf-8",
    )
    problems = linkcheck.check(tmp_path)
    assert any("../b/" in p and "no such file" in p for p in problems)
    assert any("#nowhere" in p for p in problems)
    assert any("leaves the site" in p for p in problems)
    assert not any("#here" in p or "h&" in p or "commented" in p for p in problems)


def test_the_link_ledger_reads_one_entry_and_agrees_with_a_plain_check(
    built: tuple[Path, docs.DocsTree, Path], tmp_path: Path, cache_reads: list[tuple[str, str]]
) -> None:
    site, cache = built[2], Cache(tmp_path / "cache")
    plain = linkcheck.broken_links(site)
    first = linkcheck.Ledger(cache, site)
    assert linkcheck.broken_links(site, cache=cache, ledger=first) == plain
    first.save()
    cache_reads.clear()
    again = linkcheck.Ledger(cache, site)
    assert linkcheck.broken_links(site, cache=cache, ledger=again) == plain
    assert [namespace for namespace, _ in cache_reads] == [linkcheck.LEDGER]
    cache.put(linkcheck.LEDGER, again.key, b"[]")  # not a mapping: read as empty
    assert linkcheck.Ledger(cache, site).known == {}
    cache.put(linkcheck.LEDGER, again.key, b'{"0": [["x"], [3]]}')  # not ids and links
    assert linkcheck.Ledger(cache, site).get("0") is None


def test_linkcheck_cache_reuses_pages_by_their_bytes(tmp_path: Path) -> None:
    site, store = tmp_path / "site", Cache(tmp_path / "cache")
    (site / "b").mkdir(parents=True)
    (site / "index.html").write_text('<a href="b/#x">b</a>', encoding="utf-8")
    (site / "b" / "index.html").write_text('<p id="x">here</p>', encoding="utf-8")
    assert linkcheck.check(site, cache=store) == []
    assert store.misses == 2 and store.hits == 0
    assert linkcheck.check(site, cache=store) == []
    assert store.hits == 2
    (site / "b" / "index.html").write_text('<p id="y">moved</p>', encoding="utf-8")
    assert linkcheck.check(site, cache=store) == ["index.html: b/#x (no element with id 'x')"]


def test_linkcheck_scans_many_new_pages_in_processes_with_the_same_result(
    tmp_path: Path,
) -> None:
    """A cold build's pages are all new: scanned in two processes when there are many, the
    problems (in page order) and what the cache and ledger remember are the same."""
    site = tmp_path / "site"
    files: dict[str, str] = {}
    for number in range(linkcheck.SHARED + 6):
        page = site / f"p{number}" / "index.html"
        page.parent.mkdir(parents=True)
        target = f"../p{(number + 1) % (linkcheck.SHARED + 6)}/#top"
        broken = f'<a href="#gone{number}">x</a>' if number % 7 == 0 else ""
        page.write_text(f'<h1 id="top">{number}</h1><a href="{target}">next</a>{broken}')
        files[f"p{number}/index.html"] = hashlib.sha256(page.read_bytes()).hexdigest()
    plain = linkcheck.broken_links(site)
    assert len(plain) == 10
    for jobs in (2, 1):  # first scanned in processes, then read back from the cache
        store = Cache(tmp_path / "cache")
        ledger = linkcheck.Ledger(store, site)
        found = linkcheck.broken_links(site, cache=store, files=files, ledger=ledger, jobs=jobs)
        assert found == plain
        assert sorted(ledger.used) == sorted(files.values())
    assert store.hits == len(files)


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_pages_made_in_check_workers_equal_pages_rendered_after() -> None:
    """A build renders pages in the check's workers; they must be the pages the site
    stage would render itself from the same check."""
    paths = [str(REPO / "content")]
    after = functools.partial(outputs.make, site=True)
    made_report, made = pipeline.check(paths, pipeline.Options(jobs=2), after=after)
    assert all(isinstance(item.made, outputs.Made) and item.made.page for item in made)
    plain_report, plain = pipeline.check(paths, pipeline.Options())
    assert all(item.made is None for item in plain)
    assert (
        docs.generate_docs(made_report, made).files == docs.generate_docs(plain_report, plain).files
    )


def test_cold_and_warm_builds_write_identical_records_and_docs(tmp_path: Path, run_cli) -> None:
    """Cold (made in the workers), warm (from the cache) and uncached builds agree byte
    for byte, in parallel and not."""
    content = tmp_path / "content"
    for name in ("attention", "softmax-temperature"):
        shutil.copytree(REPO / "content" / name, content / name)
    outputs_seen = []
    for run, flags in enumerate((["-j", "2"], ["-j", "2"], ["-j", "1", "--no-cache"])):
        out = tmp_path / f"build{run}"
        result = run_cli(
            "build", content, "--out", out, "--site-dir", tmp_path / f"site{run}",
            "--mkdocs-config", CONFIG, "--cache-dir", tmp_path / "cache", "-q", *flags,
        )  # fmt: skip
        assert result.code == 0, result.err
        outputs_seen.append((_tree(out / "records"), _tree(out / "docs")))
    assert outputs_seen[0] == outputs_seen[1] == outputs_seen[2]
    assert len(outputs_seen[0][0]) == 2


def test_broken_link_is_reported_at_the_lesson_line(tmp_path: Path) -> None:
    """Links that pass `check` but break in the built site (a raw `<img>` to a missing file)
    are reported where the author wrote them, not at site/.../index.html."""
    import io

    body = '# Fine\n\nText.\n\nA picture: <img src="missing.png" alt="x">\n'
    inputs = _small_site(tmp_path, body)
    stream = io.StringIO()
    assert _build(tmp_path, inputs, stream=stream) == 1
    lesson = tmp_path / "content" / "fine" / "lesson.md"
    text = lesson.read_text(encoding="utf-8")
    index = text.index("missing.png")
    line = text.count("\n", 0, index) + 1
    column = index - text.rfind("\n", 0, index)
    expected = f"{os.path.relpath(lesson)}:{line}:{column}: error A504 broken link missing.png"
    assert expected in stream.getvalue(), stream.getvalue()


def test_report_is_a_summary_that_grows_by_a_small_row() -> None:
    """One row per lesson whatever its number of claims and findings (the full report was
    25 MB at 1,000 lessons); lessons without a page list their first findings."""
    from atlas_build import outputcodes as codes
    from atlas_build.diagnostics import Location, at
    from atlas_build.report import RecordReport, Report
    from atlas_build.site.pages import indexes, summary

    def entries(count: int, claims: int) -> list[indexes.Entry]:
        found = []
        for number in range(count):
            record = RecordReport(f"content/l{number}/lesson.md", f"l{number}", slug=f"l{number}")
            record.claims = [
                {"id": f"c{i}", "status": "pass", "quote": "x" * 200} for i in range(claims)
            ]
            record.coverage = {"relations": {"verified": 3, "defined": 1, "total": 4},
                               "numbers": {"verified": 5, "input": 2, "total": 7}}  # fmt: skip
            found.append(indexes.Entry(record, None, f"Lesson {number}", "T", "c"))
        return found

    small, large = entries(10, 1), entries(10, 200)
    tree_pages = [type("P", (), {"directory": f"lessons/l{n}"})() for n in range(110)]
    for items in (small, large):
        for item, page in zip(items, tree_pages, strict=False):
            item.page = page  # type: ignore[assignment]
    few = summary.report_page(small, Report([e.report for e in small]))
    many = summary.report_page(large, Report([e.report for e in large]))
    assert re.sub(r"\d+", "#", few) == re.sub(r"\d+", "#", many)  # only the counts differ
    one = len(few)
    more = entries(110, 1)
    for item, page in zip(more, tree_pages, strict=True):
        item.page = page  # type: ignore[assignment]
    text = summary.report_page(more, Report([e.report for e in more]))
    assert (len(text) - one) / 100 < 600  # bytes per lesson row
    assert 'href="../lessons/l7/#atlas-validation"' in text
    assert "<td>3/4<br><small>1 defined</small></td>" in text
    assert "<td>5/7<br><small>2 input</small></td>" in text
    old = summary.relations_cell({"equations": {"covered": 2, "total": 3}})
    assert old == "<td>2/3</td>" and summary.numbers_cell({"numbers": {"bound": 1, "total": 4}})
    assert summary.relations_cell({"relations": {"total": "9; <script>"}}) == "<td>–</td>"
    unpublished = entries(1, 0)
    unpublished[0].report.diagnostics = [
        at(codes.PAGE, Location("content/l0/lesson.md", 1, 1), f"problem {n}") for n in range(15)
    ]
    text = summary.report_page(unpublished, Report([unpublished[0].report]))
    assert "problem 9" in text and "problem 10" not in text and "and 5 more findings" in text
