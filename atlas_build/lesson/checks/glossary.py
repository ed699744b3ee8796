"""The glossaries and the rest of the lesson must agree.

Every glossary symbol should be used somewhere: in a display equation, an inline
formula or the text (A320); every one-letter symbol of a display equation should be
defined in a glossary (A321); and a glossary block should be read to its end (A322).
Names are compared under the naming convention the LaTeX parser follows (`names.py`):
`N₀` is `N_0`, `τ` is `tau`, `x̂_i` is `\\hat{x}_i`, and a flattened `VDD` is the `V_DD`
the equations write (`spellings.py`); an entry like `a_j` or `Cᵢ₊₁` stands for the family
`a_1, a_2...`. An operator entry (`⊙`) is used where the lesson writes it or its command.
Equations the parser cannot read still count as uses through a conservative scan of
their names, but never produce A321.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from atlas_build.diagnostics import Diagnostic, Severity, at, define
from atlas_build.lesson import symbols
from atlas_build.lesson.context import RULES, LessonSubject
from atlas_build.lesson.model import GlossaryEntry
from atlas_build.lesson.names import ACCENTS, is_index, is_letter, key, split
from atlas_build.lesson.usage import LessonUse, lesson_use
from atlas_build.notation import SCRIPT_MARKS

STAGE = "lesson"
UNUSED = define(
    "A320",
    "glossary-symbol-unused",
    Severity.WARNING,
    "A symbol (or an operator) defined under `Symbols and units` is used nowhere else in "
    "the lesson: in no display equation, inline formula or text.",
    example="a glossary entry `d_v` when no equation, formula or sentence mentions d_v",
    fix="Use the symbol where the lesson needs it, or remove the entry.",
    stage=STAGE,
)
UNDEFINED = define(
    "A321",
    "equation-symbol-undefined",
    Severity.WARNING,
    "A single-letter symbol of a display equation has no `Symbols and units` entry.",
    example="`y=a x` with a glossary that defines y and a but not x",
    fix="Add the symbol, its meaning and unit to the glossary.",
    stage=STAGE,
)
UNREAD = define(
    "A322",
    "glossary-entry-unread",
    Severity.WARNING,
    "Reading a `Symbols and units` block stopped before the block ended: a symbol without "
    "its meaning or unit, or a paragraph that cannot be a symbol where the next entry should "
    "start. What follows is read as prose, so its symbols count as undefined.",
    example="`Symbols and units`, `x`, `Input`, then a heading: `x` has no unit paragraph",
    fix="Give every entry three paragraphs (symbol, meaning, unit; write `dimensionless` when "
    "there is no unit), and end the block with a heading or a paragraph of prose.",
    stage=STAGE,
)


def family_base(name: str) -> str | None:
    """`a_j` -> `a`, `x_hat_i` -> `x_hat`, `delta_ij` -> `delta`, `C_i+1` -> `C`: a name
    whose last subscript is an index (`names.is_index`) stands for a family; None for
    other names. A mark after the index stays with the base: `θ′_i` (`theta_i_prime`) is
    the family `theta_prime` that `\\theta'_0` is a member of."""
    base, pieces = split(name)
    marks: tuple[str, ...] = ()
    while pieces and pieces[-1] in _MARK_SUFFIXES:
        pieces, marks = pieces[:-1], (pieces[-1], *marks)
    if not pieces or not is_index(pieces[-1]):
        return None
    return "_".join((base, *pieces[:-1], *marks))


_STYLE = re.compile(r"_(?:cal|scr|bb|frak)(?=_|$)")
_ACCENT_SUFFIXES = frozenset(ACCENTS.values())
_MARK_SUFFIXES = _ACCENT_SUFFIXES | frozenset(SCRIPT_MARKS.values())


def _unaccented(name: str) -> str:
    base, pieces = split(name)
    return "_".join((base, *(piece for piece in pieces if piece not in _ACCENT_SUFFIXES)))


class _Uses:
    """The lesson's uses, keyed for comparison with glossary names."""

    def __init__(self, use: LessonUse) -> None:
        mathematical: list[str] = []
        for equation in use.equations:
            mathematical += equation.mentioned()
        for found in use.inline:
            mathematical += [*found.names, *found.bases, *found.functions, *found.operators]
        self.keys = {key(name) for name in [*mathematical, *use.prose]}
        self.indexed = {key(base) for name in mathematical if (base := family_base(name))}
        self.families = {key(name) for name in mathematical} | self.indexed
        self.names = sorted(set(mathematical))
        # `dl` of `\oint H\cdot\mathrm{d}l`: the element a glossary names with its variable
        self.elements = {
            key("d" + name) for eq in use.equations if eq.tree is not None for name in eq.tree.bound
        }
        # `\mathcal T_j` for a glossary's T_j: plain text has no script letters
        self.unstyled = {key(_STYLE.sub("", name)) for name in mathematical}
        # `\overline{\mathrm{Nu}}_L` for a glossary's Nu_L: the mean's bar left off the entry
        self.unaccented = {key(_unaccented(name)) for name in mathematical}
        # `\mathrm{j}` in `…+\mathrm{j}\,kQ…`: the imaginary unit the glossary explains
        self.imaginary = {
            name
            for name in use.imaginary
            if any(
                re.search(rf"\\math(?:rm|up|it)\{{{name}\}}", eq.math.latex) for eq in use.equations
            )
        }
        # `p_θ(x)`: θ, the model's parameters, is used as the subscript that names them;
        # `π_{θ_old}`: so is θ_old, a run of subscripts
        self.subscripts = {
            key("_".join(parts[start:end]))
            for name in mathematical
            for parts in [name.split("_")]
            for start in range(1, len(parts))
            for end in range(start + 1, len(parts) + 1)
        }

    def uses(self, name: str, qualified: bool) -> bool:
        if name in self.imaginary:
            return True
        if key(name) in self.keys or key(name) in self.unstyled or key(name) in self.unaccented:
            return True
        if key(name) in self.elements:
            return True
        base = family_base(name)
        if base is not None and key(base) in self.families:
            return True
        stem, pieces = split(name)
        if pieces and pieces[-1].isdigit() and key("_".join((stem, *pieces[:-1]))) in self.indexed:
            return True  # `L_1, L_2`: members of the family `L_i` that an equation writes
        reading = symbols.latex_reading(name)  # `CD_{\\text{after}}` is C times D_after
        within = self.keys if "_" in name else self.families  # `NG` as N·G: in an equation
        if reading and all(key(part) in within for part in reading):
            return True
        if is_letter(split(name)[0]) and key(name) in self.subscripts:
            return True
        if name.startswith("delta") and {key("delta"), key(name[5:])} <= self.keys:
            return True  # `\\delta q`, which a formula read without the glossary splits
        if not qualified and is_letter(name):
            return False
        prefix = name + "_"  # `softmax` is used by `softmax_rows`, `B_Gen5` by `B_Gen5_one_way`
        at_prefix = bisect.bisect_left(self.names, prefix)
        return at_prefix < len(self.names) and self.names[at_prefix].startswith(prefix)


