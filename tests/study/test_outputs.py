"""The one declaration of the study's tables and figures: every output has its caption and its
rule, no file is declared twice, and the rules, the default target and the findings rule read
it (no list of outputs is written anywhere else)."""

import re
from pathlib import Path

import pytest

from g2048.study.outputs import FIGURES, OUTPUTS, findings_tables, made_by, study_outputs

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "workflow" / "rules"


def test_every_output_has_a_caption_and_a_rule_that_declares_it_by_name() -> None:
    aggregate = (RULES / "aggregate.smk").read_text()
    for output in OUTPUTS:
        assert (ROOT / "workflow" / "report" / f"{output.name}.rst").exists(), output.name
        assert f"rule {output.rule}:\n" in aggregate
        assert f'**rule_outputs("{output.rule}")' in aggregate, output.rule
    captions = {p.stem for p in (ROOT / "workflow" / "report").glob("*.rst")} - {"workflow"}
    assert captions == {o.name for o in OUTPUTS}  # no caption of an output that is gone


def test_no_file_or_output_name_is_declared_twice() -> None:
    files = [f for o in OUTPUTS for f in o.files().items()]
    assert len({k for k, _ in files}) == len({p for _, p in files}) == len(files)
    assert files[0] == ("findings_md", "results/findings.md")
    assert files[1] == ("benchmark_csv", "results/tables/benchmark.csv")
    assert "depth_transfer" in FIGURES and "benchmark" not in FIGURES


def test_a_study_without_transfer_sets_makes_no_transfer_output() -> None:
    every, without = study_outputs(True), study_outputs(False)
    assert {o.name for o in every} - {o.name for o in without} == {
        "transfer", "transfer_leaders", "depth_transfer"
    }  # fmt: skip
    assert "results/tables/transfer_leaders.csv" in findings_tables(True)
    assert "results/tables/transfer_leaders.csv" not in findings_tables(False)
    assert "results/tables/claims.csv" in findings_tables(False)
    assert not any(p.endswith("findings.md") for p in findings_tables(True))


def test_the_report_shows_one_entry_per_output_in_its_subcategory() -> None:
    """A table's HTML, a figure's PNG and the findings page: one report entry each, under the
    question it serves; the findings page first."""
    for output in OUTPUTS:
        shown = [f for f in output.files().values() if f.endswith(f".{output.shown}")]
        assert len(shown) == 1, output.name
        assert output.subcategory in ("answers", "search", "tuning", "learned", "claims")
    assert {o.shown for o in OUTPUTS if o.category == "Tables"} == {"html"}
    assert {o.shown for o in OUTPUTS if o.category == "Figures"} == {"png"}
    assert OUTPUTS[0].name == "findings"


def test_made_by_names_a_rule_without_outputs() -> None:
    assert [o.name for o in made_by("table_transfer")] == [
        "transfer", "transfer_leaders", "depth_transfer"
    ]  # fmt: skip
    with pytest.raises(KeyError, match="'table_typo'"):
        made_by("table_typo")


def test_no_script_reads_an_output_by_its_position() -> None:
    scripts = (ROOT / "workflow" / "scripts").glob("*.py")
    found = [p.name for p in scripts if re.search(r"sm\.(output|input)\[", p.read_text())]
    assert found == []
