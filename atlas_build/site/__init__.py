"""The site stage: lessons, reports and figures -> a MkDocs docs tree -> a static site.

Everything is generated before MkDocs runs (MkDocs only lays the pages out with the
theme), so `mkdocs.yml` stays plain. `pages` makes the docs tree and never imports MkDocs;
`mkdocs` drives MkDocs over it (`mkdocs.speedups`: what reaches into its internals); `cli`
wires both into `build` and `serve`. Entry points load lazily, so that importing one
small module of the stage stays cheap. The stage's codes are in `outputcodes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from atlas_build.site.mkdocs.build import build_site
    from atlas_build.site.pages.docs import generate_docs

__all__ = ["build_site", "generate_docs"]


def __getattr__(name: str) -> Any:
    if name == "build_site":
        from atlas_build.site.mkdocs.build import build_site

        return build_site
    if name == "generate_docs":
        from atlas_build.site.pages.docs import generate_docs

        return generate_docs
    raise AttributeError(name)
