"""The CI check for the two languages: every string marked for translation has a Chinese
translation that is not fuzzy, the compiled catalogue matches it, ``makemessages`` finds nothing new, and no
template (public, referee or organiser) shows English text that is not marked. A new untranslated string fails here."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.template.base import Lexer, TokenType
from django.test import override_settings

from tests.visible_text import shown_texts

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

# Every page is checked: public, referee and organiser pages and the settings partials.
UNCHECKED_DIRS: tuple[str, ...] = ()
# Top-level folders with no translatable source (the catalogue itself, assets, generated files).
NOT_SOURCE = {"locale", "static", "staticfiles", "node_modules", "bench", "deploy", "docs", "fixtures", "var"}
WORD = re.compile(r"[A-Za-z]{2,}")


def _catalogue() -> polib.POFile:
    return polib.pofile(str(PO))


def test_every_message_has_a_chinese_translation_that_is_not_fuzzy():
    catalogue = _catalogue()
    assert len(catalogue) > 50
    untranslated = [entry.msgid for entry in catalogue.untranslated_entries()]
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert not untranslated, f"no Chinese yet for: {untranslated}"
    assert not fuzzy, f"fuzzy (check and clear the flag): {fuzzy}"


PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|\{(\w+)\}")  # gettext's, and the tile picker's {name}


def test_every_translation_keeps_the_placeholders_of_its_english():
    """A msgstr that drops, renames or adds a ``%(name)s`` (or the tile picker's ``{name}``) would show a
    raw placeholder or fail with a KeyError on the Chinese page only."""
    wrong = [
        (entry.msgid, entry.msgstr)
        for entry in _catalogue().translated_entries()
        if not entry.msgid_plural
        and sorted(set(PLACEHOLDER.findall(entry.msgid))) != sorted(set(PLACEHOLDER.findall(entry.msgstr)))
    ]
    assert not wrong, f"placeholders differ: {wrong}"


def test_the_compiled_catalogue_matches_the_po_file():
    """The .mo is committed so that the site runs without gettext; it must say what the .po says."""
    expected = {
        (e.msgctxt, e.msgid): (e.msgstr or e.msgstr_plural) for e in _catalogue().translated_entries()
    }
    compiled = {(e.msgctxt, e.msgid): (e.msgstr or e.msgstr_plural) for e in polib.mofile(str(MO)) if e.msgid}
    assert compiled == expected, "run: .venv/bin/python manage.py compilemessages -l zh_Hans"


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="makemessages needs gettext (.ci/run installs it)"
)
def test_makemessages_finds_no_string_the_catalogue_lacks(tmp_path, monkeypatch):
    """makemessages runs on links to the source in a temporary directory, so the committed catalogue is
    never touched (it writes beside the files it reads)."""
    source = tmp_path / "src"
    source.mkdir()
    for path in ROOT.iterdir():
        if path.is_dir() and not path.name.startswith(".") and path.name not in NOT_SOURCE:
            (source / path.name).symlink_to(path, target_is_directory=True)
    (source / "locale").mkdir()
    monkeypatch.chdir(source)
    with override_settings(LOCALE_PATHS=[source / "locale"]):
        call_command("makemessages", locale=["zh_Hans"], symlinks=True, no_obsolete=True, verbosity=0)
    fresh = polib.pofile(str(source / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"))
    committed = {(e.msgctxt, e.msgid) for e in _catalogue() if not e.obsolete}
    new = sorted(e.msgid for e in fresh if (e.msgctxt, e.msgid) not in committed)
    assert len(fresh) > 50
    assert not new, f"run makemessages -l zh_Hans and translate: {new}"


def untranslated_text(source: str) -> list[str]:
    """English words a template shows outside ``{% translate %}`` and ``{% blocktranslate %}``: the
    template's tags and variables become spaces, the HTML's text and shown attributes are read."""
    kept: list[str] = []
    skipping = 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if name in ("blocktranslate", "blocktrans", "comment"):
                skipping += 1
            elif name in ("endblocktranslate", "endblocktrans", "endcomment"):
                skipping -= 1
            kept.append(" ")
        elif token.token_type == TokenType.TEXT and not skipping:
            kept.append(token.contents)
        else:
            kept.append(" ")
    return [text for text in shown_texts("".join(kept)) if WORD.search(text)]


def _checked_templates() -> list[Path]:
    return sorted(
        path
        for path in (ROOT / "templates").rglob("*.html")
        if not any(part in UNCHECKED_DIRS for part in path.relative_to(ROOT / "templates").parts)
    )


def test_the_check_sees_english_outside_the_translation_tags():
    source = (
        '{% load i18n %}<p title="Your seat">{% translate "Seat" %} {{ wind }} Table</p>'
        "{% blocktranslate %}Hand {{ n }}{% endblocktranslate %}{# a comment #}<script>var a = 'x';</script>"
        "<code>manage.py standings</code>"
    )
    assert untranslated_text(source) == ["Your seat", "Table"]


@pytest.mark.parametrize("path", _checked_templates(), ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_template_shows_untranslated_text(path):
    assert untranslated_text(path.read_text(encoding="utf-8")) == []
