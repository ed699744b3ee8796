"""The recordHash recipe atlas-build defines, since upstream's is unknown.

No common serialisation of the seed record reproduces its `recordHash`, so
atlas-build states its own: sha256 over the RFC 8785 (JSON Canonicalization
Scheme) bytes of the record with the `recordHash` member removed. `fix` and
`build` always write hashes made this way; see docs/record-hash.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import rfc8785

RECIPE = "jcs-sha256-v1"


def record_hash(record: Mapping[str, Any]) -> str:
    """Raises ValueError when the record holds values JCS cannot encode (huge ints, NaN)."""
    body = {key: value for key, value in record.items() if key != "recordHash"}
    try:
        encoded = rfc8785.dumps(body)
    except (rfc8785.CanonicalizationError, TypeError) as error:
        raise ValueError(f"record cannot be canonicalised: {error}") from error
    return hashlib.sha256(encoded).hexdigest()


def content_hash(canonical: str) -> str:
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
