"""Helpers shared by test modules; fixtures live in conftest.py.

Plain functions, dataclasses and test data that more than one test module uses, so that no
test module imports another: small lessons and their claims files, the pipeline runs of the
cache tests, the site-build helpers. atlas_build is imported inside the helpers (as in
conftest.py), so that a module broken mid-edit elsewhere in the package cannot stop unrelated
test modules from being collected.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest
import yaml

if TYPE_CHECKING:
    from atlas_build import pipeline
    from atlas_build.report import Report
    from atlas_build.site.pages import docs

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"


# --- a lesson.md with its claims.yaml, checked by the real pipeline -----------------------------
# (test_claims_kinds and the other claims test modules)

CLAIMS_FRONT_MATTER = """\
---
schemaVersion: 1
id: atlas-lesson-{slug}
title: {title}
category: learning
format: Atlas lesson
description: A small lesson written for the claims tests.
canonicalUrl: https://atlas.example.org/learn/{slug}/
publishedDate: null
revisionDate: "2026-11-29"
author: null
topic: Transformer computation
series: null
license: null
rightsUrl: https://atlas.example.org/licenses.html
version: "1.0.0"
status: Published educational lesson
evidenceScope: Authored arithmetic for tests.
contentCoverage: published-lesson
artifactUrl: null
interactiveUrl: null
related: []
supersedes: []
supersededBy: []
jsonUrl: null
markdownUrl: null
citations: []
contentFormat: text/markdown
---
Transformer computation · Atlas v1.0.0

# {title}

"""


@dataclass
class Checked:
    folder: Path
    lesson_text: str
    claims_text: str
    record: Any  # RecordReport

    @property
    def lesson_path(self) -> Path:
        return self.folder / "lesson.md"

    @property
    def claims_path(self) -> Path:
        return self.folder / "claims.yaml"

    def status(self) -> dict[str, str]:
        return {claim["id"]: claim["status"] for claim in self.record.claims}

    def claim(self, claim_id: str) -> dict[str, Any]:
        return next(claim for claim in self.record.claims if claim["id"] == claim_id)

    def found(self, code: str) -> list[Any]:
        return [d for d in self.record.diagnostics if d.code == code]

    def errors(self) -> list[Any]:
        return [d for d in self.record.diagnostics if d.severity.value == "error"]

    def lesson_at(self, needle: str, occurrence: int = 0, shift: int = 0) -> tuple[int, int]:
        """1-based line:col of the `occurrence`-th `needle` (plus `shift`) in lesson.md."""
        return position(self.lesson_text, needle, occurrence, shift)

    def claims_at(self, needle: str, shift: int = 0) -> tuple[int, int]:
        return position(self.claims_text, needle, 0, shift)


def position(text: str, needle: str, occurrence: int = 0, shift: int = 0) -> tuple[int, int]:
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    index += shift
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def write_lesson(root: Path, slug: str, body: str, claims: str) -> Path:
    folder = root / slug
    folder.mkdir(parents=True)
    text = CLAIMS_FRONT_MATTER.format(slug=slug, title=slug.replace("-", " ").capitalize())
    (folder / "lesson.md").write_text(text + textwrap.dedent(body).lstrip(), encoding="utf-8")
    (folder / "claims.yaml").write_text(textwrap.dedent(claims).lstrip(), encoding="utf-8")
    return folder


def check(folder: Path) -> Checked:
    from atlas_build import pipeline

    report, _ = pipeline.check([str(folder)], pipeline.Options())
    [record] = report.records
    return Checked(
        folder,
        (folder / "lesson.md").read_text(encoding="utf-8"),
        (folder / "claims.yaml").read_text(encoding="utf-8"),
        record,
    )


def yaml_string(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def at(diagnostic: Any) -> tuple[int, int]:
    return diagnostic.line, diagnostic.column


DOUBLING_BODY = """
## Science and assumptions

### Doubling

$$
y=2\\cdot x
$$

With x = 3 the output is y = {y}.

## Specifications and interfaces

Score shape

T × T per head

## Check your understanding

### What is y when x is 3?

1. 5
2. 6
3. {option}

Answer and reasoning

{answer}

