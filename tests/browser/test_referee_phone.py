"""Phone first: the referee's pages of the three demo events at 360 px wide, with no sideways
scrolling of the page (a table of sixteen hands, the penalty and lateness forms, a correction)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.browser.sign_in import log_in
from tests.browser.test_desk_phone import WIDTH

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def narrow(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def overflow(page) -> list[str]:
    """Elements reaching past the right edge of the screen, other than those inside a box that scrolls
    by itself (a wide table in its own scrolling box, with its edge shadow as the cue, is allowed)."""
    return page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            const inScroller = e => {
                for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
                    const o = getComputedStyle(a).overflowX;
                    if (o === 'auto' || o === 'scroll') return true;
                }
                return false;
            };
            const boxes = [...document.querySelectorAll('body *')].filter(e => !inScroller(e));
            return boxes.filter(e => e.getBoundingClientRect().right > width + 1)
                        .slice(0, 5).map(e => e.tagName + '.' + e.className);
        }"""
    )


def test_the_referee_pages_fit_a_360_px_phone(live_server, narrow):
    call_command("load_demo", verbosity=0)
    log_in(narrow, live_server.url, "referee", "referee-demo")
    assert narrow.url.endswith("/referee/")  # a referee lands on their tables
    pages = [
        "/referee/demo-mcr/sessions/2/tables/1/",  # sixteen hands, penalties, lateness
        "/referee/demo-mcr/sessions/2/tables/1/hands/3/correct/",
        "/referee/demo-nmjl/sessions/1/tables/1/",
        "/referee/demo-babcock/sessions/1/tables/1/",
        "/referee/",
    ]
    for path in pages:
        response = narrow.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        widths = narrow.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1] == WIDTH, (path, widths, overflow(narrow))
        assert overflow(narrow) == [], path
