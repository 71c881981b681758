"""Networks in TDL2048+'s weight-file format: files written here per its format (as its source
lays it out) read into the networks they hold, written back byte for byte, a hand-made file
valued as TDL2048+ indexes it, and bad files refused in one line naming what differs."""

import struct
from pathlib import Path

import numpy as np
import pytest

from g2048 import evaluators
from g2048.engine.board import encode
from g2048.evaluators import ntuple, tdl2048


def sign(pattern: str, stage: int | None = None) -> bytes:
    """A table's 8 sign bytes: the pattern as a u32, its digits, 0; in stage s of a multistage
    network the pattern OR s's 8 hex digits reversed, 8 digits."""
    if stage is None:
        return struct.pack("<IHH", int(pattern, 16), len(pattern), 0)
    return struct.pack("<IHH", int(pattern, 16) | int(f"{stage:08x}"[::-1], 16), 8, 0)


def table(signature: bytes, weights: np.ndarray, extra: bytes = b"") -> bytes:
    """One weight table: serial 4, its sign, float32 weights, optional blocks, the end mark."""
    weights = np.asarray(weights, dtype="<f4")
    head = b"\x04" + signature + struct.pack("<HQ", 4, weights.size)
    return head + weights.tobytes() + extra + b"\0\0"


def weight_file(tables: list[bytes]) -> bytes:
    """A .w file: serial 0, the number of tables, the tables."""
    return b"\0" + struct.pack("<I", len(tables)) + b"".join(tables)


def random_tables(name: str, stages: int = 1, seed: int = 1) -> tuple[bytes, np.ndarray]:
    """A file of network `name` in `stages` stages with random weights, and its lut."""
    rng = np.random.default_rng(seed)
    patterns = ["".join(f"{c:x}" for c in t) for t in ntuple.NETWORKS[name]]
    parts, luts = [], []
    for s in range(stages):
        for p in patterns:
            w = rng.normal(0, 100, 16 ** len(p)).astype(np.float32)
            parts.append(table(sign(p, s if stages > 1 else None), w))
            luts.append(w)
    return weight_file(parts), np.concatenate(luts)


@pytest.mark.parametrize(("stages", "thresholds"), [(1, ()), (2, (16384,)), (3, (2048, 8192))])
def test_a_file_in_tdl2048s_format_round_trips_byte_for_byte(
    tmp_path: Path, stages: int, thresholds: tuple
) -> None:
    data, lut = random_tables("2x4patt", stages)
    path = tmp_path / "net.w"
    path.write_bytes(data)
    network = tdl2048.read_network(path, "2x4patt", thresholds)
    assert network.stages == thresholds
    np.testing.assert_array_equal(network.lut, lut)
    tdl2048.write_network(tmp_path / "again.w", network)
    assert (tmp_path / "again.w").read_bytes() == data
    again = tdl2048.read_network(tmp_path / "again.w", "2x4patt", thresholds)
    np.testing.assert_array_equal(again.lut, network.lut)


def test_a_file_not_named_w_starts_with_its_type_and_wu6x4_is_4x6patt(tmp_path: Path) -> None:
    network = ntuple.Network("lines4x2", random_tables("2x4patt")[1])
    tdl2048.write_network(tmp_path / "net.bin", network)
    tdl2048.write_network(tmp_path / "net.w", network)
    assert (tmp_path / "net.bin").read_bytes() == b"w" + (tmp_path / "net.w").read_bytes()
    back = tdl2048.read_network(tmp_path / "net.bin", "lines4x2")
    np.testing.assert_array_equal(back.lut, network.lut)
    assert tdl2048.tdl_command(network) == "-n 2x4patt"
    assert tdl2048.tdl_command(ntuple.zero_network("wu6x4", (16384,))) == (
        "-n 4x6patt@2 -@ 0,16384"
    )
    assert tdl2048.tdl_command(ntuple.zero_network("sj4x2+6x2")) == ("-n '0123 4567 012456 45689a'")


def test_tables_with_accumulators_or_other_float_widths_are_read(tmp_path: Path) -> None:
    # TC's coherence tables follow the values as a second block; a table may store halves or
    # doubles
    data, lut = random_tables("2x4patt")
    size = 65536
    accumulators = struct.pack("<HQ", 4, 2 * size) + bytes(8 * size)
    doubles = b"\x04" + sign("4567") + struct.pack("<HQ", 8, size)
    doubles += lut[size:].astype("<f8").tobytes() + b"\0\0"
    tables = [table(sign("0123"), lut[:size], accumulators), doubles]
    (tmp_path / "tc.w").write_bytes(weight_file(tables))
    network = tdl2048.read_network(tmp_path / "tc.w", "2x4patt")
    np.testing.assert_array_equal(network.lut, lut)


