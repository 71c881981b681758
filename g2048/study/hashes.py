"""What each pipeline job wrote, by SHA-256, and the check that every run starts with.

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
"""

from __future__ import annotations

import atexit
import sys
import time
from pathlib import Path

from g2048 import file_sha256
from g2048.study.logs import Log, ReportedError, announce_compiling, script_log
from g2048.study.results import ResultFileError, parse_json, write_json

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
