"""The JSON report, documented by schemas/report.schema.json."""

from __future__ import annotations

import json

from atlas_build.report.escape import json_text
from atlas_build.report.model import Report


def render(report: Report) -> str:
    """Valid JSON and valid UTF-8 for any lesson text (lone surrogates as `\\uXXXX`)."""
    return json_text(json.dumps(report.to_json(), indent=2, ensure_ascii=False)) + "\n"
