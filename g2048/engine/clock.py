"""A monotonic clock that njit code can read and cache: clock_gettime(CLOCK_MONOTONIC) called
from LLVM by its symbol name (about 30 ns a reading). A ctypes function pointer would work too,
but numba refuses to cache functions that hold one, and objmode takes the GIL (about 800 ns).
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

_CLOCK_MONOTONIC = 1  # Linux's clock id


@intrinsic
def _clock_gettime_ns(typingctx):  # noqa: ANN001, ANN202, ARG001
    def codegen(context, builder, sig, args):  # noqa: ANN001, ANN202, ARG001
        i64 = ir.IntType(64)
        timespec = cgutils.alloca_once(builder, ir.ArrayType(i64, 2))  # seconds, nanoseconds
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.type])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        builder.call(fn, [ir.Constant(ir.IntType(32), _CLOCK_MONOTONIC), timespec])
        seconds = builder.load(cgutils.gep(builder, timespec, 0, 0))
        nanoseconds = builder.load(cgutils.gep(builder, timespec, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)

    return types.int64(), codegen


@njit(cache=True, nogil=True)
def monotonic_ns() -> int:
    """Nanoseconds on the monotonic clock (the same clock as time.monotonic_ns on Linux)."""
    return _clock_gettime_ns()
