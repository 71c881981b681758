"""n-tuple networks: a learned afterstate value, V(board) = sum over tuples and over the 8
symmetries of the board of lut[tuple][ranks of the tuple's cells] (Szubert & Jaskowski 2014).

A network is a list of tuples of cells (row-major, 0..15) and one float32 weight table of
16**n entries per tuple, stored back to back in one flat `lut`. Its value estimates the score
still to come after a move (before the tile spawns), so agents add the rewards along the path
(AFTERSTATE in g2048.evaluators); a dead board is worth 0.

Numba takes a network as (weights, table), like any evaluator: `weights` is the float64
layout vector [m, then per tuple: n, offset into lut, the 8 x n bit shifts of its cells under
each symmetry]; `table` is the float32 lut viewed as float64 (no copy; `value` views it back).
Indices come straight from the bitboard with shifts and masks, cell j of a tuple in nibble j.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

NAME = "ntuple"
# Named networks: Wu et al. (TAAI 2014), four 6-tuples (4 x 16**6 weights, 268 MB as float32);
# Szubert & Jaskowski (CIG 2014), two straight 4-tuples and two 2x3 rectangles (134 MB); and
# two straight 4-tuples alone (0.5 MB), quick to learn, for tests and the smoke study.
NETWORKS: dict[str, tuple[tuple[int, ...], ...]] = {
    "wu6x4": ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10)),
    "sj4x2+6x2": ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10)),
    "lines4x2": ((0, 1, 2, 3), (4, 5, 6, 7)),
}
SYMMETRIES = 8


def symmetric_cell(cell: int, s: int) -> int:
    """`cell` under symmetry s of the grid: s & 3 quarter turns, then a mirror if s >= 4."""
    r, c = divmod(cell, 4)
    for _ in range(s & 3):
        r, c = c, 3 - r
    if s >= 4:
        c = 3 - c
    return 4 * r + c


def network_tuples(name: str) -> tuple[tuple[int, ...], ...]:
    """The tuples of the network called `name`; ValueError listing the known names."""
    try:
        return NETWORKS[name]
    except KeyError:
        raise ValueError(f"unknown network {name!r}; known: {', '.join(NETWORKS)}") from None


def lut_size(tuples: tuple[tuple[int, ...], ...]) -> int:
    """Entries of the weight table of a network: 16**n per tuple."""
    return sum(16 ** len(t) for t in tuples)


def layout(tuples: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """The float64 layout vector numba reads (see the module docstring)."""
    out = [float(len(tuples))]
    offset = 0
    for t in tuples:
        out += [float(len(t)), float(offset)]
        out += [4.0 * symmetric_cell(c, s) for s in range(SYMMETRIES) for c in t]
        offset += 16 ** len(t)
    return np.array(out)


@dataclass(frozen=True)
class Network:
    """A named network and its weight table (float32, lut_size entries)."""

    name: str
    lut: np.ndarray

    def __post_init__(self) -> None:
        size = lut_size(network_tuples(self.name))
        if self.lut.dtype != np.float32 or self.lut.shape != (size,):
            raise ValueError(
                f"network {self.name!r} needs a float32 table of {size} entries, "
                f"got {self.lut.dtype} {self.lut.shape}"
            )

    @property
    def tuples(self) -> tuple[tuple[int, ...], ...]:
        return network_tuples(self.name)


def zero_network(name: str) -> Network:
    """An untrained network: every weight 0."""
    return Network(name, np.zeros(lut_size(network_tuples(name)), dtype=np.float32))


def save_network(path: str | Path, network: Network) -> None:
    """Write a network as a compressed .npz (name, lut), byte for byte the same for the same
    network (np.savez stamps the time into the archive; here every entry is dated 1980-01-01)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for key, array in (("name", np.array(network.name)), ("lut", network.lut)):
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asarray(array), allow_pickle=False)


def load_network(path: str | Path) -> Network:
    """Read a network written by save_network; ValueError naming the file on a bad one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return Network(str(data["name"]), np.ascontiguousarray(data["lut"]))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: not an n-tuple network file ({exc})") from None


def prepare(network: Network) -> tuple[np.ndarray, np.ndarray]:
    """(weights, table) for numba: the layout and the lut viewed as float64."""
    lut = np.ascontiguousarray(network.lut)
    if lut.size % 2:  # a float64 view needs an even number of float32 entries
        lut = np.append(lut, np.float32(0.0))
    return layout(network.tuples), lut.view(np.float64)


@njit(cache=True, inline="always")
def tuple_index(board: np.uint64, weights: np.ndarray, p: int, n: int) -> int:
    """The index into a tuple's table of the cells whose shifts are weights[p : p + n]."""
    idx = 0
    for j in range(n):
        shift = np.uint64(np.int64(weights[p + j]))  # via int64: one conversion instruction
        idx |= np.int64((board >> shift) & np.uint64(0xF)) << (4 * j)
    return idx


@njit(cache=True)
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """V(board): the sum of the table entries of every tuple under every symmetry."""
    lut = table.view(np.float32)
    total = 0.0
    p = 1
    for _ in range(int(weights[0])):
        n = int(weights[p])
        offset = int(weights[p + 1])
        p += 2
        for _ in range(SYMMETRIES):
            total += lut[offset + tuple_index(board, weights, p, n)]
            p += n
    return total


@njit(cache=True)
def indices(board: np.uint64, weights: np.ndarray, idx: np.ndarray) -> None:
    """The lut entries V(board) reads, into idx (m x 8 of them, tuple by tuple)."""
    p = 1
    k = 0
    for _ in range(int(weights[0])):
        n = int(weights[p])
        offset = int(weights[p + 1])
        p += 2
        for _ in range(SYMMETRIES):
            idx[k] = offset + tuple_index(board, weights, p, n)
            p += n
            k += 1
