"""Accessibility in real Chromium: axe-core (the engine browsers' audits use, pinned through the
``axe-playwright-python`` package, MPL-2.0) on the public pages, the player's own page, the referee's
pages, the desk and the organiser's pages, at 360 px and at desktop width, with no violation of any impact
(minor and moderate included) but the few ``ALLOWED`` below, each with its reason; on a 360 px
phone every control is at least 44 x 44 px (WCAG 2.5.5; links inside running text are exempt, WCAG 2.5.8
"inline"); table states are words, not colours alone (WCAG 1.4.1); the language switch shows on every page.

The projector is a hall screen nobody touches: axe checks it, the tap targets and language switch do not."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.browser.sign_in import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 360
DESKTOP = 1100
MIN_TARGET = 44  # px, WCAG 2.5.5 (AAA) and the platforms' guidelines; 2.5.8 (AA) asks 24
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# What axe may find and the walk lets pass: (rule id, path) -> why it cannot change. Keep it short.
ALLOWED: dict[tuple[str, str], str] = {}

# axe.run on the whole page, violations only, each node's CSS target and a short piece of its HTML.
AXE_RUN = """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
    .then(result => result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => n.target.join(' ') + '  ' + n.html.slice(0, 160)),
    })))"""

# Visible controls smaller than ``min`` px either way. A check box or radio button counts with its
# wrapping label, or else with its margins (the spacing WCAG 2.5.8 allows); a link with text of its own
# around it (running text) is exempt, as WCAG 2.5.8's "inline" exception says.
SMALL_TARGETS = """min => {
    const shown = e => {
        const r = e.getBoundingClientRect(), s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && r.right > 0 && r.bottom > 0
            && !e.closest('[hidden], [aria-hidden="true"], details:not([open]) > :not(summary)');
    };
    const inRunningText = e => e.tagName === 'A' && e.parentElement && [...e.parentElement.childNodes]
        .some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== '');
    const size = e => {
        const r = e.getBoundingClientRect();
        if (!e.matches('input[type=checkbox], input[type=radio]')) return r;
        const label = e.closest('label');
        if (label) return label.getBoundingClientRect();
        const s = getComputedStyle(e);
        return {width: r.width + parseFloat(s.marginLeft) + parseFloat(s.marginRight),
                height: r.height + parseFloat(s.marginTop) + parseFloat(s.marginBottom)};
    };
    const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
    return [...document.querySelectorAll(controls)]
        .filter(e => shown(e) && !inRunningText(e))
        .map(e => [e, size(e)])
        .filter(([e, r]) => r.width < min - 0.5 || r.height < min - 0.5)
        .map(([e, r]) => `${Math.round(r.width)}x${Math.round(r.height)} ${e.outerHTML.slice(0, 120)}`);
}"""

# Table states as words: every badge has text, and every element coloured by a state (a class
# ``state-...`` or ``flagged``) holds such a badge.
COLOUR_ONLY = """() => {
    const wordless = [...document.querySelectorAll('.state, .flag')].filter(e => !e.textContent.trim());
    const unmarked = [...document.querySelectorAll('[class*="state-"], .flagged')]
        .filter(e => ![...e.querySelectorAll('.state, .flag')].some(b => b.textContent.trim()));
    return [...wordless, ...unmarked].map(e => e.outerHTML.slice(0, 160));
}"""

# The language switch: there, shown, one button per language (not folded into a menu), and the other language
# at the top of the first screen (templates/_language_toggle.html).
LANGUAGE_SWITCH = """() => {
    const form = document.querySelector('form.language-switch');
    if (!form) return 'missing';
    const buttons = [...form.querySelectorAll('button[name=language]')];
    const shown = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('details:not([open])'); };
    if (buttons.length < 2 || !buttons.every(shown)) return 'hidden';
    const top = [...document.querySelectorAll('header .language-toggle button[name=language]')];
    if (!top.length || !top.every(e => shown(e) && e.getBoundingClientRect().bottom <= innerHeight)) return 'not at the top';
    return 'shown';
}"""


# The pages' polls (htmx "every Ns") stop, so that nothing is swapped while a page is being measured.
HOLD_STILL = "document.addEventListener('htmx:beforeRequest', event => event.preventDefault(), true)"


@dataclass(frozen=True)
class Visit:
    """One page of the walk: ``who`` is signed in (``""`` nobody, ``player`` by PIN, else a username)."""

    who: str
    path: str
    hall_screen: bool = False  # the projector: nobody taps it, and it has no language switch
    press: str = ""  # a button (CSS selector) to press once the page is loaded: what it opens is checked too


@pytest.fixture
def walk() -> list[Visit]:
    """The demo events (``load_demo``) with what the state badges must show: an MCR table in play, one
    with a referee call, a complete table a player disagrees with (its confirmation withdrawn by a
    correction); returns the pages to visit."""
    from scoring.services import disputes, entry
    from scoring.services.entry import HandEntry
    from tournaments.models import Tournament
    from tournaments.services import calls

    call_command("load_demo", verbosity=0)
    referee = get_user_model().objects.get(username="referee")
    mcr = Tournament.objects.get(slug="demo-mcr")
    in_play = mcr.rounds.get(number=3).tables.get(number=1)
    entry.record_hand(in_play, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    calls.call_referee(mcr.rounds.get(number=3).tables.get(number=2), reason="", acting_user=referee)
    disputed = mcr.rounds.get(number=2).tables.get(number=4)
    first = disputed.hands.current().get(number=1)
    entry.correct_hand(first, HandEntry(winner="E", discarder=None, fan=8), acting_user=referee)
    disputes.disagree(disputed, disputed.seats.get(wind="S").registration)
    public = [
        "/",
        "/e/demo-mcr/",
        "/e/demo-mcr/standings/",
        "/e/demo-mcr/results/1/",
        "/e/demo-mcr/seating/3/",
        "/e/demo-mcr/find/?q=a",
        "/e/demo-mcr/players/p1/",
        "/e/demo-mcr/teams/",  # a wide table that scrolls on a phone: a tab stop (static/js/site.js)
        "/e/demo-mcr/side-rankings/",
        "/e/demo-mcr/register/",
        "/e/demo-nmjl/standings/",
        "/e/demo-babcock/results/1/",
        "/e/demo-mcr/me/",  # the player's sign-in form
        "/accounts/login/",
    ]
    return [
        *(Visit("", path) for path in public),
        Visit("", "/e/demo-mcr/projector/", hall_screen=True),
        Visit("player", "/e/demo-mcr/me/"),
        Visit("referee", "/referee/"),  # My tables, with the call
        Visit("referee", "/referee/demo-mcr/"),
        Visit("referee", "/referee/demo-mcr/sessions/3/tables/1/"),  # in play: the MCR hand form
        Visit("referee", "/referee/demo-mcr/sessions/3/tables/1/", press="#tp-toggle"),  # the tile picker
        Visit("referee", "/referee/demo-mcr/sessions/2/tables/4/"),  # disputed
        Visit("referee", "/referee/demo-mcr/sessions/2/tables/1/hands/3/correct/"),
        Visit("referee", "/referee/demo-nmjl/sessions/3/tables/1/"),  # the NMJL hand form
        Visit("referee", "/referee/demo-babcock/sessions/2/tables/1/"),  # the classical hand form
        Visit("organiser", "/manage/demo-mcr/"),  # the live view: tables in play, the call
        Visit("organiser", "/manage/demo-mcr/players/"),  # the desk
        Visit("organiser", "/manage/demo-mcr/sessions/3/"),
        Visit("organiser", "/manage/demo-mcr/appeals/"),
        Visit("organiser", "/manage/demo-mcr/entries/"),
        Visit("organiser", "/manage/demo-mcr/pins/"),
        Visit("organiser", "/manage/"),
        Visit("organiser", "/manage/demo-mcr/settings/"),
        Visit("organiser", "/manage/demo-mcr/finals/"),
        Visit("organiser", "/manage/demo-mcr/reseat/"),
        Visit("organiser", "/manage/demo-mcr/seating/apart/"),
        Visit("organiser", "/manage/demo-mcr/prints/"),
        Visit("organiser", "/manage/demo-mcr/sessions/3/prints/"),
        Visit("organiser", "/manage/demo-mcr/sessions/3/seat-changes/"),
        Visit("organiser", "/manage/demo-mcr/players/p1/edit/"),
        Visit("organiser", "/manage/demo-nmjl/"),
        Visit("organiser", "/manage/demo-babcock/sessions/2/"),
        Visit("", "/e/demo-mcr/seating/1/"),
        Visit("", "/e/demo-mcr/results/2/"),
    ]


def _sign_in_player(page: Any, base: str) -> None:
    """Sign in as the player seated East at MCR session 3, table 1, with a fresh PIN."""
    from scoring.services import pins
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(slug="demo-mcr")
    me = tournament.rounds.get(number=3).tables.get(number=1).seats.get(wind="E").registration
    pin = pins.reissue_pin(me, acting_user=None)
    page.goto(f"{base}/e/demo-mcr/me/")
    page.fill("input[name=code]", me.code)
    page.fill("input[name=pin]", pin)
    page.click("#sign-in-form button[type=submit]")
    page.wait_for_selector("#seat-now")


PASSWORDS = {"referee": "referee-demo", "organiser": "organiser-demo"}


@pytest.fixture
def pages(browser, live_server) -> Iterator[Callable[[int, list[Visit]], Iterator[tuple[Visit, Any]]]]:
    """``pages(width, visits, language)`` yields each visit with its page loaded, a fresh browser per
    person, the page's language chosen as the switch does (its cookie)."""
    from django.conf import settings

    contexts = []

    def visit_all(width: int, visits: list[Visit], language: str = "en") -> Iterator[tuple[Visit, Any]]:
        page, who = None, None
        for visit in visits:
            if page is None or visit.who != who:
                phone = width <= PHONE
                context = browser.new_context(
                    viewport={"width": width, "height": 800},
                    is_mobile=phone,
                    has_touch=phone,
                    service_workers="block",
                )
                contexts.append(context)
                context.add_cookies(
                    [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
                )
                page, who = context.new_page(), visit.who
                page.set_default_timeout(15000)
                if who == "player":
                    _sign_in_player(page, live_server.url)
                elif who:
                    log_in(page, live_server.url, who, PASSWORDS[who])
                    page.wait_for_url(lambda url: "/accounts/login/" not in url)
            response = page.goto(live_server.url + visit.path)
            assert response is not None and response.status == 200, visit
            if visit.press:
                page.click(visit.press)
                page.wait_for_selector("#tp-palette button")
            page.evaluate(HOLD_STILL)
            yield visit, page

    yield visit_all
    for context in contexts:
        context.close()


def _axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


def _report(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['where']}: {v['id']} ({v['impact']}): {v['help']}")
        lines.extend(f"    {node}" for node in v["nodes"][:5])
    return "\n".join(lines)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_axe_finds_no_violation(walk, pages, width):
    axe = _axe_script()
    found = []
    for visit, page in pages(width, walk):
        page.evaluate(axe)
        for violation in page.evaluate(AXE_RUN, TAGS):
            if (violation["id"], visit.path) not in ALLOWED:
                found.append({**violation, "where": f"{visit.path} ({visit.who or 'public'}, {width} px)"})
    assert not found, "\n" + _report(found)


@pytest.mark.parametrize("language", ["en", "zh-hans"])  # a Chinese link may be two characters wide
def test_every_control_is_44_px_on_a_360_px_phone(walk, pages, language):
    small = {}
    for visit, page in pages(PHONE, [v for v in walk if not v.hall_screen], language):
        found = page.evaluate(SMALL_TARGETS, MIN_TARGET)
        if found:
            small[f"{visit.path} ({visit.who or 'public'})"] = found[:8]
    assert not small, "\n" + "\n".join(
        f"{where}:\n    " + "\n    ".join(found) for where, found in small.items()
    )


def test_table_states_are_words_and_the_language_switch_is_on_every_page(walk, pages):
    seen: dict[str, str] = {}
    for visit, page in pages(PHONE, walk):
        where = f"{visit.path} ({visit.who or 'public'})"
        assert page.evaluate(COLOUR_ONLY) == [], where
        if not visit.hall_screen:
            assert page.evaluate(LANGUAGE_SWITCH) == "shown", where
        seen[where] = page.inner_text("main") if page.locator("main").count() else page.inner_text("body")
    # The states the walk set up are told in words.
    assert "in play" in seen["/manage/demo-mcr/ (organiser)"]
    assert "Table 2 calls a referee" in seen["/referee/ (referee)"]
    index = seen["/referee/demo-mcr/ (referee)"]
    assert "confirmed" in index and "to confirm" in index and "not started" in index
    assert "disagrees" in seen["/referee/demo-mcr/sessions/2/tables/4/ (referee)"]


def test_the_checks_catch_what_they_look_for(page):
    """The walk's checks on a made-up page: an unlabelled field (axe's critical ``label``), a blank column
    heading (axe's minor ``empty-table-header``), a small button,
    a colour-only state and no language switch are each found; a link in running text is not."""
    page.set_content(
        """<!doctype html><html lang="en"><head><title>t</title></head><body><main>
        <p>Read <a href="/rules">the rules</a> first.</p>
        <input name="unlabelled"><button style="padding: 0">x</button>
        <ul><li class="state-complete">Table 1</li></ul>
        <table><thead><tr><th>Player</th><th></th></tr></thead><tbody><tr><td>Ana</td><td>b</td></tr></tbody>
        </table></main></body></html>"""
    )
    page.evaluate(_axe_script())
    found = {v["id"]: v["impact"] for v in page.evaluate(AXE_RUN, TAGS)}
    # The critical finding and the minor one: the walk fails on either.
    assert found["label"] == "critical" and found["empty-table-header"] == "minor"
    small = page.evaluate(SMALL_TARGETS, MIN_TARGET)
    assert any("<button" in line for line in small) and not any("/rules" in line for line in small)
    assert page.evaluate(COLOUR_ONLY) == ['<li class="state-complete">Table 1</li>']
    assert page.evaluate(LANGUAGE_SWITCH) == "missing"
