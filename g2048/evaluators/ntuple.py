"""n-tuple networks: a learned afterstate value, V(board) = sum over tuples and over the 8
symmetries of the board of lut[tuple][ranks of the tuple's cells] (Szubert & Jaskowski 2014).

A network is a list of tuples of cells (row-major, 0..15) and one float32 weight table of
16**n entries per tuple, stored back to back in one flat `lut`; it is one of the named networks
(NETWORKS) or named by its cells, "0,1,2,3;4,5,6,7" (`pattern_name`). A multistage network (Yeh et
al. 2017) has one such table per stage, back to back: `stages` are tile thresholds (e.g.
16384), and a board is valued by the table of stage k = how many thresholds its largest tile
reaches, a function of the board alone, so search and training agree on it. Its value
estimates the score still to come after a move (before the tile spawns), so agents add the
rewards along the path (AFTERSTATE in g2048.evaluators); a dead board is worth 0.

With tile-downgrading (Guei, Chen & Wu 2021, TDL2048+'s `-h`), a board whose largest tile
reaches a threshold is valued as the board the network would see with its highest missing
tile's gap closed (`downgraded`): tiles it has hardly ever seen become tiles it knows.

Numba takes a network as (weights, table), like any evaluator: `weights` is the float64
layout vector [m, the stride between stages' tables, the downgrading threshold's rank (0 =
off), s, the s stage thresholds' ranks, then per tuple: offset into lut, k, then k (rotation,
mask) pairs, one per run of consecutive cells]; `table` is the float32 lut viewed as float64
(no copy; `value` views it back). A value first makes the board's 8 images
(`symmetric_boards`, a transpose and a few swaps of rows and of nibbles), then reads every
tuple off each image as TDL2048+ does: a run of cells is one rotation and one mask, cell j of a
tuple landing in nibble j of its index (four 6-tuples: 6 masks per image instead of 24
nibbles). The sum runs tuple by tuple, each over the 8 images in order, in float64, so values
are the same to the bit as reading each cell's nibble.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from g2048.engine.bitboard import max_rank, transpose

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


# A network of its own tuples is named by its cells: each tuple's cells (0..15, row-major) by
# commas, the tuples by semicolons, "0,1,2,3,4,5;4,5,6,7,8,9" (`pattern_name`).
PATTERN = r"[0-9]+(,[0-9]+)*(;[0-9]+(,[0-9]+)*)*"
MAX_PATTERN_CELLS = 8  # 16**8 float32 weights, 16 GiB, in a tuple of 8 cells


def pattern_name(text: str) -> str:
    """The name of the network of the tuples in `text` ("0,1,2,3;4,5,6,7", spaces ignored),
    checked; ValueError in one line naming the bad tuple."""
    name = "".join(text.split())
    if not re.fullmatch(PATTERN, name):
        raise ValueError(
            f"patterns {text!r}: each tuple's cells (0..15) separated by commas, the tuples by "
            "semicolons, e.g. '0,1,2,3;4,5,6,7'"
        )
    for pattern in name.split(";"):
        cells = [int(c) for c in pattern.split(",")]
        if bad := [c for c in cells if c > 15]:
            raise ValueError(f"pattern {pattern}: cell {bad[0]} is not one of the cells 0..15")
        if len(set(cells)) < len(cells):
            twice = next(c for c in cells if cells.count(c) > 1)
            raise ValueError(f"pattern {pattern}: cell {twice} appears twice")
        if len(cells) > MAX_PATTERN_CELLS:
            raise ValueError(
                f"pattern {pattern}: {len(cells)} cells, at most {MAX_PATTERN_CELLS} (16**n "
                "weights a tuple)"
            )
    return name


def pattern_cells(tuples: tuple[tuple[int, ...], ...]) -> str:
    """Tuples by their cells, the name of a network of them: "0,1,2,3;4,5,6,7"."""
    return ";".join(",".join(map(str, t)) for t in tuples)


def network_tuples(name: str) -> tuple[tuple[int, ...], ...]:
    """The tuples of the network called `name`: a named network, or one named by its cells
    (`pattern_name`); ValueError listing the known names, or naming the bad tuple."""
    if name in NETWORKS:
        return NETWORKS[name]
    if not re.fullmatch(r"[0-9,;]+", name):
        raise ValueError(
            f"unknown network {name!r}; known: {', '.join(NETWORKS)}, or tuples by their cells "
            "such as '0,1,2,3;4,5,6,7'"
        )
    pattern_name(name)
    return tuple(tuple(int(c) for c in t.split(",")) for t in name.split(";"))


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


def layout(
    tuples: tuple[tuple[int, ...], ...], stages: tuple[int, ...] = (), downgrade: int = 0
) -> np.ndarray:
    """The float64 layout vector numba reads (see the module docstring); `downgrade`: the
    threshold tile of tile-downgrading (0 = off)."""
    down = int(downgrade).bit_length() - 1 if downgrade else 0
    out = [float(len(tuples)), float(lut_size(tuples)), float(down), float(len(stages))]
    out += [float(r) for r in stage_ranks(stages)]
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


MAX_STAGE_TILE = 32768  # the largest tile a board holds (rank 15)


def check_stages(stages: object) -> tuple[int, ...]:
    """The stage thresholds as a tuple of tiles; ValueError unless each is a power of 2 from 4
    to MAX_STAGE_TILE and they increase."""
    out = tuple(int(t) for t in stages)  # type: ignore[union-attr]
    for t in out:
        if t < 4 or t > MAX_STAGE_TILE or t & (t - 1):
            raise ValueError(f"a stage threshold is a tile, 4 to {MAX_STAGE_TILE}, got {t}")
    if any(b <= a for a, b in zip(out, out[1:], strict=False)):
        raise ValueError(f"stage thresholds must increase, got {list(out)}")
    return out


def stage_ranks(stages: tuple[int, ...]) -> tuple[int, ...]:
    """The ranks (log2) of the stage thresholds' tiles."""
    return tuple(int(t).bit_length() - 1 for t in check_stages(stages))


