"""Sample a study that never ran here, so that `plan --rates-from` can time it: one job of
every kind of work (`study.work`) that no recorded job of either config plays, and for the
benchmark rows too slow for that (`probe_moves`), the first moves of their first game.

`make sample-paper` runs it for config/paper.yaml after a recorded default study:

    python -m g2048.study.sample CONFIG --rates-from OTHER --cores N [--dry-run]

A sampled job is run by Snakemake (`g2048.study.run`, the job's output as target, forced)
with `--rerun-triggers mtime` and the other config's `tune` section (`sample_command`): the
files it reads that the other config's run made (its networks, its picks) are taken as they
are instead of being remade with this config's settings (a network trained on fewer games
plays shorter games: the sample then times them short). Of the jobs of a kind, the one whose
input files all exist is taken, if any. A sampled job overwrites the other config's result
file where both configs write one (a shard of a row both play): `make run` remakes it. A probe plays
the first `probe_moves` moves of the row's first game on one thread (tuned weights: the
other config's pick, `picked_weights`) and records the time per
move, and the mean game length (in moves) of the other config's rows of the same agent and
evaluator (their result files here) that `plan` extrapolates a game with:
benchmarks/probe/<entry>.tsv. The sampled jobs' benchmark files are listed with their SHA-256
in benchmarks/probe/sampled.txt: `plan` takes their records for this config's, though their
params (the `tune` section) differ, until a run rewrites them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from g2048.study import config as study
from g2048.study.config import ConfigError, load_config
from g2048.study.jobrecords import (
    PROBES,
    record_seconds,
    recorded_jobs,
    shared_rates,
    write_sampled,
)
from g2048.study.naming import network_file, parse_weights
from g2048.study.records import plan
from g2048.study.records.job_cost import Work, job_work, parse_wildcards


def sample_command(
    targets: Sequence[str], cores: int, configfile: Path, tune: Mapping[str, object]
) -> list[str]:
    """The command that runs the sampled jobs: Snakemake (`g2048.study.run`) with `targets`
    and `--rerun-triggers mtime`, forced (a target the other config's run wrote, a shard of a
    row both play, is its work, not this one's), the targets first (an option of many values
    takes them), and the other config's `tune` section, whose picks and networks its run made:
    a job's work does not depend on how its weights were tuned, and with this config's own
    section every seed's run or network would be made first (for the paper study, 42 networks
    of 10^6 games), and the other's refused as made with other settings."""
    command = [sys.executable, "-m", "g2048.study.run", *targets, "--cores", str(cores)]
    command += ["--force", "--rerun-triggers", "mtime", "--configfile", str(configfile)]
    return command + ["--config", f"tune={json.dumps(tune)}"]


def probe_path(entry: str) -> Path:
    """The record of a probe of benchmark entry `entry`."""
    return PROBES / f"{entry}.tsv"


def unrated(
    jobs: Sequence[plan.Job],
    works: Mapping[int, Work | None],
    rates: plan.Rates,
    recorded: Mapping[int, float | None],
) -> list[plan.Job]:
    """The jobs that `plan` would refuse (their kind of work has no rate, their row no
    record), in order."""
    rows = {job.row for job in jobs if recorded.get(job.jobid) is not None}
    return [
        job
        for job in jobs
        if (work := works.get(job.jobid)) is not None
        and work.kind not in rates.per_unit
        and job.row not in rows
        and recorded.get(job.jobid) is None
    ]


def choose(
    jobs: Sequence[plan.Job],
    works: Mapping[int, Work | None],
    config: dict,
    exists: Callable[[str], bool],
) -> tuple[list[str], list[str]]:
    """(targets, probes): for each kind of work among `jobs`, the output of one job of it, the
    first whose input files all `exist` (else the first); a benchmark row whose entry sets
    `probe_moves` is probed (its name) instead."""
    targets: list[str] = []
    probes: list[str] = []
    by_kind: dict[str, list[plan.Job]] = {}
    for job in jobs:
        if job.rule == "benchmark_shard":
            name = parse_wildcards(job.wildcards)["entry"]
            if "probe_moves" in study.entry(config, name):
                if name not in probes:
                    probes.append(name)
                continue
        by_kind.setdefault(works[job.jobid].kind, []).append(job)
    for kind_jobs in by_kind.values():
        ready = [job for job in kind_jobs if all(exists(path) for path in job.inputs)]
        targets.append((ready or kind_jobs)[0].outputs[0])
    return targets, probes


