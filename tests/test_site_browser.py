"""The built site in a real browser: Debian's Chromium, headless, driven by Python playwright.

The site is built from `content/` into a temporary folder and served by a plain static
file server on 127.0.0.1 (what "works from a static file server" means). In CI
(`CI=true`) a missing browser or playwright is a failure; elsewhere the test skips.
Screenshots go to build/screenshots/ for people to look at: 1280 px and 390 px wide, light
and dark palettes.

Pages that read like lessons (issue 17) are checked on the attention lesson, kv-cache and a
circuits lesson worded differently (`Symbols`, `Notation`, `Quiz`, `Solution`): symbol
tables with a row per glossary entry, quiz answers hidden until their `<details>` is opened
(JavaScript off too), no sideways scrolling at 390 px, the palette toggle, and axe-core
(npm's `axe-core`, installed under build/node-tools by `make browser`, injected from the
local file) with no serious or critical violation.
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
from support import write_site_lesson

from atlas_build import lesson, pipeline
from atlas_build.lesson.model import Lesson
from atlas_build.site.mkdocs import build

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "build" / "screenshots"
AXE = REPO / "build" / "node-tools" / "node_modules" / "axe-core" / "axe.min.js"
SUBJECTS = Path(__file__).resolve().parent / "lesson_subjects"
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


def _serve(root: Path, content: Path, models: dict[str, Lesson]) -> Iterator[str]:
    """Build `content` into `root` and serve the site; `models` gets each lesson's model."""
    options = pipeline.Options()
    report, checked = pipeline.check([str(content)], options)
    for item in checked:
        pipeline.materialize(item, options)
        if item.source is not None and item.record is not None:
            models[item.source.slug] = lesson.build(item.record.content)
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


MODELS: dict[str, Lesson] = {}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _require_browser()
    yield from _serve(tmp_path_factory.mktemp("browser"), REPO / "content", MODELS)


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
    """Each status filter shows exactly the rows of that status, whatever mix of statuses
    content/ has today (all nine may pass): a status no lesson has shows no row."""
    tab = page.open("report/")
    shown = "rows => rows.filter(r => r.offsetParent !== null).map(r => r.dataset.status)"
    every = "rows => rows.map(r => r.dataset.status)"
    statuses = tab.eval_on_selector_all("tr[data-status]", every)
    assert statuses
    labels = tab.eval_on_selector_all(
        ".atlas-filter label", "labels => labels.map(l => l.htmlFor.replace('atlas-status-', ''))"
    )
    filters = [status for status in labels if status != "all"]
    assert "pass" in filters and len(filters) >= 2  # so one of them hides rows
    for status in filters:
        tab.click(f"label[for='atlas-status-{status}']")
        visible = tab.eval_on_selector_all("tr[data-status]", shown)
        assert visible == [s for s in statuses if s == status], status
    tab.click("label[for='atlas-status-all']")
    assert tab.eval_on_selector_all("tr[data-status]", shown) == statuses
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


# Pages that read like lessons (issue 17).

LESSONS = ("attention", "kv-cache")
WHY_CLAIM = """
  - id: quiz-why
    kind: formula
    extends: gqa
    quote: "64 KiB would be 8-bit storage"
    bind: [{value: B_tok, unit: bytes}, bits]
    params: {values: {b: 1}}
"""
OTHER_MODELS: dict[str, Lesson] = {}


@pytest.fixture(scope="module")
def other_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """kv-cache with a claim that quotes a quiz answer's reasoning, and a circuits lesson
    whose structures are worded differently (`Symbols`, `Notation`, `Quiz`, `Solution`)."""
    import shutil

    _require_browser()
    root = tmp_path_factory.mktemp("other")
    content = root / "content"
    shutil.copytree(REPO / "content" / "kv-cache", content / "kv-cache")
    claims = content / "kv-cache" / "claims.yaml"
    claims.write_text(claims.read_text("utf-8").rstrip("\n") + "\n" + WHY_CLAIM, "utf-8")
    body = (SUBJECTS / "rc.md").read_text("utf-8")
    write_site_lesson(content, "rc-filter", body, title="RC low-pass filter", topic="Circuits")
    yield from _serve(root, content, OTHER_MODELS)


def _glossary_rows(tab: Any) -> list[int]:
    return tab.eval_on_selector_all(
        ".atlas-glossary", "boxes => boxes.map(b => b.querySelectorAll('tbody tr').length)"
    )


def _answers_hidden_until_opened(tab: Any, model: Lesson) -> None:
    folds = tab.locator("details.atlas-answer")
    assert folds.count() == len(model.quizzes) > 0
    for index, quiz in enumerate(model.quizzes):
        fold = folds.nth(index)
        answer = fold.locator("p", has_text=str(quiz.answer)).first
        reasoning = fold.locator("p", has_text=quiz.reasoning.split("\n")[0][:40]).last
        assert not answer.is_visible() and not reasoning.is_visible()
        fold.locator("summary").click()
        assert answer.is_visible() and reasoning.is_visible()
        assert fold.evaluate("d => d.open")


@pytest.mark.parametrize("slug", LESSONS)
def test_symbol_table_has_a_row_per_glossary_entry(page: Page, slug: str) -> None:
    tab = page.open(f"lessons/{slug}/")
    model = MODELS[slug]
    assert _glossary_rows(tab) == [len(g.entries) for g in model.glossaries]
    assert tab.locator(".atlas-glossary tbody th math").count() > len(model.glossaries)
    assert "Symbols and units" in tab.locator(".atlas-glossary caption").first.inner_text()