def network_staging(
    tuples: tuple[tuple[int, ...], ...], stages: tuple[int, ...] = ()
) -> tuple[np.uint64, ...]:
    """The stages as constants for kernels compiled per network (`shape_base`): the stride
    between the stages' tables, then the thresholds' ranks."""
    return tuple(np.uint64(x) for x in (lut_size(tuples), *stage_ranks(stages)))


@dataclass(frozen=True)
class Network:
    """A network by its name (`network_tuples`), its stage thresholds (none: one stage) and
    its weight table (float32, lut_size entries per stage)."""

    name: str
    lut: np.ndarray
    stages: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "stages", check_stages(self.stages))
        size = lut_size(network_tuples(self.name)) * (len(self.stages) + 1)
        if self.lut.dtype != np.float32 or self.lut.shape != (size,):
            raise ValueError(
                f"network {self.name!r}{stage_text(self.stages)} needs a float32 table of "
                f"{size} entries, got {self.lut.dtype} {self.lut.shape}"
            )

    @property
    def tuples(self) -> tuple[tuple[int, ...], ...]:
        return network_tuples(self.name)


def stage_text(stages: tuple[int, ...]) -> str:
    """' in N stages (from T1, ...)' for a multistage network, '' for one stage."""
    if not stages:
        return ""
    return f" in {len(stages) + 1} stages (from {', '.join(str(t) for t in stages)})"


def zero_network(name: str, stages: tuple[int, ...] = ()) -> Network:
    """An untrained network: every weight 0."""
    return initial_network(name, 0.0, stages)


