"""The lesson-LaTeX dialect: the whitelist of control sequences and their roles.

The whitelist is the single source of truth: the lexer rejects anything not
listed here (``unknown-command``), the parser dispatches on ``Command.kind``,
and ``docs/latex-dialect.md`` documents the same table (a test keeps the two
in step). The tables themselves live in :mod:`.vocabulary`.
"""

from __future__ import annotations

from types import MappingProxyType

from .roles import Command
from .vocabulary import RELATIONS, TABLE

DEFAULT_MAX_LENGTH = 10_000
DEFAULT_MAX_DEPTH = 32
DEFAULT_UPPER_BOUND = "n"
"""An index without stated bounds runs from 1 to the symbol ``n``."""

ALIGNMENT_ENVIRONMENTS: frozenset[str] = frozenset(
    {"aligned", "align", "align*", "gathered", "gather", "gather*", "split"}
    | {"equation", "equation*", "multline", "multline*", "flalign", "flalign*"}
    | {"alignat", "alignat*", "alignedat", "eqnarray", "eqnarray*", "subequations"}
)
"""Environments accepted around a whole equation; rows split on ``\\\\``."""

MATRIX_ENVIRONMENTS: MappingProxyType[str, str] = MappingProxyType(
    {
        "matrix": "matrix",
        "pmatrix": "matrix",
        "bmatrix": "matrix",
        "Bmatrix": "matrix",
        "smallmatrix": "matrix",
        "array": "matrix",
        "vmatrix": "determinant",
        "Vmatrix": "norm",
    }
)
"""Matrix environments and what the literal becomes (a matrix, its determinant or norm)."""

CASES_ENVIRONMENTS: frozenset[str] = frozenset({"cases", "dcases", "rcases", "cases*"})
"""Piecewise definitions: ``value & condition`` rows."""

ENVIRONMENTS: frozenset[str] = (
    ALIGNMENT_ENVIRONMENTS | frozenset(MATRIX_ENVIRONMENTS) | CASES_ENVIRONMENTS
)

ENVIRONMENT_ARGUMENTS: frozenset[str] = frozenset({"array", "alignat", "alignat*", "alignedat"})
"""Environments whose ``\\begin`` takes a braced argument (column spec, column count)."""


WHITELIST: MappingProxyType[str, Command] = MappingProxyType(TABLE)
"""Every control sequence the dialect accepts, keyed by name without the backslash."""

RELATION_OPS: MappingProxyType[str, str] = MappingProxyType(
    {"=": "=", "<": "<", ">": ">", ":": ":", **{name: op for name, (op, _) in RELATIONS.items()}}
)
"""Relation token (character or command name) -> ``Relation.op``."""


def kind_of(name: str) -> str | None:
    """The parser role of command ``name``, or ``None`` if it is not whitelisted."""
    command = WHITELIST.get(name)
    return command.kind if command is not None else None
