"""JUnit XML: one testcase per lesson; errors (and warnings under --strict) fail it.
Each testcase's properties carry the lesson's coverage (the sentence and the counts).

Every attribute and text is passed through `escape.text`, which writes the characters
XML 1.0 cannot hold at all (C0 controls, lone surrogates, U+FFFE/U+FFFF) as visible
escapes, so the document is well-formed whatever the lessons contain; ElementTree
escapes the markup (`<`, `&`, quotes).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import Any

from atlas_build.diagnostics import Severity
from atlas_build.report import coverage
from atlas_build.report.escape import text as escaped
from atlas_build.report.model import Report
from atlas_build.report.text import line


def _coverage_properties(found: dict[str, Any], said: str) -> list[tuple[str, str]]:
    """The lesson's coverage as testcase properties: the sentence, then each count."""
    pairs = [("coverage", escaped(said)), ("verification", str(found.get("verification")))]
    for part in ("relations", "numbers", "dimensions"):
        counts = found.get(part)
        if isinstance(counts, dict):
            pairs += [(f"{part}.{k}", str(v)) for k, v in counts.items() if isinstance(v, int)]
    return pairs


def render(report: Report) -> str:
    failing = {Severity.ERROR, Severity.WARNING} if report.strict else {Severity.ERROR}
    suite = ElementTree.Element("testsuite", name="atlas-build")
    failures = 0
    for record in report.records:
        case = ElementTree.SubElement(
            suite, "testcase", classname="atlas-build.check", name=escaped(record.id or record.path)
        )
        case.set("file", escaped(record.path))
        said = coverage.sentence(record.coverage, record.status)
        if said is not None:
            properties = ElementTree.SubElement(case, "properties")
            for name, value in _coverage_properties(record.coverage or {}, said):
                ElementTree.SubElement(properties, "property", name=name, value=value)
        bad = [d for d in record.diagnostics if d.severity in failing]
        if bad:
            failures += 1
            failure = ElementTree.SubElement(
                case, "failure", message=f"{len(bad)} finding(s)", type=escaped(bad[0].code)
            )
            failure.text = "\n".join(line(diagnostic) for diagnostic in bad)
        other = [d for d in record.diagnostics if d.severity not in failing]
        if other:
            ElementTree.SubElement(case, "system-out").text = "\n".join(map(line, other))
    suite.set("tests", str(len(report.records)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    root = ElementTree.Element("testsuites")
    root.append(suite)
    ElementTree.indent(root)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + ElementTree.tostring(root, encoding="unicode")
        + "\n"
    )
