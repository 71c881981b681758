#!/usr/bin/env bash
# The report stage of CI (`make test-browser`): install Debian's Chromium if it is missing (root,
# Debian), then open the smoke study's Snakemake report in it (tests/workflow/test_report_browser.py).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
fi
timeout -s INT 1200 .venv/bin/python -m pytest -q -m browser tests/workflow/test_report_browser.py
