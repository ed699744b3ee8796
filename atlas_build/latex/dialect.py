"""The lesson-LaTeX dialect: the whitelist of control sequences and their roles.

The whitelist is the single source of truth: the lexer rejects anything not
listed here (``unknown-command``), the parser dispatches on ``Command.kind``,
and ``docs/latex-dialect.md`` documents the same table (a test keeps the two
in step).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


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
OPERATOR = "operator"
FRACTION = "fraction"
ROOT = "root"
ELEMENTARY = "elementary"
OPERATOR_NAME = "operatorname"
FONT = "font"
ACCENT = "accent"
BIG_OPERATOR = "big-operator"
EXTREMUM = "extremum"
LIMIT = "limit"
ARROW = "arrow"
PARTIAL = "partial"
TRANSPOSE = "transpose"
DELIMITER = "delimiter"
SIZING = "sizing"
ENVIRONMENT = "environment"

_GREEK_NAMES = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu"
    " nu xi pi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega"
    " Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega"
).split()

_TABLE: dict[str, Command] = {
    name: Command(GREEK, f"Greek letter: symbol named `{name}`") for name in _GREEK_NAMES
}
_TABLE["pi"] = Command(GREEK, "the constant pi, or symbol `pi` when declared in `symbols`")
_TABLE.update(
    {
        "ell": Command(SYMBOL, "symbol named `ell`"),
        "infty": Command(CONSTANT, "infinity (`sympy.oo`)"),
        ",": Command(SPACING, "thin space: dropped"),
        "!": Command(SPACING, "negative thin space: dropped"),
        ";": Command(SPACING, "thick space: dropped"),
        ":": Command(SPACING, "medium space: dropped"),
        " ": Command(SPACING, "control space: dropped"),
        "displaystyle": Command(SPACING, "style switch: dropped"),
        "textstyle": Command(SPACING, "style switch: dropped"),
        "limits": Command(SPACING, "limit placement: dropped"),
        "nonumber": Command(SPACING, "equation numbering: dropped"),
        "notag": Command(SPACING, "equation numbering: dropped"),
        "quad": Command(SEPARATOR, "separates relations at top level; a space elsewhere"),
        "qquad": Command(SEPARATOR, "separates relations at top level; a space elsewhere"),
        "\\": Command(ROW, "row break: separates relations"),
        "approx": Command(RELATION, "relation `approx`"),
        "propto": Command(RELATION, "relation `propto`"),
        "le": Command(RELATION, "relation `<=`"),
        "leq": Command(RELATION, "relation `<=`"),
        "ge": Command(RELATION, "relation `>=`"),
        "geq": Command(RELATION, "relation `>=`"),
        "ne": Command(RELATION, "relation `!=`"),
        "neq": Command(RELATION, "relation `!=`"),
        "cdot": Command(OPERATOR, "multiplication (order kept for matrices)"),
        "times": Command(OPERATOR, "multiplication (order kept for matrices)"),
        "frac": Command(
            FRACTION, "`\\frac{a}{b}` is a/b; `\\frac{\\partial y}{\\partial x}` a derivative"
        ),
        "tfrac": Command(FRACTION, "as `\\frac`"),
        "dfrac": Command(FRACTION, "as `\\frac`"),
        "sqrt": Command(ROOT, "`\\sqrt{x}` square root, `\\sqrt[n]{x}` n-th root"),
        "exp": Command(ELEMENTARY, "exponential function"),
        "ln": Command(ELEMENTARY, "natural logarithm"),
        "log": Command(ELEMENTARY, "natural logarithm; `\\log_b x` is base b"),
        "operatorname": Command(
            OPERATOR_NAME, "named function; `\\operatorname{f}_{\\mathrm{s}}` is `f_s`"
        ),
        "mathrm": Command(FONT, "upright name: `\\mathrm{rows}` is the name `rows`"),
        "mathit": Command(FONT, "italic name"),
        "mathbf": Command(FONT, "bold name (same symbol as the plain letters)"),
        "mathsf": Command(FONT, "sans-serif name; `^{\\mathsf T}` is transpose"),
        "mathtt": Command(FONT, "typewriter name"),
        "boldsymbol": Command(FONT, "bold name (same symbol as the plain letters)"),
        "text": Command(FONT, "text name: `\\text{bytes}` is the symbol `bytes`"),
        "textrm": Command(FONT, "as `\\text`"),
        "textit": Command(FONT, "as `\\text`"),
        "textbf": Command(FONT, "as `\\text`"),
        "hat": Command(ACCENT, "`\\hat{y}` is the symbol `y_hat`"),
        "bar": Command(ACCENT, "`\\bar{x}` is the symbol `x_bar`"),
        "tilde": Command(ACCENT, "`\\tilde{x}` is the symbol `x_tilde`"),
        "sum": Command(BIG_OPERATOR, "`sympy.Sum` over an index set"),
        "prod": Command(BIG_OPERATOR, "`sympy.Product` over an index set"),
        "max": Command(EXTREMUM, "`\\max(a,b)` is `Max`; `\\max_j x_j` is `MaxOver`"),
        "min": Command(EXTREMUM, "`\\min(a,b)` is `Min`; `\\min_j x_j` is `MinOver`"),
        "lim": Command(LIMIT, "`\\lim_{x\\to a}` is an unevaluated `sympy.Limit`"),
        "to": Command(ARROW, "arrow inside a `\\lim` subscript only"),
        "partial": Command(PARTIAL, "partial derivative inside `\\frac` only"),
        "top": Command(TRANSPOSE, "`^\\top` is transpose"),
        "intercal": Command(TRANSPOSE, "`^\\intercal` is transpose"),
        "left": Command(DELIMITER, "sized opening delimiter: `(`, `[` or `|`"),
        "right": Command(DELIMITER, "sized closing delimiter: `)`, `]` or `|`"),
        "lvert": Command(DELIMITER, "opening absolute-value bar"),
        "rvert": Command(DELIMITER, "closing absolute-value bar"),
        "big": Command(SIZING, "delimiter size: dropped"),
        "Big": Command(SIZING, "delimiter size: dropped"),
        "bigg": Command(SIZING, "delimiter size: dropped"),
        "Bigg": Command(SIZING, "delimiter size: dropped"),
        "bigl": Command(SIZING, "delimiter size: dropped"),
        "bigr": Command(SIZING, "delimiter size: dropped"),
        "Bigl": Command(SIZING, "delimiter size: dropped"),
        "Bigr": Command(SIZING, "delimiter size: dropped"),
        "begin": Command(ENVIRONMENT, "opens an environment enclosing the whole equation"),
        "end": Command(ENVIRONMENT, "closes that environment"),
    }
)

WHITELIST: MappingProxyType[str, Command] = MappingProxyType(_TABLE)
"""Every control sequence the dialect accepts, keyed by name without the backslash."""

ENVIRONMENTS: frozenset[str] = frozenset(
    {"aligned", "align", "align*", "gathered", "gather", "gather*", "split"}
    | {"equation", "equation*"}
)
"""Environments accepted around a whole equation; rows split on ``\\\\``."""

RELATION_OPS: MappingProxyType[str, str] = MappingProxyType(
    {
        "=": "=",
        "<": "<",
        ">": ">",
        "approx": "approx",
        "propto": "propto",
        "le": "<=",
        "leq": "<=",
        "ge": ">=",
        "geq": ">=",
        "ne": "!=",
        "neq": "!=",
    }
)
"""Relation token (character or command name) -> ``Relation.op``."""

DEFAULT_MAX_LENGTH = 10_000
DEFAULT_MAX_DEPTH = 32
DEFAULT_UPPER_BOUND = "n"
"""An index without stated bounds runs from 1 to the symbol ``n``."""


def kind_of(name: str) -> str | None:
    """The parser role of command ``name``, or ``None`` if it is not whitelisted."""
    command = WHITELIST.get(name)
    return command.kind if command is not None else None
