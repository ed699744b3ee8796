"""The catalog lists every code any module defines, in a process that imported nothing else
(stages register their codes on import, so a module the catalog forgets would drop its
codes from `explain`, SARIF and the code reference only in a fresh process)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "atlas_build"


def _defined_in_source() -> dict[str, str]:
    """Code -> module, from every `define("A...", ...)` call in the package's source."""
    found: dict[str, str] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "define"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found[node.args[0].value] = str(path.relative_to(PACKAGE.parent))
    return found


def test_a_fresh_process_catalogs_every_defined_code() -> None:
    script = (
        "import json; from atlas_build import catalog; print(json.dumps(list(catalog.codes())))"
    )
    listed = json.loads(subprocess.check_output([sys.executable, "-c", script], text=True))
    defined = _defined_in_source()
    assert len(defined) > 80
    missing = {code: module for code, module in defined.items() if code not in listed}
    assert missing == {}
    assert listed == sorted(listed)


def test_diagnostics_imports_no_stage() -> None:
    """diagnostics.py is the bottom of the house: the catalog, not it, imports the stages."""
    tree = ast.parse((PACKAGE / "diagnostics.py").read_text(encoding="utf-8"))
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert [name for name in imported if name.startswith("atlas_build")] == []
