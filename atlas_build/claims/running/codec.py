"""Claim outcomes as JSON, for the cache: a closed vocabulary, decoded without running code.

Quantities are SymPy numbers and expressions, Python and NumPy scalars and arrays, lists,
tuples, sets and a few value types of the claims stage. SymPy trees are written as
`[class name, args...]` and rebuilt only from the classes listed in `_SYMPY`, never by
parsing text as code; anything outside the vocabulary makes the outcome uncacheable
(`Unsupported`), which costs a recomputation, never a wrong result. Decoding rejects
anything malformed with `ValueError`.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

import numpy as np
import sympy

from atlas_build.claims.binding.compare import OpenSlots
from atlas_build.claims.kinds._exact import Series
from atlas_build.claims.running.registry import Check, Outcome

MAX_DEPTH = 200


class Unsupported(Exception):
    """A value the codec has no safe form for."""


_SYMPY: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        sympy.Add, sympy.Mul, sympy.Pow, sympy.exp, sympy.log, sympy.sin, sympy.cos,
        sympy.tan, sympy.tanh, sympy.sinh, sympy.cosh, sympy.asin, sympy.acos, sympy.atan,
        sympy.Abs, sympy.sign, sympy.floor, sympy.ceiling, sympy.Max, sympy.Min,
        sympy.factorial, sympy.binomial, sympy.erf, sympy.re, sympy.im,
    )
}  # fmt: skip
_ATOMS: dict[str, Any] = {
    "pi": sympy.pi,
    "E": sympy.E,
    "oo": sympy.oo,
    "-oo": -sympy.oo,
    "zoo": sympy.zoo,
    "nan": sympy.nan,
    "I": sympy.I,
    "EulerGamma": sympy.EulerGamma,
}
_DTYPES = {"float64", "int64", "bool", "complex128"}


def encode(value: Any, depth: int = 0) -> Any:
    """A JSON-ready form of a quantity value."""
    if depth > MAX_DEPTH:
        raise Unsupported("too deeply nested")
    if isinstance(value, np.generic):
        if value.dtype.name not in _DTYPES:
            raise Unsupported(f"NumPy {value.dtype}")
        return {"np": value.dtype.name, "value": encode(value.item(), depth + 1)}
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, np.ndarray):
        if value.dtype.name not in _DTYPES or value.size > 1_000_000:
            raise Unsupported(f"array of {value.dtype} / {value.size} elements")
        flat = [encode(item.item(), depth + 1) for item in value.reshape(-1)]
        return {"ndarray": flat, "shape": list(value.shape), "dtype": value.dtype.name}
    if isinstance(value, complex):
        return {"complex": [repr(value.real), repr(value.imag)]}
    if isinstance(value, list):
        return [encode(item, depth + 1) for item in value]
    if isinstance(value, Series):  # before dict: a Series is one
        entries = sorted(value.items())
        return {"series": [[list(key), encode(item, depth + 1)] for key, item in entries]}
    if isinstance(value, tuple):
        return {"tuple": [encode(item, depth + 1) for item in value]}
    if isinstance(value, frozenset | set):
        items = sorted((encode(item, depth + 1) for item in value), key=repr)
        return {"frozenset" if isinstance(value, frozenset) else "set": items}
    if isinstance(value, OpenSlots):
        return {"open_slots": value.start}
    if isinstance(value, sympy.Basic):
        return {"sympy": _encode_sympy(value, depth + 1)}
    raise Unsupported(type(value).__name__)


def _encode_sympy(expr: sympy.Basic, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise Unsupported("too deeply nested")
    for name, atom in _ATOMS.items():
        if expr is atom:
            return name
    if isinstance(expr, sympy.Integer):
        return ["Integer", str(expr.p)]
    if isinstance(expr, sympy.Rational):
        return ["Rational", str(expr.p), str(expr.q)]
    if isinstance(expr, sympy.Float):
        sign, mantissa, exponent, bits = expr._mpf_
        return ["Float", [sign, str(mantissa), exponent, bits], expr._prec]
    if isinstance(expr, sympy.Symbol) and type(expr) is sympy.Symbol:
        return ["Symbol", expr.name, bool(expr.is_commutative)]
    name = type(expr).__name__
    if _SYMPY.get(name) is not type(expr):
        raise Unsupported(f"SymPy {name}")
    arguments: tuple[sympy.Basic, ...] = getattr(expr, "args", ())
    return [name, *(_encode_sympy(arg, depth + 1) for arg in arguments)]


def decode(data: Any, depth: int = 0) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError("too deeply nested")
    if data is None or isinstance(data, bool | str):
        return data
    if isinstance(data, list):
        return [decode(item, depth + 1) for item in data]
    if not isinstance(data, dict) or len(data) not in (1, 2, 3):
        raise ValueError(f"not an encoded value: {type(data).__name__}")
    (tag, body), *rest = data.items()
    if tag == "int":
        return int(_text(body, 5000))
    if tag == "float":
        return float(_text(body, 40))
    if tag == "complex":
        real, imag = (float(_text(part, 40)) for part in _items(body, 2))
        return complex(real, imag)
    if tag == "tuple":
        return tuple(decode(item, depth + 1) for item in _items(body))
    if tag in ("frozenset", "set"):
        items = [decode(item, depth + 1) for item in _items(body)]
        return frozenset(items) if tag == "frozenset" else set(items)
    if tag == "series":
        found = Series()
        for entry in _items(body):
            key, item = _items(entry, 2)
            index = tuple(_items(key))
            if not index or not all(type(n) is int for n in index):
                raise ValueError("malformed series index")
            found[index] = decode(item, depth + 1)
        return found
    if tag == "open_slots" and isinstance(body, int) and not isinstance(body, bool):
        return OpenSlots(body)
    if tag == "sympy":
        return _remembered_sympy(json.dumps(body, separators=(",", ":")), depth + 1)
    if tag == "np" and len(data) == 2:
        return np.dtype(_dtype(body)).type(decode(data["value"], depth + 1))
    if tag == "ndarray" and len(data) == 3:
        shape = [int(n) for n in _items(data["shape"])]
        if math.prod(shape) != len(_items(body)):
            raise ValueError("array shape does not match its data")
        values = [decode(item, depth + 1) for item in body]
        return np.array(values, dtype=_dtype(data["dtype"])).reshape(shape)
    raise ValueError(f"unknown encoded tag {tag!r}" + (" with extra fields" if rest else ""))


@functools.lru_cache(maxsize=8192)
def _remembered_sympy(text: str, depth: int) -> sympy.Basic:
    """`_decode_sympy` of an expression's JSON text, remembered: lessons that share a
    worked example decode the same cached values, and building a SymPy tree is most of
    decoding an outcome. SymPy values are immutable, so one may serve every outcome
    (a malformed one raises each time: errors are not remembered)."""
    return _decode_sympy(json.loads(text), depth)


def _decode_sympy(data: Any, depth: int) -> sympy.Basic:
    if depth > MAX_DEPTH:
        raise ValueError("too deeply nested")
    if isinstance(data, str):
        if data not in _ATOMS:
            raise ValueError(f"unknown SymPy atom {data!r}")
        return _ATOMS[data]
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError("not an encoded SymPy expression")
    name, *args = data
    if name == "Integer" and len(args) == 1:
        return sympy.Integer(int(_text(args[0], 5000)))
    if name == "Rational" and len(args) == 2:
        return sympy.Rational(int(_text(args[0], 5000)), int(_text(args[1], 5000)))
    if name == "Float" and len(args) == 2 and isinstance(args[1], int) and 1 <= args[1] <= 4000:
        sign, mantissa, exponent, bits = _items(args[0], 4)
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (sign, exponent, bits)):
            raise ValueError("malformed Float")
        if sign not in (0, 1) or abs(exponent) > 10**7 or not 0 <= bits <= 4000:
            raise ValueError("Float out of range")
        return sympy.Float._new((sign, int(_text(mantissa, 1300)), exponent, bits), args[1])
    if name == "Symbol" and len(args) == 2 and isinstance(args[1], bool):
        return sympy.Symbol(_text(args[0], 200), commutative=args[1])
    cls = _SYMPY.get(name)
    if cls is None:
        raise ValueError(f"SymPy class {name!r} is not in the cache vocabulary")
    built = [_decode_sympy(arg, depth + 1) for arg in args]
    return cls(*built, evaluate=False)


def _text(value: Any, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError("not a short string")
    return value


def _items(value: Any, count: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise ValueError("not a list of the expected length")
    return value


def _dtype(value: Any) -> str:
    if value not in _DTYPES:
        raise ValueError(f"dtype {value!r} is not allowed")
    return str(value)


def encode_outcome(outcome: Outcome, places: list[tuple[int, int] | None]) -> dict[str, Any]:
    if outcome.verified_at:
        raise Unsupported("content spans are not portable between lessons")
    return {
        "quantities": {name: encode(value) for name, value in outcome.quantities.items()},
        "checks": [[c.name, c.ok, c.message] for c in outcome.checks],
        "covers": sorted([equation, relation] for equation, relation in outcome.covers),
        "places": [list(place) if place is not None else None for place in places],
        "relations": sorted([e, r, status] for (e, r), status in outcome.relations.items()),
        "depends": {name: sorted(map(list, refs)) for name, refs in outcome.depends.items()},
        "inputs": sorted(outcome.inputs),
        "units": dict(sorted(outcome.units.items())),
        "unread": {name: sorted(symbols) for name, symbols in sorted(outcome.unread.items())},
    }


def decode_outcome(data: Any) -> tuple[Outcome, list[tuple[int, int] | None]]:
    """The outcome and each check's (equation, offset) place; ValueError when malformed."""
    fields = {"quantities", "checks", "covers", "places", "relations", "depends", "inputs"}
    fields |= {"units", "unread"}
    if not isinstance(data, dict) or set(data) != fields:
        raise ValueError("not an encoded outcome")
    quantities = data["quantities"]
    if not isinstance(quantities, dict):
        raise ValueError("quantities must be a mapping")
    outcome = Outcome(quantities={str(k): decode(v) for k, v in quantities.items()})
    for entry in _items(data["checks"]):
        name, ok, message = _items(entry, 3)
        if not (isinstance(name, str) and isinstance(ok, bool) and isinstance(message, str)):
            raise ValueError("malformed check")
        outcome.checks.append(Check(name, ok, message))
    for entry in _items(data["covers"]):
        equation, relation = _items(entry, 2)
        if not isinstance(equation, int) or not (relation is None or isinstance(relation, int)):
            raise ValueError("malformed coverage")
        outcome.covers.add((equation, relation))
    for entry in _items(data["relations"]):
        equation, relation, status = _items(entry, 3)
        if not (
            isinstance(equation, int) and isinstance(relation, int) and isinstance(status, str)
        ):
            raise ValueError("malformed relation status")
        outcome.relations[(equation, relation)] = status
    depends = data["depends"]
    if not isinstance(depends, dict):
        raise ValueError("malformed dependencies")
    for name, refs in depends.items():
        pairs = [tuple(_items(ref, 2)) for ref in _items(refs)]
        if not all(isinstance(a, int) and isinstance(b, int) for a, b in pairs):
            raise ValueError("malformed dependency")
        outcome.depends[str(name)] = {(int(a), int(b)) for a, b in pairs}
    outcome.inputs = {str(name) for name in _items(data["inputs"])}
    units = data["units"]
    if not isinstance(units, dict) or not all(isinstance(u, str) for u in units.values()):
        raise ValueError("malformed units")
    outcome.units = {str(name): unit for name, unit in units.items()}
    unread = data["unread"]
    if not isinstance(unread, dict):
        raise ValueError("malformed unread units")
    for name, symbols in unread.items():
        if not all(isinstance(symbol, str) for symbol in _items(symbols)):
            raise ValueError("malformed unread units")
        outcome.unread[str(name)] = list(_items(symbols))
    places: list[tuple[int, int] | None] = []
    for place in _items(data["places"]):
        if place is None:
            places.append(None)
            continue
        index, within = _items(place, 2)
        if not (isinstance(index, int) and isinstance(within, int) and index >= 0):
            raise ValueError("malformed place")
        places.append((index, within))
    if len(places) != len(outcome.checks):
        raise ValueError("one place per check")
    return outcome, places
