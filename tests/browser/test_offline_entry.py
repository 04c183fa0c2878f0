"""Entry that survives the Wi-Fi, in Chromium at 360 px: hands entered with the browser offline wait on the
phone and say so, are stored once and in order when it is back, and a hand queued against a table another
referee changed meanwhile is shown as not saved, to be entered again (static/js/offline-entry.js,
scoring/services/entry.py). The page then opens with no network (the referee pages' service worker)."""

from __future__ import annotations

import time

import pytest

from scoring.models import EntryToken, Hand, LateArrival
from scoring.services import entry
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
    # The service worker fetches referee pages in the background: a fetch the live server is still answering
    # when the test's database is flushed held a table lock ("database table is locked" at teardown, then the
    # next test's set-up failing). Closing the browser stops new ones; this lets the last one finish.
    time.sleep(0.5)


def in_force(table) -> list[tuple[int, str]]:
    hands = Hand.objects.in_force().filter(table=table).order_by("number")
    return [(hand.number, hand.winner) for hand in hands]


def scores(page) -> dict[str, str]:
    cells = page.locator("#scoreboard td[data-seat]")
    return {cells.nth(i).get_attribute("data-seat"): cells.nth(i).inner_text() for i in range(cells.count())}


def enter(page, how: str, winner: str | None = None, discarder: str | None = None, fan: str | None = None):
    page.check(f"input[name=how][value={how}]")
    if winner:
        page.select_option("select[name=winner]", winner)
    if discarder:
        page.select_option("select[name=discarder]", discarder)
    if fan:
        page.fill("input[name=fan]", fan)
    page.click("#hand-form button[type=submit]")


def test_hands_entered_offline_wait_then_are_stored_once_in_order(live_server, narrow, table, organiser):
    page = narrow
    base = live_server.url
    url = f"{base}/referee/{table.round.tournament.slug}/sessions/1/tables/1/"
    log_in(page, base, "rick", "pw-rick-123")
    page.goto(url)
    # Installed while online: the worker controls the page and has kept its shell.
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")

    page.context.set_offline(True)
    enter(page, "discard", "E", "W", "16")
    page.wait_for_selector("text=1 hand not sent yet")
    enter(page, "self", "S", None, "8")
    enter(page, "draw")
    page.wait_for_selector("#offline-queue >> text=3 hands not sent yet")
    assert page.locator("#hand-form h2").inner_text() == "Hand 4"
    # The scoreboard as if they were sent, marked: E won 16 from W (E +40, W -24, S and N -8), S drew 8
    # herself (S +48, the others -16), a draw (MCR rule 67, seeds/003 line 2306); hand 4's winds.
    assert scores(page) == {"E": "24", "S": "40", "W": "-40", "N": "-24"}
    assert page.locator("#scoreboard caption").inner_text() == "3 hands not sent yet"
    assert page.locator("#scoreboard th[data-wind-head]").inner_text() == "Wind in hand 4"
    assert page.locator("#scoreboard td.unsent").count() >= 4
    assert page.locator("#next-hand").inner_text().startswith("Next: hand 4 of 4, East round")
    assert page.locator("#offline-queue li").count() == 3
    assert in_force(table) == []  # nothing reached the server
    page.screenshot(path="/tmp/offline-entry-waiting.png", full_page=True)
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1] == WIDTH

    page.context.set_offline(False)
    page.wait_for_function("document.querySelectorAll('table.hands-table tbody tr').length === 3")
    page.wait_for_selector("#offline-queue", state="hidden")
    assert in_force(table) == [(1, "E"), (2, "S"), (3, "")]  # in the order entered
    assert scores(page) == {"E": "24", "S": "40", "W": "-40", "N": "-24"}  # the server's, the same
    assert page.locator("#scoreboard .unsent").count() == 0
    assert EntryToken.objects.filter(table=table).count() == 3
    assert Hand.objects.filter(table=table).count() == 3  # each stored once

    # The table page opens with no network (its last copy, kept by the service worker).
    page.context.set_offline(True)
    page.reload()
    assert page.locator("#hand-form h2").inner_text() == "Hand 4"

    # A fourth hand waits offline while another referee deletes hand 3 through the service.
    enter(page, "discard", "E", "N", "8")
    page.wait_for_selector("text=1 hand not sent yet")
    entry.void_last_hand(table, acting_user=organiser, expected_last=3)
    page.context.set_offline(False)
    refused = page.locator("#offline-queue li.error")
    refused.wait_for()
    assert "Hand 4: Not saved: The table changed while this hand waited: hand 3 is next, not 4" in (
        refused.inner_text()
    )
    assert in_force(table) == [(1, "E"), (2, "S")]  # not stored, and not dropped from the page
    assert page.locator("#hand-form h2").inner_text() == "Hand 3"  # the page read the table anew

    # Entered again in the table's next hand's form: now stored, the table's third hand (numbered after the
    # deleted one, which the history keeps).
    page.click("#offline-queue >> text=Enter it again")
    assert page.locator("select[name=winner]").input_value() == "E"
    assert page.locator("#offline-queue li").count() == 0
    page.click("#hand-form button[type=submit]")
    page.wait_for_selector("#hand-form >> text=Hand saved")
    assert [winner for _, winner in in_force(table)] == ["E", "S", "E"]

    # Lateness too: kept offline, stored once when the connection is back.
    page.context.set_offline(True)
    page.select_option("#late-form select[name=player]", index=1)
    page.fill("#late-form input[name=minutes]", "7")
    page.click("#late-form button[type=submit]")
    page.wait_for_selector("#offline-queue >> text=1 entry not sent yet")
    assert "Late arrival: waiting to be sent" in page.locator("#offline-queue li").inner_text()
    page.context.set_offline(False)
    page.wait_for_selector("text=late 7 min")
    assert LateArrival.objects.filter(table=table).count() == 1


