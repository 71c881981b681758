"""Command line: `python -m g2048 bench | profile | check-config | digest | verify | plan |
train | import-network | export-network | play | watch | move`."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

import g2048
from g2048 import api
from g2048.agents import AGENTS, AUTO, AgentConfig
from g2048.cli.speed import (
    BenchFigures,
    budget_figures,
    deepening_figure,
    engine_figures,
    node_cost_figures,
    search_figures,
    search_profile,
    split_figures,
    star_figures,
    training_figures,
)
from g2048.cli.watch import CLEAR, positions, render
from g2048.engine.rng import game_seeds
from g2048.evaluators import EVALUATOR_NAMES, EVALUATORS, network, tdl2048
from g2048.evaluators.ntuple import (
    NETWORKS,
    TDL2048,
    Network,
    load_network,
    network_format,
    pattern_name,
    save_network,
)
from g2048.learning.recipes import RECIPES, TDConfig, td_schema
from g2048.play import evaluator_rows, play_games
from g2048.report.stats import THRESHOLDS, summarize
from g2048.settings import SettingError, add_flags, setting_schema
from g2048.study import stages
from g2048.study.config import (
    ConfigError,
    fixed_depth_schema,
    load_config,
    load_schema,
    value_problem,
)
from g2048.study.jobrecords import DOCS_RECORDS, read_records, record_seconds, recorded_jobs
from g2048.study.naming import NETWORK_EVALUATOR, PLAY_PURPOSE, selected_weights
from g2048.study.records import plan
from g2048.study.records.integrity import (
    DigestFileError,
    check_recorded,
    file_sha256,
    verify,
    write_digests,
)
from g2048.study.records.job_cost import Work, job_work, parse_wildcards
from g2048.study.records.logs import ReportedError
from g2048.study.results import (
    parse_json,
    path_seed,
    read_text,
    seed_problem,
    unknown_selection_keys,
    write_csv,
)
from g2048.study.sample import probed
from g2048.study.weights import rows_problem


def _bench(args: argparse.Namespace) -> int:
    figures = BenchFigures(engine_figures(seconds=args.seconds))
    if not args.engine_only:
        figures = dataclasses.replace(
            figures,
            search=search_figures(),
            budgets=budget_figures(),
            node_costs=node_cost_figures(),
            deepening=deepening_figure(),
            paired=split_figures() + star_figures(),
            training=training_figures(),
        )
    if args.json:
        print(json.dumps(figures.as_dict(), indent=2))
        return 0
    engine = figures.engine
    rows = [
        ("first call (compile or cache load)", f"{engine.first_call_s:.2f} s"),
        ("random playouts, 1 thread", f"{engine.random_moves_per_s / 1e6:.2f} M moves/s"),
        (
            f"random playouts, {engine.threads} threads",
            f"{engine.random_moves_per_s_all_threads / 1e6:.2f} M moves/s",
        ),
        ("plain-Python reference engine", f"{engine.reference_moves_per_s / 1e3:.1f} k moves/s"),
        ("numba engine / reference", f"{engine.speedup_vs_reference:.0f}x"),
    ]
    rows += [
        (
            f"expectimax depth {s.depth}, nneonneo, cutoff 1e-4, table on, 1 thread",
            f"{s.moves_per_s / 1e3:.1f} k moves/s",
        )
        for s in figures.search
    ]
    for b in figures.budgets:
        effort = (
            f"depth {b.mean_depth:.1f}"
            if b.mean_depth is not None
            else f"{b.rollouts_per_move:.0f} rollouts"
        )
        rows.append(
            (
                f"{b.agent} under {b.budget_ms:g}ms/move, {b.positions} positions",
                f"{effort}, worst {b.worst_over_ms:+.2f} ms",
            )
        )
    for c in figures.node_costs:
        rows.append(
            (
                f"{c.search} on {c.evaluator}, {c.budget_nodes} nodes/move, 1 thread: cost (range)",
                f"{c.us_per_node:.3f} us/node ({c.low:.3f}..{c.high:.3f})",
            )
        )
    if (d := figures.deepening) is not None:
        rows.append(
            (
                f"deepening to {d.depth} plies over fixed {d.depth} plies: time (range), nodes",
                f"{d.overhead:+.1%} ({d.low:+.0%}..{d.high:+.0%}), {d.node_overhead:+.1%}",
            )
        )
    for p in figures.paired:
        threads = f", {p.threads} threads" if p.option == "parallel" else ""
        rows.append(
            (
                f"{p.option} on/off, depth {p.depth}{threads}: speed-up (range), nodes",
                f"{p.speedup:.2f}x ({p.low:.2f}..{p.high:.2f}), {p.node_ratio - 1:+.1%}",
            )
        )
    if (t := figures.training) is not None:
        rows.append(
            (
                f"TD(0) training, {t.network}, first {t.games} games, 1 thread",
                f"{t.moves_per_s / 1e3:.1f} k moves/s",
            )
        )
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>18}")
    return 0


def _profile(args: argparse.Namespace) -> int:
    for depth in args.depth:
        settings = {"max_moves": args.max_moves, "cutoff": args.cutoff}
        settings |= {"table_bits": args.table_bits, "evaluator": args.evaluator}
        print(search_profile(depth, args.games, args.repeat, **settings), flush=True)
    return 0


Command = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """argparse's parser (its subcommands' too), whose errors are one line, not argparse's
    usage block of up to 15 lines and then the line: a usage error (the command line's, while
    it is parsed) ends with a pointer to --help; a command's own error about a value or a file
    is that line alone."""

    _parsing = 0  # parse_args and parse_known_args calls under way

    def parse_known_args(self, *args: Any, **kwargs: Any) -> tuple[argparse.Namespace, list]:
        """argparse's, with its errors told apart as usage errors."""
        self._parsing += 1
        try:
            return super().parse_known_args(*args, **kwargs)
        finally:
            self._parsing -= 1

    def parse_args(self, *args: Any, **kwargs: Any) -> argparse.Namespace:
        """argparse's (whose unknown-arguments error comes after parse_known_args)."""
        self._parsing += 1
        try:
            return super().parse_args(*args, **kwargs)
        finally:
            self._parsing -= 1

    def error(self, message: str) -> NoReturn:
        """Print `message` in one line to stderr and exit 2."""
        pointer = f" (see {self.prog} --help)" if self._parsing else ""
        self.exit(2, f"{self.prog}: error: {message}{pointer}\n")


