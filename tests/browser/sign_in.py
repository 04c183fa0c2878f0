"""Logging in through the login form, as every browser test does (one definition, imported)."""

from __future__ import annotations


def log_in(page, base: str, username: str, password: str) -> None:
    """Fill and send the login form, then wait until the page has left it: the login answered and its cookie
    is set before the test goes on (a page that merely loaded may still be the form)."""
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
