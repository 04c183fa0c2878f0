"""The "enter the tiles" mode of the hand form, in real Chromium: tiles in, fans out, hand saved with them."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PURE_STRAIGHT = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "5p", "6p", "9s"]
NAMES = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
NUMBERS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")


def name(code: str) -> str:
    """A tile as the picker names it in English (scoring/rules/vocabulary.py): "Four of Dots"."""
    return f"{NUMBERS[int(code[0]) - 1]} of {NAMES[code[1]]}"


def artifact(file: str) -> Path:
    folder = Path(__file__).resolve().parents[2] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder / file


def log_in(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "rick")
    page.fill("input[name=password]", "pw-rick-123")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # the login answered, its cookie set


def add(page, code: str) -> None:
    page.locator("#tp-palette").get_by_role("button", name=name(code), exact=True).click()


def open_picker(page, base: str) -> None:
    log_in(page, base)
    page.goto(f"{base}/referee/test-open/sessions/1/tables/1/")
    page.get_by_role("button", name="Enter the tiles").click()
    assert page.locator("#tp-panel").is_visible()


def test_the_referee_enters_the_tiles_and_the_hand_is_saved_with_them(page, live_server, event, table):
    from scoring.models import Hand

    base = live_server.url
    open_picker(page, base)
    page.check("input[name=how][value=discard]")
    page.select_option("select[name=winner]", "S")
    page.select_option("select[name=discarder]", "E")
    assert page.input_value("#tp-seat_wind") == "S"  # the winner's seat wind in hand 1
    assert page.input_value("#tp-prevalent_wind") == "E"

    for code in PURE_STRAIGHT:
        add(page, code)
    # Thirteen tiles but no winning tile yet: the page says what is missing.
    page.wait_for_selector("#fan-breakdown .tile-error:has-text(\"missing field 'win_tile'\")")
    page.get_by_role("button", name="Winning tile").click()
    add(page, "9s")

    page.wait_for_selector("#fan-breakdown >> text=Pure Straight")
    breakdown = page.locator("#fan-breakdown").inner_text()
    assert "Concealed Hand" in breakdown
    assert "Meets the 8-point minimum" in breakdown
    assert page.input_value("input[name=fan]") == "22"

    # Taking a tile out gives the error in the page; putting it back scores again.
    page.get_by_role("button", name="Remove Four of Dots").click()
    page.wait_for_selector("#fan-breakdown >> text=wrong tile count")
    page.get_by_role("button", name="Concealed", exact=True).click()
    add(page, "4p")
    page.wait_for_selector("#fan-breakdown >> text=Pure Straight")

    # A chow cannot start on an 8; the hint says so and nothing is added.
    page.get_by_role("button", name="New chow").click()
    add(page, "8m")
    assert "cannot start on Eight of Characters" in page.locator("#tp-hint").inner_text()
    assert page.locator("#tp-melds .tp-meld").count() == 0

    # A typed fan that disagrees with the tiles is flagged; agreeing again clears the warning.
    page.fill("input[name=fan]", "20")
    warning = page.locator("#tp-fan-warning")
    assert warning.is_visible()
    assert "The tiles score 22" in warning.inner_text()
    page.fill("input[name=fan]", "22")
    assert not warning.is_visible()

    page.screenshot(path=str(artifact("tile-picker-desktop.png")), full_page=True)
    page.click("text=Save hand")
    page.wait_for_selector("text=Hand saved")

    saved = Hand.objects.get(table=table, number=1, is_current=True)
    assert saved.fan == 22
    assert saved.tiles["concealed"] == PURE_STRAIGHT
    assert saved.tiles["win_tile"] == "9s"
    assert saved.tiles["seat_wind"] == "S"

    page.goto(f"{base}/e/test-open/results/1/")
    page.click("summary")
    assert page.locator('.tiles-display img[alt="Nine of Bamboo"]').count() == 2
    page.screenshot(path=str(artifact("tile-picker-results.png")), full_page=True)


def test_declared_sets_and_flags_score_and_a_bad_save_keeps_the_tiles(page, live_server, event, table):
    from scoring.models import Hand

    base = live_server.url
    open_picker(page, base)
    page.check("input[name=how][value=self]")
    page.select_option("select[name=winner]", "E")
    assert page.is_checked("#tp-self_drawn")
    for code in ["1m", "2m", "3m", "4m", "5m", "6m", "9s"]:
        add(page, code)
    page.get_by_role("button", name="New chow").click()
    add(page, "7m")
    page.get_by_role("button", name="Concealed kong").click()
    page.locator("#tp-palette").get_by_role("button", name="Red Dragon", exact=True).click()
    page.get_by_role("button", name="Winning tile").click()
    add(page, "9s")
    page.fill("#tp-flowers", "2")
    page.wait_for_selector("#fan-breakdown >> text=Flower Tiles")
    breakdown = page.locator("#fan-breakdown").inner_text()
    assert "Concealed Kong" in breakdown
    assert "Self-Drawn" in breakdown
    basic = int(page.locator("#fan-breakdown .fan-breakdown").get_attribute("data-basic"))
    assert page.input_value("input[name=fan]") == str(basic)

    # Saving with a fan that disagrees is refused by the service; the tiles come back in the picker.
    page.fill("input[name=fan]", str(basic + 1))
    # A change that does not change the score (no wind sets here) keeps the typed fan, and the warning.
    page.select_option("#tp-prevalent_wind", "S")
    page.wait_for_function("document.querySelector('#hand-form input[name=tiles]').value.includes('\"S\"')")
    page.wait_for_timeout(500)
    assert page.input_value("input[name=fan]") == str(basic + 1)
    assert page.locator("#tp-fan-warning").is_visible()
    page.click("text=Save hand")
    page.wait_for_selector(f"text=the tiles are worth {basic}")
    assert page.locator("#tp-panel").is_visible()
    assert page.locator("#tp-melds .tp-meld").count() == 2
    assert not Hand.objects.filter(table=table).exists()
    page.fill("input[name=fan]", str(basic))
    page.click("text=Save hand")
    page.wait_for_selector("text=Hand saved")
    saved = Hand.objects.get(table=table, number=1, is_current=True)
    assert saved.tiles["melds"][1] == {"type": "kong", "tiles": ["7z"] * 4, "concealed": True}
    assert saved.tiles["flowers"] == 2

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/e/test-open/results/1/")
    page.click("summary")
    assert page.locator('.tiles-display img[alt="Red Dragon"]').count() == 4
    assert "+2 flowers" in page.locator(".tiles-display").inner_text()
    page.screenshot(path=str(artifact("tile-picker-results-phone.png")), full_page=True)


def test_the_picker_fits_a_phone_screen(phone, live_server, event):
    base = live_server.url
    open_picker(phone, base)
    for code in PURE_STRAIGHT:
        add(phone, code)
    phone.get_by_role("button", name="Winning tile").click()
    add(phone, "9s")
    phone.wait_for_selector("#fan-breakdown >> text=Pure Straight")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    palette_box = phone.locator("#tp-palette").bounding_box()
    assert palette_box["x"] + palette_box["width"] <= 390
    phone.locator("#hand-form").screenshot(path=str(artifact("tile-picker-phone.png")))


def test_the_picker_works_from_the_keyboard(page, live_server, event):
    base = live_server.url
    log_in(page, base)
    page.goto(f"{base}/referee/test-open/sessions/1/tables/1/")
    page.locator("#tp-toggle").focus()
    page.keyboard.press("Enter")
    assert page.locator("#tp-panel").is_visible()
    palette_tile = page.locator("#tp-palette").get_by_role("button", name="Three of Dots", exact=True)
    palette_tile.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert page.locator("#tp-concealed .tile").count() == 2
    page.get_by_role("button", name="Remove Three of Dots").first.focus()
    page.keyboard.press("Enter")
    assert page.locator("#tp-concealed .tile").count() == 1
    # The focus stays in the hand, on the tile left, so the next key press removes it too.
    page.keyboard.press("Enter")
    assert page.locator("#tp-concealed .tile").count() == 0
    assert page.input_value("#hand-form input[name=tiles]") == ""


def typed(page, target: str, text: str) -> None:
    page.get_by_role("button", name=target, exact=True).click()
    page.fill("#tp-text", text)
    page.press("#tp-text", "Enter")


def test_typed_tiles_and_bad_sets_get_a_clear_message_in_the_page(page, live_server, event, table):
    from scoring.models import Hand

    open_picker(page, live_server.url)
    typed(page, "Concealed", "123456789m 456p 9s")
    typed(page, "Winning tile", "9s")
    page.wait_for_selector("#fan-breakdown >> text=Pure Straight")
    assert not Hand.objects.filter(table=table).exists()  # Enter in the text box did not save the hand

    cases = [
        ("New chow", "468p", "a chow needs three consecutive tiles of one suit", []),
        ("New chow", "123z", "a chow cannot be made of honours", []),
        ("Exposed kong", "555s", "a kong has 4 tiles, not 3", []),
        ("Concealed", "8z", "unknown tile code '8z'", ["8z"]),
        ("Concealed", "99999s", "a fifth 9s", ["9s"] * 5),
        ("Concealed", "1p 2s", "wrong tile count", ["1p", "2s"]),
    ]
    for target, text, message, added in cases:
        typed(page, target, text)
        page.wait_for_selector(f'#fan-breakdown .tile-error:has-text("{message}")')
        # Take the bad part out again (the last declared set, or the typed tiles) and the hand scores again.
        for code in added:
            page.locator(f'#tp-concealed .tile[data-code="{code}"]').last.click()
        if not added:
            page.locator("#tp-melds .tp-meld").last.click()
        page.wait_for_selector("#fan-breakdown >> text=Pure Straight")

    typed(page, "Winning tile", "12m")
    assert "The winning tile is one tile, not 2" in page.locator("#tp-hint").inner_text()
    typed(page, "Concealed", "5x")
    assert "unexpected character" in page.locator("#tp-hint").inner_text()
    page.screenshot(path=str(artifact("tile-picker-typed.png")), full_page=False)
