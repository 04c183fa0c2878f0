"""Statements compiled once and prepared on PostgreSQL (``tournaments.prepared``): the rows are the ORM's, a
value the statement cannot take as a parameter is refused when compiled, and a connection that lost its
prepared statements prepares them again. Run on SQLite and, in CI, on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection

from scoring.views_notices import SEATS, _seats_query
from scoring.views_player import TABLE_STAMP, _stamp_query
from tournaments.models import Registration
from tournaments.prepared import Statement
from tournaments.release import publish_everything


def codes(tournament: int, since: int):
    return (
        Registration.objects.filter(tournament_id=tournament, pk__gte=since)
        .order_by("pk")
        .values_list("code")
    )


CODES = Statement("test_codes", codes, ("tournament", "since"))


def raw(queryset) -> list[tuple]:
    """The queryset's rows as the database gives them (a statement's rows are not converted either)."""
    with connection.cursor() as cursor:
        cursor.execute(*queryset.query.sql_with_params())
        return list(cursor.fetchall())


@pytest.mark.django_db
def test_the_rows_are_the_orm_s_for_any_values(event, organiser):
    publish_everything(event, acting_user=organiser)
    registrations = list(event.registrations.order_by("pk"))
    for since in (registrations[0].pk, registrations[3].pk, registrations[-1].pk + 1):
        assert CODES.rows(tournament=event.pk, since=since) == raw(codes(event.pk, since))
    for registration in registrations[:5]:
        for number in (1, 2, 99):
            expected = raw(_stamp_query(registration.pk, event.pk, number))
            assert (
                TABLE_STAMP.rows(registration=registration.pk, tournament=event.pk, number=number) == expected
            )
        assert SEATS.rows(registration=registration.pk, tournament=event.pk) == raw(
            _seats_query(registration.pk, event.pk)
        )
    assert TABLE_STAMP.rows(registration=registrations[0].pk, tournament=event.pk, number=1)  # seated: rows
    assert not TABLE_STAMP.rows(registration=registrations[0].pk, tournament=event.pk + 1, number=1)


def test_a_value_worked_out_from_a_parameter_is_refused():
    worked_out = Statement(
        "test_worked_out",
        lambda since: Registration.objects.filter(pk__gte=since + 1).values_list("pk"),
        ("since",),
    )
    with pytest.raises(RuntimeError, match="as they are"):
        worked_out.compiled(connection.alias)


def test_a_constant_of_the_queryset_is_kept_whatever_the_parameters():
    constant = Statement(
        "test_constant",
        lambda since: Registration.objects.filter(pk__gte=since, code="A1").values_list("pk"),
        ("since",),
    )
    _, order = constant.compiled(connection.alias)
    assert sorted(order) == [("constant", "A1"), ("parameter", "since")]


@pytest.mark.django_db(transaction=True)
def test_a_connection_that_lost_its_prepared_statements_prepares_them_again(event):
    first = event.registrations.order_by("pk").first()
    expected = raw(codes(event.pk, first.pk))
    assert CODES.rows(tournament=event.pk, since=first.pk) == expected
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE name = 'test_codes'")
            assert cursor.fetchone() == (1,)  # prepared, not planned each time
            cursor.execute("DEALLOCATE ALL")  # as a pooler's DISCARD ALL
    assert CODES.rows(tournament=event.pk, since=first.pk) == expected
    connection.close()  # a new connection
    assert CODES.rows(tournament=event.pk, since=first.pk) == expected


@pytest.mark.django_db
def test_instances_are_the_orm_s_with_their_dates_and_settings_converted(event, organiser):
    """The public pages' event and the notices' clock are read as instances: every field, dates and JSON
    included, equals what the ORM loads (SQLite gives text for both, PostgreSQL its own types)."""
    from scoring.views_notices import CLOCK
    from tournaments import clock as session_clock
    from tournaments.access import EVENT
    from tournaments.models import SessionClock, Tournament
    from tournaments.prepared import fields_of
    from tournaments.services import events as event_services

    event_services.update_settings(event, {"confirmation.by": "players"}, acting_user=organiser)
    publish_everything(event, acting_user=organiser)
    (found,) = EVENT.objects(Tournament, slug=event.slug)
    loaded = Tournament.objects.get(slug=event.slug)
    for name in fields_of(Tournament):
        assert getattr(found, name) == getattr(loaded, name), name
    assert isinstance(found.settings, dict) and found.published_at is not None  # converted, not text
    assert EVENT.objects(Tournament, slug="no-such-event") == []

    assert CLOCK.values(tournament=event.pk) == []
    session_clock.start_clock(event.rounds.get(number=1), 60, acting_user=organiser)
    (row,) = CLOCK.values(tournament=event.pk)
    clock = SessionClock.objects.get(round__tournament=event)
    assert row == [getattr(clock, name) for name in fields_of(SessionClock)] + [1]


@pytest.mark.django_db
def test_a_text_parameter_takes_any_string(event):
    by_code = Statement(
        "test_by_code",
        lambda code: Registration.objects.filter(code=code).values_list("pk"),
        ("code",),
        text=("code",),
    )
    assert by_code.compiled(connection.alias)[1] == (("parameter", "code"),)
    registration = event.registrations.order_by("pk").first()
    assert by_code.rows(code=registration.code) == [(registration.pk,)]
    assert by_code.rows(code="stand-in-30001") == by_code.rows(code="it's; not SQL") == []
