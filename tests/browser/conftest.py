"""Real Chromium through Playwright (Debian's /usr/bin/chromium: Playwright cannot download one here)."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"
# Playwright's sync API runs an event loop in this thread; the test still touches the ORM between steps.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    # No service worker here: the referee pages' worker fetches the table page in the background to keep it,
    # and that answer's CSRF cookie would replace a login form's when a test switches users at once.
    # tests/browser/test_offline_entry.py tries the worker in its own context.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the pages ask before final actions: say yes
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the pages ask before final actions: say yes
    page.set_default_timeout(15000)
    yield page
    context.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder runs Chromium: marked ``browser`` here, so that ``-m "not browser"`` (the
    quick suite) leaves it out even when its file forgets the mark."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here + os.sep):
            item.add_marker(pytest.mark.browser)
