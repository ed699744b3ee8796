"""The JSON report, documented by schemas/report.schema.json."""

from __future__ import annotations

import json

from atlas_build.report.model import Report


def render(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"