def initial_network(name: str, value: float, stages: tuple[int, ...] = ()) -> Network:
    """An untrained network that values every board at `value`: each weight value / (m x 8),
    the weights a value reads (optimistic initialisation, OTD: Guei, Chen & Wu 2021, where
    320 000 makes every state look better than any the network has yet seen)."""
    tuples = network_tuples(name)
    weight = np.float32(value / (len(tuples) * SYMMETRIES))
    size = lut_size(tuples) * (len(check_stages(stages)) + 1)
    return Network(name, np.full(size, weight, dtype=np.float32), tuple(stages))


def save_network(path: str | Path, network: Network) -> None:
    """Write a network as a compressed .npz (name, lut, and stages when it has more than one),
    byte for byte the same for the same network (np.savez stamps the time into the archive;
    here every entry is dated 1980-01-01)."""
    arrays = [("name", np.array(network.name)), ("lut", network.lut)]
    if network.stages:
        arrays.append(("stages", np.array(network.stages, dtype=np.int64)))
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for key, array in arrays:
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asarray(array), allow_pickle=False)


# The first bytes of a zip archive (np.savez's .npz): an entry, or the end of an empty one.
_ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06")
NPZ, TDL2048 = "npz", "TDL2048+"  # the two formats of a network file


def network_format(head: bytes) -> str | None:
    """The format of a network file that starts with the bytes `head` (its first 4 or more):
    NPZ (a zip archive, as save_network writes), TDL2048 (TDL2048+'s weight file, which
    starts with 0, or 'w' then 0), or None."""
    if head[:4] in _ZIP_STARTS:
        return NPZ
    if head[:1] == b"\0" or head[:2] == b"w\0":
        return TDL2048
    return None


def network_file_problem(path: str | Path) -> str | None:
    """Why the file `path` is no network file, by its first bytes, as a phrase ("no such
    file", "is empty (0 bytes)", a TDL2048+ weight file to import), or None when it may be
    one (a zip archive, as save_network writes): the one check of every reader of networks,
    before numpy's (which says "No data left in file" or gives advice on pickles)."""
    try:
        with open(path, "rb") as file:
            head = file.read(4)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not head:
        return "is empty (0 bytes), not a network file"
    kind = network_format(head)
    if kind == NPZ:
        return None
    if kind == TDL2048:
        return (
            "is no network file (.npz) but by its first bytes TDL2048+'s weight file: read it "
            f"with `python -m g2048 import-network {path} --network NAME --out NET.npz`"
        )
    return "is no network file (.npz, as train and import-network write)"


def load_network(path: str | Path) -> Network:
    """Read a network written by save_network (one written before networks had stages is one
    stage); ValueError naming the file on a bad one (`network_file_problem`), or one holding a
    non-finite weight."""
    if (problem := network_file_problem(path)) is not None:
        raise ValueError(f"{path}: {problem}")
    try:
        with np.load(path, allow_pickle=False) as data:
            stages = tuple(data["stages"].tolist()) if "stages" in data.files else ()
            network = Network(str(data["name"]), np.ascontiguousarray(data["lut"]), stages)
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: not an n-tuple network file ({exc})") from None
    finite = np.isfinite(network.lut)
    if not finite.all():
        raise ValueError(
            f"{path}: holds {int(finite.size - finite.sum())} NaN or infinite weights (the "
            f"first at entry {int(np.argmin(finite))}): not a network to play"
        )
    return network


