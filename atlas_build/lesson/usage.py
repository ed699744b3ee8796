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

from atlas_build.latex.functions import Component, Related
from atlas_build.latex.sets import BigOperator, SetBuilder, bound_indices
from atlas_build.lesson import symbols
from atlas_build.lesson.latexnames import Scan, scan
from atlas_build.lesson.model import Lesson, Math
from atlas_build.lesson.names import INDEX_LETTERS, split

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
    labels: dict[str, None] = field(default_factory=dict)  # bases with no array index (`eta[4/5]`)


def definition_variables(lhs: sympy.Basic) -> frozenset[sympy.Basic]:
    """The variables a relation's left side defines its right side over: the arguments of
    `f(x, y) = ...` and the index of `γ_k = k u/(1 − k u)`. Like a sum's index, each is
    bound in that relation and needs no glossary entry of its own."""
    if isinstance(lhs, AppliedUndef) and all(isinstance(a, sympy.Symbol) for a in lhs.args):
        return frozenset(lhs.args)
    if isinstance(lhs, sympy.Symbol):
        _, pieces = split(lhs.name)
        if pieces and len(pieces[-1]) <= 2 and set(pieces[-1]) <= INDEX_LETTERS:
            return frozenset(sympy.Symbol(letter) for letter in pieces[-1])
    return frozenset()


def tree_names(
    expressions: list[sympy.Basic], bound_in: list[frozenset[sympy.Basic]] | None = None
) -> TreeNames:
    """Walk the trees (iteratively, in argument order). A symbol only ever seen as an index,
    a sum or limit variable, or in a bound needs no definition; it is `bound`, as are the
    symbols `bound_in` gives for each expression (a definition's variables). A base seen
    only with indices no array has (`η_{8b/10b}` read as `eta[4/5]`) is a label, a name
    with a subscript, not a one-letter symbol; `X[0]` is an element of `X`."""
    found = TreeNames()
    given = bound_in or [frozenset()] * len(expressions)
    stack: list[tuple[sympy.Basic, frozenset[sympy.Basic], str]] = [
        (expression, given[place], MAIN)
        for place, expression in reversed(list(enumerate(expressions)))
    ]
    while stack:
        node, bound, role = stack.pop()
        if isinstance(node, sympy.Indexed):
            label = str(node.base.label)
            if all(index.is_number and not index.is_integer for index in node.indices):
                found.labels[label] = None  # no array index: a subscript the parser computed
            else:
                found.bases[label] = None
            stack += [(index, bound, INDEX) for index in reversed(node.indices)]
        elif isinstance(node, BigOperator):  # argmin_θ L(θ): θ is the operator's index
            indices = frozenset(bound_indices(node.over))
            found.bound.update(dict.fromkeys(str(index) for index in indices))
            stack.append((node.body, bound | indices, role))
            stack += [(part, bound, LIMIT) for part in reversed(node.over.args[1:])]
        elif isinstance(node, SetBuilder):  # {d ∈ D : d ≥ n}: d is the builder's variable
            members = frozenset(_members(node.args[0]))
            found.bound.update(dict.fromkeys(str(member) for member in members))
            stack += [(part, bound | members, role) for part in reversed(node.args)]
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


def _members(element: sympy.Basic) -> set[sympy.Basic]:
    """The variable a set builder's element names: `d` of `d ∈ D`, or `x` alone."""
    if isinstance(element, Related) and element.op == "in":
        element = element.args[0]
    return {element} if isinstance(element, sympy.Symbol) else set()


@lru_cache(maxsize=512)
def _parse(latex: str) -> tuple[tuple[sympy.Basic, sympy.Basic], ...] | None:
    """Both sides of every relation, or None when the parser cannot read the equation.
    Any failure counts as unreadable: the claims stage reports it, and this check must
    go on with the other equations."""
    from atlas_build.latex import parse_relations

    try:
        relations = parse_relations(latex)
    except Exception:
        return None
    return tuple((relation.lhs, relation.rhs) for relation in relations)


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
        """Every name the equation mentions, whatever its role (an operator's too: `E` of
        `\\mathbb{E}[X]`, `exp` of `\\exp`)."""
        names = [*self.scan.names, *self.scan.bases, *self.scan.functions, *self.scan.operators]
        if self.tree is not None:
            tree = self.tree
            names += [*tree.names, *tree.bases, *tree.bound, *tree.functions, *tree.constants]
            names += list(tree.labels)
        return names


def equation_use(math: Math) -> EquationUse:
    relations = _parse(math.latex)
    tree = None
    if relations is not None:
        sides = [side for relation in relations for side in relation]
        defined = [definition_variables(lhs) for lhs, _ in relations]
        tree = tree_names(sides, [variables for variables in defined for _ in range(2)])
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
