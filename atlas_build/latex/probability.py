"""Probability terms: ``P(A \\mid B)``, ``\\Pr[X \\ge a]``, ``\\mathbb{P}(A)``, and the
outcomes a lone sign names (``P(D \\mid +)``: given a positive test).

A probability is a pure number whatever its events are, and its events are not
quantities, so it is one node, :class:`Probability`: the units checker can take it as
dimensionless without reading ``D`` or ``+`` as symbols with units, and the evaluator
binds it as one opaque value, by its text (``P(D|plus)``). ``P`` is a probability when
its argument holds a condition bar or a relation (``P(X = k)``), and then everywhere in
the equation (the ``P(D)`` of Bayes' rule); ``\\Pr`` and ``\\mathbb{P}`` always are.
Lower-case ``p(x \\mid \\theta)`` stays an applied function: a density has units.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational
from sympy.core.symbol import Str
from sympy.logic.boolalg import BooleanFunction

from .functions import Given, Node, Related

if TYPE_CHECKING:
    from .lexer import Token
    from .parser import Parser

ALWAYS = frozenset({"Pr", "P_bb", "Prob"})
"""Names that are a probability whatever their argument."""
WITH_EVENT = frozenset({"P"})
"""Names that are a probability when their argument states an event (a condition bar
or a relation); ``P(t)`` in a power lesson is a function of time."""
_SIGNS = {"+": "plus", "-": "minus"}


class Probability(Node):
    """``P(A \\mid B)``: the name written (a ``Str``), then the arguments as written."""

    @property
    def name(self) -> str:
        return str(self.args[0])

    @property
    def events(self) -> tuple[sympy.Basic, ...]:
        return tuple(self.args[1:])

    @property
    def key(self) -> str:
        """The text the evaluator binds it by: ``P(D|plus)``, ``Pr(X >= a)``."""
        return f"{self.name}({', '.join(_text(event) for event in self.events)})"

    @property
    def is_number(self) -> bool:
        return False

    def _sympystr(self, printer: Any) -> str:
        return self.key


def _text(event: sympy.Basic) -> str:
    if isinstance(event, Given):
        return "|".join(_text(part) for part in event.args)
    if isinstance(event, sympy.Eq):
        return f"{_text(event.lhs)} = {_text(event.rhs)}"
    if isinstance(event, sympy.And | sympy.Or):  # SymPy prints `|` for or: not a bar here
        word = " and " if isinstance(event, sympy.And) else " or "
        return word.join(_text(part) for part in event.args)
    if isinstance(event, sympy.Not):
        return f"not {_text(event.args[0])}"
    return sympy.sstr(event)


def is_event(arg: sympy.Basic) -> bool:
    """A condition bar, a relation or a statement: what only an event can be (a SymPy
    ``Symbol`` is a ``Boolean`` too, so the test names the classes)."""
    return isinstance(arg, Given | Relational | BooleanFunction | Related)


def applied(p: Parser, token: Token | None, name: str, args: Sequence[sympy.Basic]) -> sympy.Expr:
    """``name(args)``: a :class:`Probability` where the name and arguments say so, else
    the applied undefined function ``name``."""
    if name in ALWAYS or (name in WITH_EVENT and any(is_event(arg) for arg in args)):
        p.state.probabilities.add(name)
        return p.build(token, lambda: Probability(Str(name), *args))
    function = sympy.Function(name)
    return p.build(token, lambda: function(*args))


def unify(value: sympy.Basic, names: Collection[str]) -> sympy.Basic:
    """``value`` with every application of a name the equation uses as a probability
    made one too: in ``P(D \\mid +) = P(+ \\mid D)\\,P(D)/P(+)``, ``P(D)`` is no function
    of ``D``."""
    if not names:
        return value

    def applies(node: sympy.Basic) -> bool:
        return isinstance(node, AppliedUndef) and type(node).__name__ in names

    def made(node: sympy.Basic) -> sympy.Basic:
        return Probability(Str(type(node).__name__), *node.args)

    return value.replace(applies, made)


def outcome(p: Parser) -> sympy.Symbol | None:
    """A lone ``+`` or ``-`` as an item or a side of ``\\mid`` names an outcome
    (``plus``/``minus``, as ``n^{+}`` is ``n_plus``): ``P(D \\mid +)``, ``P(-)``."""
    if len(p.tokens) != 1 or not p.peek_char("+-"):
        return None
    p.pos += 1
    return sympy.Symbol(_SIGNS[p.tokens[0].text])
