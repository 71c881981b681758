"""The engine: the rules on a 64-bit bitboard, per-game random numbers, thread counts, and the
plain reference implementation (rules and expectimax) that the fast code is tested against.

Naming convention, stated once: a quantity has one name in both layers of the engine.
`bitboard` is the njit layer: boards are np.uint64, cells hold ranks (log2 of the tile, 0 =
empty), nothing is validated; agents, evaluators and game loops call it. `board` is the Python
API: boards are validated Python ints and tile values come out, each function wrapping its
`bitboard` namesake (`empty_count`, `is_game_over`, ...). A rank and a tile value are different
quantities with different names: `bitboard.max_rank` is a rank, `board.max_tile` a tile value.
"""
