"""Parser roles of whitelisted commands, and the record that pairs a role with its meaning."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One whitelisted control sequence: its parser role and documented meaning."""

    kind: str
    meaning: str


# Parser roles.
GREEK = "greek"
SYMBOL = "symbol"
CONSTANT = "constant"
SPACING = "spacing"
SEPARATOR = "separator"
ROW = "row"
RELATION = "relation"
CONNECTIVE = "connective"
QUANTIFIER = "quantifier"
OPERATOR = "operator"
BINARY = "binary"
PLUS_MINUS = "plus-minus"
NOT = "not"
FRACTION = "fraction"
BINOMIAL = "binomial"
INFIX = "infix"
ROOT = "root"
ELEMENTARY = "elementary"
NAMED_FUNCTION = "named-function"
OPERATOR_NAME = "operatorname"
FONT = "font"
TEXT = "text"
ACCENT = "accent"
BIG_OPERATOR = "big-operator"
EXTREMUM = "extremum"
ARG = "arg"
INTEGRAL = "integral"
LIMIT = "limit"
PARTIAL = "partial"
NABLA = "nabla"
TRANSPOSE = "transpose"
MARK = "mark"
DELIMITER = "delimiter"
SIZING = "sizing"
DOTS = "dots"
ANNOTATION = "annotation"
DROPPED = "dropped"
MODULO = "modulo"
UNIT = "unit"
ENVIRONMENT = "environment"
SUBSTACK = "substack"
