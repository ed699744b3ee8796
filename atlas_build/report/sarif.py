"""SARIF 2.1.0, so code-scanning dashboards show findings on the lesson lines; each
lesson's coverage rides in the run's property bag."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from atlas_build.diagnostics import Code, Severity
from atlas_build.report import coverage
from atlas_build.report.escape import json_text
from atlas_build.report.model import RecordReport, Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _uri(path: str) -> str:
    """A relative URI reference: every character outside RFC 3986's set percent-encoded
    (a lone surrogate, which UTF-8 cannot encode, as the replacement character)."""
    return quote(path.replace("\\", "/").encode("utf-8", "replace").decode("utf-8"))


def _lesson(record: RecordReport) -> dict[str, Any]:
    """A lesson's coverage for the run's property bag (SARIF has no place of its own for
    what was proved, only for what was found)."""
    found = record.coverage or {}
    counts = {
        part: {k: v for k, v in found[part].items() if isinstance(v, int)}
        for part in ("relations", "numbers", "dimensions")
        if isinstance(found.get(part), dict)
    }
    return {
        "uri": _uri(record.path),
        "id": record.id,
        "status": record.status,
        "verification": found.get("verification"),
        "coverage": coverage.sentence(record.coverage, record.status),
        **counts,
    }


def render(report: Report, codes: Mapping[str, Code]) -> str:
    used = sorted({d.code for record in report.records for d in record.diagnostics})
    rules = []
    for code in used:
        entry = codes.get(code)
        if entry is None:
            continue
        rules.append(
            {
                "id": entry.code,
                "name": entry.name,
                "shortDescription": {"text": entry.summary},
                "help": {"text": f"Example: {entry.example}\nFix: {entry.fix}"},
                "defaultConfiguration": {"level": LEVEL[entry.severity]},
            }
        )
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    results: list[dict[str, Any]] = []
    for record in report.records:
        for diagnostic in record.diagnostics:
            region: dict[str, int] = {"startLine": max(1, diagnostic.line or 1)}
            if diagnostic.column:
                region["startColumn"] = diagnostic.column
            result: dict[str, Any] = {
                "ruleId": diagnostic.code,
                "level": LEVEL[diagnostic.severity],
                "message": {"text": diagnostic.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": _uri(diagnostic.path)},
                            "region": region,
                        }
                    }
                ],
            }
            if diagnostic.code in index:
                result["ruleIndex"] = index[diagnostic.code]
            if diagnostic.pointer is not None:
                result["properties"] = {"pointer": diagnostic.pointer}
            results.append(result)
    document = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "atlas-build",
                        "version": report.to_json()["tool"]["version"],
                        "rules": rules,
                    }
                },
                "results": results,
                "properties": {"lessons": [_lesson(record) for record in report.records]},
            }
        ],
    }
    return json_text(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"
