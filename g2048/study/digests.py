"""Digests of a study's result files, to check that another machine reproduces them.

Every CSV and JSON under results/ counts, except the provenance records (which name the machine). A
CSV is read as text with the csv module, its TIMING_COLUMNS dropped, the rows of timed games (and
table rows made from them) reduced to a marker, the NODE_COLUMNS of rows searched in parallel
dropped, and each row digested; a JSON file is digested line
by line (the files are written indented with sorted keys). A file's digest is that of its row
digests, so two digest files can say which row of which file is the first to differ, without the
results of the other machine at hand.
"""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path

from g2048.study.naming import TIMING_COLUMNS
from g2048.study.results import (
    NODE_COLUMNS,
    PARALLEL_COLUMN,
    TIMED_COLUMN,
    read_json,
    write_json,
)

EXCLUDED = ("provenance",)  # folders under results/ that describe the machine, not the results


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def csv_rows(text: str) -> list[str]:
    """The rows of a CSV file as text, header first, without the timing columns; a row whose
    TIMED_COLUMN is True (games under a time budget) reads as that column's name alone, and one
    whose PARALLEL_COLUMN is True (parallel search) without its NODE_COLUMNS."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return []
    header = rows[0]
    keep = [i for i, name in enumerate(header) if name not in TIMING_COLUMNS]
    keep_parallel = [i for i in keep if header[i] not in NODE_COLUMNS]
    timed, parallel = (
        header.index(name) if name in header else None for name in (TIMED_COLUMN, PARALLEL_COLUMN)
    )

    def flag(row: list[str], i: int | None) -> bool:
        return i is not None and i < len(row) and row[i] == "True"

    out = [",".join(header[k] for k in keep)]
    for row in rows[1:]:
        if flag(row, timed):
            out.append(TIMED_COLUMN)
        else:
            columns = keep_parallel if flag(row, parallel) else keep
            out.append(",".join(row[k] for k in columns if k < len(row)))
    return out


def file_rows(path: Path) -> list[str]:
    """The rows (CSV) or lines (JSON) of a result file, as digested."""
    text = path.read_text()
    return csv_rows(text) if path.suffix == ".csv" else text.splitlines()


def result_digests(results: str | Path) -> dict[str, dict]:
    """{path relative to the results folder's parent: {"digest", "rows"}} for every result file."""
    results = Path(results)
    out = {}
    for path in sorted(results.rglob("*")):
        rel = path.relative_to(results)
        if path.suffix not in (".csv", ".json") or rel.parts[0] in EXCLUDED:
            continue
        rows = [_digest(row) for row in file_rows(path)]
        key = (Path(results.name) / rel).as_posix()
        out[key] = {"digest": _digest("".join(rows)), "rows": rows}
    return out


def write_digests(results: str | Path, out: str | Path, note: str = "") -> int:
    """Write the digests of a results folder to `out`; returns the number of files."""
    files = result_digests(results)
    write_json(out, {"note": note, "timing_columns_left_out": TIMING_COLUMNS, "files": files})
    return len(files)


def first_difference(
    expected: dict[str, dict], actual: dict[str, dict], base: Path, partial: bool = False
) -> str | None:
    """The first file (in path order) whose digest differs, with its first differing row shown
    as this machine has it, or None when all agree. A file of `expected` missing from `actual`
    is a difference unless `partial` (a rerun of a subset of the jobs)."""
    for key in sorted(expected.keys() | actual.keys()):
        if key not in actual:
            if partial:
                continue
            return f"{key}: missing here"
        if key not in expected:
            return f"{key}: not in the digest file (a result the reference run did not make)"
        want, got = expected[key]["rows"], actual[key]["rows"]
        if want == got:
            continue
        for i, (a, b) in enumerate(zip(want, got, strict=False)):
            if a != b:
                row = file_rows(base / key)[i]
                return f"{key}: row {i} (0 = header) differs; here it reads: {row}"
        return f"{key}: {len(got)} rows here, {len(want)} in the digest file"
    return None


def verify(digest_file: str | Path, results: str | Path, partial: bool = False) -> str | None:
    """Compare a results folder with a digest file: None, or the first difference."""
    expected = read_json(digest_file)["files"]
    actual = result_digests(results)
    if partial and not actual.keys() & expected.keys():
        return f"no result file of {digest_file} is under {results}"
    return first_difference(expected, actual, Path(results).parent, partial)
