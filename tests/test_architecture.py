"""The design card's layers, checked on the source: ``players`` <- ``tournaments`` <- ``scoring``, with
the pure rule engines (``scoring/rules``) and the seating engine (``tournaments/seating``) at the bottom,
and no page, service or export deciding anything by the rule set's name.

The layers between the apps and the engines' freedom from Django are import-linter contracts
(``[tool.importlinter]`` in pyproject.toml, run by ``lint-imports`` in ``make test``; function-level imports
count there too). This file keeps only what a contract cannot express: an engine importing from the rest of
its own app (a contract would have to list every module of the app), and checks on text rather than imports
(rule-set names compared, inline script)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _modules(package: str, *, with_tests: bool = False) -> list[Path]:
    return [
        path
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and (with_tests or "tests" not in path.parts)
    ]


def _parse(source: str) -> ast.Module:
    """``ast.parse``, tried again once on CPython 3.11.2's "AST constructor recursion depth mismatch" (Debian
    12's Python): a compile running in another thread at the same moment (a browser test's live server
    importing a module) trips that bug, fixed in later 3.11 releases. The source is not at fault."""
    try:
        return ast.parse(source)
    except SystemError:
        return ast.parse(source)


def _imports(path: Path) -> set[str]:
    tree = _parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize(
    ("package", "own"), [("scoring/rules", "scoring.rules"), ("tournaments/seating", "tournaments.seating")]
)
def test_the_pure_engines_import_nothing_from_their_own_apps_django_side(package, own):
    """What import-linter cannot say without listing every module: ``scoring.rules`` imports nothing from
    the rest of ``scoring``, ``tournaments.seating`` nothing from the rest of ``tournaments``."""
    app = own.split(".")[0]
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in _modules(package, with_tests=True)
        for name in _imports(path)
        if (name == app or name.startswith(f"{app}.")) and not (name == own or name.startswith(f"{own}."))
    }
    assert not offenders


RULE_NAME_TEST = re.compile(
    r"""\brules\s*(==|!=)\s*["'A-Z]|\brules\s+(not\s+)?in\s*[(\[{"']|"""
    r"""["'](mcr|nmjl|babcock|foster|chinese-1920s)["']\s*(==|!=|in\b)"""
)


def test_no_page_service_or_export_branches_on_the_rule_sets_name():
    """What differs between rule sets lives in their classes (``scoring/rules/*/ruleset.py``)."""
    sources = [
        *(p for p in _modules("scoring") if "rules" not in p.relative_to(ROOT / "scoring").parts[:1]),
        *_modules("tournaments"),
        *_modules("players"),
        *(ROOT / "templates").rglob("*.html"),
    ]
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sources
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if RULE_NAME_TEST.search(line)
    ]
    assert not offenders


INLINE_SCRIPT = re.compile(r"""\son[a-z]+\s*=\s*["']|<script(?![^>]*\bsrc=)[^>]*>""", re.IGNORECASE)


def test_no_template_has_inline_script():
    """The Content-Security-Policy allows no inline script: behaviour lives in static/js."""
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "templates").rglob("*.html")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if INLINE_SCRIPT.search(line)
    ]
    assert not offenders
