"""Snakemake adapter: the tuning runs' figures: NSGA-II's Pareto fronts and hypervolume, every
weight-tuning run's held-out progress, and TD learning curves."""

from g2048.report import figures
from g2048.report.convergence import IMPROVING, progress_curves, progress_table
from g2048.study.methods import get_method
from g2048.study.records.integrity import job_log
from g2048.study.results import read_history, read_progress, read_selection, read_tune

sm = snakemake  # noqa: F821
job_log(sm)
records = [(sm.params.records[name], seed) for name, seed in sm.params.jobs]
runs = [read_tune(p, *r) for p, r in zip(sm.input.runs, records, strict=True)]
selected = [read_selection(p, *r) for p, r in zip(sm.input.selected, records, strict=True)]
histories = [read_history(p, r["method"]) for p, r in zip(sm.input.histories, runs, strict=True)]
by_figure: dict[str, dict[str, list]] = {"fronts": {}, "progress": {}, "learning": {}}
for run, sel, history in zip(runs, selected, histories, strict=True):
    runs_of = by_figure[get_method(run["method"]).figure]
    runs_of.setdefault(run["run"], []).append((run, sel, history))
fronts = by_figure["fronts"]
first = next(iter(fronts.values()))  # the fronts of the first NSGA-II run (source 000's)
figure = figures.pareto_fronts([r for r, _, _ in first], [s for _, s, _ in first])
figures.save(figure, sm.output.pareto_fronts_png)
hv = {name: [h for _, _, h in seeds] for name, seeds in fronts.items()}
figures.save(figures.hypervolume(hv), sm.output.hypervolume_png)
progress = [
    read_progress(p, r, s)
    for p, (r, s) in zip(sm.input.progress, sm.params.progress_jobs, strict=True)
]
table = progress_table(progress)
improving = frozenset(table.run[table.verdict == IMPROVING])
figure = figures.tuner_progress(progress_curves(progress), improving)
figures.save(figure, sm.output.tuner_progress_png)
(learning,) = by_figure["learning"].values()  # the one network run (td)
curves = {r["seed"]: h for r, _, h in learning}
figures.save(figures.td_learning(curves), sm.output.td_learning_png)
