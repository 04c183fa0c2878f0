"""Rule sets are sealed: outside ``scoring/rules/`` production code reaches a rule system (MCR, NMJL, the
classical books) only through its ``RuleSet`` class (``tournament.rule_set``, ``scoring.rules.registry``)
and the shared modules beside it (``scoring/rules/*.py``: ``ruleset``, ``errors``, ``tiles``, ``side``...).
What differs between rule sets is a method or attribute of the class (docs/architecture.md, "Rule sets
own their differences"). Tests may import a rule system's package: they test it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "scoring" / "rules"
SKIPPED_DIRS = frozenset({".venv", ".git", "node_modules", "__pycache__", "tests", "migrations"})

ALLOWED: dict[str, str] = {
    # path (from the repository root) -> why it may import a rule system's package
    "bench/mcr_fans.py": "a benchmark of the MCR fan calculator itself (`make bench`), not part of the site",
}
"""Production files that may import a rule system's package, each with its reason; keep it short."""


def systems() -> frozenset[str]:
    """The rule systems: every package under ``scoring/rules/`` but its tests."""
    return frozenset(path.parent.name for path in RULES.glob("*/__init__.py") if path.parent.name != "tests")


def production_files() -> list[Path]:
    """Every .py file of the site outside ``scoring/rules/``, without tests (``tests`` folders,
    ``test_*.py``, ``conftest.py``) and without migrations (they import only Django and the models)."""
    files = []
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if SKIPPED_DIRS.intersection(relative.parts[:-1]) or path.is_relative_to(RULES):
            continue
        if path.name.startswith("test_") or path.name == "conftest.py":
            continue
        if path.name.endswith(".html.py"):
            continue  # makemessages' passing copy of a template (tests/test_translations.py), gone a moment later
        files.append(path)
    return files


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, dotted name) of everything ``path`` imports, anywhere in it (function-level imports too),
    relative imports resolved, ``from a import b`` read as both ``a`` and ``a.b``, and the literal names
    given to ``importlib.import_module`` or Django's ``import_string``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if name in ("import_module", "import_string", "__import__") and isinstance(first, ast.Constant):
                found.append((node.lineno, str(first.value)))
    return found


def system_of(module: str, names: frozenset[str]) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["scoring", "rules"] and len(parts) > 2 and parts[2] in names:
        return parts[2]
    return None


def test_there_are_rule_systems_to_seal():
    assert {"mcr", "nmjl", "classical"} <= systems()


def test_the_check_sees_every_way_of_importing_a_rule_system(tmp_path, monkeypatch):
    source = (
        "import scoring.rules.mcr.session\n"
        "from scoring.rules import nmjl\n"
        "from scoring.rules.classical.ruleset import FosterRuleSet\n"
        "def f():\n"
        "    from .rules.mcr import calculator\n"
        "    return import_module('scoring.rules.nmjl.card')\n"
        "from scoring.rules.ruleset import RuleSet\n"
        "from scoring.rules import registry\n"
    )
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "scoring").mkdir()
    path = tmp_path / "scoring" / "views_x.py"
    path.write_text(source)
    found = [(line, system_of(name, systems())) for line, name in imported_modules(path)]
    assert sorted({(line, system) for line, system in found if system}) == [
        (1, "mcr"),
        (2, "nmjl"),
        (3, "classical"),
        (5, "mcr"),
        (6, "nmjl"),
    ]


def test_no_production_code_outside_the_rules_imports_a_rule_systems_package():
    names = systems()
    offenders = sorted(
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in production_files()
        if str(path.relative_to(ROOT)) not in ALLOWED
        for line, module in imported_modules(path)
        if system_of(module, names)
    )
    assert not offenders, (
        "Ask the event's RuleSet (scoring/rules/ruleset.py) instead, adding a method there when the rule "
        "sets differ:\n" + "\n".join(offenders)
    )


def test_every_allowed_file_exists_has_a_reason_and_still_needs_it():
    names = systems()
    for relative, reason in ALLOWED.items():
        path = ROOT / relative
        assert path.is_file(), relative
        assert reason.strip(), relative
        assert any(system_of(module, names) for _, module in imported_modules(path)), (
            f"{relative} no longer imports a rule system: take it off ALLOWED"
        )
