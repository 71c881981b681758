"""The package's layers: each folder imports only from the layers below it, read off the source
with ast (no module is run). `python tests/test_layers.py` prints the layer graph (Graphviz)."""

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "g2048"
# Bottom to top; a module may import from its own layer and the layers before it.
LAYERS = ("engine", "evaluators", "agents", "play", "api", "learning", "study", "report", "cli")
# Generic optimisers: they import nothing of the package but the shared modules.
STANDALONE = ("tuning",)
# Machinery every layer may import (a setting declared once, g2048/settings.py): it imports
# nothing of the package.
SHARED = ("settings",)
# The package root (numba's cache folder, the source digest: any layer may read it; it imports
# nothing of the package but the Python API, on first use of one of its names) and `python -m
# g2048`.
ROOT_MODULES = {"__init__": ("api",), "__main__": ("cli",)}
# Edges the order above would allow but the design forbids: the report reads what the study
# recorded (g2048.study.agent_records), never the players' code.
FORBIDDEN = {("report", "agents"), ("report", "engine")}


def layer_of(module: str) -> str:
    """The layer of a dotted module name inside g2048 ("g2048.study.stages" -> "study")."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def is_module(name: str) -> bool:
    """Whether g2048.<name> is a module or a folder of the package (not a name in __init__)."""
    return (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file()


def package_imports(path: Path) -> set[str]:
    """The g2048 modules that a source file imports (absolute imports only: the package uses
    no relative ones)."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "g2048"}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            if node.module and node.module.split(".")[0] == "g2048":
                if node.module == "g2048":  # a subpackage, or a name of the package root
                    found |= {
                        f"g2048.{a.name}" if is_module(a.name) else "g2048" for a in node.names
                    }
                else:
                    found.add(node.module)
    return found


def modules() -> dict[str, set[str]]:
    """Every module of the package (as its layer name, or its root name) with its imports."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        out[".".join(("g2048", *rel.parts))] = package_imports(path)
    return out


def layer_edges() -> set[tuple[str, str]]:
    """(importing layer, imported layer) pairs between different layers."""
    edges = set()
    for module, imports in modules().items():
        for target in imports:
            a, b = layer_of(module), layer_of(target)
            if a != b:
                edges.add((a, b))
    return edges


def allowed(source: str, target: str) -> bool:
    if (source, target) in FORBIDDEN:
        return False
    if target == "__init__":  # the package root: the source digest, below every layer
        return source != "__init__"
    if source in SHARED:
        return False
    if target in SHARED:
        return True
    if source in ROOT_MODULES:
        return target in ROOT_MODULES[source]
    if source in STANDALONE:
        return False
    if target in STANDALONE:
        return source in ("study", "report", "cli")
    return target in LAYERS and LAYERS.index(target) < LAYERS.index(source)


def test_every_module_belongs_to_a_known_layer() -> None:
    known = set(LAYERS) | set(STANDALONE) | set(SHARED) | set(ROOT_MODULES)
    assert {layer_of(m) for m in modules()} <= known


@pytest.mark.parametrize("edge", sorted(layer_edges()), ids="->".join)
def test_imports_run_one_way(edge: tuple[str, str]) -> None:
    assert allowed(*edge), f"layer {edge[0]} must not import from layer {edge[1]}"


def test_the_checker_catches_an_upward_import(tmp_path: Path) -> None:
    source = tmp_path / "bad.py"
    source.write_text("from g2048.study.naming import METHODS\nimport g2048.cli.main\n")
    imports = package_imports(source)
    assert imports == {"g2048.study.naming", "g2048.cli.main"}
    assert not allowed("engine", layer_of("g2048.study.naming"))
    assert not allowed("tuning", "engine")
    assert not allowed("report", "cli")
    assert not allowed("report", "agents") and allowed("study", "agents")
    assert allowed("cli", "engine")
    assert allowed("tuning", "settings") and allowed("engine", "settings")
    assert not allowed("settings", "engine")


def test_report_never_plays() -> None:
    playing = {"g2048.play", "g2048.study.stages", "g2048.study.objectives"}
    for module, imports in modules().items():
        if layer_of(module) == "report":
            assert not imports & playing, module


def dot() -> str:
    """The layer graph in Graphviz dot: an arrow from each layer to one it imports, so the
    engine comes out at the bottom."""
    lines = ["digraph layers {", "  rankdir=TB;", "  node [shape=box];"]
    lines += [f'  "{a}" -> "{b}";' for a, b in sorted(layer_edges())]
    return "\n".join([*lines, "}"])


if __name__ == "__main__":
    sys.stdout.write(dot() + "\n")
