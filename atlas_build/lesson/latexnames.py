"""The names a LaTeX formula mentions, found by a conservative scan instead of a parse.

The glossary check reads display equations with the LaTeX parser; one it cannot read
(notation the dialect does not know yet), an inline formula, or a glossary cell written
in LaTeX still names symbols, and this scan finds them under the same convention as the
parser (`names.py`): `\\hat{x}_i` -> `x_hat_i`, `\\Delta V_{bi}` -> `DeltaV_bi`,
`k_{\\mathrm{SiO_2}}` -> `k_SiO_2`, `f'` -> `f_prime`. It also notes what is not a symbol:
units after a number (`25.9\\,\\mathrm{mV}`), the differential `d`, `i`/`j` written as the
imaginary unit, `E[...]` and `\\mathbb{E}[...]` as an expectation, `P\\{N = k\\}` as a
probability, and `\\exp`, `\\tanh` as the functions they name. A unit is written after a
number (`25.9\\,\\mathrm{mV}`, `1.24\\ \\mu\\mathrm{m}`) or, spaced off, at the end of a side
(`\\frac{\\eta\\lambda}{1.24}\\ \\mathrm{A/W}`, when the group reads as a physical unit).
It only reads tokens, in linear time, and accepts any input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from atlas_build.lesson import latextokens
from atlas_build.lesson import names as naming
from atlas_build.lesson.latextokens import CHAR, CMD, LETTER, NUMBER, SPACE, pairs, tokens
from atlas_build.units import parse_unit
from atlas_build.units.spec import UNIT

__all__ = ["Scan", "scan"]

PLAIN_FONTS = frozenset({"mathbf", "bm", "boldsymbol", "mathit", "mathsf", "pmb", "mathnormal"})
STYLE_FONTS = {"mathcal": "cal", "mathscr": "scr", "mathbb": "bb", "mathfrak": "frak"}
UPRIGHT_FONTS = frozenset(
    {"mathrm", "text", "textrm", "textit", "textbf", "mathtt", "textsf", "texttt", "mbox"}
)
_SKIP_ARGUMENT = frozenset({"begin", "end", "label", "tag", "color", "hspace", "vspace"})
_SPACING = frozenset({",", ";", ":", "!", " ", "quad", "qquad", "thinspace", "enspace"})
_ANGULAR = frozenset({"omega", "theta", "phi", "varphi", "pi", "alpha", "beta", "kappa"})
_STAR = (["*"], ["\\ast"], ["\\star"])
_MARKS = {"\\dagger": "dagger", "+": "plus", "-": "minus", "\\circ": "circ"}
_TRANSPOSES = (["\\top"], ["\\intercal"], ["\\mathsf", "T"], ["\\mathrm", "T"], ["\\sf", "T"])
_INTEGRALS = frozenset({"int", "iint", "iiint", "oint"})
_FRACTIONS = frozenset({"frac", "dfrac", "tfrac"})
_WORD_COMMANDS = frozenset(
    "max min sup inf cos sin tan log ln exp lim det arg deg dim ker gcd Pr".split()
) | frozenset(naming.SUBSCRIPT_SIGNS.values())
"""Commands a subscript spells as words, as the parser names them: `\\eta_{\\max}` is
`eta_max`, `\\bar\\eta_{\\cos}` is `eta_bar_cos`, `R_{\\square}` is `R_square`."""
FUNCTION_COMMANDS = frozenset(
    "exp log ln lg sin cos tan sec csc cot sinh cosh tanh coth arcsin arccos arctan "
    "arg det max min sup inf lim liminf limsup gcd Pr deg dim ker".split()
)
"""Commands that write a named function (`\\exp`, `\\tanh`): a glossary entry `exp` is used
where a formula writes `\\exp`."""
_EXPECTATIONS = frozenset({"E", "E_bb"})
_PROBABILITIES = frozenset({"P", "P_bb"})
_CONDITIONS = frozenset(
    {"=", "<", ">", "|", "le", "leq", "ge", "geq", "ne", "neq", "mid", "in", "notin", "vert"}
)
"""What makes `P(...)` a probability: a relation or a condition between the brackets."""
_OPENERS = frozenset({(CHAR, "("), (CHAR, "["), (CMD, "{"), (CMD, "lbrace"), (CMD, "langle")})
_CLOSERS = frozenset({(CHAR, ")"), (CHAR, "]"), (CMD, "}"), (CMD, "rbrace"), (CMD, "rangle")})
_SIZES = frozenset({"left", "big", "Big", "bigl", "Bigl", "bigg", "Bigg", "biggl", "Biggl"})
_SIDE_ENDS = frozenset(
    [(CHAR, text) for text in "=<>,;&."]
    + [(CMD, text) for text in "approx le leq ge geq ne neq sim simeq propto equiv".split()]
    + [(CMD, text) for text in ("quad", "qquad", "text", "\\")]
)
"""What may follow a unit that ends a side: a relation, a separator, a row's end."""
_THIN_SPACES = frozenset((CMD, text) for text in (",", ";", ":", "!", " "))
_UNIT_SIGNS = {"\\cdot": "·", "\\mu": "µ", "\\Omega": "Ω", "\\circ": "°"}
MAX_WORD_TOKENS = 200
"""A name is short; reading one gives up after this many tokens, so nested groups cost
linear time however deep they go."""
MAX_COMMAND_CHAIN = 16