Doubling 3 gives 6.
"""

# The doubling lesson with a second worked number, and claims that extend one another
# (test_claims_file, test_claims_dependents).
EXTENDED_BODY = DOUBLING_BODY.format(y="6", option="7", answer="6") + "\nFor x = 4 we get y = 8.\n"
EXTENDED_CLAIMS = """\
claims:
  - id: double
    kind: formula
    quote: "With x = 3 the output is y = 6."
    bind: [x, y]
    params:
      values: {x: 3}
      use: [{equation: 0, relation: 0}]
  - id: four
    kind: formula
    extends: double
    quote: "For x = 4 we get y = 8."
    bind: [x, y]
    params: {values: {x: 4}}
  - id: quiz
    kind: quiz
    params: {question: "What is y", fact: double.y}
  - id: shape
    kind: shape
    quote: "T × T per head"
    params: {tensor: scores}
"""

# A doubling lesson whose quiz reads the formula's fact, and its claims (test_coverage,
# test_claims_facts, test_claims_quiz).
QUIZ_BODY = """
## Science and assumptions

$$
y=2\\cdot x
$$

With x = 3 the output is y = 6.

## Check your understanding

### What is y when x is 3?

1. 5
2. 6
3. 7

Answer and reasoning

6

Doubling gives it.
"""


QUIZ_CLAIMS = """
claims:
  - id: double
    kind: formula
    quote: "With x = 3 the output is y = 6."
    bind: [x, y]
    params: {values: {x: 3}, use: [{equation: 0, relation: 0}]}
  - id: quiz
    kind: quiz
    params: {question: "What is y", fact: double.y}
"""


# --- the reference lesson's equations (test_latex_parse, test_latex_evaluate) ------------------

ATTENTION = (
    r"\begin{aligned}A&=\operatorname{softmax}_{\mathrm{rows}}\!\left(\frac{QK^{\mathsf T}}"
    r"{\sqrt{d_k}}+M\right),\qquad Y=AV\\\operatorname{Var}(q^{\mathsf T}k)&\approx d_k"
    r"\end{aligned}"
)
GRADIENT = r"o=\sum_j a_jv_j,\qquad \frac{\partial o}{\partial s_j}=a_j(v_j-o)"
MATRICES = {"Q", "K", "V", "A", "M", "Y"}


# --- lesson.md text from a body and generated front matter (test_lesson and its kin) ---------

CITATIONS = [{"title": "Primary source", "url": "https://example.org/primary"}]


def metadata(slug: str, citations: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {
        "schemaVersion": 1,
        "id": f"atlas-lesson-{slug}",
        "title": "Probe lesson",
        "category": "learning",
        "format": "Atlas lesson",
        "description": "A lesson written for the tests.",
        "canonicalUrl": f"https://atlas.example.org/learn/{slug}/",
        "publishedDate": None,
        "revisionDate": "2026-01-02",
        "author": None,
        "topic": "Probe topic",
        "series": None,
        "license": None,
        "rightsUrl": None,
        "version": "0.1.0",
        "status": "Draft",
        "evidenceScope": "Test scope.",
        "contentCoverage": "published-lesson",
        "artifactUrl": None,
        "interactiveUrl": None,
        "related": [],
        "supersedes": [],
        "supersededBy": [],
        "jsonUrl": None,
        "markdownUrl": None,
        "citations": CITATIONS if citations is None else citations,
        "contentFormat": "text/markdown",
    }


def lesson_text(body: str, slug: str = "probe", citations: list[dict[str, str]] | None = None):
    front = yaml.safe_dump(metadata(slug, citations), sort_keys=False, allow_unicode=True)
    return f"---\n{front}---\n{body}"


def found(diagnostics, code: str) -> list[tuple[int | None, int | None]]:
    return [(d.line, d.column) for d in diagnostics if d.code == code]


PROBE_BODY = """Probe topic · Atlas v0.1.0

# Probe lesson

A lesson written for the tests.

## Science

### Linear relation

$$
y=a x
$$

Symbols and units

y

Output

units of y

a

Coefficient

units of y per unit of x

x

Input

units of x

Assumptions The relation is linear.

## Check your understanding

### What does doubling x do to y?

1. Doubles it
2. Halves it

Answer and reasoning

Doubles it

y is proportional to x.

## Sources

