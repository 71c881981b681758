"""n-tuple networks in TDL2048+'s weight-file format (moporgic/TDL2048, its `-i` and `-o
FILE.w`), read and written here from the format as its source lays it out, not its code.

The file, little-endian and unpadded (a file whose name does not end in .w starts with the
byte 'w', the type TDL2048+ then writes first):

    u8 0, u32 m                    the container's serial, then its m weight tables; each:
    u8 4                           the table's serial
    sign (8 bytes)                 u32 the pattern's cells read as hex, u16 its digits, u16 0
                                   (or a name that is not hex: 8 ASCII bytes, space-padded)
    u16 b, u64 n, n weights        b bytes per weight: 4 (float32) as TDL2048+ writes, 2 or 8
    (u16 b, u64 k, k * b bytes)*   further blocks (TC's accumulators), skipped
    u16 0                          the end of the table

A pattern `012345` is one table of 16**6 weights, read by every isomorphism of the board with
cell j of the pattern in hex digit j of the index (the lowest first) and cells numbered from
the low nibble of the board, 4 to a row: g2048's layout exactly, and its named networks list
their tuples as TDL2048+'s aliases do (4x6patt is its 4x6patt/khyeh, 6x6patt to 8x6patt its
Matsuzaki patterns). So a network's lut is the file's tables back to back, in order.

A multistage network (TDL2048+'s `-n 4x6patt@2`) has the tables of stage 0, then stage 1, ...,
stage s signed with the pattern OR'ed with s's 8 hex digits reversed (`00012345`,
`10012345`, 8 digits). The file holds no thresholds (TDL2048+ takes them from `-@ 0,16384`):
import takes them from the caller. TDL2048+ moves to the next stage after the move that
reaches a threshold, g2048 on the board that holds it (g2048.evaluators.ntuple): the two differ
on that one move's choice.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from g2048.evaluators.ntuple import NETWORKS, Network, lut_size, network_tuples, stage_text

# TDL2048+'s aliases whose tuples g2048 names alike; another network is written by its cells.
TDL_ALIASES = ("4x6patt", "5x6patt", "4x5patt", "2x4patt", "6x6patt", "7x6patt", "8x6patt")
_CONTAINER, _TABLE = 0, 4  # the serials TDL2048+ writes
_DTYPES = {2: "<f2", 4: "<f4", 8: "<f8"}


@dataclass(frozen=True)
class Table:
    """One weight table of a file: its sign as TDL2048+ shows it, the sign's value (None for a
    name that is not hex), bytes per weight, weights, and where they start in the file."""

    sign: str
    value: int | None
    itemsize: int
    count: int
    offset: int


def pattern_text(t: tuple[int, ...]) -> str:
    """A tuple as TDL2048+ names a pattern: its cells as hex digits (0, 1, 2, 4, 5, 6) -> 012456."""
    return "".join(f"{c:x}" for c in t)


def stage_mark(stage: int) -> int:
    """What TDL2048+ ORs into stage s's signs: s's 8 hex digits, reversed (1 -> 0x10000000)."""
    return int(f"{stage:08x}"[::-1], 16)


def table_signs(name: str, stages: int) -> list[tuple[int, int]]:
    """The (value, digits) of each table's sign for network `name` in `stages` stages, in file
    order: the pattern's own digits for one stage, 8 for several (as TDL2048+ makes them)."""
    texts = [pattern_text(t) for t in network_tuples(name)]
    if stages == 1:
        return [(int(p, 16), len(p)) for p in texts]
    return [(int(p, 16) | stage_mark(s), 8) for s in range(stages) for p in texts]