def game_moves(config: dict, entry: dict, results: Path = Path("results")) -> tuple[float, str]:
    """The mean moves of the games of `config`'s benchmark rows that play `entry`'s agent and
    evaluator (their result files under `results`), with the rows' names; (0, "") if none."""
    like = [
        e["name"]
        for e in config["benchmark"]["entries"]
        if e["agent"].get("name") == entry["agent"].get("name")
        and e["evaluator"] == entry["evaluator"]
        and (results / "benchmark" / f"{e['name']}.csv").is_file()
    ]
    if not like:
        return 0.0, ""
    moves = pd.concat(
        [pd.read_csv(results / "benchmark" / f"{name}.csv", usecols=["moves"]) for name in like]
    )
    return float(moves["moves"].mean()), ", ".join(like)


def picked_weights(other: dict, entry: dict) -> object:
    """The weights benchmark entry `entry` plays: its own (numbers, or None for its
    evaluator's defaults), or for tuned weights (`tuned:<run>` and the like) the pick that
    `other`'s run made under results/, checked as its benchmark job checks it (a network
    against the SHA-256 its training recorded). A run `other` does not tune is refused."""
    from g2048.study.stages import tuned_weights

    spec = parse_weights(entry.get("weights"))
    if spec is None:
        return entry.get("weights")
    if spec.run not in study.run_names(other):
        raise ConfigError(
            f"benchmark entry {entry['name']}: its weights {spec} name a run that the other "
            "config does not tune (a probe plays that run's pick)"
        )
    record = study.run_record(other, spec.run)
    seeds = record["seeds"]
    trains = study.run_method(other, spec.run).trains_network
    _, weights = tuned_weights(
        f"results/select/tuned-{spec.run}.json",
        record,
        entry=spec.entry,
        networks=[network_file(spec.run, s) for s in seeds] if trains else [],
        runs=[f"results/tune/{spec.run}/seed{s}.json" for s in seeds] if trains else [],
        seed_selections=[f"results/select/{spec.run}/seed{s}.json" for s in seeds],
    )
    return weights


def probe(config: dict, name: str, other: dict) -> str:
    """Play the first `probe_moves` moves of benchmark entry `name`'s first game on one
    thread; write its record (seconds per move, moves, the mean game of `other`'s rows of
    the same agent and evaluator and their names) and return a line saying what it found."""
    from g2048.play import play_games
    from g2048.study.stages import benchmark_seeds

    entry = study.entry(config, name)
    weights = picked_weights(other, entry)
    agent = study.agent_config(entry["agent"])
    seeds = benchmark_seeds(config["study_seed"], 0, 1)
    play_games(agent, seeds, entry["evaluator"], weights, max_moves=1)  # load
    start = time.perf_counter()
    games = play_games(agent, seeds, entry["evaluator"], weights, max_moves=entry["probe_moves"])
    seconds = time.perf_counter() - start
    moves = int(games["moves"].iloc[0])
    per_move = seconds / max(moves, 1)
    mean, like = game_moves(other, entry)
    path = probe_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "seconds_per_move\tmoves\tgame_moves\tlike\n"
        f"{per_move:.6f}\t{moves}\t{mean:.1f}\t{like or '-'}\n"
    )
    return f"probe {name}: {moves} moves in {seconds:.1f} s ({per_move:.3f} s a move) -> {path}"


def read_probe(path: Path) -> tuple[float, int, float, str] | None:
    """A probe's record: (seconds per move, moves played, mean game moves of its like rows,
    their names); None without one."""
    try:
        rows = path.read_text().splitlines()
        values = rows[1].split("\t")
        return float(values[0]), int(values[1]), float(values[2]), values[3]
    except FileNotFoundError:
        return None
    except (IndexError, ValueError):
        raise plan.PlanError(
            f"{path} is not a probe's record: delete it and sample again"
        ) from None