def _entries(subject: LessonSubject) -> list[tuple[GlossaryEntry, symbols.SymbolCell]]:
    return [
        (entry, symbols.read(entry.symbol))
        for glossary in subject.lesson.glossaries
        for entry in glossary.entries
    ]


_OPERATOR_LATEX = {
    "−": ("-",),
    "-": ("−",),
    "×": ("\\times",),
    "·": ("\\cdot", "\\cdotp", "⋅"),
    "⋅": ("\\cdot", "·"),
    "÷": ("\\div",),
    "∘": ("\\circ",),
    "⊙": ("\\odot",),
    "⊕": ("\\oplus",),
    "⊗": ("\\otimes",),
    "⊘": ("\\oslash",),
    "∧": ("\\wedge", "\\land"),
    "∨": ("\\vee", "\\lor"),
    "¬": ("\\neg", "\\lnot"),
    "∇": ("\\nabla",),
    "∂": ("\\partial",),
    "∑": ("\\sum",),
    "∏": ("\\prod",),
    "∫": ("\\int",),
    "√": ("\\sqrt",),
    "∗": ("\\ast", "*"),
    "*": ("\\ast", "∗"),
    "⋆": ("\\star",),
    "|": ("\\mid", "\\vert", "\\lvert"),
    "‖": ("\\|", "\\Vert", "\\lVert"),
    "≈": ("\\approx",),
    "∝": ("\\propto",),
    "≤": ("\\le", "\\leq"),
    "≥": ("\\ge", "\\geq"),
    "→": ("\\to", "\\rightarrow"),
    "⊤": ("\\top",),
    "⌈": ("\\lceil",),
    "⌊": ("\\lfloor",),
    "∈": ("\\in",),
    "∠": ("\\angle", "\\measuredangle"),
}
"""An operator as glossaries write it -> other ways a lesson writes the same operator."""


