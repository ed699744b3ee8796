"""The built site in a real browser: Debian's Chromium, headless, driven by Python playwright.

The site is built from `content/` into a temporary folder and served by a plain static
file server on 127.0.0.1 (what "works from a static file server" means). In CI
(`CI=true`) a missing browser or playwright is a failure; elsewhere the test skips.
Screenshots go to build/screenshots/ for people to look at.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from atlas_build import pipeline
from atlas_build.site import build

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "build" / "screenshots"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _require_browser() -> None:
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright Python package (pip install playwright)")
    if not CHROMIUM.is_file():
        missing.append(f"{CHROMIUM} (apt-get install -y chromium)")
    if missing:
        reason = "browser test needs " + " and ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _require_browser()
    root = tmp_path_factory.mktemp("browser")
    report, checked = pipeline.check([str(REPO / "content")], pipeline.Options())
    status = build.build_site(
        report,
        checked,
        docs_dir=root / "docs",
        site_dir=root / "site",
        allow_errors=True,
        config=REPO / "mkdocs.yml",
    )
    assert status == 0
    handler = functools.partial(_Quiet, directory=str(root / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Page:
    """A browser page that records console errors and every request leaving 127.0.0.1."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.base = base_url
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("request", self._request)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def _request(self, request: Any) -> None:
        if not request.url.startswith((self.base, "data:", "blob:")):
            self.outside.append(request.url)

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path, wait_until="load")
        self.page.wait_for_timeout(300)
        return self.page

    def shot(self, name: str, *, full_page: bool = False) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Page]:
    opened = Page(browser, base_url)
    try:
        yield opened
        assert opened.errors == [], opened.errors
        assert opened.outside == [], f"requests left the site: {opened.outside}"
    finally:
        opened.page.close()


def test_equations_are_rendered_mathml(page: Page) -> None:
    tab = page.open("lessons/attention/")
    page.shot("attention-top")
    boxes = tab.eval_on_selector_all(
        ".atlas-math math",
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return [n.namespaceURI, r.width, r.height]; })",
    )
    assert len(boxes) >= 2
    for namespace, width, height in boxes:
        assert namespace == "http://www.w3.org/1998/Math/MathML"
        assert width > 20 and height > 10
    font = tab.evaluate("document.fonts.check('16px \"Latin Modern Math\"')")
    assert font, "the bundled math font did not load"


def test_section_anchor_scrolls_to_its_heading(page: Page) -> None:
    for anchor in ("section-4", "scaled-dot-product-attention"):
        tab = page.open(f"lessons/attention/#{anchor}")
        heading = tab.evaluate(
            "id => { const h = document.getElementById(id).closest('h1,h2,h3,h4,h5,h6');"
            " const r = h.getBoundingClientRect();"
            " return [h.id, h.textContent.replace('¶', '').trim(), r.top, window.scrollY]; }",
            anchor,
        )
        assert heading[:2] == ["section-4", "Scaled dot-product attention"]
        assert 0 <= heading[2] < 200 and heading[3] > 300
    page.shot("attention-section-4")


def test_mask_figure_is_present(page: Page) -> None:
    tab = page.open("lessons/attention/")
    figure = tab.locator("figure.atlas-figure img[src*='-mask-']")
    assert figure.count() == 1
    figure.scroll_into_view_if_needed()
    tab.wait_for_function(
        "() => { const i = document.querySelector(\"img[src*='-mask-']\");"
        " return i.complete && i.naturalWidth > 0; }"
    )
    assert figure.bounding_box()["width"] > 300
    page.shot("attention-mask-figure")


def test_validation_panel_shows_claims_passing(page: Page) -> None:
    tab = page.open("lessons/attention/#atlas-validation")
    rows = tab.eval_on_selector_all(
        "tr[id^='atlas-row-claim-']", "rows => rows.map(r => r.dataset.status)"
    )
    assert len(rows) >= 10 and set(rows) == {"pass"}
    summary = tab.locator("#atlas-summary").inner_text()
    assert f"{len(rows)} of {len(rows)} claims pass" in summary
    page.shot("attention-validation")
    tab.click("a[href='#claim-packed-keys']")
    tab.wait_for_timeout(300)
    mark = tab.evaluate(
        "() => { const m = document.getElementById('claim-packed-keys');"
        " const r = m.getBoundingClientRect(); return [m.tagName, m.textContent, r.top]; }"
    )
    assert mark[0] == "MARK" and mark[1].startswith("If the second document begins")
    assert 0 <= mark[2] < 300
    page.shot("attention-claim-highlight")


def test_search_finds_softmax(page: Page) -> None:
    tab = page.open("")
    tab.click(".md-search__input")
    tab.wait_for_function(  # the index is loaded by a web worker; typing before is lost
        "() => (document.querySelector('.md-search-result__meta') || {}).textContent"
        " === 'Type to start searching'",
        timeout=15000,
    )
    tab.keyboard.type("softmax")
    tab.wait_for_selector(".md-search-result__item", timeout=15000)
    results = tab.locator(".md-search-result__item").all_inner_texts()
    assert any("softmax" in text.lower() for text in results)
    links = tab.eval_on_selector_all(".md-search-result__link", "a => a.map(x => x.href)")
    assert any("/lessons/" in link for link in links)
    page.shot("search-softmax")