def probed(
    configfile: Path, jobs: list[plan.Job], recorded: dict[int, float | None]
) -> dict[int, tuple[float, str]]:
    """The benchmark shards of rows that set `probe_moves` and have no record (nor their
    row), timed by extrapolation from their probe (`study.sample`): a job's start plus its
    games (a timed shard's rounds of games played at once, `plan.games_at_once`) times the
    probe's seconds per move times the mean game of the rows like it; with the line that says
    so, per job."""
    rows = {job.row for job in jobs if recorded.get(job.jobid) is not None}
    config = None
    start = min((v for v in recorded.values() if v is not None), default=0.0)
    out: dict[int, tuple[float, str]] = {}
    for job in jobs:
        if job.rule != "benchmark_shard" or job.row in rows or recorded.get(job.jobid):
            continue
        config = config or load_config(configfile)
        name = parse_wildcards(job.wildcards)["entry"]
        entry = study.entry(config, name)
        if "probe_moves" not in entry:
            continue
        probed = read_probe(probe_path(name))
        if probed is None:
            continue
        per_move, moves, game_moves, like = probed
        if game_moves <= 0:
            raise plan.PlanError(
                f"{name}: its probe found no row like it (same agent and evaluator) with "
                "games recorded here to take a game's length from: run the other study first"
            )
        shard = int(parse_wildcards(job.wildcards)["shard"])
        _, games = study.shard_range(entry["games"], study.entry_shards(config, name), shard)
        # a timed shard plays its games side by side, each on a core of its own
        at_once = plan.games_at_once(job.threads) if entry["agent"].get("budget_ms") else 1
        seconds = start + -(-games // at_once) * per_move * game_moves
        out[job.jobid] = (
            seconds,
            f"{name}: EXTRAPOLATED from the first {moves} moves of a game ({per_move:.3f} s a "
            f"move), its games taken as long as {like}'s ({game_moves:.0f} moves)"
            + (f", {at_once} at once" if at_once > 1 else ""),
        )
    return out


def _threads(jobs: Sequence[plan.Job]) -> dict[int, int]:
    return {job.jobid: job.threads for job in jobs}


def main(argv: list[str] | None = None) -> int:
    """Sample CONFIG's jobs that a run of --rates-from here cannot time."""
    parser = argparse.ArgumentParser(prog="python -m g2048.study.sample", description=__doc__)
    parser.add_argument("config", type=Path)
    parser.add_argument("--rates-from", type=Path, required=True, metavar="OTHER")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", help="print what would run")
    args = parser.parse_args(argv)
    try:
        config, other = load_config(args.config), load_config(args.rates_from)
        # the records as plan takes them (their settings', compiling left out)
        theirs, their_records, _, _ = recorded_jobs(args.rates_from, args.cores, None)
        their_seconds, _, _ = record_seconds(theirs, their_records, _threads(theirs))
        jobs, records, _, _ = recorded_jobs(args.config, args.cores, None)
        mine_recorded, _, _ = record_seconds(jobs, records, _threads(jobs))
        mine = {j.jobid: job_work(config, j.rule, parse_wildcards(j.wildcards)) for j in jobs}
        their = {j.jobid: job_work(other, j.rule, parse_wildcards(j.wildcards)) for j in theirs}
        rates, _ = shared_rates(jobs, mine_recorded, mine, theirs, their_seconds, their)
        todo = unrated(jobs, mine, rates, mine_recorded)
        targets, probes = choose(todo, mine, config, lambda p: Path(p).exists())
    except (ConfigError, plan.PlanError) as exc:
        print(exc, file=sys.stderr)
        return 2
    command = sample_command(targets, args.cores, args.config, other["tune"])
    print(f"{len(targets)} job(s) to sample, {len(probes)} row(s) to probe")
    if targets:
        print(" ".join(command))
    for name in probes:
        print(f"probe {name}: its first {study.entry(config, name)['probe_moves']} moves")
    if args.dry_run:
        return 0
    if targets and subprocess.run(command, check=False).returncode != 0:
        return 1
    if targets:
        write_sampled([job.benchmark for job in todo if job.outputs[0] in targets])
    for name in probes:
        print(probe(config, name, other), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
