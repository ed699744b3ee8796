"""Which names a lesson uses: in its display equations, inline formulas and prose.

The glossary check compares these with the glossary. Equations are read with the
LaTeX parser (the tree says which letters are bound indices, derivative variables or
functions); one the parser cannot read yet still counts, through the conservative scan
of `latexnames.py`. Everything here walks trees and lists in document order, so the
result never depends on set or hash order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import sympy
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.core.function import AppliedUndef

from atlas_build.latex.functions import Component
from atlas_build.lesson import symbols
from atlas_build.lesson.latexnames import Scan, scan
from atlas_build.lesson.model import Lesson, Math

MAIN, INDEX, LIMIT = "main", "index", "limit"
_CONSTANTS = {sympy.E: "e", sympy.pi: "pi", sympy.I: "i"}
_PROSE_KINDS = frozenset({"paragraph", "heading", "list", "table", "quote"})


@dataclass
class TreeNames:
    """Names in SymPy expressions, each dict in first-seen order."""

    names: dict[str, None] = field(default_factory=dict)  # quantities: want a definition
    bases: dict[str, None] = field(default_factory=dict)  # indexed families `a[j]`
    bound: dict[str, None] = field(default_factory=dict)  # indices, sum and limit variables
    functions: dict[str, None] = field(default_factory=dict)  # applied functions
    constants: dict[str, None] = field(default_factory=dict)  # e, pi, i as SymPy constants


def tree_names(expressions: list[sympy.Basic]) -> TreeNames:
    """Walk the trees (iteratively, in argument order). A symbol only ever seen as an index,
    a sum or limit variable, or in a bound needs no definition; it is `bound`."""
    found = TreeNames()
    stack: list[tuple[sympy.Basic, frozenset[sympy.Basic], str]] = [
        (expression, frozenset(), MAIN) for expression in reversed(expressions)
    ]
    while stack:
        node, bound, role = stack.pop()
        if isinstance(node, sympy.Indexed):
            found.bases[str(node.base.label)] = None
            stack += [(index, bound, INDEX) for index in reversed(node.indices)]
        elif isinstance(node, Component):  # softmax(z)_i: i is an index, like x_i's
            value, *indices = node.args
            stack += [(index, bound, INDEX) for index in reversed(indices)]
            stack.append((value, bound, role))
        elif isinstance(node, sympy.IndexedBase):
            found.bases[str(node.label)] = None
        elif isinstance(node, sympy.Symbol):
            target = found.bound if node in bound or role != MAIN else found.names
            target[node.name] = None
        elif isinstance(node, ExprWithLimits):
            variables = {limit[0] for limit in node.limits}
            for limit in node.limits:
                found.bound[str(limit[0])] = None
            stack.append((node.function, bound | variables, role))
            for limit in reversed(node.limits):
                stack += [(part, bound, LIMIT) for part in reversed(limit[1:])]
        elif isinstance(node, sympy.Limit):
            expression, variable, point = node.args[:3]
            found.bound[str(variable)] = None
            stack.append((expression, bound | {variable}, role))
            stack.append((point, bound, LIMIT))
        elif isinstance(node, AppliedUndef):
            found.functions[type(node).__name__] = None
            stack += [(argument, bound, role) for argument in reversed(node.args)]
        elif isinstance(node, sympy.Basic) and node in _CONSTANTS:
            found.constants[_CONSTANTS[node]] = None
        elif isinstance(node, sympy.Basic):
            stack += [(argument, bound, role) for argument in reversed(node.args)]
    return found


@lru_cache(maxsize=512)
def _parse(latex: str) -> tuple[sympy.Basic, ...] | None:
    """Both sides of every relation, or None when the parser cannot read the equation.
    Any failure counts as unreadable: the claims stage reports it, and this check must
    go on with the other equations."""
    from atlas_build.latex import parse_relations

    try:
        relations = parse_relations(latex)
    except Exception:
        return None
    return tuple(side for relation in relations for side in (relation.lhs, relation.rhs))


@dataclass
class EquationUse:
    """One display equation: names from its parse tree (when it parsed) and its scan."""

    math: Math
    scan: Scan
    tree: TreeNames | None

    @property
    def parsed(self) -> bool:
        return self.tree is not None

    def quantities(self) -> list[str]:
        """Symbols the equation uses as quantities, by the tree, less what the scan reads
        as units after a number (`25.9\\,\\mathrm{mV}`)."""
        if self.tree is None:
            return []
        units = set(self.scan.units) - set(self.scan.names)
        return [name for name in (*self.tree.names, *self.tree.bases) if name not in units]

    def mentioned(self) -> list[str]:
        """Every name the equation mentions, whatever its role."""
        names = [*self.scan.names, *self.scan.bases, *self.scan.functions]
        if self.tree is not None:
            tree = self.tree
            names += [*tree.names, *tree.bases, *tree.bound, *tree.functions, *tree.constants]
        return names


def equation_use(math: Math) -> EquationUse:
    expressions = _parse(math.latex)
    tree = tree_names(list(expressions)) if expressions is not None else None
    return EquationUse(math, scan(math.latex), tree)


@dataclass
class LessonUse:
    equations: list[EquationUse]
    inline: list[Scan]
    prose: list[str]  # names mentioned in text outside formulas
    imaginary: frozenset[str]  # `i`/`j` the lesson uses as the imaginary unit
    operators: frozenset[str]


def _prose_text(lesson: Lesson, skip: frozenset[int]) -> list[str]:
    texts: list[str] = []
    for block in lesson.blocks:
        if block.kind not in _PROSE_KINDS or block.start in skip:
            continue
        texts.append(block.text)  # inline LaTeX left in is no name, and is scanned apart
    return texts


def lesson_use(lesson: Lesson, skip: frozenset[int] = frozenset()) -> LessonUse:
    """Names the lesson uses; blocks starting at an offset in `skip` (the glossary's own
    symbol paragraphs) are not read as prose."""
    equations = [equation_use(math) for math in lesson.display_math]
    inline = [scan(math.latex) for math in lesson.inline_math]
    texts = _prose_text(lesson, skip)
    prose: dict[str, None] = {}
    for text in texts:
        prose.update(dict.fromkeys(sorted(symbols.mentions(text))))
    imaginary: set[str] = set()
    for found in [*(equation.scan for equation in equations), *inline]:
        imaginary.update(found.imaginary)
    if any("imaginary" in text.casefold() for text in texts):
        imaginary.update({"i", "j"})
    operators = {name for found in inline for name in found.operators}
    operators.update(name for equation in equations for name in equation.scan.operators)
    return LessonUse(equations, inline, list(prose), frozenset(imaginary), frozenset(operators))
