"""The site's stylesheet read as text : readable colours and touch targets on
phones. Sizes as the browser computes them are for the browser suite; here the rules themselves."""

from __future__ import annotations

import re
from pathlib import Path

CSS = (Path(__file__).resolve().parent.parent / "static" / "css" / "site.css").read_text()
COMMENT = re.compile(r"/\*.*?\*/", re.S)
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
MEDIA = re.compile(r"@media\s*([^{]+)\{((?:[^{}]*\{[^{}]*\})*\s*)\}")


def _declarations(body: str) -> dict[str, str]:
    pairs = (part.split(":", 1) for part in body.split(";") if ":" in part)
    return {name.strip(): value.strip() for name, value in pairs}


def rules(media: str | None = None) -> dict[str, dict[str, str]]:
    """Selector → declarations, at the top level (``media`` None) or inside ``@media <media>``; a
    selector list is split, later rules add to earlier ones as in the cascade."""
    text = COMMENT.sub("", CSS)
    if media is None:
        bodies = [MEDIA.sub("", text)]
    else:
        bodies = [body for query, body in MEDIA.findall(text) if query.strip() == media]
    found: dict[str, dict[str, str]] = {}
    for body in bodies:
        for selectors, declarations in RULE.findall(body):
            for selector in selectors.split(","):
                found.setdefault(" ".join(selector.split()), {}).update(_declarations(declarations))
    return found


def _variables() -> dict[str, str]:
    return {name: value for name, value in rules()[":root"].items() if name.startswith("--")}


def _colour(value: str) -> tuple[float, float, float]:
    match = re.fullmatch(r"var\((--[\w-]+)\)", value)
    if match:
        value = _variables()[match.group(1)]
    hex_ = value.lstrip("#")
    if len(hex_) == 3:
        hex_ = "".join(c * 2 for c in hex_)
    return tuple(int(hex_[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _luminance(rgb: tuple[float, float, float]) -> float:
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two CSS colours (hex or ``var(--name)`` from ``:root``)."""
    lighter, darker = sorted((_luminance(_colour(foreground)), _luminance(_colour(background))), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _px(value: str) -> float:
    match = re.fullmatch(r"([\d.]+)px", value.strip())
    assert match, f"expected a size in px, got {value!r}"
    return float(match.group(1))


def test_the_contrast_helper_agrees_with_the_wcag_examples():
    assert round(contrast("#000", "#fff"), 1) == 21.0
    assert round(contrast("#777", "#fff"), 2) == 4.48  # the classic grey that just fails AA


def test_the_inactive_language_reads_at_wcag_aa_contrast_on_the_footer():
    top = rules()
    switch = top[".language-switch button"]
    assert "background" not in top.get(".site-footer", {})  # the footer shows the page's background
    background = top["body"]["background"]
    assert contrast(switch["color"], background) >= 4.5
    # a plain button's white text is not what the switch inherits any more
    assert contrast(top["button.link"]["color"], background) >= 4.5


def test_radio_buttons_and_links_in_tables_are_big_enough_to_touch_on_a_phone():
    phone = rules("(max-width: 600px)")
    radio = phone['input[type="radio"]']
    size = min(_px(radio["width"]), _px(radio["height"]))
    # WCAG 2.2 AA (2.5.8): 24 px, with spacing so a 24 px circle round each target touches no other.
    assert size >= 24 and size + 2 * _px(radio["margin"].split()[0]) >= 44
    assert _px(phone['label:has(> input[type="radio"])']["min-height"]) >= 44  # the whole label is the target
    for selector in ("td a", ".hands-table a"):
        link = phone[selector]
        assert link["display"] in {"inline-block", "inline-flex"}, selector  # min sizes apply to a box
        assert _px(link["min-height"]) >= 44 and _px(link["min-width"]) >= 44, selector


def test_every_control_on_a_phone_is_44_px_high_and_buttons_44_px_wide():
    """The rules behind tests/browser/test_accessibility.py's measurement (WCAG 2.5.5, 44 x 44 px)."""
    phone = rules("(max-width: 600px)")
    for selector in (
        "button",
        ".button",
        'input:not([type="checkbox"]):not([type="radio"])',
        "select",
        "textarea",
    ):
        assert _px(phone[selector]["min-height"]) >= 44, selector
    for selector in ("button", ".button", ".tabs a", "th a.sort-link"):
        assert _px(phone[selector]["min-width"]) >= 44, selector
    for selector in ("header.top nav a", ".event-nav a", "main li > a", "button.link", ".tabs a", "summary"):
        assert _px(phone[selector]["min-height"]) >= 44, selector
    box = phone['input[type="checkbox"]']
    assert _px(box["width"]) + 2 * _px(box["margin"]) >= 44