def test_nmjl_games_kept_offline_move_the_scoreboard_as_the_server_then_does(live_server, narrow, nmjl_table):
    """The NMJL rule set's points table (scoring/rules/nmjl/points_table.py, Tournament Scoring, seeds/003
    lines 1556-1570): a card hand's value from the event's card, jokerless, the exposures, dead hands; and
    a penalty kept with them, by the rule set's penalty table (scoring/rules/ruleset.py penalty_points_table)."""
    page = narrow
    log_in(page, live_server.url, "rick", "pw-rick-123")
    page.goto(f"{live_server.url}/referee/boca-open/sessions/1/tables/1/")
    page.context.set_offline(True)
    # E wins 2468-3 (35 on the card) jokerless (+20) from S, who discarded to 3 exposures (-25); W dead.
    page.check("input[name=won_by][value=discard]")
    page.select_option("select[name=winner]", "E")
    page.select_option("select[name=discarder]", "S")
    page.select_option("select[name=card_hand]", "2468-3")
    page.fill("input[name=winner_exposures]", "3")
    page.check("input[name=jokerless]")
    page.check("input[name=dead][value=W]")
    page.click("#hand-form button[type=submit]")
    page.wait_for_selector("#offline-queue >> text=1 game not sent yet")
    assert scores(page) == {"E": "55", "S": "-25", "W": "0", "N": "0"}
    # A wall game (10 each) where N's hand was dead ("Dead hand 0 points").
    page.check("input[name=won_by][value=wall]")
    page.check("input[name=dead][value=N]")
    page.click("#hand-form button[type=submit]")
    page.wait_for_selector("#offline-queue >> text=2 games not sent yet")
    assert scores(page) == {"E": "65", "S": "-15", "W": "10", "N": "0"}
    cell = page.locator('#scoreboard td[data-seat="E"]')
    assert "unsent" in cell.get_attribute("class")
    assert cell.evaluate("(cell) => getComputedStyle(cell).fontStyle") == "italic"
    assert page.locator("#hand-form h2").inner_text() == "Game 3"
    # A penalty kept too moves the totals (the rule set's penalty table): 5 points deducted from S.
    south = nmjl_table.seats.get(wind="S").registration.code
    penalty = page.locator("#penalty-form")
    penalty.locator("select[name=player]").select_option(str(south))
    penalty.locator("select[name=kind]").select_option("other")
    penalty.locator("input[name=points]").fill("5")
    penalty.locator("select[name=paid_to]").select_option("none")
    penalty.locator("button[type=submit]").click()
    page.wait_for_selector("#offline-queue >> text=3 entries not sent yet")
    assert scores(page) == {"E": "65", "S": "-20", "W": "10", "N": "0"}
    assert page.locator("#scoreboard caption").inner_text() == "3 entries not sent yet"
    assert in_force(nmjl_table) == [] and not nmjl_table.penalties.exists()

    page.context.set_offline(False)
    page.wait_for_function("document.querySelectorAll('table.hands-table tbody tr').length === 2")
    page.wait_for_selector("#offline-queue", state="hidden")
    assert in_force(nmjl_table) == [(1, "E"), (2, "")]
    assert nmjl_table.penalties.count() == 1
    assert scores(page) == {"E": "65", "S": "-20", "W": "10", "N": "0"}  # the server's, the same
    assert page.locator("#scoreboard .unsent").count() == 0