def _exits_2_on(*errors: type[Exception]) -> Callable[[Command], Command]:
    """A command that prints any of `errors` (a one-line message) to stderr and exits 2."""

    def wrap(command: Command) -> Command:
        @functools.wraps(command)
        def run(args: argparse.Namespace) -> int:
            try:
                return command(args)
            except errors as exc:
                print(exc, file=sys.stderr)
                return 2

        return run

    return wrap


def _need(args: argparse.Namespace, path: Path, what: str, folder: bool = False) -> None:
    """Stop with the parser's error unless the file (`folder`: the directory) `path`, the
    command's `what`, exists."""
    if not (path.is_dir() if folder else path.is_file()):
        args.parser.error(f"no {what} {str(path)!r}")


@_exits_2_on(DigestFileError)
def _digest(args: argparse.Namespace) -> int:
    _need(args, args.results, "results folder", folder=True)
    if problem := _out_problem(args.out, args.force, (args.results, Path("results"))):
        args.parser.error(f"--out: {problem}")
    count = write_digests(args.results, args.out, note=args.note, docs=args.docs)
    shown = f" and of the files under {', '.join(map(str, args.docs))}" if args.docs else ""
    print(f"wrote the digests of {count} result files under {args.results}{shown} to {args.out}")
    return 0


@_exits_2_on(DigestFileError)
def _verify(args: argparse.Namespace) -> int:
    _need(args, args.digests, "digest file")
    _need(args, args.results, "results folder", folder=True)
    difference = verify(args.digests, args.results, partial=args.partial)
    if difference is not None:
        print(f"results differ from {args.digests}: {difference}", file=sys.stderr)
        return 1
    print(f"every result file under {args.results} matches {args.digests}")
    return 0


@_exits_2_on(ConfigError)
def _check_config(args: argparse.Namespace) -> int:
    for path in args.configs:
        load_config(path)
        print(f"{path}: a valid study config")
    return 0


def _works(configfile: Path, jobs: list[plan.Job]) -> dict[int, Work | None]:
    """Each job's games and their kind in the study of `configfile`."""
    config = load_config(configfile)
    return {job.jobid: job_work(config, job.rule, parse_wildcards(job.wildcards)) for job in jobs}


