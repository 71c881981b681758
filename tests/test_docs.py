"""The project's Markdown links resolve: every relative link names a file that exists, and every
#anchor a heading of the file it points into (GitHub's heading slugs)."""

import re
from pathlib import Path

import pytest

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
