"""The command line, `python -m g2048 bench | profile | check-config | digest | verify | play |
watch`: the top layer, which only calls the layers below it."""

from g2048.cli.main import main

__all__ = ["main"]
