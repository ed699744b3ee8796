"""How functions treat dimensions, by name (SymPy's own and the parser's applied ones).

A function not listed here, and not given a unit by the glossary, has an
unknown result: its relation is "not checked", never guessed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy

if TYPE_CHECKING:
    from .product import UnitProduct

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


TRIGONOMETRIC = frozenset("sin cos tan cot sec csc".split())
ANGLES = frozenset({"degree", "radian", "revolution", "arcminute", "arcsecond"})


def angle_of(name: str, value: UnitProduct) -> bool:
    """Whether `value` is an angle given to a trigonometric function: `sin θ` with θ in
    degrees is right (the degree's factor π/180 is what sin takes an angle in)."""
    if name.lower() not in TRIGONOMETRIC or not value.dimension.checked.is_dimensionless:
        return False
    angles = [(atom.key, power) for atom, power in value.atoms() if atom.key in ANGLES]
    others = [atom for atom, _ in value.atoms() if atom.key not in ANGLES and atom.scale != 1]
    return len(angles) == 1 and angles[0][1] == 1 and not others


LOGARITHMS = frozenset("log ln lg log2 log10".split())
LEVEL_CONVENTION = (
    "a level in decibels takes a quantity in its table unit (10 log₁₀ B for B in Hz, beside"
    " dBm/Hz), so this is not certain"
)


VALUE_CONVENTION = (
    "chemistry takes the logarithm of a concentration's value in its table unit (pKₐ ="
    " −log₁₀ Kₐ with Kₐ in mol/L, pH = −log₁₀[H⁺]), so this is not certain"
)


def concentration(arg: sympy.Basic, value: UnitProduct) -> bool:
    """A lone symbol, or a power of one, in an amount of substance per something (`K_a`,
    `[H⁺]²` in mol/L): what the p-scales of chemistry take the logarithm of. Another lone
    quantity (B in Hz beside dBm) or a ratio whose units fail to cancel is no convention."""
    return lone(arg) and value.dimension.exponent("[substance]") > 0


FIT_CONVENTION = (
    "an empirical law fitted with a coefficient (S = a + b log₁₀ M) takes the quantity in its"
    " table unit, so this is not certain"
)


def lone(arg: sympy.Basic) -> bool:
    """A symbol, or a power of one: a quantity as its table gives it."""
    base = arg.base if isinstance(arg, sympy.Pow) and arg.exp.is_number else arg
    return isinstance(base, sympy.Symbol)


def fitted(term: sympy.Basic) -> bool:
    """Whether a term of a sum is a symbol times the logarithm of a lone quantity (`b log₁₀ M`
    in a strength–maturity law `S = a + b log₁₀ M`): a coefficient fitted for the quantity
    in its table unit. Alone (`S = V_GS log₁₀ I_D`) it is no such law."""
    if not isinstance(term, sympy.Mul):
        return False
    factors = sympy.Mul.make_args(term)
    logs = [f for f in factors if isinstance(f, sympy.log) and lone(f.args[0])]
    return len(logs) == 1 and any(isinstance(f, sympy.Symbol) for f in factors)


def logarithm(name: str) -> bool:
    return name.lower() in LOGARITHMS


def decibels(expr: sympy.Mul) -> int:
    """1 for `10 log₁₀(…)` or `20 log₁₀(…)` (SymPy: 10·log(B)/log(10)), a level in
    decibels: engineers write the logarithm of a quantity in its table unit there (`S =
    −174 + 10 log₁₀ B + NF`), which is a convention, not a certain defect; else 0. A bare
    `ln(N_A N_D)` stays an error."""
    coefficient, _ = expr.as_coeff_Mul()
    factors = sympy.Mul.make_args(expr)
    logs = [f for f in factors if isinstance(f, sympy.log) and f.args != (sympy.Integer(10),)]
    return int(abs(coefficient) in (10, 20) and len(logs) == 1)


OPERANDS = frozenset("operand operands argument arguments input inputs".split())


def preserving(units: UnitProduct | None) -> bool:
    """Whether a function's table unit is `same units as the operands` (`fl(·)`, a rounding):
    its result has its arguments' unit."""
    atoms = list(units.atoms()) if units is not None else []
    return len(atoms) == 1 and atoms[0][0].key.removeprefix("abstract:") in OPERANDS
