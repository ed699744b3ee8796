"""site/pages/ makes the pages without MkDocs: none of its modules imports MkDocs, Material,
Python-Markdown, pymdown-extensions or the driver (atlas_build/site/mkdocs/), at the top
or inside a function, so a page can be changed without reading MkDocs and a MkDocs
release cannot break one.

Proven here: the imports of every module under site/pages/, read from its syntax tree
(relative imports resolved, `importlib.import_module` and `__import__` of a constant
included), name none of them; the check finds a function-level import planted in a
module; and importing every pages module loads none of them, even indirectly.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import atlas_build.site.pages

PAGES = Path(atlas_build.site.pages.__file__).resolve().parent
FORBIDDEN = ("mkdocs", "material", "markdown", "pymdownx", "atlas_build.site.mkdocs")
DYNAMIC = {"import_module", "__import__"}


def _package(path: Path) -> str:
    """The dotted package a module under site/pages/ belongs to."""
    parts = ["atlas_build", "site", "pages", *path.relative_to(PAGES).parts]
    return ".".join(parts[:-1])


def imported(source: str, package: str) -> list[str]:
    """Every module name the source imports, anywhere in it: `from a import b` counts as
    both `a` and `a.b` (b may be a module)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and node.args:
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            first = node.args[0]
            if name in DYNAMIC and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(first.value)
    return found


def forbidden(names: list[str]) -> list[str]:
    return [n for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]


def test_there_are_pages_modules() -> None:
    names = {p.relative_to(PAGES).as_posix() for p in PAGES.rglob("*.py")}
    assert {"docs.py", "lesson.py", "markup.py", "structures/glossary.py"} <= names


@pytest.mark.parametrize(
    "module", sorted(p.relative_to(PAGES).as_posix() for p in PAGES.rglob("*.py"))
)
def test_no_pages_module_imports_mkdocs_or_the_driver(module: str) -> None:
    path = PAGES / module
    names = imported(path.read_text(encoding="utf-8"), _package(path))
    assert forbidden(names) == [], f"site/pages/{module} imports {forbidden(names)}"


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    import mkdocs.utils\n",
        "def f():\n    from material.plugins.search import plugin\n",
        "class C:\n    def m(self):\n        import markdown\n",
        "from pymdownx import superfences\n",
        "from atlas_build.site import mkdocs\n",
        "from atlas_build.site.mkdocs.tree import scan\n",
        "from ..mkdocs import tree\n",
        "import importlib\nimportlib.import_module('mkdocs.config')\n",
    ],
)
def test_the_check_finds_a_planted_import(source: str) -> None:
    assert forbidden(imported(source, "atlas_build.site.pages"))


def test_allowed_look_alikes_pass() -> None:
    source = "from atlas_build import markdown\nimport markdown_it\nfrom . import html\n"
    assert forbidden(imported(source, "atlas_build.site.pages")) == []


def test_importing_the_pages_loads_no_mkdocs_module() -> None:
    """Indirect imports too: a fresh interpreter imports every pages module."""
    script = (
        "import importlib, json, pkgutil, sys\n"
        "import atlas_build.site.pages as pages\n"
        "for info in pkgutil.walk_packages(pages.__path__, 'atlas_build.site.pages.'):\n"
        "    importlib.import_module(info.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert forbidden(json.loads(result.stdout)) == []
