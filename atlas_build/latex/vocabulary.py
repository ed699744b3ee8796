"""The whitelist as data: every accepted control sequence, its role and its meaning.

``docs/latex-dialect.md`` lists the same commands (a test keeps the two in step).
Names are written without the backslash; control symbols (``\\{``, ``\\|``, ``\\%``)
are the character itself.
"""

from __future__ import annotations

from .roles import (
    ACCENT,
    ANNOTATION,
    ARG,
    BIG_OPERATOR,
    BINARY,
    BINOMIAL,
    CONNECTIVE,
    CONSTANT,
    DELIMITER,
    DOTS,
    DROPPED,
    ELEMENTARY,
    ENVIRONMENT,
    EXTREMUM,
    FONT,
    FRACTION,
    GREEK,
    INFIX,
    INTEGRAL,
    LIMIT,
    MARK,
    MODULO,
    NABLA,
    NAMED_FUNCTION,
    NOT,
    OPERATOR,
    OPERATOR_NAME,
    PARTIAL,
    PLUS_MINUS,
    QUANTIFIER,
    RELATION,
    ROOT,
    ROW,
    SEPARATOR,
    SIZING,
    SPACING,
    SUBSTACK,
    SYMBOL,
    TEXT,
    TRANSPOSE,
    UNIT,
    Command,
)

GREEK_NAMES = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "varkappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "varpi",
    "rho",
    "varrho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "digamma",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
    "varGamma",
    "varDelta",
    "varTheta",
    "varLambda",
    "varXi",
    "varPi",
    "varSigma",
    "varUpsilon",
    "varPhi",
    "varPsi",
    "varOmega",
]

RELATIONS: dict[str, tuple[str, str]] = {
    "approx": ("approx", "approximately equal"),
    "approxeq": ("approx", "approximately equal"),
    "propto": ("propto", "proportional to"),
    "le": ("<=", "less or equal"),
    "leq": ("<=", "less or equal"),
    "leqq": ("<=", "less or equal"),
    "leqslant": ("<=", "less or equal"),
    "lt": ("<", "less than"),
    "ge": (">=", "greater or equal"),
    "geq": (">=", "greater or equal"),
    "geqq": (">=", "greater or equal"),
    "geqslant": (">=", "greater or equal"),
    "gt": (">", "greater than"),
    "ne": ("!=", "not equal"),
    "neq": ("!=", "not equal"),
    "in": ("in", "element of"),
    "notin": ("notin", "not an element of"),
    "ni": ("ni", "contains as element"),
    "subset": ("subset", "subset"),
    "subseteq": ("subseteq", "subset or equal"),
    "subsetneq": ("subsetneq", "proper subset"),
    "supset": ("supset", "superset"),
    "supseteq": ("supseteq", "superset or equal"),
    "supsetneq": ("supsetneq", "proper superset"),
    "equiv": ("equiv", "identical / congruent"),
    "sim": ("sim", "distributed as / of the order of"),
    "nsim": ("nsim", "not similar"),
    "simeq": ("simeq", "asymptotically equal"),
    "cong": ("cong", "congruent / isomorphic"),
    "asymp": ("asymp", "of the same order"),
    "ll": ("ll", "much less than"),
    "gg": ("gg", "much greater than"),
    "lesssim": ("lesssim", "less than or of the order of"),
    "gtrsim": ("gtrsim", "greater than or of the order of"),
    "prec": ("prec", "precedes"),
    "succ": ("succ", "succeeds"),
    "preceq": ("preceq", "precedes or equals"),
    "succeq": ("succeq", "succeeds or equals"),
    "perp": ("perp", "perpendicular / independent"),
    "to": ("->", "tends to / maps to (the arrow of a `\\lim` subscript)"),
    "rightarrow": ("->", "tends to / maps to"),
    "longrightarrow": ("->", "tends to / maps to"),
    "xrightarrow": ("->", "arrow with a label (the label is dropped)"),
    "mapsto": ("mapsto", "maps to"),
    "longmapsto": ("mapsto", "maps to"),
    "leftarrow": ("<-", "assignment / update rule"),
    "gets": ("<-", "assignment / update rule"),
    "longleftarrow": ("<-", "assignment / update rule"),
    "xleftarrow": ("<-", "assignment with a label (the label is dropped)"),
    "leftrightarrow": ("<->", "corresponds to (transform pair)"),
    "longleftrightarrow": ("<->", "corresponds to (transform pair)"),
    "xleftrightarrow": ("<->", "transform pair with a label (the label is dropped)"),
    "xLeftrightarrow": ("<->", "transform pair with a label (the label is dropped)"),
    "coloneqq": (":=", "defined as"),
    "Coloneqq": (":=", "defined as"),
    "Coloneq": (":=", "defined as"),
    "triangleq": (":=", "defined as"),
    "doteq": (":=", "defined as / approaches"),
    "eqqcolon": ("=:", "defines (right to left)"),
    "colon": (":", "colon (`f\\colon X \\to Y`)"),
    "models": ("models", "models / satisfies"),
    "vdash": ("vdash", "proves"),
}

