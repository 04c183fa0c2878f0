"""Ratchets that keep the house easy to change (docs/architecture.md): no production module over 600 lines
outside the pure engines, no module using another module's private name, and no import cycle between modules,
function-level imports included (a cycle hidden inside a function is still a cycle a reader must untangle).

Ruff's complexity and argument-count rules (pyproject.toml) and the import-linter contracts cover functions and
layers; these cover modules."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
APPS = ("players", "tournaments", "scoring", "api", "config")
MAX_LINES = 600
ENGINES = ("scoring/rules/", "tournaments/seating/")
"""The pure engines (plain Python, the books' rules and the seating search) may be longer: a module there is
one algorithm or one rule system's table of fans."""


def _production_modules() -> list[Path]:
    return sorted(
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and "tests" not in path.parts
    )


def _dotted(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_no_production_module_is_over_600_lines():
    too_long = {
        str(path.relative_to(ROOT)): lines
        for path in _production_modules()
        if not str(path.relative_to(ROOT)).startswith(ENGINES)
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not too_long, f"split these by what they do (at most {MAX_LINES} lines): {too_long}"


def _private_uses(path: Path, modules: set[str]) -> list[str]:
    """``from x import _name`` and ``x._name`` where ``x`` is another project module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _dotted(path)
    found = []
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if target in modules:
                    aliases[alias.asname or alias.name] = target
                elif node.module in modules and alias.name.startswith("_") and node.module != own:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and aliases[node.value.id] != own
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} uses {aliases[node.value.id]}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names():
    """A leading underscore says "only this module relies on it": a name another module needs is public,
    with a docstring, so whoever changes it knows it has callers."""
    paths = _production_modules()
    modules = {_dotted(path) for path in paths}
    offenders = [use for path in paths for use in _private_uses(path, modules)]
    assert not offenders, "\n".join(offenders)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in list(edges):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_between_modules_function_level_imports_included():
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph(*APPS, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    production = {
        module for module in graph.modules if ".tests" not in module and ".migrations" not in module
    }
    edges: dict[str, set[str]] = defaultdict(set)
    for module in production:
        edges[module] = {
            other
            for other in graph.find_modules_directly_imported_by(module)
            # A package's __init__ importing its own modules is how a package shows its API, not a cycle.
            if other in production and not other.startswith(module + ".")
        }
    assert not _cycles(edges), _cycles(edges)


LOCK_HELPERS = ("lock_", "_locked")
"""Functions named so only lock a row for their caller, who holds the transaction (``kernel.lock_table``)."""


def _runs_in_a_transaction(function: ast.FunctionDef, source: str) -> bool:
    decorators = " ".join(ast.get_source_segment(source, d) or "" for d in function.decorator_list)
    body = ast.get_source_segment(source, function) or ""
    return "atomic" in decorators or "transaction.atomic(" in body or function.name.startswith(LOCK_HELPERS)


def test_every_function_that_locks_rows_runs_in_a_transaction():
    """``select_for_update`` outside a transaction is refused by PostgreSQL (Django raises) but passes silently
    on SQLite, so a decorator moved off a service by an edit shows only in the PostgreSQL run: this finds it on
    either. A function that locks is decorated with ``transaction.atomic``, opens one, or is a lock helper."""
    found = []
    for path in _production_modules():
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            locks = isinstance(node, ast.FunctionDef) and "select_for_update(" in (
                ast.get_source_segment(source, node) or ""
            )
            if locks and not _runs_in_a_transaction(node, source):
                found.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert not found, "locks rows outside a transaction:\n" + "\n".join(found)
