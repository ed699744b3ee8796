"""Lesson-LaTeX: a whitelisted LaTeX dialect parsed into SymPy without eval.

See ``docs/latex-dialect.md`` for the dialect. The package knows nothing about
lessons, claims or files: it turns equation text into located SymPy relations
and evaluates SymPy trees on arrays.
"""

from .api import Equation, Expression, Relation, parse_equation, parse_expression, parse_relations
from .dialect import DEFAULT_MAX_DEPTH, DEFAULT_MAX_LENGTH, DEFAULT_UPPER_BOUND, WHITELIST
from .errors import ERROR_CODES, EvaluationError, LatexError
from .evaluate import evaluate
from .functions import (
    MaxOver,
    MinOver,
    Transposed,
    Unit,
    WithUnit,
)

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_LENGTH",
    "DEFAULT_UPPER_BOUND",
    "ERROR_CODES",
    "WHITELIST",
    "Equation",
    "EvaluationError",
    "Expression",
    "LatexError",
    "MaxOver",
    "MinOver",
    "Relation",
    "Transposed",
    "Unit",
    "WithUnit",
    "evaluate",
    "parse_equation",
    "parse_expression",
    "parse_relations",
]
