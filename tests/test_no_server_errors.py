"""No input makes a page answer 500: random form posts to every writing page (hypothesis)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

junk = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(["E", "S", "W", "N", "", "0", "-1", "8", "99999999999999999999", "{}", "[]", "null"]),
)
FIELDS = [
    "form",
    "how",
    "winner",
    "discarder",
    "fan",
    "tiles",
    "expected_number",
    "E",
    "S",
    "W",
    "N",
    "player",
    "points",
    "paid_to",
    "rule",
    "reason",
    "minutes",
    "won_by",
    "card_hand",
    "value",
    "jokerless",
    "winner_exposures",
    "dead",
    "east",
    "score_E",
    "score_S",
    "score_W",
    "score_N",
    "seed",
    "checked_in",
    "allowed",
    "status",
    "minutes_after",
    "signed_by",
    "reasons",
    "revise",
    "hand_number",
    "expected_position",
    "statement",
    "name",
    "slug",
    "rules",
    "num_sessions",
    "hands_per_session",
    "session_minutes",
    "country",
    "ema_id",
    "team",
    "username",
    "role",
    "preset",
    "absent",
    "substitute",
    "new_name",
    "a",
    "b",
    "first",
    "action",
    "plan",
    "q",
    "register_anyway",
    "withdrawn",
    "published",
    "after",
    "pin",
]
posts = st.dictionaries(st.sampled_from(FIELDS), junk, max_size=10)
FORMS = st.sampled_from(
    ["hands/add/", "totals/", "penalties/add/", "late/", "hands/void/", "finish/", "reopen/", "sign/", ""]
)
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.slow
@FUZZ
@given(data=posts, form=FORMS)
def test_the_referee_table_page_never_answers_500(client, table, referee, data, form):
    client.force_login(referee)
    url = reverse("referee:table", args=[table.round.tournament.slug, 1, 1])
    response = client.post(url + form, data)
    assert response.status_code in {200, 302, 422}


ORGANISER_URLS = [
    ("manage:create_event", ()),
    ("manage:event", ("slug",)),
    ("manage:players", ("slug",)),
    ("manage:add_player", ("slug",)),
    ("manage:import_players", ("slug",)),
    ("manage:grant_role", ("slug",)),
    ("manage:create_staff_account", ("slug",)),
    ("manage:check_in", ("slug", "code")),
    ("manage:session", ("slug", 2)),
    ("manage:seat_session", ("slug", 2)),
    ("manage:swap", ("slug", 1)),
    ("manage:fixed_table", ("slug", "code")),
    ("manage:totals_only", ("slug", 1, 1)),
    ("manage:settings", ("slug",)),
    ("manage:save_settings", ("slug", "seating")),
    ("manage:save_settings", ("slug", "no-such-group")),
    ("manage:reseat", ("slug",)),
    ("manage:upload_seating", ("slug",)),
    ("manage:substitute", ("slug", 1)),
    ("manage:fix_seats", ("slug", 1)),
    ("manage:desk_check_in", ("slug",)),
    ("manage:edit_player", ("slug", "code")),
    ("manage:withdraw", ("slug", "code")),
    ("manage:revoke_role", ("slug", 999999)),
    ("manage:publish_event", ("slug",)),
    ("manage:publish_session", ("slug", 1, "seating")),
    ("manage:publish_session", ("slug", 2, "results")),
    ("manage:publish_session", ("slug", 1, "nonsense")),
    ("manage:freeze_standings", ("slug",)),
    ("manage:clock", ("slug", 1, "start")),
    ("manage:clock", ("slug", 1, "extend")),
    ("manage:clock", ("slug", 1, "table")),
    ("manage:clock", ("slug", 1, "pause")),
    ("manage:clock", ("slug", 2, "resume")),
    ("manage:clock", ("slug", 1, "nonsense")),
    ("manage:reissue_pin", ("slug", "code")),
    ("manage:reissue_session_pins", ("slug", 1)),
    ("manage:reissue_session_pins", ("slug", 2)),
]


@pytest.mark.slow
@FUZZ
@given(data=posts, target=st.sampled_from(ORGANISER_URLS))
def test_the_organiser_forms_never_answer_500(client, event, organiser, data, target):
    client.force_login(organiser)
    values = {"slug": event.slug, "code": event.registrations.first().code}
    name, args = target
    url = reverse(name, args=[values.get(a, a) if isinstance(a, str) else a for a in args])
    response = client.post(url, data)
    assert response.status_code in {200, 302, 404, 422}, url


@pytest.mark.slow
@FUZZ
@given(data=posts)
def test_correction_and_appeal_pages_never_answer_500(client, table, referee, data):
    from scoring.services.appeals import file_appeal
    from scoring.services.entry import HandEntry, record_hand
    from scoring.services.penalties import add_penalty

    client.force_login(referee)
    slug = table.round.tournament.slug
    if not table.hands.exists():
        record_hand(table, HandEntry(winner="E", fan=8), acting_user=referee)
        penalty = add_penalty(table, table.seats.first().registration, 5, paid_to="none", acting_user=referee)
        file_appeal(penalty, statement="Unfair", signed_by="Ana", fee_received=True, acting_user=referee)
    penalty = table.penalties.first()
    appeal = penalty.appeals.first()
    for url in [
        reverse("referee:correct_hand", args=[slug, 1, 1, 1]),
        reverse("referee:appeal", args=[slug, 1, 1, penalty.pk]),
        reverse("referee:decide_appeal", args=[slug, 1, 1, appeal.pk]),
        reverse("referee:decide", args=[slug, appeal.pk]),
        reverse("referee:appeal_hand", args=[slug, 1, 1, 1]),
    ]:
        response = client.post(url, data)
        assert response.status_code in {200, 302, 403, 422}, url


DESK_URLS = [
    target
    for target in ORGANISER_URLS
    if target[0].split(":")[1]
    in {
        "add_player",
        "desk_check_in",
        "edit_player",
        "withdraw",
        "revoke_role",
        "publish_event",
        "publish_session",
        "freeze_standings",
        "check_in",
    }
]


@pytest.mark.slow
@FUZZ
@given(data=posts, target=st.sampled_from(DESK_URLS))
def test_the_desk_and_release_forms_never_answer_500(client, event, organiser, data, target):
    """The registration desk and the release controls answer bad input with a message."""
    client.force_login(organiser)
    values = {"slug": event.slug, "code": event.registrations.first().code}
    name, args = target
    url = reverse(name, args=[values.get(a, a) if isinstance(a, str) else a for a in args])
    response = client.post(url, data)
    assert response.status_code in {200, 302, 404, 422}, url
