"""Errors raised by the lesson-LaTeX parser and evaluator.

Every failure on untrusted lesson text surfaces as :class:`LatexError` with a
stable ``code`` and an ``offset`` into the caller's original string, so the
build can report ``line:col`` in the lesson instead of a Python traceback.
"""

from __future__ import annotations

TOO_LONG = "too-long"
TOO_DEEP = "too-deep"
TOO_LARGE = "too-large"
EMPTY = "empty"
UNEXPECTED_CHARACTER = "unexpected-character"
UNKNOWN_COMMAND = "unknown-command"
UNKNOWN_ENVIRONMENT = "unknown-environment"
UNBALANCED_BRACE = "unbalanced-brace"
UNBALANCED_DELIMITER = "unbalanced-delimiter"
NO_RELATION = "no-relation"
SYNTAX = "syntax"

ERROR_CODES: frozenset[str] = frozenset(
    {
        TOO_LONG,
        TOO_DEEP,
        TOO_LARGE,
        EMPTY,
        UNEXPECTED_CHARACTER,
        UNKNOWN_COMMAND,
        UNKNOWN_ENVIRONMENT,
        UNBALANCED_BRACE,
        UNBALANCED_DELIMITER,
        NO_RELATION,
        SYNTAX,
    }
)

UNBOUND_SYMBOL = "unbound-symbol"
UNKNOWN_FUNCTION = "unknown-function"
UNSUPPORTED = "unsupported"
BAD_INDEX = "bad-index"
NUMERIC = "numeric"

EVALUATION_CODES: frozenset[str] = frozenset(
    {UNBOUND_SYMBOL, UNKNOWN_FUNCTION, UNSUPPORTED, BAD_INDEX, NUMERIC, TOO_LARGE}
)


class LatexError(Exception):
    """A located rejection of lesson LaTeX.

    ``offset`` is a 0-based character offset into the string passed to the
    parser (not into any normalised form), pointing at the offending token.
    """

    def __init__(self, code: str, message: str, offset: int) -> None:
        super().__init__(f"{code} at offset {offset}: {message}")
        self.code = code
        self.message = message
        self.offset = offset


class EvaluationError(Exception):
    """A numeric evaluation that cannot proceed; ``name`` is the culprit, if any."""

    def __init__(self, code: str, message: str, name: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.name = name