CONNECTIVES: dict[str, tuple[str | None, str]] = {
    "Rightarrow": ("implies", "implies: separates two statements"),
    "implies": ("implies", "implies: separates two statements"),
    "Longrightarrow": ("implies", "implies: separates two statements"),
    "Leftarrow": ("implied-by", "is implied by: separates two statements"),
    "impliedby": ("implied-by", "is implied by: separates two statements"),
    "Longleftarrow": ("implied-by", "is implied by: separates two statements"),
    "Leftrightarrow": ("iff", "if and only if: separates two statements"),
    "iff": ("iff", "if and only if: separates two statements"),
    "Longleftrightarrow": ("iff", "if and only if: separates two statements"),
    "land": ("and", "and: separates two statements; between values, logical/bitwise and"),
    "wedge": ("and", "and: separates two statements; between values, logical/bitwise and"),
    "lor": ("or", "or: separates two statements; between values, logical/bitwise or"),
    "vee": ("or", "or: separates two statements; between values, logical/bitwise or"),
    "therefore": (None, "therefore: separates two statements"),
    "because": (None, "because: separates two statements"),
}

BINARIES: dict[str, str] = {
    "odot": "Hadamard (elementwise) product",
    "otimes": "Kronecker product",
    "oplus": "direct sum; exclusive or on whole numbers",
    "ominus": "direct difference",
    "circ": "composition; `^\\circ` after a number is degrees",
    "ast": "convolution; `x^\\ast` is the name `x_star`",
    "star": "cross-correlation; `x^\\star` is the name `x_star`",
    "cap": "set intersection",
    "cup": "set union",
    "sqcup": "disjoint union",
    "uplus": "disjoint union",
    "setminus": "set difference",
    "smallsetminus": "set difference",
    "backslash": "set difference",
    "parallel": "parallel combination (`R_1 \\parallel R_2`)",
}

ELEMENTARIES = [
    "exp",
    "ln",
    "log",
    "lg",
    "sin",
    "cos",
    "tan",
    "cot",
    "sec",
    "csc",
    "sinh",
    "cosh",
    "tanh",
    "coth",
    "arcsin",
    "arccos",
    "arctan",
    "arctg",
    "arcctg",
    "Re",
    "Im",
]

_TABLE: dict[str, Command] = {}


def _add(kind: str, meaning: str, *names: str) -> None:
    for name in names:
        _TABLE[name] = Command(kind, meaning)


_add(GREEK, "Greek letter: the symbol named after the command (`alpha`)", *GREEK_NAMES)
_add(GREEK, "the constant pi, or symbol `pi` when declared in `symbols`", "pi")
_add(SYMBOL, "a symbol named after the command (`\\imath` is `i`)", "ell", "hbar", "hslash")
_add(SYMBOL, "a symbol named after the command (`\\imath` is `i`)", "imath", "jmath", "aleph")
_add(SYMBOL, "a symbol named after the command", "wp", "square", "Box", "bot", "checkmark")
_add(SYMBOL, "`\\#` is the name `num` (a count)", "#")
_add(SYMBOL, "an underscore inside a name", "_")
_add(CONSTANT, "infinity (`sympy.oo`)", "infty")
_add(CONSTANT, "the empty set", "emptyset", "varnothing")
_add(SPACING, "spacing: dropped", ",", "!", ";", ":", " ", ">", "enspace", "thinspace")
_add(SPACING, "spacing: dropped", "medspace", "thickspace", "negthinspace", "negmedspace")
_add(SPACING, "spacing: dropped", "negthickspace", "space", "nobreakspace", "allowbreak")
_add(SPACING, "presentation: dropped", "displaystyle", "textstyle", "scriptstyle", "nobreak")
_add(SPACING, "presentation: dropped", "scriptscriptstyle", "limits", "nolimits", "relax")
_add(SPACING, "presentation: dropped", "nonumber", "notag", "mathstrut")
_add(DROPPED, "dropped with its argument", "label", "tag", "hspace", "vspace", "color")
_add(DROPPED, "dropped with its argument", "phantom", "hphantom", "vphantom")
_add(DROPPED, "dropped with its length", "kern", "mkern", "hskip", "mskip")
_add(SEPARATOR, "separates relations at top level; a space elsewhere", "quad", "qquad")
_add(ROW, "row break: separates relations (`\\\\[4pt]` too)", "\\")
for _name, (_op, _meaning) in RELATIONS.items():
    _add(RELATION, f"relation `{_op}`: {_meaning}", _name)
