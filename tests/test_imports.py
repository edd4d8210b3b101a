"""No import cycle between the modules of gm_tool.

Two graphs are read from the source (``ast``, nothing imported): the imports a module runs when
it is loaded (module level, class bodies included, ``if TYPE_CHECKING:`` left out), and those
plus the imports inside functions (deferred: they still tie two modules to each other, and a
deferred import is often a cycle hidden from Python rather than removed). ``from package import
name`` counts as importing ``package.name`` when that is a module, else ``package``. A cycle is
a strongly connected component of more than one module.

A cycle found must lie within one of the known ones below (each with the owner who removes it);
a known cycle that shrinks or goes away passes (its owner then deletes or narrows the entry).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gm_tool"
RS = "gm_tool.rulesets."

# module-level cycles known on 2026-12-01 (issue 25), with who removes them
KNOWN_AT_LOAD: dict[frozenset[str], str] = {}
# cycles through deferred (function-level) imports known on 2026-12-01, with who removes them
KNOWN_DEFERRED: dict[frozenset[str], str] = {
}


def modules(package: Path = PACKAGE) -> dict[str, tuple[Path, bool]]:
    """Every module of a package: its dotted name -> (file, is a package)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def imports(name: str, path: Path, package: bool, known: dict[str, tuple[Path, bool]]) -> list[tuple[str, bool, int]]:
    """``(imported module, at load time, line)`` for each import of gm_tool in one module."""
    found: list[tuple[str, bool, int]] = []

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names if a.name in known]
        base = node.module or ""
        if node.level:
            parts = name.split(".") if package else name.split(".")[:-1]
            parts = parts[:len(parts) - (node.level - 1)]
            base = ".".join(parts + ([node.module] if node.module else []))
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
                if f"{base}.{a.name}" in known or base in known]

    def visit(node: ast.AST, at_load: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, False)
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(ast.Module(body=[other], type_ignores=[]), at_load)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((t, at_load, child.lineno) for t in targets(child) if t != name)
            else:
                visit(child, at_load)

    visit(ast.parse(path.read_text("utf-8")), True)
    return found


def graphs(package: Path = PACKAGE) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """(imports at load time, all imports): ``{module: {imported: line}}``."""
    known = modules(package)
    at_load: dict[str, dict[str, int]] = {}
    every: dict[str, dict[str, int]] = {}
    for name, (path, package) in known.items():
        for target, load, line in imports(name, path, package, known):
            every.setdefault(name, {}).setdefault(target, line)
            if load:
                at_load.setdefault(name, {}).setdefault(target, line)
    return at_load, every


def cycles(graph: dict[str, dict[str, int]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, {}))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, {})))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        out.append(frozenset(component))
    return out


def _explain(component: frozenset[str], graph: dict[str, dict[str, int]]) -> str:
    lines = [f"  {a} imports {b} (line {graph[a][b]})" for a in sorted(component)
             for b in sorted(graph.get(a, {})) if b in component]
    return "cycle between " + ", ".join(sorted(component)) + ":\n" + "\n".join(lines)


def _unknown(found: list[frozenset[str]], known: dict[frozenset[str], str]) -> list[frozenset[str]]:
    return [c for c in found if not any(c <= k for k in known)]


def test_no_new_import_cycle_at_load_time():
    at_load, _ = graphs()
    new = _unknown(cycles(at_load), KNOWN_AT_LOAD)
    assert not new, "\n".join(_explain(c, at_load) for c in new)


def test_no_new_import_cycle_through_deferred_imports():
    _, every = graphs()
    new = _unknown(cycles(every), {**KNOWN_AT_LOAD, **KNOWN_DEFERRED})
    assert not new, "\n".join(_explain(c, every) for c in new)


def test_the_finder_sees_a_cycle_and_its_lines():
    """The finder itself, on a made-up graph: a -> b -> c -> a is one cycle, d alone is none."""
    graph = {"a": {"b": 3}, "b": {"c": 5}, "c": {"a": 7, "d": 1}, "d": {}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    assert "a imports b (line 3)" in _explain(frozenset({"a", "b", "c"}), graph)
    assert _unknown(cycles(graph), {frozenset({"a", "b", "c", "x"}): "owner"}) == []
    assert _unknown(cycles(graph), {frozenset({"a", "b"}): "owner"}) == [frozenset({"a", "b", "c"})]


def test_the_reader_follows_relative_imports_and_leaves_out_type_checking(tmp_path):
    """A made-up package: ``from . import b`` and ``from .c import x`` are imports of modules b
    and c; an import under ``if TYPE_CHECKING:`` is none; one inside a function is deferred."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {"__init__.py": "", "a.py": "from . import b\n",
             "b.py": "from typing import TYPE_CHECKING\nfrom .c import x\nif TYPE_CHECKING:\n    from pkg import a\n",
             "c.py": "x = 1\ndef f():\n    from pkg.sub import d\n",
             "sub/__init__.py": "", "sub/d.py": "from .. import c\nclass K:\n    from pkg import a\n"}
    for rel, text in files.items():
        (pkg / rel).write_text(text, "utf-8")
    at_load, every = graphs(pkg)
    assert at_load == {"pkg.a": {"pkg.b": 1}, "pkg.b": {"pkg.c": 2}, "pkg.sub.d": {"pkg.c": 1, "pkg.a": 3}}
    assert every["pkg.c"] == {"pkg.sub.d": 3}
    assert cycles(at_load) == []
    assert cycles(every) == [frozenset({"pkg.a", "pkg.b", "pkg.c", "pkg.sub.d"})]  # d -> a -> b -> c -> d