def tdl_command(network: Network) -> str:
    """TDL2048+'s -n (and -@) options that make `network`'s structure, to read its file."""
    # by its tuples: wu6x4 is 4x6patt, lines4x2 is 2x4patt
    alias = next((a for a in TDL_ALIASES if NETWORKS[a] == network.tuples), None)
    stages = len(network.stages) + 1
    if alias is None:
        cells = [pattern_text(t) for t in network.tuples]
        marks = [f"|{stage_mark(s):08x}" for s in range(stages)] if stages > 1 else [""]
        return "-n '" + " ".join(c + m for m in marks for c in cells) + "'" + _stage_option(network)
    return f"-n {alias}{f'@{stages}' if stages > 1 else ''}{_stage_option(network)}"


def _stage_option(network: Network) -> str:
    return f" -@ {','.join(str(t) for t in (0, *network.stages))}" if network.stages else ""


def _sign(raw: bytes, count: int) -> tuple[str, int | None]:
    """A table's sign as TDL2048+ shows it, and its value (None for a name that is not hex)."""
    if raw[6:8] == b"\0\0":
        value, digits = struct.unpack_from("<IH", raw)
        if digits == 0:  # files of older TDL2048+ versions: digits from the table's size
            digits = (count.bit_length() - 1) >> 2
        if digits < len(f"{value:x}"):
            digits = 8
        return f"{value:0{digits}x}", value
    return raw.split(b" ")[0].decode("ascii", "backslashreplace"), None


def scan_tables(path: str | Path) -> list[Table]:
    """Every weight table of a TDL2048+ weight file, without reading the weights; ValueError
    naming the file and what is wrong in one line (a truncated file names the table it ends in)."""
    path = Path(path)
    try:
        f = path.open("rb")
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    with f:
        size = path.stat().st_size

        def take(n: int, what: str) -> bytes:
            data = f.read(n)
            if len(data) < n:
                raise ValueError(f"{path}: truncated: ends after {size} bytes, inside {what}")
            return data

        first = take(1, "its header: not a TDL2048+ weight file")
        if first == b"w":
            first = take(1, "its header")
        if first != bytes([_CONTAINER]):
            cache = ": a TDL2048+ cache file" if first == b"c" else ""
            raise ValueError(
                f"{path}: starts with byte 0x{first[0]:02x}, not as a TDL2048+ weight file does "
                f"(0, or 'w' then 0){cache}"
            )
        (m,) = struct.unpack("<I", take(4, "its header"))
        if m == 0:
            raise ValueError(f"{path}: holds no weight tables")
        tables = []
        for k in range(m):
            where = f"weight table {k + 1} of {m}"
            (serial,) = take(1, where)
            if serial != _TABLE:
                raise ValueError(
                    f"{path}: {where} has serial {serial}, not {_TABLE} (the only one TDL2048+ "
                    "writes)"
                )
            raw = take(8, where)
            itemsize, count = struct.unpack("<HQ", take(10, where))
            sign, value = _sign(raw, count)
            where = f"{where} (sign {sign})"
            if itemsize not in _DTYPES:
                raise ValueError(
                    f"{path}: {where} stores weights of {itemsize} bytes, not 2, 4 or 8"
                )
            offset = f.tell()
            end = offset + itemsize * count
            if end > size:
                raise ValueError(
                    f"{path}: truncated: ends after {size} bytes, inside {where}: its {count} "
                    f"weights need {end - size} bytes more"
                )
            f.seek(end)
            while True:  # further blocks, up to the end mark
                (blk,) = struct.unpack("<H", take(2, where))
                if blk == 0:
                    break
                (n,) = struct.unpack("<Q", take(8, where))
                if f.tell() + blk * n > size:
                    raise ValueError(
                        f"{path}: truncated: ends after {size} bytes, inside a block of {where}"
                    )
                f.seek(blk * n, 1)
            tables.append(Table(sign, value, itemsize, count, offset))
        extra = size - f.tell()
    if extra:
        raise ValueError(
            f"{path}: {extra} byte{' follows' if extra == 1 else 's follow'} its {m} weight "
            "tables (a second section, such as a cache, is not read here)"
        )
    return tables


