"""Snakemake adapter: Pareto fronts, NSGA-II hypervolume, CEM progress and TD learning figures."""

from g2048.report import figures
from g2048.study.progress import script_log
from g2048.study.results import read_history, read_selection, read_tune

sm = snakemake  # noqa: F821
script_log(sm.log[0])
runs = [read_tune(p) for p in sm.input.runs]
selected = [read_selection(p) for p in sm.input.selected]
figures.save(figures.pareto_fronts(runs, selected), sm.output[0].removesuffix(".png"))
nsga2 = [read_history(p, "nsga2") for p in sm.input.nsga2]
figures.save(figures.hypervolume(nsga2), sm.output[2].removesuffix(".png"))
cem = [read_history(p, "cem") for p in sm.input.cem]
figures.save(figures.cem_progress(cem), sm.output[4].removesuffix(".png"))
td = {s: read_history(p, "td") for s, p in zip(sm.params.seeds, sm.input.td, strict=True)}
figures.save(figures.td_learning(td), sm.output[6].removesuffix(".png"))
