"""The shipped unit table (`atlas_build.units.table`) against pint, its source of truth."""

from __future__ import annotations

import subprocess
import sys

import pytest
import sympy

from atlas_build.units import registry, table, tablegen


def test_the_table_holds_exactly_the_vocabulary() -> None:
    assert sorted(table.table()) == tablegen.names()


def test_every_entry_is_what_pint_resolves() -> None:
    wrong = [
        name
        for name in tablegen.names()
        if table.decode(table.table()[name]) != registry.resolve_with_pint(name)
    ]
    assert wrong == []


def test_prefixed_and_offset_units_come_out_exact() -> None:
    dimension, scale, offset = table.decode(table.table()["kibibyte"])
    assert scale == 8192 and offset == 0
    assert dict(dimension.items()) == {"[information]": 1}
    _, scale, offset = table.decode(table.table()["degree_Celsius"])
    assert scale == 1 and offset == sympy.Rational(27315, 100)


@pytest.mark.parametrize(
    "entry",
    [
        "m",
        [{}, [1, 1]],
        [{"[length]": [1, 0]}, [1, 1], [0, 1]],
        [{"[length]": [True, 1]}, [1, 1], [0, 1]],
        [{"[length]": ["1", 1]}, [1, 1], [0, 1]],
        [{}, [1, 2, 3], [0, 1]],
        [[], [1, 1], [0, 1]],
    ],
)
def test_a_malformed_entry_is_refused(entry: object) -> None:
    with pytest.raises(ValueError):
        table.decode(entry)


def test_looking_units_up_does_not_build_pints_registry() -> None:
    code = (
        "import sys\n"
        "from atlas_build.units import vocabulary\n"
        "for word in ('KiB', 'Gbps', 'mV', 'kelvin', 'TFLOPS', 'ns'):\n"
        "    assert vocabulary.lookup(word) is not None, word\n"
        "print('pint' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_unit_outside_the_table_still_resolves_through_pint() -> None:
    assert "inch" not in table.table()
    assert registry._resolve.__wrapped__("inch") == registry.resolve_with_pint("inch")
