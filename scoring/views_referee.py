"""Referee pages: pick a table, enter its hands (or totals), penalties, lateness and appeals."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from scoring import services
from scoring.forms import (
    AppealForm,
    ClassicalHandForm,
    HandForm,
    LateForm,
    NMJLGameForm,
    PenaltyForm,
    TotalsForm,
)
from scoring.models import Appeal, Hand, Penalty
from scoring.rules.mcr.session import winds_for_hand
from scoring.rulesets import CLASSICAL, next_classical_east
from tournaments.access import event_for, table_of
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Role, Table
from tournaments.seating.rotation import nmjl_winds_for_hand

WIND_NAMES = dict(zip(WINDS, ("East", "South", "West", "North"), strict=True))


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.REFEREE)
    tables = services.tables_with_results(tournament)
    rounds = []
    for round_ in tournament.rounds.all():
        mine = [t for t in tables if t.round_id == round_.pk]
        rounds.append(
            {"round": round_, "tables": [{"table": t, "state": services.table_state(t)} for t in mine]}
        )
    return render(request, "scoring/referee/index.html", {"tournament": tournament, "rounds": rounds})


def _seat_choices(table: Table) -> list[tuple[str, str]]:
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    return [
        (w, f"{by_wind[w].registration.player.name} ({WIND_NAMES[w]} seat)") for w in WINDS if w in by_wind
    ]


def _player_choices(table: Table) -> list[tuple[str, str]]:
    return [(str(seat.registration.code), seat.registration.player.name) for seat in table.seats.all()]


def _table_context(table: Table, **forms: Any) -> dict[str, Any]:
    tournament = table.round.tournament
    rows = services.running_scores(table)
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    next_index = len(rows)
    prevalent, winds = winds_for_hand(next_index)
    if tournament.rules == "nmjl":
        # NMJL: the deal passes to the right every game; the pivot rule (116) moves the starting East.
        winds = nmjl_winds_for_hand(next_index)
    for index, row in enumerate(rows):
        row["position"] = index + 1
    state = services.table_state(table)
    result = services.session_result(table)
    seats = [
        {
            "start": w,
            "name": by_wind[w].registration.player.name,
            "wind_now": winds[w],
            "total": result.scores[w],
            "table_points": float(result.table_points[w])
            if result.table_points is not None and state != "not started"
            else None,
        }
        for w in WINDS
        if w in by_wind
    ]
    limit = tournament.hands_per_session
    return {
        "tournament": tournament,
        "table": table,
        "seats": seats,
        "rows": rows,
        "state": state,
        "next_number": next_index + 1,
        "prevalent": WIND_NAMES[prevalent],
        "can_add": state != "complete" and not any(t.is_current for t in table.totals_versions.all()),
        "limit": limit,
        "totals": next((t for t in table.totals_versions.all() if t.is_current), None),
        "penalties": list(table.penalties.all()),
        "late": list(table.late_arrivals.all()),
        "wind_names": WIND_NAMES,
        "is_mcr": tournament.rules == "mcr",
        "shows_winds": tournament.rules in ("mcr", "nmjl"),
        "late_note": late_note(tournament),
        "hand_word": "game" if tournament.rules == "nmjl" else "hand",
        **forms,
    }


def hand_form_for(table: Table, data: Any = None, **kwargs: Any) -> forms.Form:
    """The hand form of the event's rule set."""
    tournament = table.round.tournament
    seats = _seat_choices(table)
    if tournament.rules == "nmjl":
        card = services.event_rules(tournament).card
        card_hands = (
            [(h.id, f"{h.family}: {h.pattern} ({h.xc}, {h.value})") for h in card.hands] if card else []
        )
        return NMJLGameForm(data, seats=seats, card_hands=card_hands, **kwargs)
    if tournament.rules in CLASSICAL:
        return ClassicalHandForm(data, seats=seats, **kwargs)
    return HandForm(data, seats=seats, **kwargs)


def late_note(tournament) -> str:
    """What lateness costs under the event's rules, shown beside the form."""
    if tournament.rules == "mcr":
        return "MCR rule 88: up to 10 min 10 points, up to 15 min 20 points, more: forfeit (0 table points)."
    if tournament.rules == "nmjl":
        late = services.event_rules(tournament).scheme.late
        return f"Not in seat at the start: {late} tournament points (the event's scoring scheme)."
    return "Recorded for the record; these rules set no points for lateness."


def _forms(table: Table, data: Any = None, which: str = "") -> dict[str, Any]:
    seats = _seat_choices(table)
    players = _player_choices(table)
    return {
        "hand_form": hand_form_for(table, data if which == "hand" else None),
        "totals_form": TotalsForm(data if which == "totals" else None, seats=seats),
        "penalty_form": PenaltyForm(
            data if which == "penalty" else None,
            players=players,
            catalogue=table.round.tournament.rules == "mcr",
        ),
        "late_form": LateForm(data if which == "late" else None, players=players),
    }


def _load_table(request: HttpRequest, slug: str, number: int, table_number: int) -> Table:
    tournament = event_for(request, slug, Role.REFEREE)
    table = table_of(tournament, number, table_number)
    return services.table_with_results(table)


@login_required
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    table_obj = _load_table(request, slug, number, table)
    which = request.POST.get("form", "") if request.method == "POST" else ""
    forms = _forms(table_obj, request.POST, which)
    if request.method == "POST":
        try:
            done = _handle_post(request, table_obj, which, forms)
        except ServiceError as error:
            target = forms.get(f"{which}_form")
            if target is not None:
                target.add_error(None, error.message)
            else:
                messages.error(request, error.message)
            done = False
        if done:
            return redirect("referee_table", slug=slug, number=number, table=table)
        table_obj = _load_table(request, slug, number, table)
    context = _table_context(table_obj, **forms)
    context["hand_form"].initial["expected_number"] = context["next_number"]
    if table_obj.round.tournament.rules in CLASSICAL:
        previous = [services.hand_record(h) for h in services.played_hands(table_obj)]
        context["hand_form"].initial.setdefault("east", next_classical_east(previous))
    status = 200 if request.method == "GET" or not which else 422
    return render(request, "scoring/referee/table.html", context, status=status)


