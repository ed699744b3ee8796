"""A configuration loaded for a build: what MkDocs does before it looks at a single page.

Loading the configuration, starting its plugins, compiling the theme's templates and
reading the page entries of the last build take about a second at 1,000 lessons. A
build's MkDocs child does it while the parent is still checking lessons (`child`), and
`serve` keeps the compiled templates between saves (`THEMES`), so this lives apart from
`incremental.build`, which is handed what `prepare` made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from atlas_build.cache import Cache
from atlas_build.site.mkdocs import mkconfig, mkcontext, pagestore

THEMES: dict[str, Any] = {}  # the theme's Jinja environment by context, kept by `serve`


@dataclass
class Prepared:
    """A configuration loaded, its theme's templates compiled and the page entries of the
    last build read. `context` is None when pages cannot be reused (`mkcontext`)."""

    config: Any
    config_file: Path
    store: Cache
    context: str | None
    batch: pagestore.Batch | None


def prepare(
    config_file: Path, cache_dir: str | None, entries: bool = True, *, trust: bool = False
) -> Prepared:
    """Load the configuration (MkDocs' own errors are raised), start its plugins, and when
    pages can be reused, compile the theme's page templates and read the page entries of
    the last build (not when `entries` is False: `serve` keeps them in memory)."""
    from mkdocs.config import load_config

    mkconfig.install(trust)
    config = load_config(config_file=str(config_file), strict=True)
    if mkconfig.templates_untrusted(config.theme.custom_dir):
        mkconfig.sandbox_templates()
    config.plugins.on_startup(command="build", dirty=False)
    store = Cache(cache_dir)
    context = mkcontext.context(config, config_file) if store.enabled else None
    batch = None
    if context is not None and mkcontext.supported():
        if context not in THEMES:
            THEMES.clear()
            THEMES[context] = _warm(config.theme.get_env())
        if entries:
            batch = pagestore.Batch(store, str(Path(config.docs_dir).resolve()))
    return Prepared(config, config_file, store, context, batch)


def _warm(env: Any) -> Any:
    """Compile the templates every build renders (a page, the 404 page, the sitemap) and
    those they extend or include by name; the names a template computes are left to the
    render."""
    from jinja2 import TemplateError, meta

    todo, seen = ["main.html", "404.html", "sitemap.xml"], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            env.get_template(name)
            source = env.loader.get_source(env, name)[0] if env.loader else ""
            todo += [found for found in meta.find_referenced_templates(env.parse(source)) if found]
        except TemplateError:
            continue
    return env