- [Primary source](https://example.org/primary)
"""


def glossary_body(
    equations: list[str], entries: list[tuple[str, str, str]], prose: str = ""
) -> str:
    """A probe lesson body with these display equations and glossary entries (symbol,
    meaning, units)."""
    display = "\n\n".join(f"$$\n{latex}\n$$" for latex in equations)
    glossary = "\n\n".join(f"{s}\n\n{m}\n\n{u}" for s, m, u in entries)
    return (
        "Probe topic · Atlas v0.1.0\n\n# Probe lesson\n\nA lesson written for the tests.\n\n"
        f"## Science\n\n### Relation\n\n{display}\n\n{prose}\n\nSymbols and units\n\n{glossary}"
        "\n\nAssumptions The relation is exact.\n\n## Sources\n\n"
        "- [Primary source](https://example.org/primary)\n"
    )


# --- pipeline runs on a copy of three real lessons (test_pipeline, test_ledger) --------------
# The `baseline` and `tree` fixtures built from these live in conftest.py.

SLUGS = ("attention", "kv-cache", "softmax-temperature")
ALL_CACHED = dict.fromkeys(SLUGS, True)


@dataclass
class Run:
    report: Report
    checked: list[pipeline.Checked]

    @property
    def json(self) -> dict[str, Any]:
        return self.report.to_json()

    @property
    def cached(self) -> dict[str, bool]:
        """slug -> whether that lesson's report came from the per-lesson cache."""
        return {Path(item.report.path).parent.name: item.cached for item in self.checked}

    def record(self, slug: str) -> dict[str, Any]:
        (found,) = [r for r in self.json["records"] if Path(r["path"]).parent.name == slug]
        return found

    def codes(self, slug: str, severity: str = "error") -> list[str]:
        return [d["code"] for d in self.record(slug)["diagnostics"] if d["severity"] == severity]


def check_content(jobs: int = 1, cache: str | None = "cache") -> Run:
    """pipeline.check on `content` in the working directory, caching into `cache`."""
    from atlas_build import pipeline

    return Run(*pipeline.check(["content"], pipeline.Options(jobs=jobs, cache_dir=cache)))


def timeless(report: dict[str, Any]) -> dict[str, Any]:
    """A JSON report without claims[].seconds, the wall-clock time a claim took."""
    report = json.loads(json.dumps(report))
    for record in report["records"]:
        for claim in record["claims"]:
            claim.pop("seconds", None)
    return report


@dataclass
class Baseline:
    root: Path
    cold: Run


def lesson_entry(tree: Path, slug: str) -> Path:
    """The file of the per-lesson cache entry whose report is that of `slug`."""
    found = []
    for path in (tree / "cache" / "lesson").rglob("*"):
        if path.is_file():
            payload = path.read_bytes().partition(b"\n")[2]
            if Path(json.loads(payload)["path"]).parent.name == slug:
                found.append(path)
    assert len(found) == 1, found
    return found[0]


@contextlib.contextmanager
def library_version(name: str, version: str | None) -> Iterator[None]:
    """importlib.metadata reports `version` for `name` (None: not installed) while inside.

    fingerprint() is memoised, so its cache is cleared on entry and again after the
    patch is undone: no other test ever sees a fingerprint made under the fake.
    """
    from atlas_build import cache as caching
    from atlas_build.cache import fingerprint

    real = importlib.metadata.version

    def fake(distribution: str) -> str:
        if distribution != name:
            return real(distribution)
        if version is None:
            raise importlib.metadata.PackageNotFoundError(distribution)
        return version

    fingerprint.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(caching.importlib.metadata, "version", fake)
            yield
    finally:
        fingerprint.cache_clear()


def with_unchecked_quiz(folder: Path) -> Path:
    """The `new` skeleton with its quiz listed unchecked instead of checked: swapping the
    answer "Doubles it" for "Halves it" then survives, a known survivor for tests."""
    claims = folder / "claims.yaml"
    text = claims.read_text(encoding="utf-8")
    text = text[: text.index("\n  # The quiz answer")] + "\n"
    listed = 'unchecked:\n  - {quiz: "What does doubling t do", reason: "left open on purpose"}\n'
    claims.write_text(text.replace("claims:\n", listed + "claims:\n", 1), encoding="utf-8")
    return folder


# --- lesson pages and site builds (test_site_render, test_site_incremental and their kin) ----

SITE_FRONT_MATTER = """---
schemaVersion: 1
id: atlas-lesson-{slug}
title: {title}
category: learning
format: Atlas lesson
description: A lesson written by a test.
canonicalUrl: https://atlas.example.org/learn/{slug}/
publishedDate: null
revisionDate: '2026-11-29'
author: null
topic: {topic}
series: null
license: null
rightsUrl: null
version: 0.1.0
status: Draft
evidenceScope: Test content.
contentCoverage: published-lesson
artifactUrl: null
interactiveUrl: null
related: []
supersedes: []
supersededBy: []
jsonUrl: null
markdownUrl: null
citations:
- title: A source
  url: https://example.org/
contentFormat: text/markdown
---
"""


def write_site_lesson(
    root: Path, slug: str, body: str, *, title: str = "A lesson", topic: str = "Testing"
) -> Path:
    """Write `root/<slug>/lesson.md`: the site tests' front matter and `body` (no claims)."""
    folder = root / slug
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "lesson.md"
    path.write_text(
        SITE_FRONT_MATTER.format(slug=slug, title=title, topic=topic) + body, encoding="utf-8"
    )
    return path


def page_of(root: Path, slug: str) -> tuple[str, docs.DocsTree]:
    from atlas_build import pipeline
    from atlas_build.site.pages import docs

    report, checked = pipeline.check([str(root)], pipeline.Options())
    tree = docs.generate_docs(report, checked)
    return tree.text(f"lessons/{slug}/index.md"), tree


class _Elements(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def assert_inert(html: str) -> None:
    """No active element, no event handler, and every URL http(s), mailto or relative."""
    parser = _Elements()
    parser.feed(html)
    for tag, attrs in parser.tags:
        assert tag not in {"script", "iframe", "style", "svg", "form", "input", "object"}, tag
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            if name in ("href", "src", "action", "formaction", "xlink:href"):
                scheme = urlsplit((value or "").strip()).scheme.lower()
                assert scheme in ("", "http", "https", "mailto"), (tag, name, value)
            assert "alert(" not in (value or ""), (tag, name, value)


MKDOCS_CONFIG = REPO / "mkdocs.yml"
UNSTABLE_SITE_FILES = {"sitemap.xml.gz"}  # its gzip header carries the build date


def site_content(root: Path) -> Path:
    """Three small lessons (alpha, beta, gamma) under `root/content`."""
    content = root / "content"
    write_site_lesson(
        content, "alpha", "# Alpha\n\nThe alpha lesson speaks of $x^2$ and pangolins.\n"
    )
    write_site_lesson(
        content, "beta", "# Beta\n\nThe beta lesson speaks of capybaras.\n", topic="B"
    )
    write_site_lesson(content, "gamma", "# Gamma\n\nThe gamma lesson speaks of axolotls.\n")
    return content


def site_build(content: Path, root: Path, cache: Path | None, **extra: object) -> tuple[int, str]:
    """Check `content` and build its site into root/docs and root/site: (exit code, log)."""
    import io

    from atlas_build import pipeline
    from atlas_build.site.mkdocs import build

    options = pipeline.Options(cache_dir=str(cache) if cache else None)
    report, checked = pipeline.check([str(content)], options)
    out = io.StringIO()
    arguments: dict[str, object] = {"config": MKDOCS_CONFIG, "allow_errors": True, **extra}
    code = build.build_site(
        report, checked, docs_dir=root / "docs", site_dir=root / "site", options=options,
        stream=out, **arguments,  # type: ignore[arg-type]
    )  # fmt: skip
    return code, out.getvalue()


def site_tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name not in UNSTABLE_SITE_FILES
    }


def site_cold(content: Path, root: Path) -> dict[str, bytes]:
    """The same content built with nothing to reuse (no cache, fresh folders)."""
    code, log = site_build(content, root, None)
    assert code == 0, log
    assert "MkDocs rendered all" in log
    return site_tree(root / "site")


def edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


#: A one-relation lesson (V = I·R at I = 2 A, R = 3 Ω) whose stated drop is `{drop}`.
OHM_BODY = """
## Science and assumptions

### Ohm

$$
V=I\\cdot R
$$

Symbols and units

I

Current through it

A

R

Resistance

Ω

With I = 2 A and R = 3 Ω the drop is V = {drop}.
"""


# An M/M/1 queue lesson whose worked example inference checks (tests of claims.infer)
QUEUE = r"""
## Science and assumptions

### The M/M/1 queue

$$
\rho=\frac{\lambda}{\mu},\qquad L=\frac{\rho}{1-\rho},\qquad W=\frac{1}{\mu-\lambda}
$$

Symbols and units

ρ

Utilization

dimensionless

λ

Arrival rate

requests/s

μ

Service rate

requests/s

L

Mean number in system

requests

W

Mean time in system

s

## Engineering example

A shard serves μ = 125 requests/s and receives λ = 100 requests/s. Its utilization is
ρ = 0.8, it holds L = 4 requests on average, and a request spends W = 40 ms in the system.
"""
