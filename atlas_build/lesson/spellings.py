"""A glossary's spelling of a symbol -> the spelling the lesson's formulas use.

Real glossaries flatten what LaTeX subscripts: `Bkj` for `B_{kj}`, `VDD` for `V_{DD}`,
`nr` for `n_r`, `μtrain` for `\\mu_{\\text{train}}`, `d0` for `d_0`. Where a glossary name
is not one the formulas use but is one of them flat (`names.flat`), it stands for that
one, so the glossary check, the units of the claims stage and the site all bind the
entry to the symbol the equations write. Names the formulas use themselves never change.
"""

from __future__ import annotations

from collections.abc import Iterable

from atlas_build.lesson import names as naming
from atlas_build.lesson.latexnames import scan
from atlas_build.lesson.model import Block


class Spellings:
    """The names a lesson's formulas (display and inline) mention, by key and flat."""

    def __init__(self, blocks: Iterable[Block]) -> None:
        written: dict[str, None] = {}
        for block in blocks:
            for math in block.math:
                found = scan(math.latex)
                written.update(dict.fromkeys((*found.names, *found.bases, *found.functions)))
        self.keys = {naming.key(name) for name in written}
        self.flat: dict[str, list[str]] = {}
        for name in written:
            self.flat.setdefault(naming.flat(name), []).append(name)

    def written(self, name: str) -> bool:
        """Whether a formula writes `name`, in any spelling the convention allows."""
        return naming.key(name) in self.keys or naming.flat(name) in self.flat

    def resolve(self, names: Iterable[str], qualifier: str = "") -> tuple[str, ...]:
        """Each glossary name as the formulas spell it: itself when they use it (or
        nothing spells it), else the formulas' names it is a flat spelling of. A one-word
        qualifier the formulas write as the last name's subscript is part of it
        (`θSA,max` is the `\\theta_{SA,\\max}` they write)."""
        resolved: list[str] = []
        listed = list(names)
        if listed and qualifier.isalpha() and qualifier.islower():
            longer = f"{listed[-1]}_{qualifier}"
            if self.written(longer):
                listed[-1] = longer
        for name in listed:
            if naming.key(name) in self.keys:
                resolved.append(name)
                continue
            resolved += self.flat.get(naming.flat(name), [name])
        return tuple(dict.fromkeys(resolved))
