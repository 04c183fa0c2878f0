"""The text of a page that a reader sees or hears, for the language checks (``test_translations.py`` reads
templates with it, ``test_chinese_pages.py`` rendered pages)."""

from __future__ import annotations

from html.parser import HTMLParser

# Elements whose text is not prose: scripts, styles and literal code (a command line, a file's header).
HIDDEN_TAGS = ("script", "style", "code")
# Attributes a reader sees or hears.
SHOWN_ATTRIBUTES = {"alt", "title", "placeholder", "aria-label", "data-confirm", "label"}


class _ShownText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN_TAGS:
            self._hidden += 1
        self.texts.extend(value for name, value in attrs if name in SHOWN_ATTRIBUTES and value)
        shown = dict(attrs)
        if tag == "input" and shown.get("type") in ("submit", "button") and shown.get("value"):
            self.texts.append(shown["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN_TAGS:
            self._hidden = max(0, self._hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.texts.append(data.strip())


def shown_texts(html: str) -> list[str]:
    """Element text (not scripts, styles or ``<code>``), shown attributes and button labels, in order."""
    parser = _ShownText()
    parser.feed(html)
    parser.close()
    return parser.texts
