"""g2048: reproducible experiments with 2048-playing agents.

Layers, each a folder, importing only from the layers before it: engine (rules, random numbers,
reference) < evaluators < agents < play (the batch runner) < learning (TD training of n-tuple
networks) < study (config, naming, objectives, stages, results) < report (statistics, tables,
figures, claims) < cli. The tuners in `tuning`
are generic optimisers that import nothing of the package. `api` (after play) is the Python API
of one move: `from g2048 import AgentConfig, decide` (g2048.api), imported on first use, so
`import g2048` stays light.

Numba's on-disk cache only notices edits to the file that defines a function, not to the
functions it calls from other modules, so a stale engine could hide inside a cached agent.
The cache therefore lives in a folder named after a digest of the package's modules that use
numba (an edit to any of them recompiles everything once).
"""

from __future__ import annotations

import hashlib
import os
import sys
import zipfile
from pathlib import Path

__version__ = "0.1.0"


def source_digest(numba_only: bool = False, exclude: tuple[str, ...] = ()) -> str:
    """A short digest of the package's Python sources: all of them, those using numba, or all
    but the `exclude`d files and folders (paths relative to the package, e.g. "report")."""
    h = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        name = path.relative_to(root).as_posix()
        if (numba_only and b"numba" not in text) or any(
            name == x or name.startswith(x + "/") for x in exclude
        ):
            continue
        h.update(path.relative_to(root).as_posix().encode())
        h.update(text)
    return h.hexdigest()[:16]


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes (as sha256sum prints it), read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def archive_problem(path: str | Path, error: Exception) -> str:
    """Why an .npz archive (a checkpoint) could not be read, `error` being what reading it
    raised: empty, not a whole archive, or the error itself."""
    if Path(path).stat().st_size == 0:
        return "empty"
    if not zipfile.is_zipfile(path):
        return "not a whole .npz archive: truncated?"
    return f"{type(error).__name__}: {error}"


def _set_numba_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    digest = source_digest(numba_only=True)
    os.environ["NUMBA_CACHE_DIR"] = str(base / "g2048" / "numba" / digest)
    # numba reads the variable when it is imported; if it already was, its config is set too
    # (not imported here: `import g2048` stays quick, for a handler installed before it)
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


_set_numba_cache_dir()

# The Python API (g2048.api), by name from the package root.
_API = ("AgentConfig", "Decision", "GameOverError", "Player", "decide", "encode", "parse_board")


def __getattr__(name: str) -> object:
    """A name of the Python API (`from g2048 import decide`), imported on its first use."""
    if name in _API:
        from g2048 import api

        return getattr(api, name)
    raise AttributeError(f"module 'g2048' has no attribute {name!r}")