for _name, (_link, _meaning) in CONNECTIVES.items():
    _add(CONNECTIVE, _meaning, _name)
_add(QUANTIFIER, "quantifier: starts a statement; a bound-variable list alone is dropped", "forall")
_add(QUANTIFIER, "quantifier: starts a statement", "exists", "nexists")
_add(OPERATOR, "multiplication (order kept for matrices)", "cdot", "times", "bullet", "cdotp")
_add(OPERATOR, "division", "div")
for _name, _meaning in BINARIES.items():
    _add(BINARY, _meaning, _name)
_add(PLUS_MINUS, "`a \\pm b` is `PlusMinus(a, b)`; `\\mp` is `MinusPlus`", "pm", "mp")
_add(NOT, "logical not", "lnot", "neg")
_add(NOT, "negates the relation after it (`\\not=`, `\\not\\in`)", "not")
_add(FRACTION, "`\\frac{a}{b}` is a/b, or a derivative (`\\frac{dy}{dx}`)", "frac")
_add(FRACTION, "as `\\frac`", "tfrac", "dfrac", "cfrac")
_add(BINOMIAL, "binomial coefficient", "binom", "tbinom", "dbinom")
_add(INFIX, "`{a \\over b}` is a/b; `{n \\choose k}` a binomial", "over", "choose")
_add(ROOT, "`\\sqrt{x}` square root, `\\sqrt[n]{x}` n-th root", "sqrt")
_add(ELEMENTARY, "elementary function (`\\log` is natural, `\\lg` base 10)", *ELEMENTARIES)
_add(NAMED_FUNCTION, "`\\det` determinant; others applied named functions", "det", "Pr")
_add(NAMED_FUNCTION, "applied named function", "dim", "ker", "hom", "deg", "gcd")
_add(NAMED_FUNCTION, "`\\angle z` is the complex argument", "angle", "measuredangle")
_add(ARG, "`\\arg\\max_x`/`\\arg\\min_x`; `\\arg z` the complex argument", "arg")
_add(OPERATOR_NAME, "named function or quantity; `*` (limits) allowed", "operatorname")
_add(OPERATOR_NAME, "as `\\operatorname*`", "operatornamewithlimits", "mathop")
_add(FONT, "upright name: `\\mathrm{rows}` is the name `rows`", "mathrm")
_add(FONT, "font: the same name as the plain letters", "mathit", "mathbf", "mathsf", "mathtt")
_add(FONT, "font: the same name as the plain letters", "mathnormal", "boldsymbol", "bm", "pmb")
_add(FONT, "calligraphic: `\\mathcal{P}` is `P_cal`", "mathcal")
_add(FONT, "script: `\\mathscr{L}` is `L_scr`", "mathscr")
_add(FONT, "double-struck: `\\mathbb{R}` is `R_bb`", "mathbb", "Bbb")
_add(FONT, "fraktur: `\\mathfrak{g}` is `g_frak`", "mathfrak", "frak")
_add(TEXT, "text: a name (`\\text{bytes}`), a unit after a number, or a remark", "text")
_add(TEXT, "as `\\text`", "textrm", "textit", "textbf", "textsf", "texttt", "textnormal")
_add(TEXT, "as `\\text`", "textup", "textmd", "emph", "hbox")
_add(ACCENT, "accented name: `\\hat{y}` is `y_hat`", "hat", "widehat")
_add(ACCENT, "accented name: `\\tilde{A}` is `A_tilde`", "tilde", "widetilde")
_add(ACCENT, "accented name: `\\bar{x}` is `x_bar`", "bar", "overline")
_add(ACCENT, "accented name: `x_dot`, `x_ddot`, `x_dddot`", "dot", "ddot", "dddot")
_add(ACCENT, "accented name: `\\vec{v}` is `v_vec`", "vec", "overrightarrow")
_add(ACCENT, "accented name: `x_check`, `x_breve`, ...", "check", "breve", "acute", "grave")
_add(ACCENT, "accented name: `x_ring`", "mathring")
_add(BIG_OPERATOR, "`sympy.Sum` over an index range, or a sum over a set", "sum")
_add(BIG_OPERATOR, "`sympy.Product` over an index range, or a product over a set", "prod")
_add(BIG_OPERATOR, "union / intersection over an index", "bigcup", "bigcap", "bigsqcup")
_add(BIG_OPERATOR, "big operator over an index", "coprod", "bigoplus", "bigotimes", "bigodot")
_add(BIG_OPERATOR, "big operator over an index", "bigvee", "bigwedge")
_add(EXTREMUM, "`\\max(a,b)` is `Max`; `\\max_j x_j` is `MaxOver`", "max")
_add(EXTREMUM, "`\\min(a,b)` is `Min`; `\\min_j x_j` is `MinOver`", "min")
_add(EXTREMUM, "supremum / infimum over an index", "sup", "inf")
_add(EXTREMUM, "arg max / arg min over an index", "argmax", "argmin")
_add(INTEGRAL, "`sympy.Integral`; the differential `dx` closes the integrand", "int", "iint")
_add(INTEGRAL, "as `\\int`", "iiint", "oint", "intop", "smallint")
_add(LIMIT, "`\\lim_{x\\to a}` is an unevaluated `sympy.Limit`", "lim")
_add(PARTIAL, "partial derivative: in `\\frac`, `\\partial_x f`", "partial")
_add(NABLA, "gradient `\\nabla_\\theta L`; `\\nabla\\cdot`, `\\nabla\\times`, `\\nabla^2`", "nabla")
_add(TRANSPOSE, "`^\\top` is transpose", "top", "intercal")
_add(MARK, "`f^\\prime` is `f_prime`; `x^\\dagger` is `x_dagger`", "prime", "dagger", "ddagger")
_add(MARK, "`x^\\dag` is `x_dagger`", "dag")
_add(DELIMITER, "sized delimiters: `(` `[` `\\{` `|` `\\|` `\\langle` `.` ...", "left", "right")
_add(DELIMITER, "`\\middle|` is a condition bar", "middle")
_add(DELIMITER, "absolute value / cardinality bars", "lvert", "rvert", "vert")
_add(DELIMITER, "norm bars", "lVert", "rVert", "Vert", "|")
_add(DELIMITER, "inner product / average", "langle", "rangle")
_add(
    DELIMITER, "floor, ceiling (`\\lfloor x \\rceil` rounds)", "lfloor", "rfloor", "lceil", "rceil"
)
_add(DELIMITER, "set braces", "lbrace", "rbrace", "{", "}")
_add(DELIMITER, "brackets", "lbrack", "rbrack", "lgroup", "rgroup")
_add(DELIMITER, "condition bar: `P(A \\mid B)`", "mid")
_add(SIZING, "delimiter size: dropped", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl")
_add(SIZING, "delimiter size: dropped", "Bigr", "biggl", "biggr", "Biggl", "Biggr")
_add(SIZING, "delimiter size: dropped", "bigm", "Bigm", "biggm", "Biggm")
_add(DOTS, "ellipsis: the `Dots` node (parses, cannot be evaluated)", "cdots", "ldots", "dots")
_add(DOTS, "ellipsis", "dotsb", "dotsc", "dotsm", "dotso", "dotsi", "vdots", "ddots")
_add(ANNOTATION, "keeps the inner expression", "boxed", "cancel", "bcancel", "xcancel")
_add(ANNOTATION, "keeps the inner expression", "underline", "smash", "mathclap", "mathllap")
_add(ANNOTATION, "keeps the inner expression", "mathrlap", "mathbin", "mathrel", "mathord")
_add(ANNOTATION, "keeps the inner expression", "mathopen", "mathclose", "mathpunct")
_add(ANNOTATION, "keeps the inner expression", "mathinner", "textcolor")
_add(ANNOTATION, "keeps the inner expression; the brace label is dropped", "underbrace")
_add(ANNOTATION, "keeps the inner expression; the brace label is dropped", "overbrace")
_add(ANNOTATION, "keeps the base; the label above is dropped", "overset", "stackrel")
_add(
    ANNOTATION,
    "`\\underset{x}{\\arg\\min}` is `\\arg\\min_x`; else the label is dropped",
    "underset",
)
_add(MODULO, "`a \\bmod m` and `a \\pmod{m}` are `Mod(a, m)`", "bmod", "pmod", "mod", "pod")
_add(UNIT, "`5\\%` is 5 with the unit `%`; `\\degree` is `°`", "%", "degree")
_add(ENVIRONMENT, "`\\begin{name}`: an environment (see Environments)", "begin", "end")
_add(SUBSTACK, "several lines under a big operator: index, then conditions", "substack")

TABLE = _TABLE
