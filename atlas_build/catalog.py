"""Every diagnostic code of every stage: the one list `explain`, SARIF and the site's code
reference read.

Codes are declared with `diagnostics.define()` next to the rule that emits them, and a
stage registers its codes when it is imported. The pipeline imports stages lazily (in
worker processes too), so a complete list needs them all imported: this module does that,
from above the stages, so that diagnostics.py, at the bottom of the house, imports none.
"""

from __future__ import annotations

import importlib

from atlas_build.diagnostics import Code, defined

# Every module that defines codes, or imports the rules that do (a stage's package imports
# its rules so the ruler can run them). tests/test_catalog.py proves none is missing.
MODULES = (
    "atlas_build.load",
    "atlas_build.load.frontmatter",
    "atlas_build.load.schema",
    "atlas_build.integrity",
    "atlas_build.lesson",
    "atlas_build.claims",
    "atlas_build.ruler",
    "atlas_build.outputcodes",
)


def codes() -> dict[str, Code]:
    """All codes, sorted by code."""
    for module in MODULES:
        importlib.import_module(module)
    return defined()
