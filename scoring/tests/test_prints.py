"""Prints for the hall and the chief referee: read back with pypdf, one page rendered to check it is
not blank, markup in user text printed literally, clear refusals instead of half-made files."""

from __future__ import annotations

import io
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.exports import EVENT_PRINTS, SESSION_PRINTS, PrintError, ScoresheetsPDF
from scoring.exports.base import qr_modules
from scoring.rules.ruleset import HandRecord
from scoring.services import entry, penalties, queries, standings
from scoring.services.entry import HandEntry
from scoring.tests.jobs import fetch
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating

PDF_EVENT_PRINTS = ["standings", "register"]
HOSTILE = '<img src="/dev/zero"/> & <b>unclosed'


def pdf_text(content: bytes) -> str:
    """The text of every page, runs of white space as one space."""
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


def ink(content: bytes, tmp_path) -> float:
    """Share of non-white pixels on the first page, rendered with pdftoppm."""
    from PIL import Image

    path = tmp_path / "page.pdf"
    path.write_bytes(content)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "30", "-f", "1", "-l", "1", str(path), str(tmp_path / "p")], check=True
    )
    [png] = tmp_path.glob("p*.png")
    image = Image.open(png).convert("L")
    dark = sum(image.point(lambda value: 255 if value < 200 else 0).histogram()[255:])
    return dark / (image.width * image.height)


@pytest.fixture
def played(event, referee):
    """Session 1 of the test event with two hands, a penalty and a lateness entered at table 1."""
    table = event.rounds.get(number=1).tables.get(number=1)
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    entry.record_hand(table, HandEntry(winner="W", fan=8), acting_user=referee)
    north = table.seats.get(wind="N").registration
    penalties.add_penalty(
        table, north, 10, paid_to="none", rule="MCR 83", reason="slow play", acting_user=referee
    )
    penalties.record_late(table, table.seats.get(wind="S").registration, 5, acting_user=referee)
    return table


@pytest.mark.parametrize("kind", list(SESSION_PRINTS))
def test_every_session_print_names_the_players_and_is_not_blank(played, kind, tmp_path):
    round_ = played.round
    filename, content_type, content = SESSION_PRINTS[kind](round_, "http://hall.example").render()
    assert content_type == "application/pdf"
    assert filename.startswith("test-open-session-1")
    text = pdf_text(content)
    for seat in round_.seats.select_related("registration__player"):
        assert seat.registration.player.name in text
    assert ink(content, tmp_path) > 0.01


def test_a_filled_scoresheet_has_each_hand_penalties_lateness_totals_and_table_points(played):
    loaded = queries.tables_with_results(played.round.tournament, played.round)[0]
    result = standings.session_result(loaded)
    _, _, content = ScoresheetsPDF(played.round, "http://hall.example").render()
    first = pdf_text(content).split("Session 1 · Table 2")[0]
    assert "self-drawn" in first
    assert "slow play" in first
    assert "5 min: -10" in first
    assert "East round" in first  # four hands: one wind round (rule 75)
    assert " ".join(str(result.scores[w]) for w in "ESWN") in first
    assert "http://hall.example" + reverse("referee:table", args=["test-open", 1, 1]) in first


def test_a_blank_scoresheet_marks_each_seats_wind_in_every_hand(event):
    _, _, content = ScoresheetsPDF(event.rounds.get(number=1)).render()
    text = pdf_text(content)
    assert "[E] [S] [W] [N]" in text  # hand 1: everyone in their starting wind
    assert "[N] [E] [S] [W]" in text  # hand 2: the deal has passed to South
    assert "Signatures" in text


def test_the_nmjl_scorecard_has_the_games_with_jokerless_and_the_pivot_winds(organiser, referee, tmp_path):
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Boca Open", rules="nmjl", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    for name in ["Ann", "Bea", "Cat", "Dot"]:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    [table] = reseating.generate_seating(tournament.rounds.get(number=1), acting_user=organiser)
    entry.record_hand(
        table,
        HandEntry(winner="S", data={"won_by": "self_pick", "value": 25, "jokerless": True}),
        acting_user=referee,
    )
    _, _, content = ScoresheetsPDF(table.round).render()
    text = pdf_text(content)
    assert "scorecard" in text
    assert "Jokerless" in text and "yes" in text and "self-picked" in text
    assert "Game 4" in text
    names = {"E": "East", "S": "South", "W": "West", "N": "North"}
    rules = tournament.rule_set
    for seat in table.seats.select_related("registration__player"):
        # each starting seat's wind in games 1-4, as the rule set's rotation says (rule 116)
        winds = [names[rules.winds([HandRecord(winner=None)] * n).seats[seat.wind]] for n in range(4)]
        row = f"{names[seat.wind]} {seat.registration.player.name} {seat.registration.code} {' '.join(winds)}"
        assert row in text
    assert ink(content, tmp_path) > 0.01


def test_letter_paper_gives_letter_pages(event):
    _, _, content = SESSION_PRINTS["table-cards"](event.rounds.get(number=1), paper="letter").render()
    box = PdfReader(io.BytesIO(content)).pages[0].mediabox
    assert sorted((round(box.width), round(box.height))) == [612, 792]


def test_an_unknown_paper_is_refused_with_a_message(event):
    with pytest.raises(PrintError) as error:
        SESSION_PRINTS["seating-lists"](event.rounds.get(number=1), paper="a3").render()
    assert error.value.code == "bad_paper"


