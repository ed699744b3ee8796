"""Units and dimensions for lesson symbol tables, equations and prose.

`parse_unit` reads a glossary's unit column (pint is the unit database; the text is
read by our own bounded grammar, never evaluated); `units_from_glossary` builds the
symbol -> unit mapping under the shared naming convention; `check` tests one SymPy
relation for dimensional consistency; `find_quantities`, `convert` and `to_base`
handle numbers with units in prose; `mutants` makes dimension-breaking edits for
selftest. See `docs/units.md`.
"""

from .check import (
    UNCOMPARED,
    check,
    counted_from_zero,
    dimension_of,
    side_ratio,
    unit_of,
    zero_mismatch,
)
from .convert import UnitError, convert, convertible, exact, same_dimension, to_base, units_of
from .dimension import DIMENSIONLESS, Dimension
from .findings import (
    AFFINE,
    ARGUMENT,
    EXPONENT,
    RELATION,
    SCALE,
    TERMS,
    UNCERTAIN,
    UNKNOWN,
    Finding,
    errors,
    uncertain,
    unknowns,
)
from .glossary import (
    GlossaryProblem,
    GlossaryUnits,
    power_of,
    resolve,
    rooted,
    unit_parts,
    units_from_glossary,
)
from .mutate import ADD_TERM, DROP_DIVISOR, SQUARE_FACTOR, Mutant, mutants
from .nouns import outside
from .numbers import parse_number
from .parse import parse_unit
from .product import UnitAtom, UnitProduct
from .prose import Quantity, find_quantities
from .spec import KINDS, UnitProblem, UnitSpec
from .symbols import SymbolError, symbol_names

__all__ = [
    "ADD_TERM",
    "AFFINE",
    "ARGUMENT",
    "DIMENSIONLESS",
    "DROP_DIVISOR",
    "EXPONENT",
    "KINDS",
    "RELATION",
    "SCALE",
    "SQUARE_FACTOR",
    "TERMS",
    "UNCERTAIN",
    "UNCOMPARED",
    "UNKNOWN",
    "Dimension",
    "Finding",
    "GlossaryProblem",
    "GlossaryUnits",
    "Mutant",
    "Quantity",
    "SymbolError",
    "UnitAtom",
    "UnitError",
    "UnitProblem",
    "UnitProduct",
    "UnitSpec",
    "check",
    "counted_from_zero",
    "convert",
    "dimension_of",
    "errors",
    "exact",
    "find_quantities",
    "mutants",
    "outside",
    "parse_number",
    "parse_unit",
    "power_of",
    "resolve",
    "rooted",
    "convertible",
    "same_dimension",
    "side_ratio",
    "symbol_names",
    "to_base",
    "unit_of",
    "unit_parts",
    "units_from_glossary",
    "units_of",
    "uncertain",
    "unknowns",
    "zero_mismatch",
]
