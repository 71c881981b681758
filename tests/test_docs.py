"""The project's Markdown links resolve: every relative link names a file that exists, and every
#anchor a heading of the file it points into (GitHub's heading slugs); docs/ shows one run."""

import re
import shutil
from pathlib import Path

import pytest
import yaml

from g2048.study.records.integrity import docs_problems

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(
    p
    for p in ROOT.glob("**/*.md")
    if not any(part.startswith(".") for part in p.relative_to(ROOT).parts)
    and p.relative_to(ROOT).parts[0] not in ("results", "g2048.egg-info")
    and "digests" not in p.parts
)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but hyphens dropped, spaces to -."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in CODE.sub("", path.read_text()).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            base = slug(match[1])
            n = seen.get(base, 0)
            out.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
    return out


def test_the_docs_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in DOCS}
    assert {"README.md", "config/README.md", "docs/performance.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=[p.relative_to(ROOT).as_posix() for p in DOCS])
def test_every_relative_link_and_anchor_resolves(doc: Path) -> None:
    broken = []
    for match in LINK.finditer(CODE.sub("", doc.read_text())):
        target = match[1] or match[2]
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        where = (doc.parent / file).resolve() if file else doc
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, broken


def test_docs_tables_and_figures_are_the_run_the_digests_describe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/tables and docs/figures hold the files of one run, as `make docs` copied them and
    listed them in docs/digests/default.json: a file left from another run, a missing one or
    one of other bytes is named; the check fails when a stale table is dropped in."""
    monkeypatch.chdir(ROOT)
    folders = ["docs/tables", "docs/figures"]
    assert docs_problems("docs/digests/default.json", folders) == []
    copy = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", copy)
    monkeypatch.chdir(tmp_path)
    (copy / "tables" / "learned.md").write_text("| left from an earlier run |\n")
    (copy / "figures" / "td_learning.png").write_bytes(b"other bytes")
    (copy / "tables" / "claims.md").unlink()
    assert docs_problems("docs/digests/default.json", folders) == [
        "docs/figures/td_learning.png: other bytes than the run docs/digests/default.json "
        "describes",
        "docs/tables/claims.md: listed in docs/digests/default.json, missing",
        "docs/tables/learned.md: not in the run docs/digests/default.json describes",
    ]


def test_the_cost_of_the_seeds_full_rollout_hybrid_is_quoted_alike() -> None:
    """The README's measured cost of source 004's hybrid with 100 full rollouts, and the note
    of the default study's capped row (which the claims table prints), give one number."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    quoted = re.search(r"`hybrid-d4-r100` \(100 rollouts.*? about (\d+) s a move", readme)
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    (entry,) = [e for e in config["benchmark"]["entries"] if e["name"] == "hybrid-d4-r100"]
    noted = re.search(r"full rollouts cost about (\d+) s a move", entry["note"])
    assert quoted and noted and quoted[1] == noted[1]