def test_names_in_any_script_print(organiser):
    names = ["陈波 Chen Bo", "José Müller-Łukasz", "Zoë Ångström", "Łódź Ćwik"]
    tournament = event_services.create_tournament(
        event_services.EventDetails(name="Ōsaka 大阪 Open", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    for name in names:
        registrations.register_player(tournament, registrations.PlayerRow(name=name), acting_user=organiser)
    round_ = tournament.rounds.get(number=1)
    reseating.generate_seating(round_, acting_user=organiser)
    for kind in ("seating-lists", "scoresheets", "seat-slips"):
        text = pdf_text(SESSION_PRINTS[kind](round_).render()[2])
        assert "Ōsaka 大阪 Open" in text, kind
        for name in names:
            assert name in text, (kind, name)


@pytest.mark.parametrize("kind", [*SESSION_PRINTS, *PDF_EVENT_PRINTS])
def test_markup_in_the_event_name_a_player_name_and_a_reason_prints_literally(played, kind):
    """reportlab reads Paragraph text as markup; <img src=...> would read a file and an
    unclosed <b> would raise. Every PDF prints them as typed."""
    tournament = played.round.tournament
    tournament.name = HOSTILE
    tournament.save()
    player = played.seats.get(wind="E").registration.player
    player.name = "<b>Ed"
    player.save()
    penalties.add_penalty(
        played, played.seats.get(wind="W").registration, 5, paid_to="none", reason="<i>loud", acting_user=None
    )
    if kind in SESSION_PRINTS:
        content = SESSION_PRINTS[kind](played.round).render()[2]
    else:
        content = EVENT_PRINTS[kind](tournament).render()[2]
    text = pdf_text(content)
    assert '<img src="/dev/zero"/>' in text
    assert "<b>unclosed" in text
    if kind in ("scoresheets", "seating-lists", "table-cards", "seat-slips"):
        assert "<b>Ed" in text
    if kind == "register":
        assert "<i>loud" in text


def test_a_session_not_seated_is_refused_with_what_is_missing(event):
    for kind, export in SESSION_PRINTS.items():
        with pytest.raises(PrintError) as error:
            export(event.rounds.get(number=2)).render()
        assert error.value.code == "not_seated", kind
        assert "Session 2 is not seated yet" in error.value.message


def test_the_qr_code_shortcut_encodes_exactly_as_reportlab_does():
    from reportlab.graphics.barcode import qrencoder

    from scoring.exports.base import QR_MASK

    for url in ["http://a.example/referee/x/1/1/", "https://hall.example/e/" + "y" * 120 + "/players/p9/"]:
        code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
        code.addData(url)
        code.version = code.calculate_version()
        code.makeImpl(False, QR_MASK)
        assert qr_modules(url) == [[bool(m) for m in row] for row in code.modules]


# --- the pages -----------------------------------------------------------------------------------


def test_the_session_print_page_links_every_print(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:prints", args=[event.slug, 1]))
    assert page.status_code == 200
    html = page.content.decode()
    for kind in SESSION_PRINTS:
        assert reverse("manage:session_print", args=[event.slug, 1, kind]) in html
    for kind in EVENT_PRINTS:
        assert reverse("manage:event_print", args=[event.slug, kind]) in html


def test_each_session_print_downloads_on_either_paper(client, event, organiser):
    client.force_login(organiser)
    for kind in SESSION_PRINTS:
        for paper in ("a4", "letter"):
            response = fetch(
                client, reverse("manage:session_print", args=[event.slug, 1, kind]) + f"?paper={paper}"
            )
            assert response.status_code == 200, (kind, paper)
            assert response["Content-Type"] == "application/pdf"
            assert response.content.startswith(b"%PDF")


def test_printing_a_session_not_seated_answers_409_naming_what_is_missing(client, event, organiser):
    client.force_login(organiser)
    response = client.get(reverse("manage:session_print", args=[event.slug, 2, "scoresheets"]))
    assert response.status_code == 409
    assert "Session 2 is not seated yet" in response.content.decode()
    page = client.get(reverse("manage:prints", args=[event.slug, 2]))
    assert page.status_code == 200 and "not seated yet" in page.content.decode()


def test_the_old_scoresheets_address_still_works(client, event, organiser):
    client.force_login(organiser)
    response = fetch(client, reverse("manage:scoresheets", args=[event.slug, 1]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


def test_prints_are_for_organisers_only(client, event, referee):
    client.force_login(referee)
    assert client.get(reverse("manage:prints", args=[event.slug, 1])).status_code == 403
    assert client.get(reverse("manage:event_print", args=[event.slug, "workbook"])).status_code == 403


def test_an_unknown_print_is_not_found(client, event, organiser):
    client.force_login(organiser)
    assert client.get(reverse("manage:session_print", args=[event.slug, 1, "posters"])).status_code == 404


def test_the_event_and_session_pages_link_to_the_prints(client, event, organiser):
    client.force_login(organiser)
    assert (
        reverse("manage:event_prints", args=[event.slug])
        in client.get(reverse("manage:event", args=[event.slug])).content.decode()
    )
    assert (
        reverse("manage:prints", args=[event.slug, 1])
        in client.get(reverse("manage:session", args=[event.slug, 1])).content.decode()
    )
