"""Snakemake adapter: the findings page, written from this run's tables."""

from pathlib import Path

import pandas as pd

from g2048.report.findings import findings_page
from g2048.study.records.integrity import job_log
from g2048.study.records.provenance import footer
from g2048.study.results import read_json

sm = snakemake  # noqa: F821
job_log(sm)
tables = {Path(path).stem: pd.read_csv(path) for path in sm.input.tables}
page = findings_page(tables, footer(read_json(sm.input.provenance)), sm.params.primary)
Path(sm.output.findings_md).write_text(page)