def _handle_post(request: HttpRequest, table: Table, which: str, forms: dict[str, Any]) -> bool:
    user = request.user
    registrations = {seat.registration.code: seat.registration for seat in table.seats.all()}
    if which == "hand":
        form = forms["hand_form"]
        if not form.is_valid():
            return False
        hand = services.record_hand(
            table,
            services.HandEntry(**form.entry()),
            acting_user=user,
            expected_number=form.cleaned_data.get("expected_number"),
        )
        word = "Game" if table.round.tournament.rules == "nmjl" else "Hand"
        messages.success(request, f"{word} saved ({services.describe_hand(hand)}).")
        return True
    if which == "totals":
        form = forms["totals_form"]
        if not form.is_valid():
            return False
        services.record_totals(table, {w: form.cleaned_data[w] for w in WINDS}, acting_user=user)
        messages.success(request, "Session totals saved.")
        return True
    if which == "penalty":
        form = forms["penalty_form"]
        if not form.is_valid():
            return False
        data = form.cleaned_data
        if data.get("kind"):
            services.add_catalogue_penalty(
                table, registrations[data["player"]], data["kind"], reason=data["reason"], acting_user=user
            )
        else:
            services.add_penalty(
                table,
                registrations[data["player"]],
                data["points"],
                paid_to=data["paid_to"],
                rule=data["rule"],
                reason=data["reason"],
                acting_user=user,
            )
        messages.success(request, "Penalty recorded.")
        return True
    if which == "late":
        form = forms["late_form"]
        if not form.is_valid():
            return False
        services.record_late(
            table, registrations[form.cleaned_data["player"]], form.cleaned_data["minutes"], acting_user=user
        )
        messages.success(request, "Lateness recorded.")
        return True
    if which == "void":
        services.void_last_hand(table, acting_user=user)
        messages.success(request, "Last hand deleted (kept in the history).")
        return True
    if which in ("finish", "reopen"):
        services.set_table_finished(table, which == "finish", acting_user=user)
        messages.success(request, "Table marked complete." if which == "finish" else "Table reopened.")
        return True
    messages.error(request, "Unknown action.")
    return True


def initial_for(hand: Hand) -> dict[str, Any]:
    """A stored hand as the initial values of its rule set's form (for corrections)."""
    data = hand.data or {}
    if "scores" in data:
        initial = {"winner": hand.winner, "east": data.get("east")}
        initial.update({f"score_{w}": v for w, v in data["scores"].items()})
        return initial
    if "won_by" in data:
        return {
            "won_by": data["won_by"],
            "winner": hand.winner,
            "discarder": hand.discarder,
            "card_hand": data.get("hand", ""),
            "value": None if data.get("hand") else data.get("value"),
            "jokerless": data.get("jokerless", False),
            "winner_exposures": data.get("winner_exposures", 0),
            "dead": data.get("dead", []),
        }
    return {
        "how": "draw" if not hand.winner else ("self" if not hand.discarder else "discard"),
        "winner": hand.winner,
        "discarder": hand.discarder,
        "fan": hand.fan,
        "tiles": json.dumps(hand.tiles) if hand.tiles else "",
    }


@login_required
def correct_hand(request: HttpRequest, slug: str, number: int, table: int, hand: int) -> HttpResponse:
    table_obj = _load_table(request, slug, number, table)
    current = get_object_or_404(Hand, table=table_obj, number=hand, is_current=True, voided=False)
    form = hand_form_for(table_obj, request.POST or None, initial=initial_for(current))
    if request.method == "POST" and form.is_valid():
        try:
            services.correct_hand(current, services.HandEntry(**form.entry()), acting_user=request.user)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Hand corrected; the earlier version is kept in the history.")
            return redirect("referee_table", slug=slug, number=number, table=table)
    history = list(
        Hand.objects.filter(table=table_obj, number=hand).select_related("entered_by").order_by("version")
    )
    for version in history:
        version.text = "" if version.voided else services.describe_hand(version)
    return render(
        request,
        "scoring/referee/correct_hand.html",
        {
            "tournament": table_obj.round.tournament,
            "table": table_obj,
            "hand": current,
            "form": form,
            "history": history,
        },
    )


@login_required
def appeal(request: HttpRequest, slug: str, number: int, table: int, penalty: int) -> HttpResponse:
    table_obj = _load_table(request, slug, number, table)
    penalty_obj = get_object_or_404(Penalty, table=table_obj, pk=penalty)
    form = AppealForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.file_appeal(
                penalty_obj,
                minutes_after=form.cleaned_data["minutes_after"],
                statement=form.cleaned_data["statement"],
                acting_user=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Appeal filed.")
            return redirect("referee_table", slug=slug, number=number, table=table)
    return render(
        request,
        "scoring/referee/appeal.html",
        {"tournament": table_obj.round.tournament, "table": table_obj, "penalty": penalty_obj, "form": form},
    )


@login_required
@require_POST
def decide_appeal(request: HttpRequest, slug: str, number: int, table: int, appeal: int) -> HttpResponse:
    table_obj = _load_table(request, slug, number, table)
    appeal_obj = get_object_or_404(Appeal, penalty__table=table_obj, pk=appeal)
    try:
        services.decide_appeal(appeal_obj, request.POST.get("status", ""), acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("referee_table", slug=slug, number=number, table=table)
