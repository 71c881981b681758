"""Learning an evaluation from self-play: TD(0) training of n-tuple networks (td.py)."""
