"""The Python API of one move (g2048.api) and `python -m g2048 move`: on every board of a game
the engine plays, the API's move is the move the agent made there; its values are the
search's own and the plain reference's; bad and finished boards are refused in one line."""

import math

import numpy as np
import pytest
from searches import played_boards, random_network, serial_values

import g2048
from g2048 import AgentConfig, GameOverError, Player, decide, parse_board
from g2048.agents import STATS_SIZE, TABLE_BITS
from g2048.agents.expectimax import new_table
from g2048.cli.main import main
from g2048.engine.bitboard import start_board
from g2048.engine.board import DIRECTIONS, decode, encode
from g2048.engine.reference import ref_afterstate_expectimax, ref_expectimax
from g2048.engine.rng import game_seeds
from g2048.evaluators import EVALUATORS, evaluate, prepare, value
from g2048.play import agent_params, evaluator_rows, game_streams, play_on

NSGA4 = EVALUATORS["nsga4"].default_weights
OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def game(agent: AgentConfig, evaluator: str, weights: object, moves: int) -> list[tuple]:
    """(board, the agent's generator state before the move, the move played) for the first
    `moves` moves of the game `play_games` plays from its first `play` seed: each move one call
    of its game loop, play_on, as `python -m g2048 watch` steps it."""
    ev_kind, w, tables = evaluator_rows(agent, evaluator, weights)
    params = agent_params(agent, evaluator, tables)
    spawns, rng = game_streams(game_seeds(1, "play", 1)[0])
    table, stats = new_table(int(params[TABLE_BITS])), np.zeros(STATS_SIZE, dtype=np.int64)
    b, stop, out = np.uint64(start_board(spawns)), np.zeros(1, dtype=np.int64), []
    for k in range(moves):
        before = rng.copy()
        after, _, _, _, ended, _, d = play_on(
            agent.kind, params, ev_kind, w, tables, b, spawns, rng, table, stats, k, k + 1, stop
        )
        if ended:
            break
        out.append((int(b), before, DIRECTIONS[d]))
        b = np.uint64(after)
    return out


@pytest.mark.parametrize(
    ("agent", "evaluator", "weights", "moves"),
    [
        (AgentConfig("greedy"), "nneonneo", None, 300),
        (AgentConfig("greedy"), "ntuple", random_network("lines4x2", 1), 200),
        (AgentConfig("expectimax", depth=3), "nneonneo", None, 150),
        (AgentConfig("expectimax", depth=4, cutoff=0.01, star=True), "nneonneo", None, 40),
        (AgentConfig("expectimax", depth=5, budget_nodes=3000), "classic4", None, 40),
        (AgentConfig("expectimax", depth=3), "ntuple", random_network("lines4x2", 2), 60),
        (
            AgentConfig("switching", depth=2, empty_threshold=6),
            "nsga4",
            [NSGA4, 1 + NSGA4, NSGA4**2],
            100,
        ),  # noqa: E501
        (AgentConfig("montecarlo", rollouts=5, step_cap=30), "nneonneo", None, 40),
        (AgentConfig("hybrid", depth=2, rollouts=2, step_cap=10), "nneonneo", None, 20),
    ],
    ids=lambda v: v.name if isinstance(v, AgentConfig) else None,
)
def test_the_api_moves_as_the_agent_did_on_every_board_of_its_game(
    agent: AgentConfig, evaluator: str, weights: object, moves: int
) -> None:
    player = Player(agent, evaluator, weights)
    played = game(agent, evaluator, weights, moves)
    assert len(played) >= min(moves, 20)
    assert len({move for _, _, move in played}) > 1
    for board, rng, move in played:
        decision = player.decide(board, rng=rng)
        assert decision.move == move, (decode(board).tolist(), decision)
        assert decision.values[move] == max(decision.values.values())


def test_the_values_are_the_searchs_and_the_references() -> None:
    network = random_network("lines4x2", 3)
    kind, weights, table = prepare("ntuple", network)
    heuristic = prepare("nneonneo")
    for grid in played_boards(6, 40, seed=11):
        b = encode(grid)
        searched = Player(AgentConfig("expectimax", depth=3)).decide(grid).values
        stats = np.zeros(STATS_SIZE, dtype=np.int64)
        own = serial_values(b, 3, heuristic, 0.0, new_table(12), stats)
        np.testing.assert_array_equal(list(searched.values()), own)
        ref = ref_expectimax(grid, 3, lambda g: value("nneonneo", encode(g)))
        np.testing.assert_allclose(list(searched.values()), ref, rtol=1e-9)
        greedy = decide(b, AgentConfig("greedy"), "ntuple", network).values
        after = ref_afterstate_expectimax(
            grid, 1, lambda g: float(evaluate(kind, np.uint64(encode(g)), weights, table, True))
        )
        np.testing.assert_allclose(list(greedy.values()), after, rtol=1e-9)
        legal = [d for d, v in zip(DIRECTIONS, ref, strict=True) if v > -math.inf]
        assert [d for d, v in greedy.items() if v > -math.inf] == legal