@dataclass
class Scan:
    """What a formula names; every collection in first-seen order."""

    names: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()  # names that carried a subscript, without it
    functions: tuple[str, ...] = ()
    units: tuple[str, ...] = ()  # upright names written right after a number
    imaginary: tuple[str, ...] = ()  # `i`/`j` written as the imaginary unit
    operators: tuple[str, ...] = ()  # `E[...]`: an operator, not a symbol
    differential: bool = False  # a `d` of a derivative or integral is written
    positions: dict[str, int] = field(default_factory=dict)  # first offset of each name


class _Scanner:
    def __init__(self, latex: str) -> None:
        self.tokens = tokens(latex)
        self.pairs = pairs(self.tokens)
        self.names: dict[str, int] = {}
        self.bases: dict[str, None] = {}
        self.functions: dict[str, None] = {}
        self.units: dict[str, None] = {}
        self.imaginary: dict[str, None] = {}
        self.operators: dict[str, None] = {}
        self.differential = False

    def is_char(self, index: int, text: str) -> bool:
        return (
            index < len(self.tokens)
            and self.tokens[index].kind == CHAR
            and (self.tokens[index].text == text)
        )

    def skip_spaces(self, index: int) -> int:
        while index < len(self.tokens) and self.tokens[index].kind == SPACE:
            index += 1
        return index

    def skip_back(self, index: int) -> int:
        while index >= 0 and self.tokens[index].kind == SPACE:
            index -= 1
        return index

    def argument(self, index: int) -> tuple[int, int, int]:
        """(first, end, next) token indices of the TeX argument at `index`: a braced group,
        or one token (with the argument of a font or accent command it starts)."""
        index = self.skip_spaces(index)
        if index >= len(self.tokens):
            return index, index, index
        if self.is_char(index, "{"):
            close = self.pairs.get(index, len(self.tokens))
            return index + 1, close, min(close + 1, len(self.tokens))
        first = index
        chain = 0
        while self.tokens[index].kind == CMD and self._takes_argument(self.tokens[index].text):
            chain += 1
            if chain > MAX_COMMAND_CHAIN:
                return first, first + 1, first + 1
            index = self.skip_spaces(index + 1)
            if index >= len(self.tokens):
                return first, index, index
            if self.is_char(index, "{"):
                close = self.pairs.get(index, len(self.tokens))
                return first, close + 1, min(close + 1, len(self.tokens))
        return first, index + 1, index + 1

    @staticmethod
    def _takes_argument(command: str) -> bool:
        return (
            command in naming.ACCENTS
            or command in PLAIN_FONTS
            or (command in STYLE_FONTS or command in UPRIGHT_FONTS)
        )

    def word(self, first: int, end: int, text_mode: bool = False) -> str | None:
        """The tokens as one name (`kv`, `SiO_2`, `Gen5_one_way`), or None if they are not one."""
        pieces: list[str] = []
        if end - first > MAX_WORD_TOKENS:
            return None
        skipped = latextokens.degree_signs(self.tokens, first, end)
        for at, token in enumerate(self.tokens[first:end], first):
            if token.kind in (LETTER, NUMBER):
                spelled = naming.letter(token.text) if token.kind == LETTER else None
                pieces.append(spelled[0] if spelled else token.text)
            elif token.kind == CMD and (token.text in naming.GREEK or token.text in _WORD_COMMANDS):
                pieces.append(token.text)
            elif token.kind == CMD and self._takes_argument(token.text):
                text_mode = text_mode or token.text.startswith(("text", "mbox"))
            elif token.kind == CMD and token.text in _SPACING or token.kind == SPACE:
                pieces.append("_" if text_mode or token.kind == CMD else "")
            elif at in skipped or token.kind == CHAR and token.text in "{}":
                continue
            elif token.kind == CHAR and token.text in ",_@":
                pieces.append(token.text if token.text == "@" else "_")
            else:
                return None
        text = re.sub("_+", "_", "".join(pieces)).strip("_")
        return text or None

    def after_number(self, index: int) -> bool:
        """Whether the token at `index` follows a number (`25.9\\,` or `10^{9}\\,`)."""
        index -= 1
        while index >= 0:
            token = self.tokens[index]
            if token.kind == SPACE or (token.kind == CMD and token.text in _SPACING):
                index -= 1
            elif token.kind == CHAR and token.text == "~":
                index -= 1
            elif token.kind == CHAR and token.text == "}" and index in self.pairs:
                opening = self.pairs[index]
                return self.is_char(opening - 1, "^") and self._number_at(opening - 2)
            else:
                return token.kind == NUMBER or (token.kind == CHAR and token.text == "%")
        return False

    def _number_at(self, index: int) -> bool:
        return index >= 0 and self.tokens[index].kind == NUMBER

    def texts(self, first: int, end: int) -> list[str]:
        return [
            ("\\" + t.text if t.kind == CMD else t.text)
            for t in self.tokens[first:end]
            if t.kind != SPACE and not (t.kind == CHAR and t.text in "{}")
        ]

    def run(self) -> Scan:
        index = 0
        while index < len(self.tokens):
            index = self.step(index)
        return Scan(
            names=tuple(self.names),
            bases=tuple(self.bases),
            functions=tuple(self.functions),
            units=tuple(self.units),
            imaginary=tuple(self.imaginary),
            operators=tuple(self.operators),
            differential=self.differential,
            positions=dict(self.names),
        )

    def step(self, index: int) -> int:
        token = self.tokens[index]
        if token.kind == LETTER:
            return self.name(index)
        if token.kind != CMD:
            return index + 1
        command = token.text
        if command in _SKIP_ARGUMENT:
            return self.argument(index + 1)[2]
        if command in ("imath", "jmath"):
            self.imaginary[command[0]] = None
            return index + 1
        if command == "operatorname":
            return self.operator_name(index)
        if command in FUNCTION_COMMANDS:
            self.functions[command] = None
            return index + 1
        if command in naming.GREEK or command in ("ell", "hbar") or self._takes_argument(command):
            return self.name(index)
        return index + 1

    def operator_name(self, index: int) -> int:
        first, end, after = self.argument(index + 1)
        name = self.word(first, end)
        if name is None:
            return index + 1
        self.functions[name] = None
        here = self.skip_spaces(after)
        if self.is_char(here, "_"):
            sub_first, sub_end, sub_after = self.argument(here + 1)
            sub = self.word(sub_first, sub_end)
            if sub is not None:
                self.functions[f"{name}_{sub}"] = None
                return sub_after
        return after

    def head(self, index: int) -> tuple[str | None, int]:
        """The name a letter or command at `index` starts, before its scripts."""
        token = self.tokens[index]
        after = index + 1
        if token.kind == LETTER:
            spelled = naming.letter(token.text)
            return (spelled[0] + (f"_{spelled[1]}" if spelled[1] else "") if spelled else None), (
                after
            )
        command = token.text
        if command == "Delta":
            following = self.skip_spaces(after)
            if following < len(self.tokens):
                nxt = self.tokens[following]
                if nxt.kind == LETTER:
                    return "Delta" + nxt.text, following + 1
                if nxt.kind == CMD and nxt.text in naming.GREEK:
                    return "Delta" + nxt.text, following + 1
            return "Delta", after
        if command in naming.GREEK or command in ("ell", "hbar"):
            return command, after
        first, end, after = self.argument(after)
        if command in UPRIGHT_FONTS:
            word = self.word(first, end, text_mode=command.startswith("text"))
            return latextokens.cut_off(self.tokens, word, after)
        inner = self.word(first, end)
        if inner is None:
            return None, index + 1
        if command in naming.ACCENTS:
            return f"{inner}_{naming.ACCENTS[command]}", after
        if command in STYLE_FONTS:
            return f"{inner}_{STYLE_FONTS[command]}", after
        return inner, after

    def name(self, index: int) -> int:
        token = self.tokens[index]
        upright = token.kind == CMD and token.text in UPRIGHT_FONTS
        if upright and (self.after_number(index) or self.ends_side_as_unit(index)):
            first, end, after = self.argument(index + 1)
            self.unit(first, end)
            return after
        if token.kind == CMD and token.text == "mu" and self.after_number(index):
            following = self.skip_spaces(index + 1)  # `1.24\ \mu\mathrm{m}`: a prefixed unit
            if following < len(self.tokens) and self.tokens[following].text in UPRIGHT_FONTS:
                first, end, after = self.argument(following + 1)
                self.unit(first, end, prefix="µ")
                return after
        base, after = self.head(index)
        if base is None:
            return index + 1
        if upright:
            if base in ("d", "e"):
                self.differential = self.differential or base == "d"
                return after
            if base in ("i", "j"):
                self.imaginary[base] = None
                return after
        operator = self.operator(base, after, styled=upright or token.kind == CMD)
        if operator is not None:
            self.operators[operator] = None
            self.operators[base] = None  # `𝔼` in a glossary is the `\\mathbb{E}` written
            return after
        subs: list[str] = []
        marks: list[str] = []
        primes = 0
        here = self.skip_spaces(after)
        while here < len(self.tokens):
            if self.is_char(here, "'"):
                primes += 1
                here = self.skip_spaces(here + 1)
                continue
            if self.is_char(here, "_") and not subs:
                first, end, sub_after = self.argument(here + 1)
                sub = self.word(first, end)
                if sub is None:
                    self.bases[base] = None
                    after = here + 1
                    break
                subs.append(sub)
                after = here = sub_after
                here = self.skip_spaces(here)
                continue
            if self.is_char(here, "^"):
                first, end, sup_after = self.argument(here + 1)
                texts = self.texts(first, end)
                if texts in _STAR:
                    marks.append("star")
                elif len(texts) == 1 and texts[0] in _MARKS:
                    marks.append(_MARKS[texts[0]])
                elif texts and all(text == "\\prime" for text in texts):
                    primes += len(texts)
                elif texts in _TRANSPOSES:
                    pass
                else:
                    if base == "e" and not subs and any(t in ("i", "j") for t in texts):
                        self.imaginary.update(dict.fromkeys(t for t in texts if t in "ij"))
                    after = here + 1
                    break
                after = here = sup_after
                here = self.skip_spaces(here)
                continue
            break
        if token.kind == LETTER and not subs and not marks and not primes:
            following = self.skip_spaces(after)
            nxt = self.tokens[following] if following < len(self.tokens) else None
            if base == "e":
                return after
            if (
                base in ("i", "j")
                and nxt is not None
                and nxt.kind == CMD
                and (nxt.text in _ANGULAR)
            ):
                self.imaginary[base] = None
                return after
        name = base + "".join(f"_{sub}" for sub in subs)
        name += "" if not primes else "_prime" if primes == 1 else f"_prime{primes}"
        name += "".join(f"_{mark}" for mark in marks)
        self.names.setdefault(name, token.start)
        if subs:
            self.bases[base] = None
        return after

    def unit_text(self, first: int, end: int) -> str:
        """A unit group as a unit column writes it: `kg\\,m^2` is `kg m^2`."""
        spaced = [" " if t[:1] == "\\" and t[1:] in _SPACING else t for t in self.texts(first, end)]
        return "".join(_UNIT_SIGNS.get(text, text) for text in spaced)

    def unit(self, first: int, end: int, prefix: str = "") -> None:
        """The group's text is a unit (`mV`, `A/W`), and so is each word of it (`A`, `W`)."""
        text = prefix + self.unit_text(first, end)
        self.units[text] = None
        self.units.update(dict.fromkeys(re.findall(r"[^\W\d_]+", text)))

    def ends_side_as_unit(self, index: int) -> bool:
        """Whether the upright group at `index` is the unit of the side it ends: spaced off
        from what it follows (`\\frac{\\eta\\lambda}{1.24}\\ \\mathrm{A/W}`), followed by a
        relation, a separator or the end, and read as a physical unit."""
        space = self.skip_back(index - 1)
        if space < 1 or not (
            (self.tokens[space].kind == CMD and self.tokens[space].text in _SPACING)
            or self.is_char(space, "~")
        ):
            return False
        before = self.skip_back(space - 1)
        if before < 0 or self._shape(before) in _SIDE_ENDS or self.is_char(before, "{"):
            return False
        first, end, after = self.argument(index + 1)
        following = self.skip_spaces(after)
        while following < len(self.tokens) and self._shape(following) in _THIN_SPACES:
            following = self.skip_spaces(following + 1)
        return (following >= len(self.tokens) or self._shape(following) in _SIDE_ENDS) and (
            _physical_unit(self.unit_text(first, end))
        )

    def _shape(self, index: int) -> tuple[str, str]:
        return self.tokens[index].kind, self.tokens[index].text

    def operator(self, base: str, after: int, styled: bool) -> str | None:
        """`E` for an expectation (`E[X]`, `\\mathbb{E}_{x}(f)`), `P` for a probability
        (`P\\{N = k\\}`, `P(X > x)`, `\\mathbb{P}(A \\mid B)`): notation, not a symbol.
        A plain `E` takes a square bracket; a `P` needs a condition between its brackets."""
        if base not in _EXPECTATIONS and base not in _PROBABILITIES:
            return None
        here = self.skip_spaces(after)
        if base.endswith("_bb") and self.is_char(here, "_"):
            here = self.skip_spaces(self.argument(here + 1)[2])
        opening = self._opening(here)
        if opening is None:
            return None
        if base in _EXPECTATIONS:
            return "E" if base == "E_bb" or styled or self.is_char(opening, "[") else None
        return "P" if self._condition_inside(opening) else None

    def _opening(self, index: int) -> int | None:
        """The bracket `(`, `[` or `\\{` at `index` (after a sizing command), if any."""
        if index < len(self.tokens) and self.tokens[index].kind == CMD:
            if self.tokens[index].text in _SIZES:
                index = self.skip_spaces(index + 1)
        if index >= len(self.tokens):
            return None
        token = self.tokens[index]
        return index if (token.kind, token.text) in _OPENERS else None

    def _condition_inside(self, opening: int) -> bool:
        """Whether the bracketed group opening at `opening` holds a relation or a `|`
        before it closes (looking at most `MAX_WORD_TOKENS` ahead)."""
        depth = 0
        for token in self.tokens[opening : opening + MAX_WORD_TOKENS]:
            if token.kind == SPACE or token.kind == LETTER or token.kind == NUMBER:
                continue
            shape = (token.kind, token.text)
            if shape in _OPENERS:
                depth += 1
            elif shape in _CLOSERS:
                depth -= 1
                if depth <= 0:
                    return False
            elif token.text in _CONDITIONS and shape != (CMD, "|"):  # `\\|x\\|` is a norm
                return True
        return False


