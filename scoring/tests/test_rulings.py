"""Rulings (Sloper, seeds/003_2541481d343502a5.txt, chapter 4, rules 76-93) and appeals (rule 94):
"may not declare hu", loss of rank and disqualification, appeals against any ruling, roles."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import AppealDecision, Hand, Penalty
from scoring.services import appeals, confirmation, entry, penalties, queries, rulings, standings
from scoring.services.entry import HandEntry
from tournaments import event_settings
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Role
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating


@pytest.fixture
def chief(event, organiser):
    user = get_user_model().objects.create_user("chiara", password="pw-chiara-123")
    event_services.grant_role(event, user, Role.CHIEF_REFEREE, acting_user=organiser)
    return user


def seat(table, wind):
    return table.seats.get(wind=wind).registration


# --- "may not declare hu in this hand" ----------------------------------------------------------------


def test_a_player_who_saw_the_wall_tile_may_not_win_that_hand(table, referee):
    # MCR rule 81 (line 2366): "disqualification from declaring mahjong for the duration of the current hand".
    east = seat(table, "E")
    ruling = rulings.add_ruling(table, east, "see_wall_tile", hand_number=1, acting_user=referee)
    assert (ruling.outcome, ruling.bars_win, ruling.hand_number, ruling.points) == ("no_win", True, 1, 0)
    with pytest.raises(ServiceError) as error:
        entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    assert error.value.code == "winner_barred"
    assert "may not win hand 1" in error.value.message and "MCR 81" in error.value.message
    assert not Hand.objects.exists()
    # Another player may win that hand, and East may win the next one.
    entry.record_hand(table, HandEntry(winner="S", discarder="E", fan=8), acting_user=referee)
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)


def test_a_correction_cannot_make_a_barred_player_the_winner(table, referee):
    # MCR rule 86 (line 2391): wrong number of tiles, no hu for the duration of the current hand.
    rulings.add_ruling(table, seat(table, "W"), "wrong_tile_count", hand_number=1, acting_user=referee)
    hand = entry.record_hand(table, HandEntry(winner="N", discarder="W", fan=8), acting_user=referee)
    with pytest.raises(ServiceError) as error:
        entry.correct_hand(hand, HandEntry(winner="W", discarder="N", fan=8), acting_user=referee)
    assert error.value.code == "winner_barred"
    assert Hand.objects.get(is_current=True).winner == "N"


def test_a_false_hu_costs_points_and_bars_the_hand_in_play(table, referee):
    # MCR rule 84a (line 2373): 10 to each other player and no hu for the duration of the current hand.
    entry.record_hand(table, HandEntry(winner=None), acting_user=referee)
    penalty = rulings.add_catalogue_penalty(table, seat(table, "S"), "false_hu_ready", acting_user=referee)
    assert (penalty.points, penalty.paid_to, penalty.hand_number, penalty.bars_win) == (
        10,
        "each_other",
        2,
        True,
    )
    with pytest.raises(ServiceError) as error:
        entry.record_hand(table, HandEntry(winner="S", discarder=None, fan=8), acting_user=referee)
    assert error.value.code == "winner_barred"


def test_a_ruling_against_the_entered_winner_of_that_hand_is_refused(table, referee):
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=8), acting_user=referee)
    with pytest.raises(ServiceError) as error:
        rulings.add_ruling(table, seat(table, "E"), "gave_information", hand_number=1, acting_user=referee)
    assert error.value.code == "barred_winner_entered"
    assert not Penalty.objects.exists()


def test_an_upheld_appeal_lifts_the_bar(table, referee, chief):
    ruling = rulings.add_ruling(table, seat(table, "N"), "incorrect_meld", hand_number=1, acting_user=referee)
    appeal = appeals.file_appeal(
        ruling, statement="It was a One Bam", signed_by="Di", fee_received=True, acting_user=referee
    )
    appeals.decide_appeal(appeal, "upheld", reasons="The meld was correct", acting_user=chief)
    entry.record_hand(table, HandEntry(winner="N", discarder="E", fan=8), acting_user=referee)


# --- loss of rank and disqualification ----------------------------------------------------------------


def test_a_disqualified_player_is_listed_unranked_at_the_bottom_and_the_others_close_up(
    event, table, referee
):
    # MCR rule 89 (line 2392) and 77f; 77e loss of rank is listed the same way.
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=40), acting_user=referee)
    before = standings.event_standings(event, include_provisional=True)
    leader = before[0].player
    east = seat(table, "E")
    assert leader == east.code
    rulings.add_ruling(table, east, "disqualification", reason="Disobeyed the judges", acting_user=referee)
    rulings.add_ruling(table, seat(table, "W"), "loss_of_rank", acting_user=referee)
    rows = standings.event_standings(event, include_provisional=True)
    assert [(r.player, r.rank, r.status) for r in rows[-2:]] == [
        (east.code, None, "disqualification"),
        (seat(table, "W").code, None, "loss_of_rank"),
    ] or [(r.player, r.rank, r.status) for r in rows[-2:]] == [
        (seat(table, "W").code, None, "loss_of_rank"),
        (east.code, None, "disqualification"),
    ]
    ranked = [r for r in rows if r.rank is not None]
    assert ranked[0].rank == 1 and ranked[0].player != east.code
    assert [r.player for r in ranked] == [
        r.player for r in before if r.player not in (east.code, seat(table, "W").code)
    ]


def test_the_standings_page_and_player_page_say_disqualified(client, event, table, referee, organiser):
    entry.record_hand(table, HandEntry(winner="E", discarder="S", fan=40), acting_user=referee)
    east = seat(table, "E")
    rulings.add_ruling(table, east, "disqualification", acting_user=referee)
    for other in event.rounds.get(number=1).tables.all():
        if not other.hands.exists():
            entry.record_hand(other, HandEntry(winner=None), acting_user=referee)
    page = client.get(reverse("public:standings", args=[event.slug]) + "?provisional=1")
    assert page.status_code == 200
    assert "disqualified" in page.content.decode().lower()
    from scoring.standings_cache import standings_rows

    rows = standings_rows(event, include_provisional=True)
    assert rows[-1]["player"] == east.code and rows[-1]["rank"] is None
    assert rows[-1]["status"] == "disqualification"
    for other in event.rounds.get(number=1).tables.all():  # the player page counts confirmed tables only
        entry.set_table_finished(other, True, acting_user=referee)
        confirmation.confirm_table(other, acting_user=organiser)
    player_page = client.get(reverse("public:player", args=[event.slug, east.code])).content.decode()
    assert "Disqualified" in player_page and "not ranked" in player_page


# --- escalation ---------------------------------------------------------------------------------------


def test_touching_the_wall_escalates_from_a_warning_over_the_event(table, referee):
    # MCR rule 80 (line 2362): a warning first, then 5, each subsequent occurrence doubles.
    north = seat(table, "N")
    points = [rulings.add_ruling(table, north, "touch_wall", acting_user=referee).points for _ in range(4)]
    assert points == [0, 5, 10, 20]
    assert Penalty.objects.filter(outcome="warning").count() == 1


def test_revealing_an_opponents_tiles_pays_five_per_tile_to_that_opponent(table, referee):
    # MCR rule 85e (line 2387): 5 points per revealed tile, paid to the opponent.
    penalty = rulings.add_ruling(
        table,
        seat(table, "E"),
        "reveal_opponent_tiles",
        tiles=3,
        paid_to_player=seat(table, "W"),
        acting_user=referee,
    )
    assert (penalty.points, penalty.paid_to, penalty.paid_to_player) == (15, "player", seat(table, "W"))


def test_a_ruling_posted_twice_is_recorded_once(table, referee):
    east = seat(table, "E")
    rulings.add_ruling(table, east, "late_pung", expected_position=0, acting_user=referee)
    with pytest.raises(ServiceError) as error:
        rulings.add_ruling(table, east, "late_pung", expected_position=0, acting_user=referee)
    assert error.value.code == "already_recorded"
    assert Penalty.objects.count() == 1


def test_the_same_lateness_posted_twice_makes_one_version(table, referee):
    east = seat(table, "E")
    first = penalties.record_late(table, east, 8, acting_user=referee)
    again = penalties.record_late(table, east, 8, acting_user=referee)
    assert again.pk == first.pk and first.version == 1


# --- NMJL ---------------------------------------------------------------------------------------------


def test_an_nmjl_event_offers_nmjl_penalties_in_nmjl_words(organiser):
    # NMJL chapter 3: the tournament table (line 1556) and the organiser's policy (line 1572).
    event = event_services.create_tournament(
        event_services.EventDetails(name="Card Open", rules="nmjl", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.update_settings(
        event, {"penalty_policy.misnamed_discard_mishap": -10}, acting_user=organiser
    )
    event.refresh_from_db()
    catalogue = event.rule_set.penalty_catalogue()
    text = " ".join(f"{r.citation} {r.label}" for r in catalogue)
    assert "MCR" not in text and " hu" not in text.lower()
    assert "Dead hand" in text and "line 1556" in text and "line 1572" in text
    by_key = {r.key: r for r in catalogue}
    assert by_key["misnamed_discard_mishap"].points == 10
    assert by_key["premature_throw_in"].outcome == "warning"  # 0 until the organiser sets it
    assert by_key["picking_ahead"].bars_win and by_key["picking_ahead"].citation == "NMJL rule 93"


def test_an_mcr_event_cites_mcr_rules(event):
    citations = {r.citation for r in event.rule_set.penalty_catalogue()}
    assert {"MCR 81", "MCR 84a", "MCR 89", "MCR 77e"} <= citations


# --- appeals (rule 94) --------------------------------------------------------------------------------


def test_the_deadline_runs_from_the_rulings_stored_time(table, referee):
    # MCR rule 94a (line 2400): within 30 minutes of the judgment.
    penalty = rulings.add_ruling(table, seat(table, "S"), "late_pung", acting_user=referee)
    on_time = penalty.created_at + timedelta(minutes=29, seconds=50)
    appeal = appeals.file_appeal(
        penalty,
        statement="I called in time",
        signed_by="Bo",
        fee_received=True,
        acting_user=referee,
        now=on_time,
    )
    assert appeal.filed_minutes_after == 30 and appeal.ruling_at == penalty.created_at
    other = rulings.add_ruling(table, seat(table, "W"), "late_pung", acting_user=referee)
    with pytest.raises(ServiceError) as error:
        appeals.file_appeal(
            other,
            statement="Me too",
            signed_by="Cy",
            fee_received=True,
            acting_user=referee,
            now=other.created_at + timedelta(minutes=31),
        )
    assert error.value.code == "appeal_too_late"


def test_an_appeal_needs_a_statement_a_signature_and_the_fee(event, table, referee, organiser):
    # Rule 94b-d: in writing, signed by the player and/or team leader, with the fee.
    event_services.update_settings(event, {"appeals.fee": 200}, acting_user=organiser)
    penalty = rulings.add_ruling(table, seat(table, "S"), "late_pung", acting_user=referee)
    penalty.table.round.tournament.refresh_from_db()
    for kwargs, code in [
        ({"statement": " ", "signed_by": "Bo"}, "no_statement"),
        ({"statement": "Unfair", "signed_by": ""}, "not_signed"),
        ({"statement": "Unfair", "signed_by": "Bo"}, "fee_not_paid"),
    ]:
        with pytest.raises(ServiceError) as error:
            appeals.file_appeal(penalty, acting_user=referee, **kwargs)
        assert error.value.code == code
    appeal = appeals.file_appeal(
        penalty, statement="Unfair", signed_by="Bo", fee_received=True, acting_user=referee
    )
    assert appeal.fee == 200


def test_lateness_and_a_hands_result_can_be_appealed_and_an_upheld_lateness_costs_nothing(
    table, referee, chief
):
    east = seat(table, "E")
    late = penalties.record_late(table, east, 12, acting_user=referee)  # MCR 88b: 20 points
    hand = entry.record_hand(table, HandEntry(winner="S", discarder="E", fan=8), acting_user=referee)
    loaded = queries.table_with_results(table)
    assert standings.session_result(loaded).scores["E"] == -16 - 20
    on_late = appeals.file_appeal(
        late, statement="The clock was wrong", signed_by="Ana", fee_received=True, acting_user=referee
    )
    on_hand = appeals.file_appeal(
        hand, statement="It was self-drawn", signed_by="Ana", fee_received=True, acting_user=referee
    )
    assert (on_late.subject, on_hand.subject, on_hand.hand_number) == ("lateness", "hand", 1)
    appeals.decide_appeal(on_late, "upheld", reasons="The session started late", acting_user=chief)
    appeals.decide_appeal(on_hand, "denied", reasons="Witnesses saw the discard", acting_user=chief)
    loaded = queries.table_with_results(table)
    assert standings.session_result(loaded).scores["E"] == -16


def test_the_ruling_referee_may_not_decide_the_appeal(table, chief, referee):
    penalty = rulings.add_ruling(table, seat(table, "S"), "late_pung", acting_user=chief)
    appeal = appeals.file_appeal(
        penalty, statement="Unfair", signed_by="Bo", fee_received=True, acting_user=referee
    )
    with pytest.raises(ServiceError) as error:
        appeals.decide_appeal(appeal, "denied", reasons="Seen", acting_user=chief)
    assert error.value.code == "own_ruling"
    with pytest.raises(ServiceError) as error:
        appeals.decide_appeal(appeal, "denied", reasons="Seen", acting_user=referee)
    assert error.value.code == "not_allowed"  # a referee is not the chief referee
    assert not AppealDecision.objects.exists()


def test_a_decision_is_made_once_and_a_change_is_a_new_logged_version(table, referee, chief, organiser):
    penalty = rulings.add_ruling(table, seat(table, "S"), "late_pung", acting_user=referee)
    appeal = appeals.file_appeal(
        penalty, statement="Unfair", signed_by="Bo", fee_received=True, acting_user=referee
    )
    first = appeals.decide_appeal(appeal, "denied", reasons="Seen by two", acting_user=chief)
    assert first.decided_as == "chief_referee"
    assert appeals.decide_appeal(appeal, "denied", reasons="Seen by two", acting_user=chief).pk == first.pk
    with pytest.raises(ServiceError) as error:
        appeals.decide_appeal(appeal, "upheld", reasons="Video", acting_user=organiser)
    assert error.value.code == "already_decided"
    changed = appeals.decide_appeal(appeal, "upheld", reasons="The video", acting_user=organiser, revise=True)
    assert (changed.version, changed.decided_as, changed.status) == (2, "committee", "upheld")
    assert AuditEntry.objects.filter(action="decide_appeal").count() == 2


# --- roles and pages ----------------------------------------------------------------------------------


def test_chief_referee_and_scorer_roles_open_the_table_but_only_the_chief_decides(
    client, event, table, organiser
):
    scorer = get_user_model().objects.create_user("scott", password="pw-scott-123")
    event_services.grant_role(event, scorer, Role.SCORER, acting_user=organiser)
    chief = get_user_model().objects.create_user("chiara", password="pw-chiara-123")
    event_services.grant_role(event, chief, Role.CHIEF_REFEREE, acting_user=organiser)
    table_url = reverse("referee:table", args=[event.slug, 1, 1])
    appeals_url = reverse("referee:appeals", args=[event.slug])
    client.force_login(scorer)
    assert client.get(table_url).status_code == 200
    assert client.get(appeals_url).status_code == 403
    client.force_login(chief)
    assert client.get(table_url).status_code == 200
    assert client.get(appeals_url).status_code == 200


def test_the_grant_form_offers_the_chief_referee_and_scorer_roles():
    from tournaments.forms import StaffForm

    values = {value for value, _ in StaffForm().fields["role"].choices}
    assert {"chief_referee", "scorer", "referee", "organiser"} <= values


def test_deciding_on_the_page_asks_first_and_records_the_reasons(client, table, referee, chief):
    penalty = rulings.add_ruling(table, seat(table, "S"), "late_pung", acting_user=referee)
    appeal = appeals.file_appeal(
        penalty, statement="Unfair", signed_by="Bo", fee_received=True, acting_user=referee
    )
    client.force_login(chief)
    slug = table.round.tournament.slug
    page = client.get(reverse("referee:appeals", args=[slug])).content.decode()
    assert "data-confirm=" in page and "Appeal granted: ruling withdrawn" in page
    response = client.post(
        reverse("referee:decide", args=[slug, appeal.pk]), {"status": "upheld", "reasons": "Bad light"}
    )
    assert response.status_code == 302
    assert appeal.decisions.get().reasons == "Bad light"


def test_the_organiser_register_lists_rulings_appeals_and_who_decided(
    client, table, referee, chief, organiser
):
    penalty = rulings.add_ruling(table, seat(table, "S"), "late_pung", acting_user=referee)
    late = penalties.record_late(table, seat(table, "E"), 20, acting_user=referee)
    appeal = appeals.file_appeal(
        penalty, statement="I was on time", signed_by="Bo", fee_received=True, acting_user=referee
    )
    appeals.file_appeal(late, statement="Traffic", signed_by="Ana", fee_received=True, acting_user=referee)
    appeals.decide_appeal(appeal, "denied", reasons="Two witnesses", acting_user=chief)
    client.force_login(organiser)
    page = client.get(reverse("manage:appeals_register", args=[table.round.tournament.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    for expected in [
        "MCR 83",
        "late 20 min",
        "I was on time",
        "Traffic",
        "Two witnesses",
        "chiara",
        "rick",
        "pending",
    ]:
        assert expected in text, expected
    client.force_login(referee)
    assert (
        client.get(reverse("manage:appeals_register", args=[table.round.tournament.slug])).status_code == 403
    )


def test_filing_an_appeal_on_the_page_asks_for_the_books_fee_by_default(client, table, referee):
    """Book 003 line 2409 (MCR rule 94d): "An appeal fee of U.S. $200 in cash must accompany the submission
    of the appeal"; an event that sets no fee asks for the book's, shown with the rule."""
    hand = entry.record_hand(table, HandEntry(winner="S", discarder="E", fan=8), acting_user=referee)
    client.force_login(referee)
    slug = table.round.tournament.slug
    url = reverse("referee:appeal_hand", args=[slug, 1, 1, hand.number])
    page = client.get(url).content.decode()
    assert "30 minutes" in page
    assert "with the fee of 200 (returned if the appeal is granted, forfeited if it is rejected)" in page
    assert "The fee of 200 was received with the appeal (rule 94d)" in page
    code = seat(table, "E").code
    filing = {"appellant": code, "signed_by": "Ana", "statement": "Self-drawn, not a discard"}
    assert client.post(url, filing).status_code == 200  # refused: no fee
    assert not table.appeals.exists()
    response = client.post(url, {**filing, "fee_received": "on"})
    assert response.status_code == 302
    assert (table.appeals.get().subject, table.appeals.get().fee) == ("hand", 200)


