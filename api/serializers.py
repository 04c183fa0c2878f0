"""The shapes of the API's answers, for its OpenAPI schema (``/api/v1/schema/``). The views answer plain data
(``api.data``); the tests validate every answer against these components."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

WIND_CHOICES = ["E", "S", "W", "N"]


class EventSummary(serializers.Serializer[Any]):
    slug = serializers.SlugField(help_text="The event's address: /api/v1/events/<slug>/")
    name = serializers.CharField()
    rules = serializers.CharField(help_text="The rule set's code: mcr, nmjl or classical")
    start_date = serializers.DateField(allow_null=True)
    end_date = serializers.DateField(allow_null=True)


class Session(serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1)
    seating_published = serializers.BooleanField(help_text="true: .../sessions/<number>/seating/ answers")
    results_published = serializers.BooleanField(help_text="true: .../sessions/<number>/results/ answers")
    stage = serializers.ChoiceField(
        choices=["qualifying", "final"],
        required=False,
        help_text="Only in an event with finals: the qualifying sessions, then the final ones",
    )


class EventDetail(EventSummary):
    sessions_planned = serializers.IntegerField(min_value=0)
    hands_per_session = serializers.IntegerField(min_value=0)
    uses_table_points = serializers.BooleanField(help_text="MCR: table points 4-2-1-0 (rule 71)")
    standings_frozen_after = serializers.IntegerField(
        allow_null=True, help_text="The public standings stop after this session until the prize-giving"
    )
    sessions = Session(many=True)


class Player(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="The player's id in this event (the standings' `player`)")
    name = serializers.CharField()
    country = serializers.CharField(allow_blank=True, help_text="ISO 3166 two-letter code, or empty")
    team = serializers.CharField(allow_blank=True)
    substitute = serializers.BooleanField(help_text="A reserve, seated only to complete a table")


class Substitution(serializers.Serializer[Any]):
    from_hand = serializers.IntegerField(min_value=1)
    player = serializers.CharField(help_text="The substitute's code")
    name = serializers.CharField()


class Seat(serializers.Serializer[Any]):
    wind = serializers.ChoiceField(choices=WIND_CHOICES, help_text="The seat's wind in the first hand")
    player = serializers.CharField(help_text="The code of the player seated there")
    name = serializers.CharField()
    substitutions = Substitution(many=True, help_text="Substitutes who played this seat, from a hand on")


class SeatingTable(serializers.Serializer[Any]):
    table = serializers.IntegerField(min_value=1)
    seats = Seat(many=True)


class Seating(serializers.Serializer[Any]):
    session = serializers.IntegerField(min_value=1)
    tables = SeatingTable(many=True)


class ResultSeat(Seat):
    score = serializers.IntegerField()
    table_points = serializers.FloatField(required=False, help_text="Absent when the rules have none (NMJL)")


class Fan(serializers.Serializer[Any]):
    name = serializers.CharField()
    points = serializers.IntegerField()


class WindPoints(serializers.Serializer[Any]):
    E = serializers.IntegerField()
    S = serializers.IntegerField()
    W = serializers.IntegerField()
    N = serializers.IntegerField()


class ResultHand(serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1)
    description = serializers.CharField(help_text="The rule set's words for the hand, as the results page")
    points = WindPoints(help_text="Each starting seat's points for this hand (the seats say who sat where)")
    totals = WindPoints(help_text="Each starting seat's running total after this hand")
    fans = Fan(many=True, help_text="The fans, when the hand was entered with its tiles (MCR); else empty")


class ResultTable(serializers.Serializer[Any]):
    table = serializers.IntegerField(min_value=1)
    seats = ResultSeat(many=True)
    hands = ResultHand(many=True, help_text="In the order played")


class Results(serializers.Serializer[Any]):
    session = serializers.IntegerField(min_value=1)
    tables = ResultTable(many=True, help_text="Confirmed tables only")


class StandingSession(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=1)
    table_points = serializers.FloatField(required=False)
    score = serializers.IntegerField()


class Standing(serializers.Serializer[Any]):
    rank = serializers.IntegerField(allow_null=True, help_text="null for a player out of the ranking")
    player = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField(required=False, help_text="Why the player is not ranked (MCR 77e-f, 89)")
    table_points = serializers.FloatField(required=False, help_text="Absent when the rules have none (NMJL)")
    score = serializers.IntegerField()
    sessions = StandingSession(many=True)


class Index(serializers.Serializer[Any]):
    version = serializers.CharField()
    events = serializers.CharField(help_text="Where the list of events is")
    schema = serializers.CharField()
    docs = serializers.CharField()


class Problem(serializers.Serializer[Any]):
    detail = serializers.CharField()


class TooMany(serializers.Serializer[Any]):
    detail = serializers.CharField()
    retry_after = serializers.IntegerField(
        min_value=1, help_text="Seconds to wait (also the Retry-After header)"
    )