@lru_cache(maxsize=1024)
def _physical_unit(text: str) -> bool:
    """Whether `text` reads as a unit of a physical dimension (`A/W`, `m`), not a word."""
    read = parse_unit(text)
    return getattr(read, "kind", None) == UNIT


def _differential(scanner: _Scanner) -> bool:
    """Whether a `d` is written as a differential: `\\frac{dy}{dx}`, `\\int f\\,dt`."""
    tokens = scanner.tokens
    integral = any(t.kind == CMD and t.text in _INTEGRALS for t in tokens)
    for index, token in enumerate(tokens):
        if token.kind != LETTER or token.text != "d":
            continue
        following = scanner.skip_spaces(index + 1)
        if following >= len(tokens):
            continue
        nxt = tokens[following]
        named = nxt.kind == LETTER or (nxt.kind == CMD and nxt.text in naming.GREEK)
        if not (named or scanner.is_char(following, "^")):
            continue
        if integral:
            return True
        before = scanner.skip_back(index - 1)
        if before >= 0 and scanner.is_char(before, "{"):
            previous = scanner.skip_back(before - 1)
            if previous >= 0 and (
                (tokens[previous].kind == CMD and tokens[previous].text in _FRACTIONS)
                or scanner.is_char(previous, "}")
            ):
                return True
    return False


def scan(latex: str) -> Scan:
    """The names `latex` mentions, and what it writes that is not a symbol (see `Scan`)."""
    scanner = _Scanner(latex)
    found = scanner.run()
    found.differential = found.differential or _differential(scanner)
    return found
