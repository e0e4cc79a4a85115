"""Modules never import each other in a loop, and data flows one way: rules → models → reads →
services → views (the forms beside the views). Rules know nothing; reads (what a page shows) call
rules and models; services (the writes) call those and take a read they share from reads; views
call services and reads. Every import counts, a function's own included."""

import ast
from pathlib import Path

import pytest

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that `path` imports, wherever in the file the import stands."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from a.b import c` imports a.b, and a.b.c when c is a module
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {name for name in names if name in modules}
    return found


def import_graph() -> dict[str, set[str]]:
    paths = [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts]
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) - {module_name(p)} for p in paths}


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == "open":
                return path[path.index(imported) :] + [imported]
            if imported not in state and (found := visit(imported)):
                return found
        state[module] = "done"
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_walk_finds_a_cycle_when_there_is_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle_in(graph) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) is None


def test_the_walk_sees_the_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from scorekeeper.services import ledger\n")
    assert imports_of(source, {"scorekeeper.services", "scorekeeper.services.ledger"}) == {
        "scorekeeper.services",
        "scorekeeper.services.ledger",
    }


def test_no_module_of_the_app_imports_itself_through_others():
    assert cycle_in(import_graph()) is None


def test_the_rules_import_nothing_of_the_app_but_the_rules():
    for module, imported in import_graph().items():
        if module.startswith("scorekeeper.rules"):
            assert all(name.startswith("scorekeeper.rules") for name in imported), module


# Each layer and the packages after it, which it never imports: rules → models → reads → services
# → views (the forms beside the views). The rules have their own test above.
AFTER = {
    "scorekeeper.models": ("reads", "services", "views", "forms"),
    "scorekeeper.reads": ("services", "views", "forms"),
    "scorekeeper.services": ("views", "forms"),
}


@pytest.mark.parametrize("layer", sorted(AFTER), ids=lambda layer: layer.split(".")[-1])
def test_no_layer_imports_one_after_it(layer):
    after = tuple(f"scorekeeper.{name}" for name in AFTER[layer])
    graph = import_graph()
    modules = [m for m in graph if m == layer or m.startswith(f"{layer}.")]
    assert modules, layer  # the walk sees the layer
    for module in modules:
        assert not [name for name in graph[module] if name.startswith(after)], module