def prepare(network: Network, downgrade: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(weights, table) for numba: the layout (tile-downgrading from the tile `downgrade` on;
    0 = off) and the lut viewed as float64."""
    lut = np.ascontiguousarray(network.lut)
    if lut.size % 2:  # a float64 view needs an even number of float32 entries
        lut = np.append(lut, np.float32(0.0))
    return layout(network.tuples, network.stages, downgrade), lut.view(np.float64)


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
def downgraded(board: np.uint64, rank: int) -> np.uint64:
    """Tile-downgrading: while the largest tile's rank is `rank` or more and some rank between
    1 and it is missing from the board, every tile above the highest missing rank moves down
    one rank (so equal tiles stay equal and the order of tiles is kept); rank 0 = the board."""
    b = np.uint64(board)
    if rank <= 0:
        return b
    while True:
        present = 0
        for i in range(16):
            present |= 1 << int((b >> np.uint64(4 * i)) & np.uint64(15))
        top = max_rank(b)
        if top < rank:
            return b
        hole = top - 1
        while hole > 0 and present & (1 << hole):
            hole -= 1
        if hole == 0:
            return b
        out = np.uint64(0)
        for i in range(16):
            r = (b >> np.uint64(4 * i)) & np.uint64(15)
            if r > hole:
                r -= np.uint64(1)
            out |= r << np.uint64(4 * i)
        b = out


@njit(cache=True, inline="always")
def _stage_base(board: np.uint64, weights: np.ndarray) -> tuple[np.uint64, int]:
    """(the offset of the board's stage's table, where the layout's tuples begin)."""
    stages = int(weights[3])
    base = np.uint64(0)
    if stages:
        top = max_rank(board)
        stride = np.uint64(np.int64(weights[1]))
        for k in range(stages):
            if top >= weights[4 + k]:
                base += stride
    return base, 4 + stages


@njit(cache=True)
def value(board: np.uint64, weights: np.ndarray, table: np.ndarray) -> float:
    """V(board): the sum of the table entries of every tuple under every symmetry, in the
    table of the board's stage; with tile-downgrading, of the board `downgraded`."""
    lut = table.view(np.float32)
    board = np.uint64(board)  # (a Python int is typed int64)
    if weights[2] > 0:
        board = downgraded(board, int(weights[2]))
    images = symmetric_boards(board)
    total = 0.0
    base, p = _stage_base(board, weights)
    for _ in range(int(weights[0])):
        offset = base + np.uint64(np.int64(weights[p]))
        k = int(weights[p + 1])
        for image in images:
            total += lut[offset + run_index(image, weights, p + 2, k)]
        p += 2 + 2 * k
    return total


@njit(cache=True)
def indices(board: np.uint64, weights: np.ndarray, idx: np.ndarray) -> None:
    """The lut entries V(board) reads, into idx (m x 8 of them, tuple by tuple)."""
    board = np.uint64(board)  # (a Python int is typed int64)
    if weights[2] > 0:
        board = downgraded(board, int(weights[2]))
    images = symmetric_boards(board)
    base, p = _stage_base(board, weights)
    n = 0
    for _ in range(int(weights[0])):
        offset = base + np.uint64(np.int64(weights[p]))
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
def shape_base(board: np.uint64, staging: tuple) -> np.uint64:
    """The offset of the board's stage's table, for a network given by its `network_staging`
    (with one stage, a constant 0 the compiler folds)."""
    base = np.uint64(0)
    if len(staging) > 1:
        top = np.uint64(max_rank(board))
        for k in range(1, len(staging)):
            if top >= staging[k]:
                base += staging[0]
    return base


@njit(cache=True, inline="always")
def shape_value(board: np.uint64, shape: tuple, staging: tuple, lut: np.ndarray) -> float:
    """`value` for a network given by its `network_shape` and `network_staging` (compile-time
    constants in a kernel built per network) and its float32 lut: the same sum, in the same
    order."""
    images = symmetric_boards(board)
    base = shape_base(board, staging)
    total = 0.0
    for spec in shape:
        for image in images:
            total += lut[base + shape_index(image, spec)]
    return total


@njit(cache=True, inline="always")
def shape_indices(board, shape, staging, idx, at=0, lut=None) -> None:  # noqa: ANN001
    """`indices` for a network given by its `network_shape` and `network_staging`, into
    idx[at : at + m x 8]; with `lut`, each entry is also prefetched (`prefetch`), so that the
    memory waits of several boards' values overlap where one value's loads would each stall on
    a cache miss."""
    images = symmetric_boards(board)
    base = shape_base(board, staging)
    n = at
    for spec in shape:
        for image in images:
            i = base + shape_index(image, spec)
            idx[n] = i
            if lut is not None:
                prefetch(lut, i)
            n += 1
