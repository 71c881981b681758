"""Every command line README.md documents runs as written: each `python -m g2048 ...` parses
(a bare command name answers --help; check-config runs), each `snakemake ...` runs as a dry run
(-n) of a copy of the workflow, each `make ...` as `make -n`. Placeholders take a value of the
smoke study: ROW a benchmark row, FILE and my-study.yaml a config (`--out FILE` a new file),
COMMAND every subcommand."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from g2048.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# A command line: the program, then its arguments (`.venv/bin/` or not)
COMMAND = re.compile(r"(?:\.venv/bin/)?(python -m g2048|snakemake|make)(?:\s+(.*))?")
SMOKE = "config/smoke.yaml"
ROW = "greedy"  # a benchmark row of the smoke study
SUBCOMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)


def documented_commands(text: str) -> list[tuple[str, list[str]]]:
    """(program, arguments) of every command line of a Markdown text, in order, once each: the
    lines of its shell blocks (continuation lines joined, comments left out) and its inline
    code spans that are whole commands."""
    blocks = re.findall(r"```(?:sh|bash)?\n(.*?)```", text, re.S)
    lines = [
        line.partition(" #")[0].strip()
        for block in blocks
        for line in block.replace("\\\n", " ").splitlines()
        if not line.lstrip().startswith("#")
    ]
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    lines += [span.replace("\n", " ") for span in re.findall(r"`([^`]+)`", prose)]
    found: list[tuple[str, list[str]]] = []
    for line in lines:
        match = COMMAND.fullmatch(re.sub(r"\s+", " ", line.strip()))
        if match is None:
            continue
        command = (match[1], shlex.split(match[2] or ""))
        if command not in found:
            found.append(command)
    return found


COMMANDS = documented_commands(README.read_text())


def _named(program: str) -> list[list[str]]:
    return [args for name, args in COMMANDS if name == program]


def _filled(args: list[str], out: Path) -> list[str]:
    """The arguments with the placeholders filled in (module docstring)."""
    filled = []
    for i, arg in enumerate(args):
        if arg == "FILE" and i > 0 and args[i - 1] == "--out":
            arg = str(out)
        filled.append({"FILE": SMOKE, "ROW": ROW}.get(arg, arg.replace("/ROW/", f"/{ROW}/")))
    return filled


def test_the_readme_documents_commands_of_each_program() -> None:
    assert ["check-config", "config/config.yaml"] in _named("python -m g2048")
    assert ["--unlock"] in _named("snakemake")
    assert ["run"] in _named("make")
    assert len(_named("python -m g2048")) > 15


@pytest.mark.parametrize("args", _named("python -m g2048"), ids=shlex.join)
def test_a_documented_g2048_command_parses(
    args: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture,
) -> None:
    """As written, but a bare command name (a reference in the prose) answers --help, and
    check-config checks its files."""
    args = _filled(args, tmp_path / "out.json")
    if args[0] == "COMMAND":
        lines = [[name, *args[1:]] for name in SUBCOMMANDS]
    else:
        lines = [args + ["--help"] if len(args) == 1 else args]
    for line in lines:
        if "--help" in line:
            with pytest.raises(SystemExit) as exit_info:
                build_parser().parse_args(line)
            assert exit_info.value.code == 0, capsys.readouterr().err
            continue
        parsed = build_parser().parse_args(line)  # argparse exits 2 on what does not parse
        assert parsed.command == line[0]
        if line[0] == "check-config":
            assert main(line) == 0, capsys.readouterr().err


@pytest.fixture(scope="module")
def workflow_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workflow in a folder of its own, with my-study.yaml a copy of the smoke config."""
    folder = tmp_path_factory.mktemp("readme")
    for name in ("Snakefile", "config", "workflow", "profiles"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, folder / name)
    shutil.copy(ROOT / SMOKE, folder / "my-study.yaml")
    return folder


def _snakemake_cases() -> list:
    """Each documented snakemake command that is more than the program's name; the paper
    study's dry run (about 15 s) is slow."""
    cases = []
    for args in _named("snakemake"):
        if args:
            slow = "config/paper.yaml" in args
            cases.append(pytest.param(args, marks=[pytest.mark.slow] if slow else []))
    return cases


@pytest.mark.parametrize("args", _snakemake_cases(), ids=shlex.join)
def test_a_documented_snakemake_command_runs_dry(args: list[str], workflow_copy: Path) -> None:
    """As written, with -n after the program (--unlock runs: there is nothing to unlock), so a
    target after `--configfile FILE` is read as a second config file, as it would be; --report
    of a study that never ran stops only for its missing results."""
    args = _filled(args, workflow_copy / "out")
    dry = [] if "--unlock" in args else ["-n"]
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", *dry, *args],
        cwd=workflow_copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    if "--report" in args:
        assert "marked for report but does not exist" in output, output[-2000:]
    else:
        assert done.returncode == 0, output[-2000:]
        assert "Traceback" not in output


@pytest.mark.parametrize("args", [args for args in _named("make") if args], ids=shlex.join)
def test_a_documented_make_target_exists(args: list[str]) -> None:
    """`make -n`: the target exists; nothing runs (a bare `make` names the tool)."""
    done = subprocess.run(
        ["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"study_seed: \xff\n", "not UTF-8 text"),
        (b"__use_yte__: true\nstudy_seed: 1\n", "config key __use_yte__: turns the file's"),
    ],
)
def test_make_run_checks_the_config_before_snakemake_reads_it(
    tmp_path: Path, content: bytes, message: str
) -> None:
    """Snakemake reads (and runs the templates of) a --configfile before the Snakefile's check:
    `make run`'s first command is check-config, which refuses such a file in one line (then
    it compiles the kernels, then runs the study)."""
    config = tmp_path / "bad.yaml"
    config.write_bytes(content)
    done = subprocess.run(
        ["make", "-n", "run", f"CONFIG={config}"], cwd=ROOT, capture_output=True, text=True
    )
    commands = [line for line in done.stdout.splitlines() if str(config) in line]
    assert len(commands) == 3 and "check-config" in commands[0], done.stdout
    assert "g2048.study.warm" in commands[1]  # the kernels compiled in a step of their own
    assert "g2048.study.run" in commands[2]  # snakemake, stopped quietly on a signal
    checked = subprocess.run(
        commands[0], shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert checked.returncode == 2
    assert checked.stderr.startswith(f"{config}: ") and message in checked.stderr
    assert len(checked.stderr.splitlines()) <= 2 and "Traceback" not in checked.stderr
