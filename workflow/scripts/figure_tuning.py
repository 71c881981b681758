"""Snakemake adapter: Pareto fronts and hypervolume (NSGA-II), CEM and CMA-ES progress, and
TD learning figures."""

from g2048.report import figures
from g2048.study.progress import script_log
from g2048.study.results import read_history, read_selection, read_tune

sm = snakemake  # noqa: F821
script_log(sm.log[0])
runs = [read_tune(p) for p in sm.input.runs]
selected = [read_selection(p) for p in sm.input.selected]
histories = [read_history(p, r["method"]) for p, r in zip(sm.input.histories, runs, strict=True)]
by_run: dict[str, list] = {}
for run, sel, history in zip(runs, selected, histories, strict=True):
    by_run.setdefault(run["run"], []).append((run, sel, history))
nsga2 = {name: seeds for name, seeds in by_run.items() if seeds[0][0]["method"] == "nsga2"}
first = next(iter(nsga2.values()))  # the fronts of the first NSGA-II run (seed 000's)
fronts = figures.pareto_fronts([r for r, _, _ in first], [s for _, s, _ in first])
figures.save(fronts, sm.output[0].removesuffix(".png"))
hv = {name: [h for _, _, h in seeds] for name, seeds in nsga2.items()}
figures.save(figures.hypervolume(hv), sm.output[2].removesuffix(".png"))
single = {
    name: {
        "evaluator": seeds[0][0]["settings"]["evaluator"],
        "judged_by": seeds[0][0]["judged_by"],
        "histories": [h for _, _, h in seeds],
    }
    for name, seeds in by_run.items()
    if name not in nsga2
}
figures.save(figures.tuner_progress(single), sm.output[4].removesuffix(".png"))
td = {s: read_history(p, "td") for s, p in zip(sm.params.seeds, sm.input.td, strict=True)}
figures.save(figures.td_learning(td), sm.output[6].removesuffix(".png"))