@pytest.mark.parametrize("slug", LESSONS)
def test_quiz_answers_are_hidden_until_opened(page: Page, slug: str) -> None:
    tab = page.open(f"lessons/{slug}/")
    _answers_hidden_until_opened(tab, MODELS[slug])


def test_quiz_answers_open_with_javascript_off(browser: Any, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        tab = context.new_page()
        tab.goto(base_url + "lessons/attention/", wait_until="load")
        _answers_hidden_until_opened(tab, MODELS["attention"])
    finally:
        context.close()


def test_other_wording_renders_the_same_way(browser: Any, other_url: str) -> None:
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        tab.goto(other_url + "lessons/rc-filter/", wait_until="load")
        model = OTHER_MODELS["rc-filter"]
        assert [g.mark for g in model.glossaries] == ["Symbols", "Notation"]
        assert _glossary_rows(tab) == [len(g.entries) for g in model.glossaries]
        _answers_hidden_until_opened(tab, model)
        tab.screenshot(path=str(SCREENSHOTS / "rc-filter-1280-light.png"))
    finally:
        tab.close()


def test_link_to_a_claim_inside_an_answer_opens_it(browser: Any, other_url: str) -> None:
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        tab.goto(other_url + "lessons/kv-cache/#atlas-validation", wait_until="load")
        fold = tab.locator("details.atlas-answer", has=tab.locator("#claim-quiz-why"))
        assert fold.count() == 1 and not fold.evaluate("d => d.open")
        tab.click("a[href='#claim-quiz-why']")
        tab.wait_for_timeout(300)
        assert fold.evaluate("d => d.open")
        mark = tab.locator("#claim-quiz-why")
        assert mark.is_visible() and mark.inner_text() == "64 KiB would be 8-bit storage"
        assert 0 <= mark.bounding_box()["y"] < 900
    finally:
        tab.close()


def _topic(tab: Any, base: str) -> str:
    tab.goto(base, wait_until="load")
    return str(tab.locator("a[href^='topics/']:not([href='topics/'])").first.get_attribute("href"))


def test_no_page_scrolls_sideways_at_phone_width(browser: Any, base_url: str) -> None:
    tab = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        paths = ["", "lessons/attention/", "lessons/kv-cache/", "report/", _topic(tab, base_url)]
        for path in paths:
            tab.goto(base_url + path, wait_until="load")
            width = tab.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (path, width)
        tab.goto(base_url + "lessons/attention/", wait_until="load")
        box = tab.evaluate(
            "() => { const b = document.querySelector('#equation-0 .atlas-math-box');"
            " return [b.scrollWidth, b.clientWidth, getComputedStyle(b).overflowX]; }"
        )
        assert box[0] > box[1] and box[2] == "auto"  # the wide formula scrolls in its box
    finally:
        tab.close()


def _scheme(tab: Any) -> str:
    return str(tab.evaluate("document.body.dataset.mdColorScheme"))


def _toggle(tab: Any) -> None:
    tab.locator("form[data-md-component='palette'] label:visible").click()
    tab.wait_for_timeout(100)


def test_palette_toggle_switches_light_and_dark(page: Page) -> None:
    tab = page.open("lessons/attention/")
    background = "getComputedStyle(document.body).backgroundColor"
    light = tab.evaluate(background)
    assert _scheme(tab) == "default"
    _toggle(tab)
    assert _scheme(tab) == "slate" and tab.evaluate(background) != light
    tab.reload(wait_until="load")
    assert _scheme(tab) == "slate"  # the choice is remembered
    _toggle(tab)
    assert _scheme(tab) == "default" and tab.evaluate(background) == light


def _require_axe() -> None:
    if not AXE.is_file():
        reason = (
            f"axe test needs {AXE.relative_to(REPO)} "
            "(npm install --prefix build/node-tools axe-core, as `make browser` does)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


def _axe(tab: Any) -> list[str]:
    tab.add_script_tag(path=str(AXE))
    found = tab.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact,"
        " nodes: v.nodes.map(n => [n.target.join(' '), n.failureSummary])}))"
    )
    return [
        f"{item['impact']} {item['id']}: {target}: {summary}"
        for item in found
        if item["impact"] in ("serious", "critical")
        for target, summary in item["nodes"]
    ]


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_or_critical_violation(browser: Any, base_url: str, width: int):
    _require_axe()
    tab = browser.new_page(viewport={"width": width, "height": 900})
    try:
        paths = ["lessons/attention/", "lessons/kv-cache/", "report/", _topic(tab, base_url)]
        for dark in (False, True):
            for path in paths:
                tab.goto(base_url + path, wait_until="load")
                if dark != (_scheme(tab) == "slate"):
                    _toggle(tab)
                tab.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                assert _axe(tab) == [], (path, dark)
    finally:
        tab.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots_light_and_dark(browser: Any, base_url: str, width: int) -> None:
    tab = browser.new_page(viewport={"width": width, "height": 900})
    try:
        for scheme in ("light", "dark"):
            for name, anchor in (("symbols", "section-4"), ("quiz", "section-10")):
                tab.goto(base_url + f"lessons/attention/#{anchor}", wait_until="load")
                if (scheme == "dark") != (_scheme(tab) == "slate"):
                    _toggle(tab)
                    tab.goto(base_url + f"lessons/attention/#{anchor}", wait_until="load")
                if name == "quiz":
                    tab.locator("details.atlas-answer summary").first.click()
                tab.wait_for_timeout(200)
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                tab.screenshot(path=str(SCREENSHOTS / f"attention-{name}-{width}-{scheme}.png"))
            tab.goto(base_url + "lessons/kv-cache/", wait_until="load")
            tab.screenshot(path=str(SCREENSHOTS / f"kv-cache-{width}-{scheme}.png"))
    finally:
        tab.close()
