"""The check that numba's dispatch constants agree with the one table that names them."""

from collections.abc import Sequence


def assert_each_names_its_entry(constants: dict[str, int], table: Sequence[str]) -> None:
    """Each constant is the index of its name in `table`, and together they cover the table."""
    assert {name: table[kind] for name, kind in constants.items()} == {n: n for n in constants}
    assert sorted(constants.values()) == list(range(len(table)))