KEPT = """(url) => {
  // Polled: each poll looks in the worker's cache once the previous look has answered.
  // The logged-in user's own cache (scoring/offline_copy.py: the logout form says whose).
  const owner = document.querySelector("form[data-offline-owner]").dataset.offlineOwner;
  if (!window.keptLook) {
    window.keptLook = caches.open("referee-pages-v2:" + owner).then((c) => c.match(url, { ignoreVary: true }))
      .then((found) => { window.kept = !!found; window.keptLook = null; });
  }
  return window.kept === true;
}"""


def test_my_tables_keeps_the_referee_pages_for_no_network(live_server, narrow, table):
    """A referee who opens My tables first gets the service worker: My tables then opens with no network."""
    page = narrow
    log_in(page, live_server.url, "rick", "pw-rick-123")
    page.goto(f"{live_server.url}/referee/")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    # The worker kept the page once it controlled it (the page's message, static/js/offline-entry.js).
    page.wait_for_function(KEPT, arg="/referee/")
    page.context.set_offline(True)
    page.reload()
    assert page.locator("h1").inner_text() == "My tables"


def test_signing_and_confirming_say_they_need_the_connection(live_server, narrow, table, organiser):
    page = narrow
    url = f"{live_server.url}/referee/{table.round.tournament.slug}/sessions/1/tables/1/"
    entry.record_hand(table, entry.HandEntry(winner="E", discarder="W", fan=8), acting_user=organiser)
    entry.set_table_finished(table, True, acting_user=organiser)
    log_in(page, live_server.url, "rick", "pw-rick-123")
    page.goto(url)
    page.context.set_offline(True)
    page.wait_for_selector("#sign-form >> text=Signing needs the connection.")
    page.wait_for_selector("#confirm-form >> text=Confirming needs the connection.")
    assert page.locator("#sign-form button").is_disabled()
    assert page.locator("#confirm-form button").is_disabled()
    page.context.set_offline(False)
    page.wait_for_selector("text=Signing needs the connection.", state="detached")
    assert page.locator("#sign-form button").is_enabled()


def test_a_blind_second_entry_is_kept_offline_and_stored_once(live_server, narrow, table, organiser):
    """The blind second entry waits on the phone like a hand (its token: stored once) and confirms the
    table when it is sent and agrees (docs/confirmation.md)."""
    from scoring.models import BlindEntry
    from scoring.services import queries
    from tournaments.services import events as event_services

    event_services.update_settings(
        table.round.tournament, {"confirmation.blind_entry": True}, acting_user=organiser
    )
    for winner, discarder in (("E", "W"), ("S", None), (None, None), ("N", "E")):
        entry.record_hand(
            table,
            entry.HandEntry(winner=winner, discarder=discarder, fan=8 if winner else None),
            acting_user=organiser,
        )
    totals = queries.running_scores(queries.table_with_results(table))[-1]["totals"]
    page = narrow
    log_in(page, live_server.url, "rick", "pw-rick-123")
    page.goto(f"{live_server.url}/referee/{table.round.tournament.slug}/sessions/1/tables/1/")
    page.context.set_offline(True)
    for seat in "ESWN":
        page.fill(f"#blind-form input[name=total_{seat}]", str(totals[seat]))
    page.click("#blind-form button[type=submit]")
    page.wait_for_selector("#offline-queue >> text=1 entry not sent yet")
    assert not BlindEntry.objects.filter(table=table).exists()
    page.context.set_offline(False)
    page.wait_for_selector("#confirmation >> text=confirmed")
    assert BlindEntry.objects.filter(table=table).count() == 1
    assert queries.is_confirmed(table, fresh=True)


QUEUES = "Object.keys(localStorage).filter((name) => name.startsWith('offline-entry:') && name.includes('/referee/'))"
PAGE_CACHES = "caches.keys().then((names) => names.filter((name) => name.startsWith('referee-pages')))"


