"""g2048: reproducible experiments with 2048-playing agents.

Numba's on-disk cache only notices edits to the file that defines a function, not to the
functions it calls from other modules, so a stale engine could hide inside a cached agent.
The cache therefore lives in a folder named after a digest of the whole package's source.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"


def source_digest() -> str:
    """A short digest of every Python source file of the package."""
    h = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _set_numba_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["NUMBA_CACHE_DIR"] = str(base / "g2048" / "numba" / source_digest())
    import numba.core.config

    numba.core.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


_set_numba_cache_dir()
