"""Short run: generated posts to the hand, penalty and player-import forms (bench/fuzz_forms.py runs
10,000 of each). Every post is answered without a 500, and nothing is left half-written."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests import form_fuzz

pytestmark = pytest.mark.django_db

SHORT = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.slow
@SHORT
@given(data=form_fuzz.hand_posts)
def test_hand_posts_leave_the_table_whole(client, table, referee, data):
    client.force_login(referee)
    assert form_fuzz.post_hand(client, table, data) in form_fuzz.ANSWERS
    form_fuzz.check_table_is_whole(table)


@pytest.mark.slow
@SHORT
@given(data=form_fuzz.penalty_posts)
def test_penalty_posts_leave_the_table_whole(client, table, referee, data):
    client.force_login(referee)
    assert form_fuzz.post_penalty(client, table, data) in form_fuzz.ANSWERS
    form_fuzz.check_table_is_whole(table)


@pytest.mark.slow
@SHORT
@given(upload=form_fuzz.player_files())
def test_player_imports_add_every_row_or_none(client, event, organiser, upload):
    client.force_login(organiser)
    form_fuzz.check_import_all_or_nothing(*form_fuzz.post_player_file(client, event, *upload))


def test_the_generators_reach_accepted_posts_too(client, table, referee, event, organiser):
    """A fuzz run that is always refused tests only the refusals: plausible posts do get saved."""
    client.force_login(referee)
    assert (
        form_fuzz.post_hand(client, table, {"how": "discard", "winner": "E", "discarder": "S", "fan": "8"})
        == 302
    )
    assert (
        form_fuzz.post_penalty(
            client, table, {"player": "0", "kind": "other", "points": "10", "paid_to": "none"}
        )
        == 302
    )
    client.force_login(organiser)
    status, added, _ = form_fuzz.post_player_file(client, event, "p.csv", b"name,country\nZoe Lima,PT\n")
    assert (status, added) == (302, 1)