def _writes(operator: str, texts: list[str]) -> bool:
    """Whether any text writes the operator, as itself or as its LaTeX command; a norm
    written with a placeholder (`‖·‖₂`) is written where its bars are."""
    if len(operator) > 1 and ("·" in operator or " " in operator):
        operator = operator[0]
    for spelling in (operator, *_OPERATOR_LATEX.get(operator, ())):
        command = spelling.startswith("\\") and spelling[1:].isalpha()
        pattern = re.escape(spelling) + ("(?![A-Za-z])" if command else "")
        if any(re.search(pattern, text) for text in texts):
            return True
    return False


def _unused(
    subject: LessonSubject, entries: list[tuple[GlossaryEntry, symbols.SymbolCell]], uses: _Uses
) -> Iterator[Diagnostic]:
    texts: list[str] | None = None
    for entry, cell in entries:
        for name in entry.names:
            if uses.uses(name, bool(cell.qualifier)):
                continue
            spelled = f"{entry.symbol!r}" + (f" ({name})" if name != entry.symbol else "")
            message = f"glossary symbol {spelled} is used in no equation, formula or text"
            yield at(UNUSED, subject.at(entry.offset), message)
        if cell.operators and texts is None:
            texts = _lesson_texts(subject, entries)
        for operator in cell.operators:
            if not _writes(operator, texts or []):
                message = f"glossary operator {operator!r} is used in no equation, formula or text"
                yield at(UNUSED, subject.at(entry.offset), message)


def _lesson_texts(
    subject: LessonSubject, entries: list[tuple[GlossaryEntry, symbols.SymbolCell]]
) -> list[str]:
    """The lesson's formulas and text, less the glossaries' own symbol paragraphs."""
    own = {entry.offset for entry, _ in entries}
    texts: list[str] = []
    for block in subject.lesson.blocks:
        texts += [math.latex for math in block.math]
        if block.start not in own:
            texts.append(block.text)
    return texts


_RANGE = re.compile(r"(?<![A-Za-z\\])([ijkl])\s*=\s*\d+\s*,\s*(?:\\[lc]?dots|…|\.\.\.)")
"""An index's range written in an equation: `i=0,\\dots,N-1`."""

_LIMIT = re.compile(r"\\(?:sum|prod)_\{\s*\\?[A-Za-z]+\s*=\s*([^{}]*)\}")
"""A big operator's lower limit: `\\prod_{k=t+1}^{T}` runs from an index t."""

_LABEL = re.compile(
    r"(?:^|\\\\|&|\\q?quad|[,;{])\s*(?:\\(?:mathrm|text|textbf|mathbf)\{\s*)?"
    r"\\?([A-Za-z]+)\s*\}?\s*:(?!=)"
)
"""A row's label, a letter and a colon before its relations: `\\mathrm{Y}:\\ V_{LL}=…`."""

_BAR_SUBSCRIPT = re.compile(
    r"(?:\\[rl]?Vert|\\[rl]?vert|\\\||[|‖])\s*_\s*(\{(?:[^{}]|\{[^{}]*\})*\}|\\?[A-Za-z0-9]+)"
)
"""The subscript of a norm or an evaluation bar names the norm or the condition, not a
quantity: `\\rVert_F`, `\\right|_{\\mathrm{dB/K}}`."""