def _known_network(values: list[int | None]) -> str | None:
    """The named network (of TDL2048+'s aliases first) whose tables in some number of stages
    have these sign values, or None."""
    for name in (*TDL_ALIASES, *NETWORKS):
        m = len(NETWORKS[name])
        stages = len(values) // m
        if stages and len(values) % m == 0 and [v for v, _ in table_signs(name, stages)] == values:
            return name
    return None


def read_network(path: str | Path, name: str, stages: tuple[int, ...] = ()) -> Network:
    """The network `name` (with stage thresholds `stages`, which the file does not hold) from a
    TDL2048+ weight file; ValueError in one line naming what differs from that network."""
    tables = scan_tables(path)
    tuples = network_tuples(name)
    m = len(tuples)
    values = [t.value for t in tables]
    want = table_signs(name, len(tables) // m or 1)
    if len(tables) % m or values != [v for v, _ in want]:
        shown = " ".join(t.sign for t in tables[: 2 * m])
        more = f" ... ({len(tables)} tables)" if len(tables) > 2 * m else ""
        known = _known_network(values)
        hint = f": the tables of {known}, give --network {known}" if known else ""
        raise ValueError(
            f"{path}: holds tables {shown}{more}, not those of {name} "
            f"({' '.join(pattern_text(t) for t in tuples)}){hint}"
        )
    held = len(tables) // m
    if held != len(stages) + 1:
        given = f"{len(stages) + 1} (--stages {' '.join(map(str, stages))})" if stages else "1"
        raise ValueError(
            f"{path}: holds {name} in {held} stage{'s' if held > 1 else ''}, not {given}: "
            + (
                f"give --stages with {held - 1} tile threshold{'s' if held > 2 else ''} "
                "(TDL2048+'s -@ 0,16384 is --stages 16384)"
                if held > 1
                else "leave out --stages"
            )
        )
    for t, cells in zip(tables, [c for _ in range(held) for c in tuples], strict=True):
        if t.count != 16 ** len(cells):
            raise ValueError(
                f"{path}: table {t.sign} holds {t.count} weights, not 16**{len(cells)} = "
                f"{16 ** len(cells)}"
            )
    lut = np.empty(lut_size(tuples) * held, dtype=np.float32)
    at = 0
    with Path(path).open("rb") as f:
        for t in tables:
            f.seek(t.offset)
            part = lut[at : at + t.count]
            if t.itemsize == 4:
                f.readinto(memoryview(part.view("<f4")).cast("B"))
            else:
                part[:] = np.fromfile(f, dtype=_DTYPES[t.itemsize], count=t.count)
            at += t.count
    finite = np.isfinite(lut)
    if not finite.all():
        first = int(np.argmin(finite))
        table = tables[np.searchsorted(np.cumsum([t.count for t in tables]), first, "right")]
        raise ValueError(
            f"{path}: holds {int(finite.size - finite.sum())} NaN or infinite weights (the "
            f"first in table {table.sign}): not a network to play"
        )
    return Network(name, lut, stages)


def write_network(path: str | Path, network: Network) -> None:
    """Write `network` as TDL2048+ writes its weights (float32, no accumulators), so that a
    file read by `read_network` is written back byte for byte."""
    path = Path(path)
    signs = table_signs(network.name, len(network.stages) + 1)
    sizes = [16 ** len(t) for t in network.tuples] * (len(network.stages) + 1)
    lut = np.ascontiguousarray(network.lut, dtype="<f4")
    with path.open("wb") as f:
        if path.suffix != ".w":
            f.write(b"w")
        f.write(struct.pack("<BI", _CONTAINER, len(signs)))
        at = 0
        for (value, digits), count in zip(signs, sizes, strict=True):
            f.write(struct.pack("<BIHHHQ", _TABLE, value, digits, 0, 4, count))
            f.write(memoryview(lut[at : at + count]).cast("B"))
            f.write(struct.pack("<H", 0))
            at += count


def describe(network: Network) -> str:
    """'4x6patt in 2 stages (from 16384)' or '4x6patt'."""
    return f"{network.name}{stage_text(network.stages)}"