@_exits_2_on(plan.PlanError, ConfigError)
def _plan(args: argparse.Namespace) -> int:
    for configfile in (args.configfile, args.rates_from):
        if configfile is not None:  # check-config's checks, before Snakemake reads (runs) it
            _need(args, configfile, "config file")
            load_config(configfile)
    if not Path("Snakefile").is_file():
        args.parser.error("no Snakefile here: run plan in the study's folder")
    cluster = args.cores is None
    overhead = args.overhead if args.overhead is not None else (60.0 if cluster else 0.0)
    profile = args.profile if cluster else None
    jobs, records, other, from_docs = recorded_jobs(args.configfile, args.cores, profile)
    by_id = {job.jobid: job for job in jobs}
    threads = {job.jobid: job.threads for job in jobs}
    local: set[str] = set()
    if cluster:
        per_rule = plan.profile_threads(args.profile)
        threads = {job.jobid: per_rule.get(job.rule, job.threads) for job in jobs}
        local = plan.local_rules(plan.workflow_source())
    cores_of = {j: min(n, args.cores or n) for j, n in threads.items()}
    recorded, dropped, kept = record_seconds(jobs, records, cores_of)
    works, rates = None, None
    if args.rates_from is not None:
        works = _works(args.configfile, jobs)
        theirs, their_records, _, _ = recorded_jobs(args.rates_from, args.cores, profile)
        their_seconds, _, _ = record_seconds(
            theirs, their_records, {job.jobid: job.threads for job in theirs}
        )
        their_works = _works(args.rates_from, theirs)
        rates = plan.rates_from(theirs, their_seconds, their_works)
        for jobid in plan.other_games(jobs, works, theirs, their_works):
            recorded.pop(jobid, None)
            other.add(by_id[jobid].name)
    extrapolated = probed(args.configfile, jobs, recorded)
    recorded |= {jobid: seconds for jobid, (seconds, _) in extrapolated.items()}
    times = plan.job_times(jobs, recorded, works, rates)
    seconds = {
        job.jobid: times.seconds[job.jobid] + (0.0 if job.rule in local else overhead)
        for job in jobs
    }
    schedule = plan.schedule(seconds, threads, plan.dependencies(jobs), args.cores)
    if cluster:
        where = f"on a SLURM cluster through {args.profile}"
        how = (
            f"every job on its own allocation, {overhead:g} s of queue and submission each "
            "(none for the local rules)"
        )
    else:
        where = f"on {args.cores} core{'s' if args.cores > 1 else ''}"
        how = f"{overhead:g} s of Snakemake's own time added to each job" if overhead else ""
    print(f"PREDICTED, not measured: the study of {args.configfile} {where},")
    source = "from the job times its last run recorded (benchmarks/)"
    if from_docs:
        _, note = read_records(DOCS_RECORDS, args.configfile)
        source += f",\nelse those of the run docs/ shows ({DOCS_RECORDS}: {note})"
    if args.rates_from is not None:
        source += f",\nelse from the seconds per game that a run of {args.rates_from} recorded"
    print(source + (f";\n{how}." if how else "."))
    recorded_count = len(jobs) - len(times.untimed)
    recorded_count -= sum(times.estimated.values()) + sum(times.scaled.values())
    recorded_count -= len(extrapolated)
    rows = [
        ("predicted wall time", f"{plan.duration(schedule.wall)} ({schedule.wall:.0f} s)"),
        ("jobs", f"{len(jobs)}, {recorded_count} of them with a recorded time"),
    ]
    if from_docs:
        rows.append(("from docs/", f"{len(from_docs)} job(s) timed by the run docs/ shows"))
    stale = sum(
        job.name in other and job.benchmark is not None and job.jobid not in from_docs
        for job in jobs
    )
    if stale:
        rows.append(
            ("not this config's", f"{stale} job(s) whose results are missing or of other settings")
        )
    if times.estimated:
        missing = ", ".join(f"{rule} {n}" for rule, n in sorted(times.estimated.items()))
        count = sum(times.estimated.values())
        rows.append(("no record", f"{count} job(s), given their row's or rule's mean: {missing}"))
    if times.scaled:
        named = ", ".join(f"{rule} {n}" for rule, n in sorted(times.scaled.items()))
        count = sum(times.scaled.values())
        rows.append(("from rates", f"{count} job(s), from {args.rates_from}'s run: {named}"))
    if extrapolated:
        rows.append(
            ("extrapolated", f"{len(extrapolated)} job(s), from a probe of their row's first moves")
        )
    if dropped:
        rows.append(
            (
                "compiling",
                f"{len(dropped)} record(s) include compiling the kernels into an empty cache "
                "(minutes): their row's or rule's mean instead",
            )
        )
    if kept:
        named = ", ".join(sorted({by_id[j].rule for j in kept}))
        rows.append(
            (
                "compiling, kept",
                f"{len(kept)} record(s) include compiling the kernels (no other of rule "
                f"{named}): an overestimate by minutes",
            )
        )
    timed = [j for j, r in records.items() if r.timed_games and r.at_once]
    if timed:
        at_once = sorted(
            {min(plan.games_at_once(cores_of[j]), records[j].timed_games) for j in timed}
        )
        recorded_at = sorted({records[j].at_once for j in timed})
        rows.append(
            (
                "timed shards",
                f"{len(timed)} job(s): {'/'.join(map(str, at_once))} games at once, each on a "
                f"core of its own (recorded: {'/'.join(map(str, recorded_at))} at once)",
            )
        )
    if times.untimed:
        rules = sorted({by_id[j].rule for j in times.untimed})
        rows.append(("untimed (0 s)", f"{len(times.untimed)} job(s) of rule {', '.join(rules)}"))
    # the jobs' own times on their threads (capped at the cores): queueing holds no core
    core_seconds = sum(
        times.seconds[j] * min(threads[j], args.cores or threads[j]) for j in times.seconds
    )
    busy = ""
    if not cluster and schedule.wall > 0:
        busy = f", the cores busy {core_seconds / (args.cores * schedule.wall):.0%}"
    rows.append(("total core-seconds", f"{core_seconds:.0f}{busy}"))
    if schedule.capped:
        rows.append(("capped", f"{len(schedule.capped)} job(s) asked for more than the cores"))
    crit = schedule.critical_path
    rows.append(
        (
            "critical path",
            f"{plan.duration(schedule.critical_seconds)} over {len(crit)} jobs (no number of "
            "cores runs the study faster)",
        )
    )
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    extra = f" (seconds: the job's own, then the {overhead:g} s added)" if overhead else ""
    print(f"  {'start':>9}  {'seconds':>9}  job on the critical path, predicted{extra}")
    for j in crit:
        added = seconds[j] - times.seconds[j]
        own = f"{times.seconds[j]:9.1f}" + (f" + {added:g}" if added else "")
        print(f"  {schedule.start[j]:9.1f}  {own:<{14 if overhead else 9}}  {by_id[j].name}")
    for line in sorted({line for _, line in extrapolated.values()}):
        print(f"note: {line}: an extrapolation, not a measurement")
    if cluster:
        over = plan.over_runtime(jobs, seconds, local)
        for line in over[:10]:
            print(f"refused: {line}", file=sys.stderr)
        if over:
            more = f" ({len(over) - 10} more above)" if len(over) > 10 else ""
            print(
                f"refused: {len(over)} job(s) predicted beyond their runtime resource{more}: "
                "SLURM would end them. Raise the rows' `runtime` (or benchmark `shards`: "
                "shorter jobs) in the config, or the rule's runtime in the profile",
                file=sys.stderr,
            )
            return 2
    return 0


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def _bounded(
    kind: type, low: float, high: float | None = None, note: str = ""
) -> Callable[[str], float]:
    """An argparse type: a number of `kind` (int or float) in low..high (high None: no bound)."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            noun = "an integer" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"not {noun}: {text!r}") from None
        if not (value >= low and (high is None or value <= high)):
            bound = f">= {low}" if high is None else f"in {low}..{high}"
            raise argparse.ArgumentTypeError(f"must be {bound}{note}, got {text}")
        return value

    return parse


def _at_least_0(
    parser: argparse.ArgumentParser, flag: str, default: float, text: str = "", note: str = ""
) -> None:
    """An option of a number >= 0 (of `default`'s type) whose help, `text`, ends with its
    default: "(default <default><note>)"."""
    help_text = f"{text} (default {default:g}{note})".lstrip()
    parser.add_argument(flag, type=_bounded(type(default), 0), default=default, help=help_text)


_AGENT_SETTINGS = [f for f in dataclasses.fields(AgentConfig) if f.name != "name"]
# The study config's bounds on games (g2048/study/schema.yaml), which the CLI keeps too: `play`
# holds every game's row until the end, so it refuses more games up front instead of streaming.
_SIZES = load_schema()["$defs"]
MAX_GAMES = _SIZES["games"]["maximum"]
# train's flags: TDConfig's settings (g2048/learning/recipes.py), as the config's tune.td has
# them, and the command's own (recipes.TRAIN_ONLY: --from, --from-sha256)
_TD_SCHEMA = td_schema("", train=True)


def _network_name(text: str) -> str:
    """A --network value: a named network, or tuples by their cells (ntuple.pattern_name)."""
    if text in NETWORKS:
        return text
    try:
        return pattern_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; or one of {', '.join(NETWORKS)}") from None


def _depth(text: str) -> int | str:
    """A --depth value: plies, or 'auto' (AgentConfig checks the range)."""
    if text == AUTO:
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer or {AUTO!r}: {text!r}") from None


def _read_weights(text: str, agent: AgentConfig) -> np.ndarray:
    """The --weights value: comma-separated numbers, or a JSON file holding a list of numbers
    (3 lists for switching) or a selection file of the pipeline (results/select/...)."""
    path = Path(text)
    if not (path.suffix == ".json" or path.exists()):
        if agent.weight_rows > 1:
            raise ValueError(
                f"agent {agent.name!r} takes {agent.weight_rows} weight vectors: give --weights "
                f"a JSON file, got {text!r}"
            )
        try:
            return np.array([float(v) for v in text.split(",")])
        except ValueError:
            raise ValueError(
                f"--weights must be comma-separated numbers or a JSON file, got {text!r}"
            ) from None
    check_recorded(path)
    try:
        with open(path, "rb") as file:
            kind = network_format(file.read(4))
    except OSError:  # _json_file says why
        kind = None
    if kind is not None:
        first = "import it (import-network), then play it" if kind == TDL2048 else "play it"
        raise ValueError(
            f"weights file {text} holds a network ({kind}), not heuristic weights: {first} "
            f"with --evaluator {NETWORK_EVALUATOR}"
        )
    data = _json_file(path, "weights file")
    if isinstance(data, dict):
        return _selected(data, text, agent.weight_rows > 1)
    try:
        return np.array(data, dtype=np.float64)
    except (TypeError, ValueError):
        shape = "3 lists of numbers" if agent.weight_rows > 1 else "a list of numbers"
        raise ValueError(
            f"weights file {text} must hold {shape}, got {json.dumps(data)[:60]}"
        ) from None


def _json_file(path: Path, what: str) -> object:
    """The JSON of the file `path`, a `what` ("weights file"); ValueError in one line naming
    it: unreadable, empty, not UTF-8 text (read_text), not JSON."""
    try:
        text = read_text(path)
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ValueError(f"{what} {path} {exc}") from None
    try:
        return parse_json(text)
    except ValueError as exc:
        raise ValueError(f"{what} {path} is not valid JSON: {exc}") from None


def _selected(data: object, text: str, switching: bool) -> np.ndarray | str:
    """The weights a selection file (parsed: `data`) offers (naming.selected_weights), or
    ValueError naming the file: not an object, or holding a key no selection of its method
    holds."""
    if not isinstance(data, dict):
        raise ValueError(f"selection file {text} holds a {type(data).__name__}, not a JSON object")
    unknown = unknown_selection_keys(data)
    if unknown:
        raise ValueError(
            f"selection file {text}: holds the key(s) {', '.join(unknown)}, which no selection "
            f"of method {data.get('method')!r} holds"
        )
    seed = path_seed(text)  # a seed's selection: its own seed, as the workflow checks it
    if seed is not None and (problem := seed_problem(data, seed)) is not None:
        raise ValueError(f"selection file {text}: {problem}")
    own = Path(text).parent / str(data.get("run")) / f"seed{data.get('seed')}.json"
    if "selection_values" in data and own.is_file():  # a run's pick, beside its seeds'
        check_recorded(own)
        seed_selection = _json_file(own, "selection file")
        if not isinstance(seed_selection, dict):
            raise ValueError(f"selection file {own} holds a {type(seed_selection).__name__}")
        differ = [k for k in seed_selection if seed_selection[k] != data.get(k)]
        if differ:
            raise ValueError(
                f"selection file {text}: picks seed {data.get('seed')}, but its "
                f"{', '.join(differ)} differ from that seed's selection file {own}: edited or "
                "replaced since?"
            )
    try:
        return selected_weights(data, "switching" if switching else "weights")
    except ValueError as exc:
        raise ValueError(f"selection file {text}: {exc}") from None


def _recorded_network(path: str) -> Network:
    """The network file `path`, checked against the SHA-256 its training run recorded when the
    run's result file lies beside it (results/tune/td/seed1.npz and seed1.json, as the pipeline
    writes them; a network of `train --out` has none), and against its hash record."""
    loaded = network(path)
    if Path(path).is_file():
        check_recorded(path)
    run_file = Path(path).with_suffix(".json")
    if not run_file.is_file():
        return loaded
    try:
        recorded = parse_json(run_file.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(
            f"{run_file}, the run that trained {path}, cannot be read: {exc}"
        ) from None
    if not isinstance(recorded, dict) or "network_sha256" not in recorded:
        return loaded
    digest = hashlib.sha256(np.ascontiguousarray(loaded.lut).tobytes()).hexdigest()
    if digest != recorded["network_sha256"]:
        raise ValueError(
            f"{path}: its weights' SHA-256 is {digest[:16]}..., not "
            f"{str(recorded['network_sha256'])[:16]}... as its training run recorded in "
            f"{run_file}: replaced since?"
        )
    return loaded


def _read_network(text: str | None) -> Network:
    """The --weights value of the ntuple evaluator: a network file (.npz), or the selection
    file of a td run (results/select/td/...) naming one."""
    if text is None:
        raise ValueError("--evaluator ntuple needs --weights: a network file (.npz)")
    if Path(text).suffix == ".json":
        check_recorded(text)
        data = _json_file(Path(text), "selection file")
        text = _selected(data, text, switching=False)
    return _recorded_network(text)


def _agent_setup(args: argparse.Namespace) -> tuple[AgentConfig, object]:
    """The agent and its weights (None: the evaluator's defaults; a Network for ntuple) from
    the shared options, checked against the agent and the evaluator; a bad one ends in
    parser.error (exit 2)."""
    try:
        agent = AgentConfig(args.agent, **{f.name: getattr(args, f.name) for f in _AGENT_SETTINGS})
        if args.evaluator == NETWORK_EVALUATOR:
            weights = _read_network(args.weights)
        else:
            weights = None if args.weights is None else _read_weights(args.weights, agent)
        evaluator_rows(agent, args.evaluator, weights)
        heuristic = weights is not None and args.evaluator != NETWORK_EVALUATOR
        if heuristic and (problem := rows_problem(args.evaluator, weights)) is not None:
            raise ValueError(f"--weights {args.weights}: {problem}")  # as a config's are
    except ValueError as exc:
        args.parser.error(str(exc))
    return agent, weights


def _describe(agent: AgentConfig, evaluator: str) -> str:
    """The agent, the settings it was given away from their defaults, and the evaluator."""
    changed = [
        f"{f.name}={getattr(agent, f.name)}"
        for f in _AGENT_SETTINGS
        if getattr(agent, f.name) != f.default
    ]
    settings = f" ({', '.join(changed)})" if changed else ""
    return f"agent {agent.name}{settings}, evaluator {evaluator}"


def _format_ci(low: float, high: float) -> str:
    return "n/a" if math.isnan(low) else f"{low:.1f} to {high:.1f}"


def _show_progress(done: int, total: int) -> None:
    print(f"\r{done}/{total} games", end="\n" if done == total else "", file=sys.stderr, flush=True)


def _out_problem(
    path: Path, force: bool, results: tuple[Path, ...] = (Path("results"),)
) -> str | None:
    """Why --out may not be `path`, or None: a path under a study's `results` folders (the
    pipeline's files, which a rerun would not notice replaced), or an existing file without
    --force."""
    target = path.resolve()
    for folder in results:
        if target == folder.resolve() or folder.resolve() in target.parents:
            return f"{str(path)!r} is under {folder}/, a study's results: write it elsewhere"
    if path.exists() and not path.is_dir() and not force:
        return f"{str(path)!r} exists: give --force to replace it"
    return None


def _writable(path: Path) -> str | None:
    """Why `path` cannot take the output file, or None: proven by opening it for appending (and
    removing it again if that created it), before any work is done."""
    if path.is_dir():
        return f"{str(path)!r} is a directory"
    existed = path.exists()
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        return f"cannot write {str(path)!r}: {exc.strerror or exc}"
    if not existed:
        path.unlink()
    return None


def _check_out(args: argparse.Namespace) -> None:
    """Stop with the parser's error where --out may not or cannot be written (_out_problem,
    _writable), before any work."""
    if problem := _out_problem(args.out, args.force) or _writable(args.out):
        args.parser.error(f"--out: {problem}")


def _train(args: argparse.Namespace) -> int:
    given = {k: v for k, v in vars(args).items() if k in _TD_SCHEMA["properties"]}
    for key, value in given.items():  # in check-config's words
        if problem := value_problem(_TD_SCHEMA["properties"][key], value):
            args.parser.error(
                f"argument --{key.replace('_', '-')}: {problem} (as in a study config)"
            )
    _train_network(args, given)
    try:  # the recipe's settings, then the flags given, and the rules across them
        config = RECIPES[args.recipe].config(given)
    except SettingError as exc:
        args.parser.error(f"argument --{exc.key.replace('_', '-')}: {exc}")
    _check_out(args)  # a killed run wrote no --out yet: its checkpoint resumes without --force
    if args.curve is not None and (problem := _writable(args.curve)):
        args.parser.error(f"{args.curve}: {problem}")
    checkpoint = args.out.with_name(args.out.name + ".ckpt")
    try:
        data, curve, network = stages.train(
            "td", config, args.seed, args.study_seed, str(args.out), str(checkpoint),
            args.threads, lambda line: print(line, flush=True),
        )  # fmt: skip
    except ReportedError as exc:  # diverged, or a damaged checkpoint: nothing written
        print(f"g2048 train: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        args.parser.error(str(exc))
    except KeyboardInterrupt:
        print(f"\ninterrupted: the same command resumes from {checkpoint}", file=sys.stderr)
        return 130
    save_network(args.out, network)
    if args.curve is not None:
        write_csv(args.curve, curve)
    checkpoint.unlink(missing_ok=True)
    last = curve.iloc[-1]
    print(
        f"wrote {args.out} (the file's SHA-256 {file_sha256(args.out)[:16]}..., its weight "
        f"array's {data['network_sha256'][:16]}..., which a study records): over the last "
        f"block, mean score {last.mean_score:.0f}, 2048 in {last.reach_2048:.1%}"
    )
    if config.from_:
        print(f"trained on from {config.from_} (sha256 {config.from_sha256})")
    return 0


def _train_network(args: argparse.Namespace, given: dict) -> None:
    """The network of `train` into `given`: --network, --patterns (by its cells), or with
    --from the file's network, stages and SHA-256 unless given (the file checked as play reads
    a network; whether it holds the network given, train checks); else parser.error."""
    if args.patterns is not None:
        if "network" in given:
            args.parser.error("give --network or --patterns, not both")
        try:
            given["network"] = pattern_name(args.patterns)
        except ValueError as exc:
            args.parser.error(f"argument --patterns: {exc}")
    if given.get("from"):
        try:
            loaded = _recorded_network(given["from"])
        except ValueError as exc:
            args.parser.error(f"argument --from: {exc}")
        given.setdefault("network", loaded.name)
        given.setdefault("stages", list(loaded.stages))
        given.setdefault("from_sha256", file_sha256(given["from"]))
    elif "network" not in given:
        args.parser.error(
            "the following arguments are required: --network (or --patterns, or --from)"
        )


def _import_network(args: argparse.Namespace) -> int:
    _check_out(args)
    try:
        loaded = tdl2048.read_network(args.file, args.network, tuple(args.stages))
    except ValueError as exc:
        args.parser.error(str(exc))
    save_network(args.out, loaded)
    print(f"wrote {args.out}: {tdl2048.describe(loaded)} from TDL2048+'s {args.file}")
    return 0


def _export_network(args: argparse.Namespace) -> int:
    _check_out(args)
    try:
        loaded = load_network(args.file)
    except ValueError as exc:
        args.parser.error(str(exc))
    tdl2048.write_network(args.out, loaded)
    print(
        f"wrote {args.out}: {tdl2048.describe(loaded)} in TDL2048+'s format; it reads it with "
        f"{tdl2048.tdl_command(loaded)} -i {args.out}"
    )
    return 0


def _play(args: argparse.Namespace) -> int:
    agent, weights = _agent_setup(args)
    if args.out is not None:
        _check_out(args)
    seeds = game_seeds(args.seed, args.purpose, args.games, start=args.start)
    progress = _show_progress if sys.stderr.isatty() else None
    try:
        df = play_games(
            agent, seeds, args.evaluator, weights, args.threads, args.max_moves, progress
        )
    except KeyboardInterrupt:
        print("\ninterrupted: no games written", file=sys.stderr)
        return 130
    if args.out is not None:
        df.assign(game=df.game + args.start).to_csv(args.out, index=False)
    s = summarize(df)
    print(_describe(agent, args.evaluator))
    first = f", from game {args.start}" if args.start else ""
    print(
        f"{s['games']} games of purpose {args.purpose!r} from study seed {args.seed}{first}, "
        f"{args.threads} thread(s)"
    )
    print(
        f"score      mean {s['score_mean']:.1f} "
        f"(95% CI {_format_ci(s['score_low'], s['score_high'])}), "
        f"median {s['score_median']:.0f}"
    )
    print(f"{'tile':<10}{'reached':>11}{'rate':>8}   95% CI")
    for t in THRESHOLDS:
        reached = f"{s[f'reached_{t}']}/{s['games']}"
        ci = f"{s[f'reach_{t}_low']:.1%} to {s[f'reach_{t}_high']:.1%}"
        print(f"{t:<10}{reached:>11}{s[f'reach_{t}']:>8.1%}   {ci}")
    print(f"moves      mean {s['moves_mean']:.1f}")
    print(f"speed      {s['moves_per_s']:,.0f} game moves/s per thread")
    return 0


def _watch(args: argparse.Namespace) -> int:
    agent, weights = _agent_setup(args)
    seed = game_seeds(args.seed, args.purpose, 1, start=args.game)[0]
    colour = sys.stdout.isatty()
    position = None
    try:
        for position in positions(agent, seed, args.evaluator, weights, args.max_moves):
            print(f"{CLEAR if colour else ''}{render(position, colour)}", flush=True)
            time.sleep(args.delay / 1000)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(f"final score {position.score}, max tile {position.max_tile}, moves {position.moves}")
    return 0


def _move(args: argparse.Namespace) -> int:
    agent, weights = _agent_setup(args)
    try:
        board = api.parse_board(args.board)
    except ValueError as exc:
        args.parser.error(f"argument --board: {exc}")
    try:
        player = api.Player(agent, args.evaluator, weights)
    except ValueError as exc:
        args.parser.error(str(exc))
    try:
        decision = player.decide(board, args.seed)
    except api.GameOverError as exc:
        print(f"g2048 move: {exc}", file=sys.stderr)
        return 1
    print(_describe(agent, args.evaluator))
    print(f"best move  {decision.move}")
    for direction, value in decision.values.items():
        print(f"{direction:<10} {value:.1f}" if value > -math.inf else f"{direction:<10} illegal")
    return 0


def _agent_options() -> argparse.ArgumentParser:
    """The options play, watch and move share: the agent, its settings, evaluator, weights."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("--agent", required=True, choices=AGENTS)
    options.add_argument(
        "--evaluator",
        default="nneonneo",
        choices=EVALUATOR_NAMES,
        help="(default nneonneo; ntuple: a trained network, given by --weights)",
    )
    options.add_argument(
        "--weights",
        help="comma-separated numbers (--weights=-1,2,... when the first is negative) or a JSON "
        "file: a list of numbers (3 lists for switching) or a selection file of the pipeline, "
        "results/select/... (default: the evaluator's weights); for --evaluator ntuple a "
        "network file, results/tune/td/seed1.npz, or a td selection file",
    )
    add_flags(options, AgentConfig, omit=("name",), types={"depth": _depth})
    return options


