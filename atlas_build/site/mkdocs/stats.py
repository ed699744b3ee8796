"""What one MkDocs build did: the pages it laid out, those it reused, the files it left.

The build log says which pages MkDocs laid out again (`build.rendered`), and the site
state records the files of the new site (`state`). A build's MkDocs child sends this to
its parent (`protocol.Done`), so reading it back is strict: a field of the wrong type is
an error, never a coercion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from atlas_build.site.mkdocs import tree


@dataclass
class Stats:
    """What one build did: pages rendered (their docs paths) and pages reused."""

    incremental: bool = False
    rendered: list[str] = field(default_factory=list)
    reused: int = 0
    seconds: float = 0.0
    files: tree.Files = field(default_factory=dict)  # the site as built (see `tree`)
    prerendered: int = 0  # of the reused: laid out just before, in `jobs` processes
    jobs: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "incremental": self.incremental,
            "rendered": self.rendered,
            "reused": self.reused,
            "seconds": self.seconds,
            "files": self.files,
            "prerendered": self.prerendered,
            "jobs": self.jobs,
        }

    @classmethod
    def from_json(cls, data: Any) -> Stats:
        """Stats as `to_json` wrote them; ValueError for anything else."""
        if not isinstance(data, dict) or set(data) != set(cls().to_json()):
            raise ValueError("not build stats")
        counts = (data["reused"], data["prerendered"], data["jobs"])
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
            raise ValueError("malformed page counts")
        rendered, seconds = data["rendered"], data["seconds"]
        if not isinstance(rendered, list) or not all(isinstance(uri, str) for uri in rendered):
            raise ValueError("malformed list of rendered pages")
        if not isinstance(data["incremental"], bool):
            raise ValueError("malformed incremental flag")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            raise ValueError("malformed build time")
        if not tree.is_files(data["files"]):
            raise ValueError("malformed site files")
        return cls(data["incremental"], rendered, data["reused"], float(seconds), data["files"],
                   data["prerendered"], data["jobs"])  # fmt: skip
