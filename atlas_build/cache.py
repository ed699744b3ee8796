"""Content-addressed cache: results keyed by everything they depend on, and authenticated.

Keys are sha256 digests of the inputs of a result (file bytes, claims file bytes,
the checked set of lesson ids, options) plus an environment fingerprint: the
atlas_build version, a digest of its own source files, and the versions of the
libraries whose behaviour the results depend on.

The cache is input like any other file, so nothing read from it is trusted on its own:

- Entries are JSON written by atlas-build (no pickle, nothing that runs code when read).
- Every entry carries an HMAC-SHA256 tag over its namespace, key and payload, made with a
  secret that never lives in the repository: `ATLAS_BUILD_CACHE_KEY` when set (CI: from a
  secret), otherwise a random key created once in the user's configuration directory
  (`$XDG_CONFIG_HOME/atlas-build/cache-key`, mode 0600). An entry whose tag does not verify
  (forged, committed by a pull request, truncated, from another machine) is a miss: it is
  deleted and recomputed, so a cache can never make a result differ from `--no-cache`.
- The default cache lives outside the working tree (`$XDG_CACHE_HOME/atlas-build`), and a
  cache directory, or any folder inside it, that is a symbolic link is not used, so an entry
  can neither be planted through the repository nor make a write land elsewhere.

Writes are atomic (temporary file + rename), so concurrent builds never observe or leave a
partial entry. docs/reliability.md says what CI users should cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.metadata
import json
import os
import stat
from functools import cache
from pathlib import Path
from typing import Any

from atlas_build import __version__
from atlas_build.atomic import write_bytes

KEY_ENV = "ATLAS_BUILD_CACHE_KEY"
DIR_ENV = "ATLAS_BUILD_CACHE_DIR"
MAGIC = b"ATLAS-CACHE 2 "
LIBRARIES = (
    "sympy",
    "mpmath",
    "numpy",
    "markdown-it-py",
    "mdit-py-plugins",
    "jsonschema",
    "pydantic",
)
_NAME_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz-")


def default_dir() -> str:
    """`$ATLAS_BUILD_CACHE_DIR`, else `$XDG_CACHE_HOME/atlas-build`, else ~/.cache/atlas-build."""
    chosen = os.environ.get(DIR_ENV)
    if chosen:
        return chosen
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "atlas-build")


def key_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "atlas-build" / "cache-key"


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
    """atlas_build version, its files (sources and data: the unit table, the theme's
    partials, ...), and the versions of libraries it relies on."""
    package = Path(__file__).resolve().parent
    parts: list[bytes | str] = [__version__]
    files = (p for p in package.rglob("*") if "__pycache__" not in p.parts and p.is_file())
    for path in sorted(files):
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
    return ("mkdocs", "mkdocs-material", "matplotlib", "pykatex", "mini-racer", "nh3", "pint")


@cache
def secret() -> bytes:
    """The key entries are authenticated with (see the module docstring).

    When no key can be read or created (a read-only home), a random key for this process
    only: entries then never verify across runs, which costs speed, never correctness.
    """
    configured = os.environ.get(KEY_ENV)
    if configured:
        return hashlib.sha256(configured.encode("utf-8")).digest()
    path = key_file()
    with contextlib.suppress(OSError, ValueError):
        return _read_key(path) or _create_key(path)
    return os.urandom(32)


def _read_key(path: Path) -> bytes | None:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size != 64:
        raise ValueError(f"{path} is not an atlas-build cache key")
    return bytes.fromhex(path.read_text("ascii"))


def _create_key(path: Path) -> bytes:
    """Publish a new key with a hard link, so two first runs agree on one key."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    value = os.urandom(32)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(value.hex())
        try:
            os.link(temporary, path)
        except FileExistsError:
            found = _read_key(path)
            if found is None:
                raise
            return found
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return value


def _tag(namespace: str, key: str, payload: bytes) -> bytes:
    message = digest(namespace, key, payload).encode("ascii")
    return hmac.new(secret(), message, hashlib.sha256).hexdigest().encode("ascii")


def _plain(path: Path) -> bool:
    """Not a symbolic link (and, when it exists, a directory or regular file)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)


class Cache:
    """get/put of byte payloads by (namespace, key); a disabled cache stores nothing."""

    def __init__(self, root: str | os.PathLike[str] | None) -> None:
        self.root = Path(root) if root is not None else None
        self.hits = 0
        self.misses = 0
        self._folders: set[Path] = set()  # existing folders found plain (checked once)

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def _path(self, namespace: str, key: str) -> Path | None:
        """Where an entry lives, or None when the names or any folder on the way are unsafe."""
        assert self.root is not None
        if not (set(namespace) <= _NAME_CHARS and set(key) <= _NAME_CHARS and len(key) > 2):
            return None
        folders = (self.root, self.root / namespace, self.root / namespace / key[:2])
        for folder in folders:
            if folder not in self._folders:
                if not _plain(folder):
                    return None
                if folder.is_dir():
                    self._folders.add(folder)
        return folders[-1] / key

    def get(self, namespace: str, key: str) -> bytes | None:
        if self.root is None:
            return None
        path = self._path(namespace, key)
        if path is None or not _plain(path):
            self.misses += 1
            return None
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            self.misses += 1
            return None
        header, _, payload = data.partition(b"\n")
        if header.startswith(MAGIC) and hmac.compare_digest(
            header[len(MAGIC) :], _tag(namespace, key, payload)
        ):
            self.hits += 1
            return payload
        with contextlib.suppress(OSError):
            path.unlink()  # forged, foreign or damaged: never trusted, recomputed by the caller
        self.misses += 1
        return None

    def get_json(self, namespace: str, key: str) -> Any:
        """An entry written by `put_json`; None when it is missing, damaged or not JSON.
        What it holds is still to be checked by the caller, like any input."""
        payload = self.get(namespace, key)
        try:
            return json.loads(payload) if payload is not None else None
        except ValueError:
            return None

    def put_json(self, namespace: str, key: str, value: Any) -> None:
        self.put(namespace, key, json.dumps(value, ensure_ascii=True).encode("ascii"))

    def has(self, namespace: str, key: str) -> bool:
        """An entry is there (not read, so not yet known to verify: `get` tells)."""
        if self.root is None:
            return False
        path = self._path(namespace, key)
        return path is not None and _plain(path) and path.is_file()

    def put(self, namespace: str, key: str, payload: bytes) -> None:
        if self.root is None:
            return
        path = self._path(namespace, key)
        if path is None:
            return
        header = MAGIC + _tag(namespace, key, payload) + b"\n"
        with contextlib.suppress(OSError):  # a read-only or full disk only costs speed
            write_bytes(path, header + payload, skip_unchanged=False, durable=False)
