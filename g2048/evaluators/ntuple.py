"""n-tuple networks: a learned afterstate value, V(board) = sum over tuples and over the 8
symmetries of the board of lut[tuple][ranks of the tuple's cells] (Szubert & Jaskowski 2014).

A network is a list of tuples of cells (row-major, 0..15) and one float32 weight table of
16**n entries per tuple, stored back to back in one flat `lut`. Its value estimates the score
still to come after a move (before the tile spawns), so agents add the rewards along the path
(AFTERSTATE in g2048.evaluators); a dead board is worth 0.

Numba takes a network as (weights, table), like any evaluator: `weights` is the float64
layout vector [m, then per tuple: offset into lut, k, then k (rotation, mask) pairs, one per run
of consecutive cells]; `table` is the float32 lut viewed as float64 (no copy; `value` views it
back). A value first makes the board's 8 images (`symmetric_boards`, a transpose and a few
swaps of rows and of nibbles), then reads every tuple off each image as TDL2048+ does: a run of
cells is one rotation and one mask, cell j of a tuple landing in nibble j of its index (four
6-tuples: 6 masks per image instead of 24 nibbles). The sum runs tuple by tuple, each over the
8 images in order, in float64, so values are the same to the bit as reading each cell's nibble.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from g2048.engine.bitboard import transpose

NAME = "ntuple"
# Named networks: Wu et al. (TAAI 2014), four 6-tuples (4 x 16**6 weights, 268 MB as float32);
# Szubert & Jaskowski (CIG 2014), two straight 4-tuples and two 2x3 rectangles (134 MB); and
# two straight 4-tuples alone (0.5 MB), quick to learn, for tests and the smoke study. Then
# TDL2048+'s standard patterns by its names: 4x6patt (Yeh et al.'s, the tuples of wu6x4),
# 5x6patt, 4x5patt, 2x4patt (the tuples of lines4x2) and Matsuzaki's 6- to 8x6patt (8 x 16**6
# weights, 537 MB).
_MATSUZAKI = (
    (0, 1, 2, 4, 5, 6),
    (4, 5, 6, 7, 8, 9),
    (0, 1, 2, 3, 4, 5),
    (2, 3, 4, 5, 6, 9),
    (0, 1, 2, 5, 9, 10),
    (3, 4, 5, 6, 7, 8),
    (1, 3, 4, 5, 6, 7),
    (0, 1, 4, 8, 9, 10),
)
_SIX_4 = ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10))
_LINES = ((0, 1, 2, 3), (4, 5, 6, 7))
NETWORKS: dict[str, tuple[tuple[int, ...], ...]] = {
    "wu6x4": _SIX_4,
    "sj4x2+6x2": (*_LINES, *_SIX_4[2:]),
    "lines4x2": _LINES,
    "4x6patt": _SIX_4,
    "5x6patt": (
        (0, 1, 2, 3, 4, 5),
        (4, 5, 6, 7, 8, 9),
        (8, 9, 10, 11, 12, 13),
        (0, 1, 2, 4, 5, 6),
        (4, 5, 6, 8, 9, 10),
    ),
    "4x5patt": ((0, 1, 2, 3, 4), (4, 5, 6, 7, 8), (0, 1, 2, 4, 5), (4, 5, 6, 8, 9)),
    "2x4patt": _LINES,
    **{f"{m}x6patt": _MATSUZAKI[:m] for m in (6, 7, 8)},
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


def tuple_runs(t: tuple[int, ...]) -> list[tuple[int, int]]:
    """A tuple's cells as runs of consecutive cells: (rotation, mask) pairs such that the
    tuple's index in an image is the OR of (image rotated right by `rotation`) & mask."""
    runs = []
    j = 0
    while j < len(t):
        end = j + 1
        while end < len(t) and t[end] == t[end - 1] + 1:
            end += 1
        rotation = (4 * (t[j] - j)) % 64
        runs.append((rotation, ((1 << (4 * (end - j))) - 1) << (4 * j)))
        j = end
    return runs


