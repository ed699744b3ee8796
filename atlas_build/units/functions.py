"""How functions treat dimensions, by name (SymPy's own and the parser's applied ones).

A function not listed here, and not given a unit by the glossary, has an
unknown result: its relation is "not checked", never guessed.
"""

from __future__ import annotations

DIMENSIONLESS_IN = "dimensionless-in"  # arguments must be dimensionless; result dimensionless
PRESERVE = "preserve"  # arguments share one dimension; the result has it
SQUARE = "square"  # Var(x): dim(x)²
PRODUCT = "product"  # Cov(x, y): dim(x)·dim(y)
INVERSE = "inverse"  # DiracDelta(x): 1/dim(x)
RATIO = "ratio"  # atan2(y, x): arguments share a dimension; result dimensionless
DIMENSIONLESS_OUT = "dimensionless-out"  # any argument; result dimensionless (sign, argmax)

_TABLE = {
    DIMENSIONLESS_IN: (
        "exp log ln lg log2 log10 sin cos tan cot sec csc asin acos atan acot asec acsc"
        " sinh cosh tanh coth sech csch asinh acosh atanh acoth erf erfc erfinv gamma"
        " loggamma factorial binomial sigmoid logistic softplus logsumexp lse"
        " softmax softmax_rows softmax_cols softmax_columns log_softmax logsoftmax"
    ),
    PRESERVE: (
        "Abs abs Max Min max min relu ReLU gelu GELU silu SiLU swish mean avg average"
        " median E_bb expectation std sd rms RMS norm floor ceiling ceil round re im"
        " conjugate clip clamp diag sum cumsum trace tr Mod Transposed"
    ),
    SQUARE: "Var var variance",
    PRODUCT: "Cov cov covariance",
    INVERSE: "DiracDelta",
    RATIO: "atan2",
    DIMENSIONLESS_OUT: "sign sgn Heaviside KroneckerDelta argmax argmin indicator rank onehot",
}

ROLES: dict[str, str] = {name: role for role, names in _TABLE.items() for name in names.split()}


def role_of(name: str) -> str | None:
    """The role of function `name` (exact name first, then lower case), or None."""
    return ROLES.get(name) or ROLES.get(name.lower())
