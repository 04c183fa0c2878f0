"""Generated posts for the hand, penalty and player-import forms, and what must hold after each.

Shared by the suite's short run (tests/test_form_fuzz.py) and the full one (bench/fuzz_forms.py, 10,000
inputs per form). Each post is answered without a 500, and nothing is half-written: a table's current hands
are numbered 1..n without gaps and score as a session, every penalty stays on a player of its table, and a
player import adds all of its rows or none.
"""

from __future__ import annotations

import csv
import io

import openpyxl
from django.test import Client
from django.urls import reverse
from hypothesis import strategies as st
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from players.models import Player
from tournaments.models import Table, Tournament

ANSWERS = {200, 302, 403, 404, 409, 422}
WINDS = ["E", "S", "W", "N"]

junk_text = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
    st.sampled_from(["", " ", "\x00", "<b>", "=1+1", "-1", "0", "1e9", "9" * 40, "null", "[]", "{}", "NaN"]),
)
small_number = st.integers(min_value=-(10**6), max_value=10**6).map(str)
wind = st.sampled_from([*WINDS, "", "X", "e"])


def _form(fields: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[dict[str, str]]:
    """Plausible values most of the time (so that posts are also accepted), junk in any field at times."""
    return st.fixed_dictionaries(
        {}, optional={name: st.one_of(s, s, s, junk_text) for name, s in fields.items()}
    )


plausible_hands = st.fixed_dictionaries(
    {
        "how": st.sampled_from(["discard", "self_drawn", "draw"]),
        "winner": st.sampled_from(WINDS),
        "discarder": st.sampled_from(WINDS),
        "fan": st.integers(min_value=6, max_value=90).map(str),
    },
    optional={"tiles": st.sampled_from(["", "{}"]), "reason": junk_text},
)
random_hands = _form(
    {
        "how": st.sampled_from(["discard", "self_drawn", "draw", "bogus"]),
        "winner": wind,
        "discarder": wind,
        "fan": st.one_of(st.integers(min_value=0, max_value=400).map(str), small_number),
        "tiles": st.sampled_from(["", "{}", "[]", '{"hand": [1, 2]}', "[" * 60 + "]" * 60]),
        "expected_number": st.integers(min_value=-2, max_value=20).map(str),
    }
)
plausible_penalties = st.fixed_dictionaries(
    {
        "player": st.sampled_from(["0", "1", "2", "3"]),
        "kind": st.just("other"),
        "points": st.sampled_from(["0", "5", "10", "30"]),
        "paid_to": st.sampled_from(["none", "each_other", "player"]),
    },
    optional={
        "paid_to_player": st.sampled_from(["0", "1", "2", "3"]),
        "reason": junk_text,
        "rule": junk_text,
    },
)
random_penalties = _form(
    {
        "player": st.sampled_from(["0", "1", "2", "3", "4", "999"]),
        "kind": st.sampled_from(["", "other", "warning", "false_hu", "no-such"]),
        "points": st.one_of(st.sampled_from(["0", "5", "10", "20", "30"]), small_number),
        "paid_to": st.sampled_from(["", "none", "others", "player", "bogus"]),
        "paid_to_player": st.sampled_from(["", "0", "1", "999"]),
        "rule": junk_text,
        "reason": junk_text,
    }
)
#: Half the posts are plausible (and often saved), half anything at all.
hand_posts = st.one_of(plausible_hands, random_hands)
penalty_posts = st.one_of(plausible_penalties, random_penalties)

cell = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        ["Ana García", "Zoë Ōta", "李明", "PT", "Portugal", "=HYPERLINK(1)", "", "04000001", "x" * 130]
    ),
)
player_rows = st.lists(st.lists(cell, min_size=0, max_size=6), min_size=0, max_size=12)
headers = st.sampled_from(
    [["name", "country", "ema_id", "team"], ["name"], ["Name", "Country"], ["team", "name"], ["nom"], []]
)


@st.composite
def player_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A player list as CSV, XLSX or something else that claims to be one."""
    header, rows = draw(headers), draw(player_rows)
    kind = draw(st.sampled_from(["csv", "csv", "xlsx", "junk"]))
    if kind == "xlsx":
        workbook = openpyxl.Workbook()
        sheet = workbook.active
        assert sheet is not None
        for row in [header, *rows]:
            sheet.append([ILLEGAL_CHARACTERS_RE.sub("", value) for value in row])
        buffer = io.BytesIO()
        workbook.save(buffer)
        return "players.xlsx", buffer.getvalue()
    if kind == "junk":
        return draw(st.sampled_from(["players.xlsx", "players.csv"])), draw(st.binary(max_size=200))
    text = io.StringIO()
    csv.writer(text).writerows([header, *rows])
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
    return "players.csv", text.getvalue().encode(encoding, errors="replace")


def table_url(table: Table, name: str) -> str:
    tournament = table.round.tournament
    return reverse(f"referee:{name}", args=[tournament.slug, table.round.number, table.number])


def post_hand(client: Client, table: Table, data: dict[str, str]) -> int:
    return client.post(table_url(table, "add_hand"), data).status_code


def post_penalty(client: Client, table: Table, data: dict[str, str]) -> int:
    codes = list(table.seats.order_by("wind").values_list("registration__code", flat=True))
    # isdecimal, not isdigit: "²" is a digit that int() refuses; any other text is posted as it is.
    mapped = {
        key: (str(codes[int(value)]) if value.isdecimal() and int(value) < len(codes) else value)
        if key in {"player", "paid_to_player"}
        else value
        for key, value in data.items()
    }
    return client.post(table_url(table, "add_penalty"), mapped).status_code


def post_player_file(
    client: Client, tournament: Tournament, name: str, content: bytes
) -> tuple[int, int, int]:
    """Posts a player list; returns (status, registrations added, players added)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    registrations, players = tournament.registrations.count(), Player.objects.count()
    url = reverse("manage:import_players", args=[tournament.slug])
    status = client.post(url, {"file": SimpleUploadedFile(name, content)}).status_code
    return status, tournament.registrations.count() - registrations, Player.objects.count() - players


def check_table_is_whole(table: Table) -> None:
    """What every answer leaves behind: hands numbered 1..n, a session that scores, penalties on its players."""
    from scoring.services import queries, standings

    numbers = [hand.number for hand in queries.current_hands(table)]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    loaded = queries.table_with_results(table)
    result = standings.session_result(loaded)
    assert sorted(result.scores) == sorted(WINDS) and all(isinstance(v, int) for v in result.scores.values())
    players = set(table.seats.values_list("registration_id", flat=True))
    for penalty in table.penalties.filter(is_current=True):
        assert penalty.registration_id in players


def check_import_all_or_nothing(status: int, registrations_added: int, players_added: int) -> None:
    assert status in ANSWERS, status
    assert registrations_added >= 0 and players_added == registrations_added
    if status != 302:
        assert registrations_added == 0  # a refused file imports nothing