def test_a_shared_phone_keeps_nothing_of_the_last_referee(live_server, narrow, table, organiser, stranger):
    """Referee A keeps a table page and a hand not sent yet; logging out warns, then clears both; referee B,
    logged in on the same browser, offline, sees neither (scoring/offline_copy.py, static/js/offline-logout.js,
    static/js/referee-sw.js)."""
    from tournaments.models import Role
    from tournaments.services import events as event_services

    event_services.grant_role(table.round.tournament, stranger, Role.REFEREE, acting_user=organiser)
    page = narrow
    base = live_server.url
    path = f"/referee/{table.round.tournament.slug}/sessions/1/tables/1/"
    log_in(page, base, "rick", "pw-rick-123")
    page.goto(base + path)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.wait_for_function(KEPT, arg=path)
    rick = page.locator("form[data-offline-owner]").get_attribute("data-offline-owner")

    # A hand kept on the phone: entered offline, and its post still fails once the phone is back online.
    page.context.set_offline(True)
    enter(page, "discard", "E", "W", "16")
    page.wait_for_selector("#offline-queue >> text=1 hand not sent yet")
    page.context.route("**/hands/add/", lambda route: route.abort())
    page.context.set_offline(False)
    page.wait_for_function("navigator.onLine")
    assert page.evaluate(QUEUES) == [f"offline-entry:{rick}:{path}"]

    # Logging out says what would be lost; "Cancel" keeps the referee logged in with the hand.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("text=Log out rick")
    page.wait_for_function("document.querySelector('#offline-queue li') !== null")
    assert asked == ["1 hand not sent yet: log out anyway?"]
    assert page.locator("text=Log out rick").is_visible()
    assert in_force(table) == []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("text=Log out rick")
    page.wait_for_selector("a:has-text('Log in')")
    assert len(asked) == 2
    assert page.evaluate(QUEUES) == []
    assert page.evaluate(PAGE_CACHES) == []
    page.context.unroute("**/hands/add/")

    # Referee B on the same phone: their own pages are kept, under their own id.
    log_in(page, base, "sam", "pw-sam-123")
    page.goto(base + "/referee/")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.wait_for_function(KEPT, arg="/referee/")
    sam = page.locator("form[data-offline-owner]").get_attribute("data-offline-owner")
    assert sam and sam != rick
    assert page.evaluate(PAGE_CACHES) == [f"referee-pages-v2:{sam}"]

    # Offline: A's table page is not there for B, B's own My tables is; no hand of A's anywhere.
    page.context.set_offline(True)
    with pytest.raises(Exception, match="ERR_"):
        page.goto(base + path)
    page.wait_for_url(lambda url: url.startswith("chrome-error:"))  # the browser's own error page, shown
    page.goto(base + "/referee/")
    assert page.locator("h1").inner_text() == "My tables"
    assert page.locator("form[data-offline-owner]").get_attribute("data-offline-owner") == sam
    assert page.evaluate(QUEUES) == []
    page.context.set_offline(False)
    page.goto(base + path)
    assert page.locator("#offline-queue li").count() == 0
    assert page.locator("#offline-queue").is_hidden()
    assert in_force(table) == []  # A's hand never reached the server under B's name


def test_another_referee_logging_in_clears_the_last_ones_copies(
    live_server, narrow, table, organiser, stranger
):
    """Referee B logs in on A's phone without A logging out: A's kept pages and queue go at B's first page."""
    page = narrow
    base = live_server.url
    path = f"/referee/{table.round.tournament.slug}/sessions/1/tables/1/"
    log_in(page, base, "rick", "pw-rick-123")
    page.goto(base + path)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.wait_for_function(KEPT, arg=path)
    page.context.set_offline(True)
    enter(page, "draw")
    page.wait_for_selector("#offline-queue >> text=1 hand not sent yet")
    assert len(page.evaluate(QUEUES)) == 1
    page.context.route("**/hands/add/", lambda route: route.abort())  # the hand is still not sent
    page.context.set_offline(False)

    log_in(page, base, "sam", "pw-sam-123")
    page.wait_for_function(f"!Object.keys(localStorage).some((name) => name.includes({path!r}))")
    sam = page.locator("form[data-offline-owner]").get_attribute("data-offline-owner")
    page.goto(base + "/referee/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_function(KEPT, arg="/referee/")
    assert page.evaluate(PAGE_CACHES) == [f"referee-pages-v2:{sam}"]
    page.context.set_offline(True)
    with pytest.raises(Exception, match="ERR_"):
        page.goto(base + path)
    page.wait_for_url(lambda url: url.startswith("chrome-error:"))
    assert in_force(table) == []