def test_the_appeal_fee_defaults_to_the_books_figure_and_the_organiser_may_change_it(event, organiser):
    """Book 003 line 2409 (MCR rule 94d): US$200 is the default of ``appeals.fee`` for MCR; the organiser
    may set another fee or none. NMJL's rules name no appeal fee: 0."""
    assert appeals.appeal_fee(event) == 200
    assert event_settings.current(event.rules, event.settings)["appeals.fee"] == 200
    assert "US$200" in str(event_settings.field(event.rules, "appeals.fee").help)
    event_services.update_settings(event, {"appeals.fee": 0}, acting_user=organiser)
    event.refresh_from_db()
    assert appeals.appeal_fee(event) == 0
    nmjl = event_services.create_tournament(
        event_services.EventDetails(name="Card Fee", rules="nmjl", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    assert appeals.appeal_fee(nmjl) == 0


def test_the_nmjl_settings_page_shows_rule_117_the_dead_hand_choice_the_policy_and_the_fee(client, organiser):
    event = event_services.create_tournament(
        event_services.EventDetails(name="Card Open", rules="nmjl", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    client.force_login(organiser)
    text = client.get(reverse("manage:settings", args=[event.slug])).content.decode()
    for expected in [
        "A dead hand in a wall game scores",
        "Rule 117",
        "Misnaming a discard",
        "Appeal fee",
    ]:
        assert expected in text, expected


def test_the_register_pdf_lists_appeals_of_any_ruling_and_who_decided(table, referee, chief):
    from scoring.exports import EVENT_PRINTS
    from scoring.tests.test_prints import pdf_text

    hand = entry.record_hand(table, HandEntry(winner="S", discarder="E", fan=8), acting_user=referee)
    late = penalties.record_late(table, seat(table, "W"), 5, acting_user=referee)
    on_hand = appeals.file_appeal(
        hand, statement="<b>Self-drawn", signed_by="Ana", fee_received=True, acting_user=referee
    )
    appeals.file_appeal(late, statement="Traffic jam", signed_by="Cy", fee_received=True, acting_user=referee)
    appeals.decide_appeal(on_hand, "denied", reasons="Seen by the referee", acting_user=chief)
    text = pdf_text(EVENT_PRINTS["register"](table.round.tournament).render()[2])
    for expected in [
        "hand 1",
        "late 5 min",
        "<b>Self-drawn",
        "Traffic jam",
        "ruling stands; decided by chiara",
        "pending",
    ]:
        assert expected in text, expected


def test_rulings_and_appeals_of_any_ruling_survive_the_event_json(event, table, referee, chief):
    """docs/rulings.md: a penalty's optional outcome, kind and hand; appeals naming a lateness or a hand."""
    import copy

    from scoring.interchange import export_event, import_event, validate_event

    entry.record_hand(table, HandEntry(winner="S", discarder="E", fan=8), acting_user=referee)
    rulings.add_ruling(table, seat(table, "E"), "see_wall_tile", hand_number=2, acting_user=referee)
    rulings.add_ruling(table, seat(table, "W"), "disqualification", acting_user=referee)
    late = penalties.record_late(table, seat(table, "N"), 12, acting_user=referee)
    appeals.decide_appeal(
        appeals.file_appeal(late, statement="Clock", signed_by="Di", fee_received=True, acting_user=referee),
        "upheld",
        reasons="Late start",
        acting_user=chief,
    )
    appeals.file_appeal(
        table.hands.get(number=1),
        statement="Self-drawn",
        signed_by="Bo",
        fee_received=True,
        acting_user=referee,
    )
    first = export_event(event)
    listed = first["rounds"][0]["tables"][0]["penalties"]
    assert (
        listed[0]["outcome"] == "no_win" and listed[0]["hand"] == 2 and listed[0]["kind"] == "see_wall_tile"
    )
    assert listed[1]["outcome"] == "disqualification"
    assert {"late", "hand"} <= {key for appeal in first["appeals"] for key in appeal}
    on_late = next(appeal for appeal in first["appeals"] if "late" in appeal)
    assert (on_late["statement"], on_late["signed_by"], on_late["reasons"]) == ("Clock", "Di", "Late start")
    bad = copy.deepcopy(first)
    bad["appeals"][0]["hand"] = 99
    bad["appeals"][1]["statement"] = ["not", "text"]
    bad["rounds"][0]["tables"][0]["penalties"][0]["outcome"] = "banished"
    problems = validate_event(bad)
    assert any("appeals[0]" in p and "names one ruling" in p for p in problems)
    assert any("penalties[0].outcome" in p for p in problems)
    assert any("appeals[1].statement" in p for p in problems)
    again = export_event(import_event(copy.deepcopy(first), replace=True))
    assert again["appeals"] == first["appeals"]
    assert again["rounds"][0]["tables"][0]["penalties"] == listed


def test_the_nmjl_referee_page_offers_dead_hands_and_the_policy_never_mcr_rules(client, organiser, referee):
    # NMJL chapter 3: the tournament table (line 1556) and the organiser's policy (line 1572).
    event = event_services.create_tournament(
        event_services.EventDetails(name="Card Open", rules="nmjl", num_sessions=1, hands_per_session=4),
        acting_user=organiser,
    )
    event_services.grant_role(event, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        event, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for name in ["Ana", "Bo", "Cy", "Di"]:
        registrations.register_player(event, registrations.PlayerRow(name=name), acting_user=organiser)
    reseating.generate_seating(event.rounds.get(number=1), acting_user=organiser)
    client.force_login(referee)
    page = client.get(reverse("referee:table", args=[event.slug, 1, 1])).content.decode()
    form = page[page.index("penalties/add/") : page.index("Record penalty")]
    assert "Dead hand" in form and "NMJL rule 93" in form and "line 1572" in form
    assert "MCR" not in form and " hu" not in form
    table = event.rounds.get(number=1).tables.get()
    east = seat(table, "E")
    rulings.add_ruling(table, east, "picking_ahead", hand_number=1, acting_user=referee)
    with pytest.raises(ServiceError) as error:
        entry.record_hand(
            table,
            HandEntry(
                winner="E", discarder="S", data={"won_by": "discard", "value": 25, "winner_exposures": 0}
            ),
            acting_user=referee,
        )
    assert error.value.code == "winner_barred" and "may not win game 1" in error.value.message


def test_the_table_page_warns_who_may_not_win_the_hand_about_to_be_entered(client, table, referee):
    rulings.add_ruling(table, seat(table, "N"), "empty_hu", hand_number=1, acting_user=referee)
    client.force_login(referee)
    page = client.get(reverse("referee:table", args=[table.round.tournament.slug, 1, 1])).content.decode()
    assert f'data-barred="{seat(table, "N").code}"' in page and "may not win hand 1" in page
    entry.record_hand(table, HandEntry(winner=None), acting_user=referee)
    page = client.get(reverse("referee:table", args=[table.round.tournament.slug, 1, 1])).content.decode()
    assert "data-barred=" not in page  # hand 2 is not barred


def test_a_disqualified_player_counts_for_no_team():
    # MCR rule 89 (line 2392): disqualified from the competition, the team standings included.
    from scoring.exports.data import team_standings

    rows = [
        {"player": "p1", "name": "Ana", "rank": 1, "score": 50},
        {"player": "p2", "name": "Bo", "rank": None, "status": "disqualification", "score": 90},
        {"player": "p3", "name": "Cy", "rank": 2, "score": 10},
    ]
    teams = team_standings(rows, {"p1": "Lisbon", "p2": "Lisbon", "p3": "Porto"}, table_points=False)
    assert [(t.team, t.score, t.members) for t in teams] == [("Lisbon", 50, ["Ana"]), ("Porto", 10, ["Cy"])]


def test_the_ema_check_leaves_out_a_lateness_cancelled_on_appeal(event, table, referee, organiser, chief):
    # Rule 94: an upheld appeal cancels the lateness (rule 88); the EMA file's sum check must agree.
    from scoring.exports.ema import ema_check

    late = penalties.record_late(table, seat(table, "E"), 8, acting_user=referee)
    appeal = appeals.file_appeal(
        late, statement="The clock was fast", signed_by="Ana", fee_received=True, acting_user=referee
    )
    appeals.decide_appeal(appeal, "upheld", reasons="The clock was fast", acting_user=chief)
    for other in event.rounds.get(number=1).tables.all():
        entry.record_hand(other, HandEntry(winner="S", discarder="E", fan=8), acting_user=referee)
        entry.set_table_finished(other, True, acting_user=referee)
        confirmation.confirm_table(other, acting_user=organiser)
    problems = ema_check(event).problems
    assert not any("sum to" in problem for problem in problems), problems


def test_the_workbook_lists_appeals_against_lateness_and_a_hand(table, referee):
    import io

    from openpyxl import load_workbook

    from scoring.exports import EVENT_PRINTS

    late = penalties.record_late(table, seat(table, "E"), 8, acting_user=referee)
    hand = entry.record_hand(table, HandEntry(winner="S", discarder="E", fan=8), acting_user=referee)
    appeals.file_appeal(late, statement="Clock fast", signed_by="Ana", fee_received=True, acting_user=referee)
    appeals.file_appeal(hand, statement="Self-drawn", signed_by="Ana", fee_received=True, acting_user=referee)
    kind = next(key for key, export in EVENT_PRINTS.items() if export.__name__ == "EventWorkbook")
    content = EVENT_PRINTS[kind](table.round.tournament).render()[2]
    sheet = load_workbook(io.BytesIO(content))["Appeals"]
    cells = {str(cell.value) for row in sheet.iter_rows() for cell in row}
    assert {"late 8 min", "hand 1", "Clock fast", "Self-drawn"} <= cells
