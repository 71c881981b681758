"""The study's tables, figures and findings page, declared once: the files each is written to,
the rule that writes it and where the report shows it (one entry each: a table's HTML, a
figure's PNG, the findings page, under a category and a subcategory). The rules' outputs, the
default target and the findings rule's inputs are all read from `OUTPUTS`."""

from dataclasses import dataclass

TABLE = ("csv", "md", "tex", "html")
TABLES_FOLDER = "results/tables"
FIGURE = ("png", "pdf")


@dataclass(frozen=True)
class Output:
    """One table, figure or page: `name` is its file stem (and its report caption's,
    workflow/report/<name>.rst), written by `rule` as `folder`/<name>.<format> for each of
    `formats`, the report showing its `shown` format under `category` and `subcategory` (what
    the study asks: search, tuning, learned or claims); `transfer` when only a study with
    depth-transfer sets makes it."""

    name: str
    rule: str
    category: str
    subcategory: str
    folder: str = TABLES_FOLDER
    formats: tuple[str, ...] = TABLE
    transfer: bool = False
    shown: str = "html"

    def files(self) -> dict[str, str]:
        """Its files by output name, <name>_<format>: what the rule's script writes to."""
        return {f"{self.name}_{f}": f"{self.folder}/{self.name}.{f}" for f in self.formats}


SEARCH, TUNING, LEARNED, CLAIMS = "search", "tuning", "learned", "claims"  # subcategories


def _table(name: str, subcategory: str, rule: str = "", transfer: bool = False) -> Output:
    """A table of the report's Tables, written by the rule table_<name> unless `rule` says."""
    return Output(name, rule or f"table_{name}", "Tables", subcategory, transfer=transfer)


def _figure(name: str, rule: str, subcategory: str, transfer: bool = False) -> Output:
    return Output(
        name, rule, "Figures", subcategory, "results/figures", FIGURE, transfer, shown="png"
    )


OUTPUTS = (
    Output("findings", "findings", "Findings", "answers", "results", ("md",), shown="md"),
    _table("benchmark", SEARCH),
    _table("comparisons", SEARCH),
    _table("tuning", TUNING),
    _table("methods", TUNING),
    _table("method_pairs", TUNING, "table_methods"),
    _table("progress", TUNING),
    _table("validation", TUNING),
    _table("transfer", TUNING, transfer=True),
    _table("transfer_leaders", TUNING, "table_transfer", transfer=True),
    Output("claims", "claims", "Tables", CLAIMS, formats=("md", "html", "csv")),
    _figure("cost_strength", "figure_results", SEARCH),
    _figure("cost_strength_column", "figure_results", SEARCH),
    _figure("benchmark_reach", "figure_results", SEARCH),
    _figure("pareto_fronts", "figure_tuning", TUNING),
    _figure("hypervolume", "figure_tuning", TUNING),
    _figure("tuner_progress", "figure_tuning", TUNING),
    _figure("tuning_differences", "table_methods", TUNING),
    _figure("validation_scores", "figure_results", TUNING),
    _figure("depth_transfer", "table_transfer", TUNING, transfer=True),
    _figure("td_learning", "figure_tuning", LEARNED),
)
FIGURES = tuple(o.name for o in OUTPUTS if o.formats == FIGURE)


def made_by(rule: str) -> list[Output]:
    """The outputs that `rule` writes, in declaration order."""
    outputs = [o for o in OUTPUTS if o.rule == rule]
    if not outputs:
        raise KeyError(f"no table or figure is declared as made by rule {rule!r}")
    return outputs


def study_outputs(transfer: bool) -> list[Output]:
    """What a study makes: every output, those of depth transfer where it has transfer sets."""
    return [o for o in OUTPUTS if transfer or not o.transfer]


def findings_tables(transfer: bool) -> list[str]:
    """The tables the findings page is written from (their CSV files): every table the study
    makes."""
    return [
        o.files()[f"{o.name}_csv"]
        for o in study_outputs(transfer)
        if "csv" in o.formats and o.folder == TABLES_FOLDER
    ]