def layout(tuples: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """The float64 layout vector numba reads (see the module docstring)."""
    out = [float(len(tuples))]
    offset = 0
    for t in tuples:
        runs = tuple_runs(t)
        out += [float(offset), float(len(runs))]
        out += [float(x) for run in runs for x in run]
        offset += 16 ** len(t)
    return np.array(out)


def network_shape(tuples: tuple[tuple[int, ...], ...]) -> tuple[tuple[np.uint64, ...], ...]:
    """The tuples as constants for kernels compiled per network (`shape_value`): per tuple,
    its offset into lut and its runs' (rotation, mask) pairs, padded with (0, 0) to the
    network's most runs. A kernel that holds the shape as a closure constant gets every
    rotation, mask and loop bound folded in at compile time, as TDL2048+'s templates do."""
    runs = [tuple_runs(t) for t in tuples]
    most = max(len(r) for r in runs)
    out = []
    offset = 0
    for t, rs in zip(tuples, runs, strict=True):
        rs = rs + [(0, 0)] * (most - len(rs))
        out.append(tuple(np.uint64(x) for x in (offset, *(v for run in rs for v in run))))
        offset += 16 ** len(t)
    return tuple(out)


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
    return initial_network(name, 0.0)


def initial_network(name: str, value: float) -> Network:
    """An untrained network that values every board at `value`: each weight value / (m x 8),
    the weights a value reads (optimistic initialisation, OTD: Guei, Chen & Wu 2021, where
    320 000 makes every state look better than any the network has yet seen)."""
    tuples = network_tuples(name)
    weight = np.float32(value / (len(tuples) * SYMMETRIES))
    return Network(name, np.full(lut_size(tuples), weight, dtype=np.float32))


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
def _mirror(b: np.uint64) -> np.uint64:
    """The board with each row's cells in reverse order (cell (r, c) -> (r, 3 - c))."""
    b = ((b & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4)) | (
        (b >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)
    )
    return ((b & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8)) | (
        (b >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)
    )


@njit(cache=True, inline="always")
def _flip(b: np.uint64) -> np.uint64:
    """The board with its rows in reverse order (cell (r, c) -> (3 - r, c))."""
    b = ((b & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16)) | (
        (b >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)
    )
    return (b << np.uint64(32)) | (b >> np.uint64(32))


@njit(cache=True, inline="always")
def symmetric_boards(b: np.uint64) -> tuple:
    """The 8 images of b: image s holds in cell c what b holds in `symmetric_cell(c, s)`."""
    b = np.uint64(b)
    t = transpose(b)
    m = _mirror(b)
    mt = _mirror(t)
    return (b, _flip(t), _flip(m), mt, m, t, _flip(b), _flip(mt))


@njit(cache=True, inline="always")
def _rotate_right(x: np.uint64, r: np.uint64) -> np.uint64:
    return (x >> r) | (x << ((np.uint64(64) - r) & np.uint64(63)))


@njit(cache=True, inline="always")
def run_index(image: np.uint64, weights: np.ndarray, q: int, k: int) -> np.uint64:
    """The index of a tuple in one image, from its k (rotation, mask) runs at weights[q:]."""
    idx = np.uint64(0)
    for r in range(k):
        rotation = np.uint64(np.int64(weights[q + 2 * r]))  # via int64: one instruction
        mask = np.uint64(np.int64(weights[q + 2 * r + 1]))
        idx |= _rotate_right(image, rotation) & mask
    return idx


@njit(cache=True)
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """V(board): the sum of the table entries of every tuple under every symmetry."""
    lut = table.view(np.float32)
    images = symmetric_boards(board)
    total = 0.0
    p = 1
    for _ in range(int(weights[0])):
        offset = np.uint64(np.int64(weights[p]))
        k = int(weights[p + 1])
        for image in images:
            total += lut[offset + run_index(image, weights, p + 2, k)]
        p += 2 + 2 * k
    return total


@njit(cache=True)
def indices(board: np.uint64, weights: np.ndarray, idx: np.ndarray) -> None:
    """The lut entries V(board) reads, into idx (m x 8 of them, tuple by tuple)."""
    images = symmetric_boards(board)
    p = 1
    n = 0
    for _ in range(int(weights[0])):
        offset = np.uint64(np.int64(weights[p]))
        k = int(weights[p + 1])
        for image in images:
            idx[n] = offset + run_index(image, weights, p + 2, k)
            n += 1
        p += 2 + 2 * k


@intrinsic
def prefetch(typingctx, array, index):  # noqa: ANN001, ANN201, ARG001
    """Ask the CPU to bring array[index] into its caches (LLVM's prefetch: read, high
    locality, data), without waiting for it; no effect on any result."""
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        array_type = signature.args[0]
        ary = context.make_array(array_type)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, array_type, ary, [args[1]])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def shape_index(image: np.uint64, spec: tuple) -> np.uint64:
    """The index (offset included) of one tuple of a `network_shape` in one image."""
    idx = spec[0]
    for r in range((len(spec) - 1) // 2):
        idx += _rotate_right(image, spec[1 + 2 * r]) & spec[2 + 2 * r]
    return idx


@njit(cache=True, inline="always")
def shape_value(board: np.uint64, shape: tuple, lut: np.ndarray) -> float:
    """`value` for a network given by its `network_shape` (a compile-time constant in a kernel
    built per network) and its float32 lut: the same sum, in the same order."""
    images = symmetric_boards(board)
    total = 0.0
    for spec in shape:
        for image in images:
            total += lut[shape_index(image, spec)]
    return total


@njit(cache=True, inline="always")
def shape_indices(board, shape, idx, at=0, lut=None) -> None:  # noqa: ANN001
    """`indices` for a network given by its `network_shape`, into idx[at : at + m x 8]; with
    `lut`, each entry is also prefetched (`prefetch`), so that the memory waits of several
    boards' values overlap where one value's loads would each stall on a cache miss."""
    images = symmetric_boards(board)
    n = at
    for spec in shape:
        for image in images:
            i = shape_index(image, spec)
            idx[n] = i
            if lut is not None:
                prefetch(lut, i)
            n += 1