def test_rollout_values_come_from_the_seed() -> None:
    player = Player(AgentConfig("montecarlo", rollouts=20, step_cap=50))
    grid = played_boards(1, 30, seed=5)[0]
    assert player.decide(grid, seed=4) == player.decide(grid, seed=4)
    assert player.decide(grid, seed=4).values != player.decide(grid, seed=5).values


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2,4,8", "a board is 16 tile values"),
        ("2,4,8,16/0,2,0,4/0,0,2,0/0,0,0", "a board is 16 tile values"),
        ("2 4 8 16 0 2 0 4 0 0 2 0 0 0 0 x", "not a tile value: 'x'"),
        ("2,4,8,16/0,3,0,4/0,0,2,0/0,0,0,0", "power of two in 2..32768, got 3"),
        ("65536,4,8,16/0,2,0,4/0,0,2,0/0,0,0,0", "power of two in 2..32768, got 65536"),
        ("2,4,8,16/0,-2,0,4/0,0,2,0/0,0,0,0", "power of two in 2..32768, got -2"),
    ],
)
def test_a_bad_board_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        parse_board(text)
    assert "\n" not in str(error.value)


def test_boards_parse_row_by_row_in_every_documented_form() -> None:
    grid = [[2, 4, 8, 16], [0, 2, 0, 4], [0, 0, 2, 0], [0, 0, 0, 32768]]
    texts = ["2,4,8,16/0,2,0,4/0,0,2,0/0,0,0,32768", "2 4 8 16  0 2 0 4 0 0 2 0 0 0 0 32768"]
    texts.append("2, 4, 8, 16 / 0, 2, 0, 4 / 0, 0, 2, 0 / 0, 0, 0, 32768")
    assert {parse_board(t) for t in texts} == {encode(grid)}


def test_a_finished_board_and_the_random_agent_are_refused() -> None:
    with pytest.raises(GameOverError, match="no legal move on board .*: the game is over"):
        decide(OVER, AgentConfig("expectimax"))
    with pytest.raises(ValueError, match="tile value must be 0 or a power of two"):
        decide([[3] * 4] * 4, AgentConfig("greedy"))
    with pytest.raises(ValueError, match="grid must be 4x4"):
        decide([[2, 4]], AgentConfig("greedy"))
    with pytest.raises(ValueError, match="agent 'random' values no move"):
        Player(AgentConfig("random"))


def test_the_package_root_names_the_api() -> None:
    assert g2048.decide is decide and g2048.AgentConfig is AgentConfig
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = g2048.nothing


def test_move_prints_the_apis_move_and_values(capsys) -> None:  # noqa: ANN001
    board = "2,4,8,16/0,2,0,4/0,0,2,0/0,0,0,0"
    assert main(["move", "--agent", "expectimax", "--depth", "3", "--board", board]) == 0
    out = capsys.readouterr().out.splitlines()
    decision = decide(parse_board(board), AgentConfig("expectimax", depth=3))
    assert out[0] == "agent expectimax, evaluator nneonneo"
    assert out[1] == f"best move  {decision.move}"
    printed = dict(line.split() for line in out[2:])
    assert list(printed) == list(DIRECTIONS)
    for direction, v in decision.values.items():
        assert printed[direction] == ("illegal" if v == -math.inf else f"{v:.1f}")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--board", "2,4,8"], "argument --board: a board is 16 tile values"),
        (["--board", "2,4,8,16/0,3,0,4/0,0,2,0/0,0,0,0"], "power of two in 2..32768, got 3"),
        (["--agent", "random", "--board", "2" + ",0" * 15], "agent 'random' values no move"),
        (["--evaluator", "ntuple", "--board", "2" + ",0" * 15], "needs --weights"),
    ],
)
def test_move_refuses_a_bad_board_or_agent_with_exit_2(
    capsys, args: list[str], message: str
) -> None:  # noqa: ANN001, E501
    with pytest.raises(SystemExit) as exit_info:
        main(["move", "--agent", "greedy", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("g2048 move: error: ") and message in err


def test_move_on_a_finished_board_says_the_game_is_over(capsys) -> None:  # noqa: ANN001
    board = "/".join(",".join(map(str, row)) for row in OVER)
    assert main(["move", "--agent", "greedy", "--board", board]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err.strip()
        == "g2048 move: no legal move on board 0x1212212112122121: the game is over"
    )  # noqa: E501
