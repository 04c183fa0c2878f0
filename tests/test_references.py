"""Comments, docstrings, templates and docs give their reason in words a reader can check in the repository:
the rule book's line, a file under ``docs/``, or the reason itself. A tracker's issue number or a style file
kept outside the repository (``STYLE.md`` and its numbered pitfalls) cannot be opened by the next reader, so
none may appear in a production module, template or doc. Tests, ``.venv`` and a changelog are not checked."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What a reader cannot open: "issue 16", "issues 10 and 16", "issue #24", "STYLE.md", "pitfall 14".
REFERENCE = re.compile(r"\bissues?\s*#?\d+|\bSTYLE\.md\b|\bSTYLE pitfall|\bpitfalls?\s+\d+", re.IGNORECASE)

CHECKED_SUFFIXES = {
    ".py",
    ".html",
    ".txt",
    ".md",
    ".css",
    ".js",
    ".toml",
    ".cfg",
    ".conf",
    ".ini",
    ".sh",
    ".yaml",
    ".yml",
    ".po",
    ".service",
    ".timer",
    ".example",
}
CHECKED_NAMES = {"Makefile", "Dockerfile", "serve", "smoke-test", "two-servers-test", "run"}
#: Not production text: the virtualenv, caches, third-party code, generated files and the tests.
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "vendor",
    "staticfiles",
    "media",
    "tests",
}

NOT_YET_CHECKED: set[str] = set()


def _is_test(path: Path) -> bool:
    return path.name == "conftest.py" or path.name.startswith("test_") or path.name.endswith("_test.py")


def _checked_files() -> Iterator[Path]:
    for directory, subdirs, files in os.walk(ROOT):
        subdirs[:] = sorted(name for name in subdirs if name not in SKIPPED_DIRS)
        for name in sorted(files):
            path = Path(directory) / name
            # makemessages (tests/test_translations.py) leaves a short-lived "404.html.py" beside each template
            if name.upper().startswith("CHANGELOG") or name.endswith(".html.py") or _is_test(path):
                continue
            if path.suffix in CHECKED_SUFFIXES or name in CHECKED_NAMES:
                yield path


def test_no_production_module_template_or_doc_cites_an_issue_number_or_an_outside_style_file():
    offenders = []
    for path in _checked_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative in NOT_YET_CHECKED:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):  # not text, or a temporary file gone since the walk
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            found = REFERENCE.search(line)
            if found:
                offenders.append(f"{relative}:{number}: {found.group(0)!r}")
    assert not offenders, (
        "say the reason itself, or cite the rule book's line or a file in the repository, instead of:\n"
        + "\n".join(offenders)
    )


def test_the_check_finds_what_it_is_meant_to_find():
    """The pattern itself, so the test above cannot pass by matching nothing."""
    for text in ("(issue 16)", "issues 10 and 16", "Issue #24", "STYLE.md pitfall 14", "STYLE pitfall 6"):
        assert REFERENCE.search(text), text
    for text in ("Issue a PIN to the player", "no issues", "a style of play", "Reissue"):
        assert not REFERENCE.search(text), text


def test_the_files_checked_include_the_production_code_templates_and_docs():
    checked = {path.relative_to(ROOT).as_posix() for path in _checked_files()}
    assert {"scoring/views_public.py", "docs/seating.md", "static/css/site.css"} <= checked
    assert any(name.startswith("templates/") and name.endswith(".html") for name in checked)
    assert not any(name.startswith(("tests/", ".venv/")) or "/tests/" in name for name in checked)
