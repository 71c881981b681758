"""tools/bench_peers.py (`make bench-peers PEERS=path`): which checkouts it takes for which peer,
how it interleaves and summarises pairs, and its one-line refusals. The peers' own builds and
runs need their source, which the repository does not hold."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "bench_peers.py"
spec = importlib.util.spec_from_file_location("bench_peers", TOOL)
bench_peers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_peers)


def _checkouts(root: Path) -> tuple[Path, Path]:
    ai, tdl = root / "2048-ai", root / "TDL2048"
    ai.mkdir(parents=True)
    tdl.mkdir()
    (ai / "2048.h").write_text("DLL_PUBLIC int find_best_move(board_t board);\n")
    (tdl / "2048.cpp").write_text("// TDL2048+ by moporgic\nint main() {}\n")
    (root / "other").mkdir()
    return ai, tdl


def test_peers_are_found_by_their_source(tmp_path: Path) -> None:
    ai, tdl = _checkouts(tmp_path)
    found = bench_peers.find_peers(tmp_path)
    assert found == {bench_peers.NNEONNEO: ai, bench_peers.TDL2048: tdl}
    assert bench_peers.find_peers(ai) == {bench_peers.NNEONNEO: ai}  # a checkout itself
    assert bench_peers.find_peers(tmp_path / "other") == {}


def test_pairs_alternate_which_program_goes_first_and_ratios_are_theirs_over_ours() -> None:
    calls = []

    def timed(name: str, seconds: float):  # noqa: ANN202
        def run() -> float:
            calls.append(name)
            return seconds

        return run

    times = bench_peers.pair_ratios(timed("ours", 1.0), timed("theirs", 2.0), 3)
    assert calls == ["ours", "theirs", "theirs", "ours", "ours", "theirs"]
    assert times == [(1.0, 2.0)] * 3
    line = bench_peers.summary([(1.0, 2.0), (2.0, 3.0), (1.0, 4.0)])
    assert line.startswith("2.00x median of 3 pairs (1.50-4.00), 2.25x the ratio of the totals")


def test_a_failed_build_is_one_line_naming_the_command(tmp_path: Path) -> None:
    ai, _ = _checkouts(tmp_path / "src")
    with pytest.raises(ValueError, match=r"^make no-such-target failed in .*2048-ai: "):
        bench_peers.build(ai, tmp_path, [["make", "no-such-target"]])


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing", "is not a folder (PEERS=path to the source)"),
        ("empty", "no checkout of nneonneo/2048-ai or TDL2048+ at"),
    ],
)
def test_no_peer_is_refused_in_one_line(tmp_path: Path, where: str, message: str) -> None:
    (tmp_path / "empty").mkdir()
    run = subprocess.run(
        [sys.executable, str(TOOL), str(tmp_path / where)], capture_output=True, text=True
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and message in run.stderr, run.stderr
