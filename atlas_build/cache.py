"""Content-addressed cache in `.atlas-cache/`: results keyed by everything they depend on.

Keys are sha256 digests of the inputs of a result (file bytes, claims file bytes,
the checked set of lesson ids, options) plus an environment fingerprint: the
atlas_build version, a digest of its own source files, and the versions of the
libraries whose behaviour the results depend on. An entry is a header line with
the payload's sha256 followed by the payload; an entry whose digest or length
does not match (truncated, corrupted) is deleted and recomputed, never trusted.
Writes are atomic (temporary file + rename), so concurrent builds never observe
or leave a partial entry. Entries are local build artefacts: like `.pyc` files,
the directory must not be writable by untrusted users.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
from functools import cache
from pathlib import Path

from atlas_build import __version__
from atlas_build.atomic import write_bytes

DEFAULT_DIR = ".atlas-cache"
MAGIC = b"ATLAS-CACHE 1 "
LIBRARIES = ("sympy", "numpy", "markdown-it-py", "mdit-py-plugins", "jsonschema", "pydantic")


def digest(*parts: bytes | str) -> str:
    """sha256 over length-prefixed parts, so ("ab", "c") and ("a", "bc") differ."""
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


@cache
def fingerprint() -> str:
    """atlas_build version, its source files, and the versions of libraries it relies on."""
    package = Path(__file__).resolve().parent
    parts: list[bytes | str] = [__version__]
    for path in sorted(package.rglob("*.py")):
        parts.append(str(path.relative_to(package)))
        parts.append(path.read_bytes())
    for name in LIBRARIES + extra_libraries():
        try:
            parts.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{name} absent")
    return digest(*parts)


def extra_libraries() -> tuple[str, ...]:
    """Libraries of optional stages (the site's math renderer) that results depend on."""
    return ("mkdocs", "mkdocs-material", "matplotlib", "pykatex", "mini-racer", "nh3")


class Cache:
    """get/put of byte payloads by (namespace, key); a disabled cache stores nothing."""

    def __init__(self, root: str | os.PathLike[str] | None = DEFAULT_DIR) -> None:
        self.root = Path(root) if root is not None else None
        self.hits = 0
        self.misses = 0

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def _path(self, namespace: str, key: str) -> Path:
        assert self.root is not None
        return self.root / namespace / key[:2] / key

    def get(self, namespace: str, key: str) -> bytes | None:
        if self.root is None:
            return None
        path = self._path(namespace, key)
        try:
            data = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        header, _, payload = data.partition(b"\n")
        if header.startswith(MAGIC) and header[len(MAGIC) :].decode("ascii", "replace") == (
            hashlib.sha256(payload).hexdigest()
        ):
            self.hits += 1
            return payload
        with contextlib.suppress(OSError):
            path.unlink()  # corrupt or truncated: never trusted, recomputed by the caller
        self.misses += 1
        return None

    def put(self, namespace: str, key: str, payload: bytes) -> None:
        if self.root is None:
            return
        header = MAGIC + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n"
        with contextlib.suppress(OSError):  # a read-only or full disk only costs speed
            write_bytes(
                self._path(namespace, key), header + payload, skip_unchanged=False, durable=False
            )