def _in_bar_subscript(spans: list[tuple[int, int]], position: int) -> bool:
    return any(start <= position < end for start, end in spans)


def _undefined(
    subject: LessonSubject,
    entries: list[tuple[GlossaryEntry, symbols.SymbolCell]],
    use: LessonUse,
) -> Iterator[Diagnostic]:
    defined: set[str] = set()
    for entry, cell in entries:
        for name in (*entry.names, *cell.mentions):
            defined.add(key(name))
            base = family_base(name)
            if base is not None:
                defined.add(key(base))
            if "_" not in name and len(reading := symbols.latex_reading(name)) > 1:
                defined.update(key(part) for part in reading)  # `τα` defines `\tau\alpha`
            if name.startswith("delta") and len(name) > 5:
                defined.add(key("delta"))  # δq defines the δ of `\\delta q` read as δ times q
                defined.add(key(name[5:]))  # and its q
    bound = {letter for eq in use.equations if eq.tree is not None for letter in eq.tree.bound}
    ranged = {m.group(1) for eq in use.equations for m in _RANGE.finditer(eq.math.latex)}
    ranged |= {  # `h_t` with `\\prod_{k=t+1}^{T}`: t is the step h is indexed by
        letter
        for eq in use.equations
        for m in _LIMIT.finditer(eq.math.latex)
        for letter in re.findall(r"(?<![A-Za-z\\])[a-z](?![A-Za-z])", m.group(1))
    }
    for entry, _ in entries:
        for name in entry.names:
            base, pieces = split(name)
            if pieces and pieces[-1] in bound:  # `M_r` summed over r in `\sum_r M_r`
                defined.add(key("_".join((base, *pieces[:-1]))))
            if pieces and pieces[-1] in ranged:
                defined.add(key(pieces[-1]))  # a_i defines the index of `i = 0, …, N − 1`
    for equation in use.equations:
        for name in equation.scan.names:
            base, pieces = split(name)
            if len(pieces) >= 2 and key(name) in defined:
                defined.add(key(base))  # `s_{c,B}`: the parser reads an index pair as indexing s
    reported: set[str] = set()
    for equation in use.equations:
        scanned = {key(name) for name in (*equation.scan.names, *equation.scan.bases)}
        labels = {found.group(1) for found in _LABEL.finditer(equation.math.latex)}
        bars = [found.span(1) for found in _BAR_SUBSCRIPT.finditer(equation.math.latex)]
        for name in sorted(set(equation.quantities())):
            if not is_letter(name) or name in reported or key(name) in defined:
                continue
            if name in labels:
                continue  # `Δ:` names the connection its row is about
            position = equation.scan.positions.get(name)
            if position is not None and _in_bar_subscript(bars, position):
                continue  # `‖·‖_F`: the Frobenius norm, no symbol F
            if key(name) not in scanned:
                continue  # the parser and the convention disagree on this name: no guess
            if name == "d" and equation.scan.differential:
                continue
            if name in use.imaginary:
                continue  # an operator (`E[X]`) is no name of the scan, in its own equation
            reported.add(name)
            offset = equation.math.offset + equation.scan.positions.get(name, 0)
            message = f"equation symbol {name!r} is not defined under `Symbols and units`"
            yield at(UNDEFINED, subject.at(offset), message)


@RULES.rule("glossary", order=40)
def check(subject: LessonSubject) -> Iterator[Diagnostic]:
    lesson = subject.lesson
    for glossary in lesson.glossaries:
        for note in glossary.notes:
            yield at(UNREAD, subject.at(note.offset), note.reason)
    entries = _entries(subject)
    if not entries:
        return
    use = lesson_use(lesson, frozenset(entry.offset for entry, _ in entries))
    yield from _unused(subject, entries, _Uses(use))
    yield from _undefined(subject, entries, use)
