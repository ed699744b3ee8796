"""Integrity stage: prove a record's computed fields describe its content.

Each check is a module that registers itself on `RULES`; importing this package
registers them all, and `run` lets the ruler order and time them.
"""

from __future__ import annotations

from atlas_build.diagnostics import Diagnostic
from atlas_build.integrity import (  # noqa: F401  (imported to register their rules)
    content_hash,
    content_length,
    record_hash,
    references,
    sections,
    urls,
)
from atlas_build.integrity.context import RULES, Options, Subject
from atlas_build.ruler import Timings

__all__ = ["RULES", "Options", "Subject", "run"]


def run(subject: Subject, timings: Timings | None = None) -> list[Diagnostic]:
    return RULES.run(subject, subject.at(""), timings)
