"""The smoke study's Snakemake report, opened in headless Chromium as a reader would: every
table is readable inline (its HTML rendering), with the values of its CSV.

Needs Debian's Chromium at /usr/bin/chromium: `make test-browser` (.ci/browser-test.sh) installs
it where missing and runs this file; `make test` leaves it out (marker `browser`)."""

from pathlib import Path

import pandas as pd
import pytest
from playwright.sync_api import sync_playwright
from workflow_runs import smoke_study, snakemake

from g2048.study.outputs import OUTPUTS

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
# Headless, and nothing that reaches for the network (the machines here have none).
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def report() -> Path:
    where = smoke_study()
    made = snakemake(where, "--report", "report.html")
    assert made.returncode == 0, made.stderr[-4000:]
    return where


def shown_table(report: Path, name: str) -> str:
    """The text of results/tables/<name>.html as the report shows it: Results > Tables > its
    subcategory, the eye icon of its row, then the page in the viewer's frame."""
    subcategory = next(o.subcategory for o in OUTPUTS if o.name == name)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.goto((report / "report.html").as_uri())
            page.get_by_text("Tables", exact=True).click()
            page.get_by_text(subcategory, exact=True).click()
            row = page.locator("tr", has_text=f"results/tables/{name}.html")
            row.locator("a[iconname=eye]").click()
            frame = page.frame_locator("iframe").first
            return frame.locator("body").inner_text(timeout=20_000)
        finally:
            browser.close()


def test_the_benchmark_table_is_readable_in_the_report(report: Path) -> None:
    table = pd.read_csv(report / "results" / "tables" / "benchmark.csv").set_index("name")
    text = shown_table(report, "benchmark")
    assert "score_mean" in text and "expectimax-d3" in text
    assert f"{table.loc['expectimax-d3', 'score_mean']:.3g}" in text
    assert "Made by g2048 source" in text


@pytest.mark.parametrize(
    ("name", "cell"),
    [("validation", "hand-classic4"), ("tuning", "nsga2"), ("claims", "not comparable")],
)
def test_every_other_table_is_readable_in_the_report(report: Path, name: str, cell: str) -> None:
    assert cell in shown_table(report, name)