def test_report_filters_by_status(page: Page) -> None:
    tab = page.open("report/")
    tab.click("label[for='atlas-status-pass']")
    visible = tab.eval_on_selector_all(
        "tr[data-status]",
        "rows => rows.filter(r => r.offsetParent !== null).map(r => r.dataset.status)",
    )
    assert visible and set(visible) == {"pass"}
    tab.click("label[for='atlas-status-all']")
    everything = tab.eval_on_selector_all(
        "tr[data-status]", "rows => rows.filter(r => r.offsetParent !== null).length"
    )
    assert everything > len(visible)
    page.shot("report")


MARK = "document.documentElement.dataset.pwned"


def _payload(field: str, *, short: bool = False) -> str:
    """Markup that sets a marker (or opens a dialog) if any page renders it as HTML."""
    image = f'"><img src=x onerror="{MARK}=\'{field}\'">'
    if short:  # fields limited to 100 characters
        return image
    return image + f"<script>{MARK}='{field}'</script><svg onload=alert('{field}')></svg>"


def _hostile_content(root: Path) -> Path:
    """content/ plus a lesson with a payload in every metadata field, and a lesson whose
    folder name and invalid id carry one (published with --allow-errors)."""
    import shutil

    import yaml

    content = root / "content"
    shutil.copytree(REPO / "content", content)
    text = (REPO / "content" / "kv-cache" / "lesson.md").read_text("utf-8")
    _, head, body = text.split("---\n", 2)
    meta = yaml.safe_load(head)
    for field in ("description", "topic", "author", "series", "status", "category", "format"):
        short = field in ("category", "format", "topic", "status", "series")
        meta[field] = f"hostilemarker {field} {_payload(field, short=short)}"
    meta["title"] = f"hostilemarker {_payload('title')}"
    meta["license"] = f"L {_payload('license')}"
    meta["evidenceScope"] = f"Scope {_payload('evidenceScope')}"
    meta["id"] = "atlas-lesson-hostile"
    meta["related"] = []
    meta["citations"][0]["title"] = f"Cited {_payload('citation')}"
    body = body.replace("# Key-value cache", "# Key-value cache \\<b>hostilemarker\\</b>", 1)
    lesson = content / "hostile" / "lesson.md"
    lesson.parent.mkdir()
    lesson.write_text("---\n" + yaml.safe_dump(meta, allow_unicode=True) + "---\n" + body)
    (content / "hostile" / "claims.yaml").write_text(
        (REPO / "content" / "kv-cache" / "claims.yaml")
        .read_text("utf-8")
        .replace("atlas-lesson-kv-cache", "atlas-lesson-hostile")
    )
    odd = content / f"odd<img src=x onerror=\"{MARK}='folder'\">"
    odd.mkdir()
    meta["id"] = f"<img src=x onerror=\"{MARK}='id'\">"
    meta["title"] = "second hostile lesson"
    (odd / "lesson.md").write_text("---\n" + yaml.safe_dump(meta) + "---\n" + body)
    return content


@pytest.fixture(scope="module")
def hostile_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _require_browser()
    root = tmp_path_factory.mktemp("hostile")
    content = _hostile_content(root)
    report, checked = pipeline.check([str(content)], pipeline.Options())
    status = build.build_site(
        report,
        checked,
        docs_dir=root / "docs",
        site_dir=root / "site",
        allow_errors=True,
        config=REPO / "mkdocs.yml",
    )
    assert status == 0
    handler = functools.partial(_Quiet, directory=str(root / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _inert(tab: Any, dialogs: list[str]) -> None:
    tab.wait_for_timeout(300)
    assert tab.evaluate(f"() => {MARK} || null") is None
    assert dialogs == []
    assert tab.locator("img[src='x']").count() == 0


def test_metadata_payloads_stay_text(browser: Any, hostile_url: str) -> None:
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    dialogs: list[str] = []
    tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        tab.goto(hostile_url + "lessons/hostile/", wait_until="load")
        _inert(tab, dialogs)
        assert "hostilemarker" in tab.title() and "<img" in tab.title()
        assert "<img src=x" in tab.locator("dl.atlas-meta").inner_text()
        assert 'Cited "><img' in tab.locator("ol.atlas-citations").inner_text()
        for path in ("", "topics/", "report/"):
            tab.goto(hostile_url + path, wait_until="load")
            _inert(tab, dialogs)
        tab.goto(hostile_url + "report/", wait_until="load")
        assert "odd<img" in tab.locator(".atlas-report").inner_text()
        tab.goto(hostile_url, wait_until="load")
        topic = tab.locator("a[href^='topics/hostilemarker']").first.get_attribute("href")
        tab.goto(hostile_url + str(topic), wait_until="load")
        _inert(tab, dialogs)
        assert "hostilemarker topic" in tab.locator("h1").inner_text()
        tab.click(".md-search__input")
        tab.wait_for_function(
            "() => (document.querySelector('.md-search-result__meta') || {}).textContent"
            " === 'Type to start searching'",
            timeout=15000,
        )
        tab.keyboard.type("hostilemarker")
        tab.wait_for_selector(".md-search-result__item", timeout=15000)
        _inert(tab, dialogs)
        results = " ".join(tab.locator(".md-search-result__item").all_inner_texts())
        assert "hostilemarker" in results
        tab.screenshot(path=str(SCREENSHOTS / "hostile-search.png"))
    finally:
        tab.close()
