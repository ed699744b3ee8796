"""The messages between a build and its MkDocs child (`build.MkDocs`, `child`).

One JSON object per line, its `type` naming the message. The build sends one `Request`
on the child's standard input (or closes it: nothing to build). The child answers on its
standard output, which carries nothing else (the child points file descriptor 1 at its
standard error first, so a plugin's `print` cannot break a message): a `Problem` per
MkDocs warning or error, in order, then `Done` with what the build did. Its standard
error is free text (a traceback, a stray print), read only when the child fails without
saying why.

Both ends read with `parse`, which checks every field: a line that is not a message of
this protocol raises `ProtocolError`, which each end turns into a reported error.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass, field
from typing import Any, ClassVar, TextIO

from atlas_build.site.mkdocs import tree
from atlas_build.site.mkdocs.stats import Stats


class ProtocolError(ValueError):
    """A line that is not a message of this protocol."""


@dataclass(frozen=True)
class Request:
    """Build the site into `site_dir`. `files`: what that folder holds, as the cache
    recorded it (`tree`); `sources`: sha256 of every file of the docs tree."""

    TYPE: ClassVar[str] = "request"
    site_dir: str
    files: tree.Files = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def fields(self) -> dict[str, Any]:
        return {"site_dir": self.site_dir, "files": self.files, "sources": self.sources}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Request:
        site_dir, files, sources = data["site_dir"], data["files"], data["sources"]
        if not isinstance(site_dir, str) or not site_dir:
            raise ProtocolError("site_dir is not a path")
        if not tree.is_files(files):
            raise ProtocolError("files is not a files record")
        if not isinstance(sources, dict) or not all(
            isinstance(path, str) and isinstance(sha, str) for path, sha in sources.items()
        ):
            raise ProtocolError("sources is not a map of paths to digests")
        return cls(site_dir, files, sources)


@dataclass(frozen=True)
class Problem:
    """A warning or error MkDocs logged (or the child's own error), which fails the build."""

    TYPE: ClassVar[str] = "problem"
    level: str  # WARNING or ERROR
    message: str

    def fields(self) -> dict[str, Any]:
        return {"level": self.level, "message": self.message}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Problem:
        level, message = data["level"], data["message"]
        if level not in ("WARNING", "ERROR") or not isinstance(message, str):
            raise ProtocolError("not a warning or error")
        return cls(level, message)

    @property
    def text(self) -> str:
        """As `mkdocs build` prints it (`incremental.FORMAT`)."""
        return f"{self.level:<7} -  {self.message}".strip()


@dataclass(frozen=True)
class Done:
    """The build finished; what it did."""

    TYPE: ClassVar[str] = "done"
    stats: Stats

    def fields(self) -> dict[str, Any]:
        return {"stats": self.stats.to_json()}

    @classmethod
    def from_fields(cls, data: dict[str, Any]) -> Done:
        try:
            return cls(Stats.from_json(data["stats"]))
        except ValueError as error:
            raise ProtocolError(str(error)) from None


Message = Request | Problem | Done
_TYPES: dict[str, type[Request] | type[Problem] | type[Done]] = {
    kind.TYPE: kind for kind in (Request, Problem, Done)
}


def dump(message: Message) -> str:
    """The message as one line of JSON, newline included."""
    return json.dumps({"type": message.TYPE, **message.fields()}, ensure_ascii=True) + "\n"


def parse(line: str) -> Message:
    """The message on `line`; ProtocolError when it is not exactly one of this protocol's."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    name = data.get("type") if isinstance(data, dict) else None
    kind = _TYPES.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ProtocolError("no known message type")
    wanted = {"type", *(each.name for each in dataclasses.fields(kind))}
    if set(data) != wanted:
        raise ProtocolError(f"a {kind.TYPE} message has the fields {', '.join(sorted(wanted))}")
    return kind.from_fields(data)


def send(stream: TextIO, message: Message) -> None:
    """Write one message and flush it (a forked worker must not inherit a half buffer)."""
    stream.write(dump(message))
    stream.flush()


class Reporter(logging.Handler):
    """MkDocs' warnings and errors, each sent as a `Problem` (the child's log handler)."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(logging.WARNING)
        self.stream = stream
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        level = "ERROR" if record.levelno >= logging.ERROR else "WARNING"
        try:
            send(self.stream, Problem(level, self.format(record)))
        except Exception:
            self.handleError(record)
