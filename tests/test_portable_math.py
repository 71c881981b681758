"""Results must not depend on the CPU: no numpy transcendental ufunc computes a result value.

numpy computes exp, log, log1p, log2, power, sin, ... with SIMD code chosen at run time: on CPUs
with AVX-512 with Intel's SVML (up to 4 ULP from the exact value), elsewhere with the C library.
The last bits then differ between machines, and search results follow them (the cause of issue
15: ovolve's ln table and NSGA-II's operators). The layers that compute results use the C
library's scalar functions (math.*), numba, whose compiled code calls the C library too, or
decimal arithmetic for a table computed once.
"""

import ast
import math
from decimal import Context, Decimal
from pathlib import Path

import numpy as np
import pytest

from g2048.evaluators import ovolve
from g2048.study.objectives import log2_tiles
from g2048.tuning.nsga2 import scalar_pow

PACKAGE = Path(__file__).resolve().parent.parent / "g2048"
RESULT_LAYERS = ("engine", "evaluators", "agents", "play.py", "tuning", "study")
SIMD_UFUNCS = {
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "power", "float_power", "sin",
    "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "cbrt", "hypot", "logaddexp", "logaddexp2",
}  # fmt: skip


def _numba_compiled(node: ast.FunctionDef) -> bool:
    names = {ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list}
    return bool(names & {"njit", "numba.njit", "jit"})


def simd_calls(source: str) -> list[str]:
    """`np.<ufunc>(...)` calls of SIMD_UFUNCS outside numba-compiled functions."""
    found = []

    def visit(node: ast.AST, compiled: bool) -> None:
        if isinstance(node, ast.FunctionDef):
            compiled = compiled or _numba_compiled(node)
        if (
            not compiled
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("np", "numpy")
            and node.func.attr in SIMD_UFUNCS
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        for child in ast.iter_child_nodes(node):
            visit(child, compiled)

    visit(ast.parse(source), False)
    return found


def result_modules() -> list[Path]:
    return sorted(
        path
        for layer in RESULT_LAYERS
        for path in (
            [PACKAGE / layer] if layer.endswith(".py") else (PACKAGE / layer).rglob("*.py")
        )
    )


@pytest.mark.parametrize("path", result_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_result_code_calls_no_simd_transcendental(path: Path) -> None:
    assert simd_calls(path.read_text()) == []


def test_the_scan_finds_numpy_calls_but_not_numba_ones() -> None:
    source = (
        "import numpy as np\nfrom numba import njit\n"
        "x = np.log1p(3.0)\n"
        "@njit(cache=True)\ndef f(a):\n    return np.exp(a)\n"
        "def g(a):\n    return np.power(a, 0.5) + np.sqrt(a)\n"
    )
    assert simd_calls(source) == ["line 3: np.log1p(3.0)", "line 8: np.power(a, 0.5)"]


def test_ovolve_ln_table_is_correctly_rounded() -> None:
    exact = [float((Decimal(1 + k)).ln(Context(prec=60))) for k in range(17)]
    assert ovolve.LN_EMPTY.tolist() == exact


def test_scalar_pow_is_the_c_library_pow_where_asked() -> None:
    rng = np.random.default_rng(1)
    base, exponent = rng.random((3, 5)), rng.random(5) * 20 - 10
    where = rng.random((3, 5)) < 0.5
    got = scalar_pow(base, exponent, where)
    for (i, j), value in np.ndenumerate(got):
        if where[i, j]:
            assert value == math.pow(base[i, j], exponent[j]), (i, j)
        else:
            assert math.isnan(value)
    assert scalar_pow(2.0, 0.5).item() == math.sqrt(2.0)


def test_log2_tiles_is_exact() -> None:
    import pandas as pd

    tiles = pd.Series([2**k for k in range(1, 16)])
    assert log2_tiles(tiles).tolist() == [float(k) for k in range(1, 16)]
