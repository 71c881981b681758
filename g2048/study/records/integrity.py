"""The integrity of a study's results: what each pipeline job wrote, by SHA-256, and the check
that every run starts with; the digests that another machine's run is checked against.

Snakemake decides what to rerun by modification times alone: a result file replaced keeping its
old time (`mv` of a file stamped with `touch -r`, a restore from a backup) reruns nothing, and a
changed file that no job reads (a table, a figure) reruns nothing whatever its time. So every
job records the SHA-256 of each of its outputs once it has written them all (`job_log`), in
a hash record, `results/provenance/hashes/<its log's path below logs/>.json`, and every
`snakemake` command (but the job processes a cluster starts) first compares each result file
that a record names and that exists with it (`check_results`), and stops on the first that
differs, naming it: no job runs, and no table stands, on a file its job did not write. The
check runs before Snakemake knows what the command asks (a run, a dry run, --unlock, --report
alike), so a replaced file is deleted before anything else is done in its folder.

A job's record is deleted when the job starts and written when it ends without an error, so a
job cut short (killed, failed) leaves no record of the outputs it was rewriting: they go
unchecked until the job has run again (Snakemake reruns it, as its outputs are incomplete).
A file that no record names (made before records were kept, or its record deleted) is left to
the checks of the jobs that read it (g2048.study.results).

The digests of a study's result files, to check that another machine reproduces them.

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

import atexit
import csv
import hashlib
import io
import sys
import time
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from g2048 import file_sha256
from g2048.study.naming import TIMING_COLUMNS
from g2048.study.records.logs import Log, ReportedError, announce_compiling, script_log
from g2048.study.results import (
    NODE_COLUMNS,
    PARALLEL_COLUMN,
    TIMED_COLUMN,
    ResultFileError,
    parse_json,
    write_json,
)

RECORDS = Path("results/provenance/hashes")
REPLACED = (
    "it was changed or replaced after its job wrote it (Snakemake, which goes by modification "
    "times, would rerun nothing for a file replaced keeping its old time)"
)


def record_path(log: str | Path) -> Path:
    """The hash record of the job whose log is `log` (logs/<where>.log): a job's log path is
    unique to it, as its outputs are."""
    where = Path(log).relative_to("logs")
    return RECORDS / where.with_suffix(".json")


def record_outputs(record: str | Path, rule: str, outputs: list[str]) -> None:
    """Write the hash record of a job of `rule` that wrote `outputs`."""
    write_json(record, {"rule": rule, "outputs": {out: file_sha256(out) for out in outputs}})


def job_log(sm: object) -> Log:
    """The log of the Snakemake job `sm` (script_log), saying if the job compiles the kernels
    (`announce_compiling`), with its hash record kept: the job's record is deleted now and
    written, from the job's outputs, when the script ends without an error (a Ctrl-C ends it
    without one: script_log exits at once)."""
    log = script_log(sm.log[0])
    announce_compiling(log)
    record = record_path(sm.log[0])
    record.unlink(missing_ok=True)
    failed = False
    previous = sys.excepthook

    def on_error(kind: type, error: BaseException, trace: object) -> None:
        nonlocal failed
        failed = True
        previous(kind, error, trace)

    def on_exit() -> None:
        if not failed:
            record_outputs(record, sm.rule, [str(out) for out in sm.output])

    sys.excepthook = on_error
    atexit.register(on_exit)
    return log


class HashRecordError(ReportedError):
    """A hash record that cannot be read: the message names it and the remedy."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            f"hash record {path}: {problem}; delete it (the files it lists, the outputs of "
            f"the job logging to logs/{path.relative_to(RECORDS).with_suffix('.log')}, then "
            "go unchecked until that job runs again: delete them too to have them rebuilt)"
        )


def read_record(path: Path) -> dict[str, str] | None:
    """The {output: SHA-256} of a hash record, None if it no longer exists (its job has
    started again since it was listed); HashRecordError if it is not what job_log writes."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise HashRecordError(path, f"cannot be read ({exc})") from None
    try:
        data = parse_json(text)
    except ValueError as exc:
        raise HashRecordError(path, f"is not valid JSON ({exc})") from None
    outputs = data.get("outputs") if isinstance(data, dict) else None
    if not isinstance(outputs, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and len(v) == 64 for k, v in outputs.items()
    ):
        raise HashRecordError(path, "holds no {output file: SHA-256} as 'outputs'")
    return outputs


def check_results(records: Path = RECORDS) -> tuple[int, int, float]:
    """Compare every existing file that a hash record under `records` names with its recorded
    SHA-256; ResultFileError naming the first that differs. Returns (files, bytes, seconds)."""
    start = time.perf_counter()
    files = size = 0
    for path in sorted(records.rglob("*.json")) if records.is_dir() else ():
        for output, recorded in (read_record(path) or {}).items():
            try:
                digest, length = file_sha256(output), Path(output).stat().st_size
            except FileNotFoundError:
                continue  # not written yet, or deleted to be rebuilt
            except OSError as exc:
                raise ResultFileError(output, f"cannot be read ({exc.strerror or exc})") from None
            if digest != recorded and (read_record(path) or {}).get(output) == recorded:
                raise _replaced(output, digest, recorded, path)
            files += 1
            size += length
    return files, size, time.perf_counter() - start


def _replaced(output: str | Path, digest: str, recorded: str, record: Path) -> ResultFileError:
    """The error of a result file whose SHA-256 `digest` is not the one `record` holds."""
    return ResultFileError(
        output,
        f"its SHA-256 is {digest[:16]}..., not {recorded[:16]}... as the job that wrote it "
        f"recorded in {record}: {REPLACED}",
    )


def check_recorded(path: str | Path) -> None:
    """ResultFileError (check_results' message) when the file `path` lies in a study's
    `results/` folder and a hash record of that study names it with another SHA-256: for the
    files that `play --weights` reads, which no snakemake command checks first."""
    where = Path(path).resolve()
    root = next((folder.parent for folder in where.parents if folder.name == "results"), None)
    if root is None or not (root / RECORDS).is_dir() or not where.is_file():
        return  # not a study's file, or none: its reader says so
    name = where.relative_to(root).as_posix()
    for record in sorted((root / RECORDS).rglob("*.json")):
        recorded = (read_record(record) or {}).get(name)
        if recorded is not None:
            if (digest := file_sha256(where)) != recorded:
                shown = record.relative_to(root) if root == Path.cwd().resolve() else record
                raise _replaced(path, digest, recorded, shown)
            return


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
