"""Digests of a study's result files, to check that another machine reproduces them.

Every file under results/ counts, except the provenance records (which name the machine) and the
renderings of tables and figures (RENDERINGS: Markdown, LaTeX and HTML tables end with the
machine's name and show timing columns, figures plot them; their data is in the tables' CSVs).
A CSV is read as text with the csv module, its TIMING_COLUMNS dropped, the rows of timed games
(and table rows made from them) reduced to a marker, the NODE_COLUMNS of rows searched in
parallel dropped, and each row digested; a JSON file is digested line by line (the files are
written indented with sorted keys); any other file is binary and digested by its bytes: a ZIP
archive (a network's .npz) member by member, by the member's name and uncompressed bytes (so
that zlib's version, which may compress the same bytes differently, does not matter), one row
each, any other file as one row. A file's digest is that of its row digests, so two digest
files can say which row of which file is the first to differ, without the results of the other
machine at hand.
"""

from __future__ import annotations

import csv
import hashlib
import io
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from g2048.study.naming import TIMING_COLUMNS
from g2048.study.results import (
    NODE_COLUMNS,
    PARALLEL_COLUMN,
    TIMED_COLUMN,
    parse_json,
    write_json,
)

EXCLUDED = ("provenance",)  # folders under results/ that describe the machine, not the results
RENDERINGS = (".md", ".tex", ".html", ".png", ".pdf")  # of tables and figures (module docstring)
REWRITE = "write it again with `python -m g2048 digest` (or restore the committed one with git)"


class DigestFileError(ValueError):
    """A digest file that cannot be used (unreadable, or not what `digest` writes), or one that
    cannot be written: the message names it, the fault and the remedy."""

    def __init__(self, path: str | Path, problem: str, remedy: str = REWRITE) -> None:
        super().__init__(f"digest file {path}: {problem}; {remedy}")


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


def _bytes_row(stream: io.BufferedIOBase, name: str = "") -> str:
    """A binary file's (or archive member's) row: its name, size and SHA-256, read in chunks."""
    h, size = hashlib.sha256(), 0
    while chunk := stream.read(1 << 20):
        h.update(chunk)
        size += len(chunk)
    return f"{name + ': ' if name else ''}{size} bytes, sha256 {h.hexdigest()}"


def file_rows(path: Path) -> list[str]:
    """The rows (CSV) or lines (JSON) of a result file, or a binary file's rows (its members'
    or its bytes'), as digested. A CSV or JSON file that is not UTF-8 text is digested as
    binary (its rows then differ from any text's)."""
    if path.suffix in (".csv", ".json"):
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            pass
        else:
            return csv_rows(text) if path.suffix == ".csv" else text.splitlines()
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                rows = []
                for info in archive.infolist():
                    with archive.open(info) as member:
                        rows.append(_bytes_row(member, info.filename))
                return rows
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError):
            pass  # a damaged archive: digested by its bytes
    with open(path, "rb") as f:
        return [_bytes_row(f)]


def is_result(rel: Path) -> bool:
    """Whether a file under results/ (`rel`, relative to it) is digested (module docstring)."""
    return rel.parts[0] not in EXCLUDED and rel.suffix not in RENDERINGS


def result_digests(results: str | Path) -> dict[str, dict]:
    """{path relative to the results folder's parent: {"digest", "rows"}} for every result file."""
    results = Path(results)
    out = {}
    for path in sorted(results.rglob("*")):
        rel = path.relative_to(results)
        if not path.is_file() or not is_result(rel):
            continue
        try:
            rows = [_digest(row) for row in file_rows(path)]
        except OSError as exc:
            raise DigestFileError(
                path, f"cannot be read ({exc.strerror or exc})", "make it readable, or delete it"
            ) from None
        key = (Path(results.name) / rel).as_posix()
        out[key] = {"digest": _digest("".join(rows)), "rows": rows}
    return out


def docs_digests(folders: Sequence[str | Path]) -> dict[str, str]:
    """{path: SHA-256} of every file under `folders` (the tables and figures a run's docs copy
    from its results: renderings, which the result digests leave out), paths as given."""
    return {
        path.as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for folder in folders
        for path in sorted(Path(folder).rglob("*"))
        if path.is_file()
    }


def docs_problems(digests: str | Path, folders: Sequence[str | Path]) -> list[str]:
    """What under `folders` differs from the docs part of the digest file `digests` (written
    with `write_digests(docs=folders)`): a file it does not list (left from another run), a
    listed file missing or with other bytes."""
    listed = parse_json(Path(digests).read_text()).get("docs", {})
    found = docs_digests(folders)
    problems = [f"{path}: not in the run {digests} describes" for path in found.keys() - listed]
    problems += [f"{path}: listed in {digests}, missing" for path in listed.keys() - found]
    problems += [
        f"{path}: other bytes than the run {digests} describes"
        for path in found.keys() & listed.keys()
        if found[path] != listed[path]
    ]
    return sorted(problems)


def write_digests(
    results: str | Path, out: str | Path, note: str = "", docs: Sequence[str | Path] = ()
) -> int:
    """Write the digests of a results folder to `out`, and with `docs` the SHA-256 of every
    file under those folders (`docs_digests`: what a run's docs show of it); returns the number
    of result files."""
    files = result_digests(results)
    data = {"note": note, "timing_columns_left_out": TIMING_COLUMNS, "files": files}
    if docs:
        data["docs"] = docs_digests(docs)
    try:
        write_json(out, data)
    except OSError as exc:
        raise DigestFileError(
            out, f"cannot be written ({exc.strerror or exc})", "give --out a writable path"
        ) from None
    return len(files)


def read_digests(path: str | Path) -> dict[str, dict]:
    """The {result file: {"digest", "rows"}} of a digest file written by `write_digests`;
    DigestFileError names the file and what is wrong with it."""
    try:
        data = parse_json(Path(path).read_text())
    except OSError as exc:
        raise DigestFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:  # invalid JSON, or not UTF-8
        raise DigestFileError(path, f"is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or "files" not in data:
        raise DigestFileError(path, "is not a JSON object with a 'files' entry")
    files = data["files"]
    if not isinstance(files, dict):
        raise DigestFileError(
            path,
            "its 'files' entry must map each result file to its digest and rows, got "
            + type(files).__name__,
        )
    for key, entry in files.items():
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("digest"), str)
            and isinstance(entry.get("rows"), list)
            and all(isinstance(row, str) for row in entry["rows"])
        ):
            raise DigestFileError(
                path, f"its entry for {key} is not a digest and a list of row digests"
            )
        if entry["digest"] != _digest("".join(entry["rows"])):
            raise DigestFileError(
                path,
                f"its entry for {key} gives the digest {entry['digest']}, not that of its rows "
                f"({_digest(''.join(entry['rows']))}): edited since `digest` wrote it?",
            )
    return files


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
    """Compare a results folder with a digest file: None, or the first difference
    (DigestFileError: the digest file cannot be used)."""
    expected = read_digests(digest_file)
    actual = result_digests(results)
    if partial and not actual.keys() & expected.keys():
        return f"no result file of {digest_file} is under {results}"
    return first_difference(expected, actual, Path(results).parent, partial)
