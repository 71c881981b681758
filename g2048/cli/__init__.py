"""The command line, `python -m g2048 bench | profile | check-config | digest | verify | plan |
train | import-network | export-network | play | watch`: the top layer, which only calls the
layers below it."""

from g2048.cli.main import main

__all__ = ["main"]