def _game_options() -> argparse.ArgumentParser:
    """The options play and watch share beyond the agent's: the games' cap, seed, purpose."""
    options = argparse.ArgumentParser(add_help=False)
    _at_least_0(
        options, "--max-moves", 0, "stop each game after this many moves", ": play to the end"
    )
    _at_least_0(options, "--seed", 0, "study seed of the games")
    options.add_argument(
        "--purpose",
        default=PLAY_PURPOSE,
        help="whose games: 'play' (default), or a study's 'benchmark', 'validate', or a tuning "
        "run's e.g. 'nsga2-s1' / 'cem-s1-iter3'; with --seed set to the study's study_seed, "
        "game k is the study's game k",
    )
    return options


def _command(
    commands: argparse._SubParsersAction, func: Command, name: str, **options: Any
) -> argparse.ArgumentParser:
    """The subcommand `name` (its help, description, parents: `options`), which runs `func`
    with its own parser as args.parser (for the command's errors)."""
    parser = commands.add_parser(name, **options)
    parser.set_defaults(func=func, parser=parser)
    return parser


def _out_options(parser: argparse.ArgumentParser, text: str, required: bool = True) -> None:
    """--out, the file a command writes (`text`: its help; checked by `_check_out`), and
    --force, to replace an existing one."""
    parser.add_argument("--out", type=Path, required=required, help=text)
    parser.add_argument("--force", action="store_true", help="replace an existing --out file")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m g2048`."""
    parser = _Parser(prog="g2048", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {g2048.__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    bench = _command(
        commands,
        _bench,
        "bench",
        help="measure the speed of the engine, the searches and TD training",
        description="Random playouts (the engine), then, unless --engine-only, expectimax's "
        "speed by depth, its budgets, node costs, iterative deepening, parallel search and "
        "Star1 against plain search, and TD training rates.",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--seconds", type=_positive_float, default=1.0, help="time per figure (default 1)"
    )
    bench.add_argument("--engine-only", action="store_true", help="the engine's figures alone")
    profile = _command(
        commands,
        _profile,
        "profile",
        help="expectimax speed and a result digest on fixed games",
        description="Plays the same games (nneonneo evaluator, cutoff 1e-4, "
        f"2**{AgentConfig.table_bits}-slot table "
        "unless told) once to compile or load, then --repeat times; prints the best rate, the "
        "nodes searched and a digest of every result column but `seconds`: an optimisation must "
        "leave the digest unchanged. Under `valgrind --tool=callgrind` instruction counts are "
        "deterministic; the search's own share is the difference from a run with --games 0, "
        "which only compiles or loads.",
    )
    depths = fixed_depth_schema()
    profile.add_argument(
        "--depth",
        type=_bounded(int, depths["minimum"], depths["maximum"]),
        nargs="+",
        default=[3, 5],
        help=f"search depths in plies (default 3 5; at most {depths['maximum']}, the study's "
        "deepest fixed search)",
    )
    _at_least_0(profile, "--games", 2)
    profile.add_argument("--max-moves", type=_bounded(int, 1), default=600, help="(default 600)")
    profile.add_argument("--cutoff", type=_bounded(float, 0, 0.999), default=1e-4)
    bits = setting_schema(next(f for f in _AGENT_SETTINGS if f.name == "table_bits"))
    profile.add_argument(
        "--table-bits",
        type=_bounded(int, bits["minimum"], bits["maximum"]),
        default=AgentConfig.table_bits,
    )
    profile.add_argument("--evaluator", default="nneonneo", choices=sorted(EVALUATORS))
    profile.add_argument("--repeat", type=_bounded(int, 1), default=1, help="(default 1)")
    check_config = _command(
        commands,
        _check_config,
        "check-config",
        help="check study config files, naming the file, line and key of a fault",
        description="What Snakemake checks before any job, with the file name and, for a YAML "
        "syntax error, the line and column (Snakemake's own message names neither). `make run` "
        "runs it first.",
    )
    check_config.add_argument("configs", nargs="+", type=Path, help="YAML study configs")
    digest = _command(
        commands,
        _digest,
        "digest",
        help="write the digests of a study's result files",
        description="Digests of every CSV (timing columns left out) and JSON file under the "
        "results folder, row by row, for `verify` on another machine.",
    )
    digest.add_argument("--results", type=Path, default=Path("results"), help="(default results)")
    _out_options(
        digest,
        "the digest file to write (not under a results folder; an existing one only with --force)",
    )
    digest.add_argument("--note", default="", help="what run the digests are of")
    digest.add_argument(
        "--docs",
        nargs="+",
        type=Path,
        default=[],
        metavar="FOLDER",
        help="also the SHA-256 of every file under these folders (the run's tables and figures "
        "copied to docs/, which a test checks against the file)",
    )
    check = _command(
        commands,
        _verify,
        "verify",
        help="compare a study's result files with a digest file",
        description="Exit 0 when every result file matches the digest file, else 1 naming the "
        "first differing file and row.",
    )
    check.add_argument("digests", type=Path, help="a digest file written by `digest`")
    check.add_argument("--results", type=Path, default=Path("results"), help="(default results)")
    check.add_argument(
        "--partial",
        action="store_true",
        help="compare only the files present (a rerun of some of the jobs)",
    )
    planner = _command(
        commands,
        _plan,
        "plan",
        help="predict a study's wall time on N cores or a cluster from its last run's job times",
        description="Lists the study's jobs by a Snakemake dry run of the config (nothing is "
        "run), takes each job's time from the benchmark file its last run wrote "
        "(benchmarks/...tsv) if that run had this config's settings for it (a second, plain "
        "dry run tells), else the record of the run docs/ shows (docs/jobs.tsv, for the config "
        "file it was recorded with: a fresh clone), leaves out a record that includes compiling "
        "the kernels where another can stand in, rescales a timed shard to the games it plays "
        "at once on the cores planned, gives a job without a record its row's mean (the same "
        "rule and wildcards but seed and shard) or its rule's, refuses a rule without any, and "
        "list-schedules them, longest remaining path first, each job on its "
        "threads, never more than --cores at once (a job asking for more is capped, its time "
        "kept). Prints the predicted wall time, the jobs, the total core-seconds and the "
        "critical path; with --cluster it refuses a job predicted beyond its runtime "
        "resource, naming it. Job times are taken as recorded, on the threads that run gave them. "
        "Run it in the study's folder; for a config never run, give --rates-from the config "
        "of a study that ran there, or run a sample of its jobs first (a seed of each run, a "
        "shard of each benchmark row).",
    )
    where = planner.add_mutually_exclusive_group(required=True)
    where.add_argument("--cores", type=_bounded(int, 1), help="plan for this many cores")
    where.add_argument(
        "--cluster",
        action="store_true",
        help="plan for a SLURM cluster through --profile: every job on its own allocation, so "
        "the critical path bounds the wall time",
    )
    planner.add_argument(
        "--configfile",
        type=Path,
        default=Path("config/config.yaml"),
        help="the study's config (default config/config.yaml)",
    )
    planner.add_argument(
        "--profile",
        type=Path,
        default=Path("profiles/slurm"),
        help="with --cluster: the workflow profile whose set-threads and runtime limits the "
        "jobs get (default profiles/slurm)",
    )
    planner.add_argument(
        "--rates-from",
        type=Path,
        metavar="CONFIG",
        help="time the jobs this config has no record of (nor their row) from a run of CONFIG "
        "in this folder: a job's start plus its games times the seconds per game that CONFIG's "
        "jobs of the same settings recorded (agent, evaluator, weights, tuning game, recipe; "
        "any names, seeds and numbers of games); a job that plays no games takes its rule's "
        "mean. Rows whose settings no record plays are refused by name",
    )
    planner.add_argument(
        "--overhead",
        type=_bounded(float, 0),
        help="seconds added to every job: Snakemake's own time between jobs (default 0), or "
        "with --cluster the queue wait and submission of every job but the local rules "
        "(default 60)",
    )
    train = _command(
        commands,
        _train,
        "train",
        help="train an n-tuple network by self-play: TD(0), TD(lambda), optimistic TD, TC, "
        "multistage (--recipe)",
        description="The pipeline's td tuning run outside the pipeline: the same games (seeded "
        "from --study-seed and the run's name td-s<seed>), the same network for the same "
        "settings. The state is saved to OUT.ckpt every --checkpoint-every games; after a kill "
        "or Ctrl-C the same command resumes from it. --from FILE goes on from a network "
        "file's weights (TDL2048+'s -i; checked as play reads a network), its network and "
        "stages taken from the file unless given (then they must be the file's) and its "
        "SHA-256 printed and kept in the run's settings; --patterns trains tuples of their "
        "own. At the end it prints the SHA-256 of the file written and that of its weight "
        "array (what a study records of a network).",
    )
    train.add_argument(
        "--recipe",
        choices=list(RECIPES),
        default="td",
        help="TDL2048+'s named recipes, whose settings the flags given override: "
        + "; ".join(f"{name}: {r.description}" for name, r in RECIPES.items()).replace("%", "%%")
        + " (default td)",
    )
    add_flags(train, TDConfig, given_only=True, supplied=("network",))
    train.add_argument(
        "--patterns",
        metavar="CELLS",
        help="the network's own tuples instead of --network: each tuple's cells (0..15, row by "
        "row) separated by commas, the tuples by semicolons, '0,1,2,3,4,5;4,5,6,7,8,9' (the "
        "network is named so in its file and the run's settings)",
    )
    _at_least_0(train, "--seed", 1, "run seed")
    _at_least_0(train, "--study-seed", 2048)
    train.add_argument(
        "--threads",
        type=_bounded(int, 1, os.cpu_count() or 1, " (the machine's cores)"),
        default=1,
        help="threads that play a round's games (with --batch > 1) or every game (with "
        "--lock-free); default 1",
    )
    _out_options(
        train, "the network file (.npz); not under results/, and an existing one only with --force"
    )
    train.add_argument("--curve", type=Path, help="write the learning curve here (CSV)")
    importer = _command(
        commands,
        _import_network,
        "import-network",
        help="read a network from TDL2048+'s weight file (FILE.w)",
        description="Reads the weight file TDL2048+ (moporgic/TDL2048) writes with -o FILE.w "
        "into a network file (.npz) for --evaluator ntuple. The file's tables must be those "
        "of --network (TDL2048+ names 4x6patt to 8x6patt alike); a file that is not, or is "
        "truncated, is refused in one line naming what differs.",
    )
    importer.add_argument("file", type=Path, help="TDL2048+'s weight file")
    importer.add_argument(
        "--network",
        type=_network_name,
        required=True,
        help=f"the network the file holds: {', '.join(NETWORKS)}, or tuples by their cells "
        "(train --patterns)",
    )
    importer.add_argument(
        "--stages",
        type=_bounded(int, 4, 32768),
        nargs="+",
        default=[],
        metavar="TILE",
        help="a multistage file's tile thresholds, which the file does not hold (TDL2048+'s "
        "-@ 0,16384 is --stages 16384; default: one stage)",
    )
    _out_options(importer, "the network file (.npz)")
    exporter = _command(
        commands,
        _export_network,
        "export-network",
        help="write a network in TDL2048+'s weight-file format (FILE.w)",
        description="Writes a network file (.npz, of train or import-network) as TDL2048+ "
        "writes its weights, for its -i FILE.w; prints the -n (and -@) options that read it. "
        "A file import-network read is written back byte for byte.",
    )
    exporter.add_argument("file", type=Path, help="the network file (.npz)")
    _out_options(exporter, "TDL2048+'s weight file (name it .w)")
    agent_options = [_agent_options(), _game_options()]
    play = _command(
        commands, _play, "play", parents=agent_options, help="play games and summarize them"
    )
    play.add_argument(
        "--games",
        type=_bounded(
            int,
            1,
            MAX_GAMES,
            " (play keeps every game's row until the end: more is refused, "
            "not streamed; play more in runs of --start and --games)",
        ),
        default=10,
        help=f"(default 10; at most {MAX_GAMES}: every game's row is kept until the end, so "
        "more are refused up front, not streamed; split a bigger run with --start)",
    )
    _at_least_0(play, "--start", 0, "index of the first game")
    play.add_argument(
        "--threads",
        type=_bounded(int, 1, os.cpu_count() or 1, " (the machine's cores)"),
        default=1,
        help="(default 1)",
    )
    _out_options(
        play,
        "write one CSV row per game here (checked before the first game; after Ctrl-C "
        "nothing is written); not under results/, and an existing file only with --force",
        required=False,
    )
    watch = _command(
        commands, _watch, "watch", parents=agent_options, help="watch one game in the terminal"
    )
    _at_least_0(watch, "--game", 0, "which game of --purpose (and --seed) to replay")
    _at_least_0(watch, "--delay", 100.0, "ms after each move")
    mover = _command(
        commands,
        _move,
        "move",
        parents=agent_options[:1],
        help="the agent's move on one board, and each move's value",
        description="Prints the move the agent plays on the board (as it would in a game) and "
        "the value its search gives each move (illegal: no value), then exits 0; exit 1 when "
        "no move is legal (the game is over). The Python API does the same: "
        "g2048.decide(board, AgentConfig(...)).",
    )
    mover.add_argument(
        "--board",
        required=True,
        help="16 tile values row by row (0 = empty), separated by commas or spaces, rows "
        "optionally separated by '/': --board 2,4,8,16/0,2,0,4/0,0,2,0/0,0,0,0",
    )
    _at_least_0(mover, "--seed", 0, "seed of the agent's own random draws (rollouts)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (argparse exits with 2 on bad arguments)."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