def test_a_hand_made_file_values_a_board_as_tdl2048_indexes_it(tmp_path: Path) -> None:
    # TDL2048+ reads pattern p of a board at index sum of rank(cell p[j]) * 16**j, cells from 0
    # at the board's low nibble, 4 to a row: two entries set for one board of distinct ranks,
    # which no other image of the board reads, give its value; a reversed digit order or
    # another cell numbering reads zeros
    grid = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 0, 0], [0, 0, 0, 0]]
    ranks = [int(t).bit_length() - 1 if t else 0 for row in grid for t in row]
    patterns = ["01234", "45678", "01245", "45689"]  # 4x5patt, in its order
    tables = []
    for p in patterns:
        w = np.zeros(16**5, dtype=np.float32)
        index = sum(ranks[int(c, 16)] << (4 * j) for j, c in enumerate(p))
        w[index] = {"01245": 1000.0, "45689": 0.5}.get(p, 0.0)
        tables.append(table(sign(p), w))
    (tmp_path / "4x5.w").write_bytes(weight_file(tables))
    network = tdl2048.read_network(tmp_path / "4x5.w", "4x5patt")
    assert evaluators.value("ntuple", encode(grid), network, after=True) == 1000.5


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "truncated: ends after 0 bytes, inside its header"),
        (b"\0\2\0\0", "truncated: ends after 4 bytes, inside its header"),
        (b"c\0", "starts with byte 0x63, not as a TDL2048+ weight file does"),
        (b"\3\1\0\0\0", "starts with byte 0x03"),
        (weight_file([]), "holds no weight tables"),
        (weight_file([b"\x05" + sign("0123")]), "weight table 1 of 1 has serial 5, not 4"),
        (
            weight_file([b"\x04" + sign("0123") + struct.pack("<HQ", 3, 16)]),
            "weight table 1 of 1 (sign 0123) stores weights of 3 bytes, not 2, 4 or 8",
        ),
    ],
)
def test_what_is_not_a_weight_file_is_refused_in_one_line(
    tmp_path: Path, data: bytes, message: str
) -> None:
    (tmp_path / "bad.w").write_bytes(data)
    with pytest.raises(ValueError, match="^[^\n]*$") as info:
        tdl2048.read_network(tmp_path / "bad.w", "2x4patt")
    assert str(info.value).startswith(f"{tmp_path / 'bad.w'}: ")
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        (30, "inside weight table 1 of 2 (sign 0123): its 65536 weights need"),
        (4 * 65536 + 23, "inside weight table 1 of 2 (sign 0123)"),  # the end mark
        (4 * 65536 + 30, "inside weight table 2 of 2"),  # the sign
        (-3, "inside weight table 2 of 2 (sign 4567): its 65536 weights need 3 bytes more"),
    ],
)
def test_a_truncated_file_names_the_table_it_ends_in(
    tmp_path: Path, cut: int, message: str
) -> None:
    data = random_tables("2x4patt")[0]
    data = data[:cut] if cut > 0 else data[: cut - 2]
    (tmp_path / "cut.w").write_bytes(data)
    with pytest.raises(ValueError, match=f"truncated: ends after {len(data)} bytes, .*") as info:
        tdl2048.read_network(tmp_path / "cut.w", "2x4patt")
    assert message in str(info.value)


def test_a_file_of_other_tables_or_sizes_is_refused_naming_what_differs(tmp_path: Path) -> None:
    path = tmp_path / "net.w"
    path.write_bytes(random_tables("4x5patt")[0])
    with pytest.raises(ValueError) as info:
        tdl2048.read_network(path, "2x4patt")
    assert str(info.value).endswith(
        "holds tables 01234 45678 01245 45689, not those of 2x4patt (0123 4567): the tables of "
        "4x5patt, give --network 4x5patt"
    )
    _, lut = random_tables("2x4patt")
    path.write_bytes(weight_file([table(sign("4567"), lut[:65536]), table(sign("0123"), lut)]))
    with pytest.raises(
        ValueError, match=r"holds tables 4567 0123, not those of 2x4patt \(0123 4567\)$"
    ):
        tdl2048.read_network(path, "2x4patt")
    path.write_bytes(
        weight_file([table(sign("0123"), lut[:1000]), table(sign("4567"), lut[:65536])])
    )
    with pytest.raises(ValueError, match=r"table 0123 holds 1000 weights, not 16\*\*4 = 65536$"):
        tdl2048.read_network(path, "2x4patt")
    path.write_bytes(random_tables("2x4patt")[0] + b"c")
    with pytest.raises(ValueError, match="1 byte follows its 2 weight tables"):
        tdl2048.read_network(path, "2x4patt")
    nan = lut.copy()
    nan[65536 + 7] = np.nan
    path.write_bytes(
        weight_file([table(sign("0123"), nan[:65536]), table(sign("4567"), nan[65536:])])
    )
    with pytest.raises(
        ValueError, match=r"holds 1 NaN or infinite weights \(the first in table 4567\)"
    ):
        tdl2048.read_network(path, "2x4patt")


def test_a_multistage_file_needs_its_thresholds(tmp_path: Path) -> None:
    path = tmp_path / "two.w"
    path.write_bytes(random_tables("2x4patt", stages=2)[0])
    with pytest.raises(ValueError, match="holds 2x4patt in 2 stages, not 1: give --stages with 1"):
        tdl2048.read_network(path, "2x4patt")
    path.write_bytes(random_tables("2x4patt")[0])
    with pytest.raises(ValueError, match=r"in 1 stage, not 2 \(--stages 16384\): leave out"):
        tdl2048.read_network(path, "2x4patt", (16384,))
