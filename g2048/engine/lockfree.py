"""What njit code needs to share memory between threads without locks: an atomic counter, from
which the threads of one parallel loop claim work items (numba's prange splits its range up
front, so one long item would leave the other threads idle), and the bits of a float, for
checksums that detect an entry torn by two threads writing it at once."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array


@intrinsic
def _fetch_add(typingctx, counter, delta):  # noqa: ANN001, ANN202, ARG001
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64):
        return None

    def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202, ARG001
        array = make_array(sig.args[0])(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        slot = cgutils.get_item_pointer(context, builder, sig.args[0], array, [zero])
        step = context.cast(builder, args[1], sig.args[1], types.int64)
        return builder.atomic_rmw("add", slot, step, "seq_cst")

    return types.int64(counter, types.int64), codegen


@intrinsic
def _bits(typingctx, x):  # noqa: ANN001, ANN202, ARG001
    if x != types.float64:
        return None

    def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202, ARG001
        return builder.bitcast(args[0], context.get_value_type(types.uint64))

    return types.uint64(types.float64), codegen


@njit(cache=True, nogil=True)
def fetch_add(counter: np.ndarray, delta: int) -> int:
    """Add delta to counter[0] (an int64 array) atomically; return its value before."""
    return _fetch_add(counter, delta)


@njit(cache=True, nogil=True, inline="always")
def float_bits(x: float) -> np.uint64:
    """The IEEE 754 bits of a float64."""
    return _bits(np.float64(x))
