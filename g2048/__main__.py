"""`python -m g2048 ...`."""

import sys

from g2048.cli import main

sys.exit(main())
