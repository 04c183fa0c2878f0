"""The referee's table pages: the event's tables to pick from, and one table's page with its forms (hands
or totals, penalties, lateness, confirmation) and what the other referee modules share about a table.

The forms post to ``scoring/views_referee_entry.py``; appeals are ``scoring/views_referee_appeals.py``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any
from uuid import uuid4

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import get_language, gettext
from django_htmx.http import HttpResponseClientRedirect

from scoring.forms import (
    BlindEntryForm,
    HandEntryForm,
    LateForm,
    PenaltyForm,
    PinForm,
    TotalsForm,
    VoidForm,
)
from scoring.models import Hand
from scoring.rules import vocabulary
from scoring.rules.ruleset import RuleSet
from scoring.services import confirmation, pins, queries, standings
from tournaments import clock as session_clock
from tournaments.access import can_decide_appeals, event_for, table_of
from tournaments.models import WINDS, Role, Table
from tournaments.services import substitutions as seat_substitutions
from tournaments.views_clock import clock_context

HAND_FORM_ID = "hand-form"
"""The id of the table page's hand form: a saved hand goes back to it (templates/scoring/referee/table.html)."""

WIND_NAMES = dict(zip(WINDS, ("East", "South", "West", "North"), strict=True))


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's tables by session, each with its progress, for the referee to pick one."""
    tournament = event_for(request, slug, Role.REFEREE)
    tables = queries.tables_with_results(tournament)
    rounds = []
    for round_ in tournament.rounds.all():
        mine = [t for t in tables if t.round_id == round_.pk]
        rounds.append(
            {
                "round": round_,
                "tables": [
                    {"table": t, "state": confirmation.table_state(t), "confirmed": queries.is_confirmed(t)}
                    for t in mine
                ],
            }
        )
    return render(
        request,
        "scoring/referee/index.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "can_decide_appeals": can_decide_appeals(request.user, tournament),
        },
    )


def _seated(table: Table) -> list[tuple[str, Any, str]]:
    """The table's seats in seat order (E, S, W, N): wind, registration, and "Name (East seat)"."""
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    return [
        (
            w,
            by_wind[w].registration,
            gettext("%(name)s (%(wind)s seat)")
            % {"name": by_wind[w].registration.player.name, "wind": vocabulary.wind_label(w, get_language())},
        )
        for w in WINDS
        if w in by_wind
    ]


def _seat_choices(table: Table) -> list[tuple[str, str]]:
    return [(wind, label) for wind, _, label in _seated(table)]


def player_choices(table: Table) -> list[tuple[str, str]]:
    """The players by registration code, in seat order with their seat, as the hand form lists them."""
    return [(str(registration.code), label) for _, registration, label in _seated(table)]


def _offender_choices(table: Table) -> list[tuple[str, str]]:
    """Who a penalty may name: the seated players and anyone who played a seat as a substitute, so a
    penalty during a substitute's hands names the substitute (prefetched ``seats__substitutions``)."""
    choices = player_choices(table)
    for seat in table.seats.all():
        for item in seat_substitutions.of_seat(seat):
            label = gettext("%(name)s (for %(player)s from hand %(number)s)") % {
                "name": item.substitute.player.name,
                "player": seat.registration.player.name,
                "number": item.from_hand,
            }
            choices.append((str(item.substitute.code), label))
    return choices


def _confirmation_context(table: Table, viewer: Any, state: str) -> dict[str, Any]:
    """What the page says about confirming the table: who may confirm (the event's setting), who has
    signed, and under blind double entry whether this viewer must not see the first entry yet."""
    tournament = table.round.tournament
    confirmed = confirmation.confirmed_by(table)
    blind = confirmation.blind_entry_on(tournament)
    entry = confirmation.current_blind_entry(table) if blind else None
    # Counts, never names: a name appearing after a PIN was typed would tell whose PIN it was.
    signed, sign_seats = (
        pins.signing_progress(table, pins.signatures(table))
        if confirmation.players_sign(tournament) and state == "complete" and not confirmed
        else (0, 0)
    )
    differences = confirmation.differences(table, entry) if entry is not None and not confirmed else []
    return {
        "confirmation": confirmed,
        # A second referee confirms (after the blind entry, under blind double entry); two entries that
        # agree may always be confirmed as agreed, whoever the event says confirms otherwise.
        "referees_confirm": (confirmation.referees_confirm(tournament) and (not blind or entry is not None))
        or (entry is not None and not differences),
        "players_sign": confirmation.players_sign(tournament),
        "signed": signed,
        "sign_seats": sign_seats,
        "blind": blind,
        "blind_entry": entry,
        "differences": differences,
        # Under blind double entry the entered figures stay hidden from a referee who may still make
        # the second entry (the blind form is offered once the table is complete).
        "hide_first_entry": not confirmation.figures_visible(table, viewer),
    }


def _table_context(table: Table, viewer: Any = None, **forms: Any) -> dict[str, Any]:
    tournament = table.round.tournament
    rules = tournament.rule_set
    rows = queries.running_scores(table)
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    next_index = len(rows)
    winds = rules.winds([row["record"] for row in rows])
    for index, row in enumerate(rows):
        row["position"] = index + 1
    state = confirmation.table_state(table)
    result = standings.session_result(table)
    time_refusal = None
    if state != "complete":
        time_refusal = session_clock.after_time_refusal(
            table, queries.hands_first_entered(table), now=timezone.now()
        )
    seats = [
        {
            "start": w,
            "name": by_wind[w].registration.player.name,
            "substitutions": seat_substitutions.of_seat(by_wind[w]),
            "wind_now": winds.seats[w] if winds else None,
            "total": result.scores[w],
            "table_points": float(result.table_points[w])
            if result.table_points is not None and state != "not started"
            else None,
        }
        for w in WINDS
        if w in by_wind
    ]
    return {
        "tournament": tournament,
        "rule_set": rules,
        "table": table,
        "seats": seats,
        "rows": rows,
        "state": state,
        "next_number": next_index + 1,
        "winds": winds,
        "prevalent": WIND_NAMES[winds.prevalent] if winds and winds.prevalent else "",
        "can_add": state != "complete"
        and time_refusal is None
        and not any(t.is_current for t in table.totals_versions.all()),
        "time_refusal": time_refusal,
        "clock": clock_context(table.round, table_number=table.number),
        "limit": rules.hands_allowed(tournament.hands_per_session),
        "totals": next((t for t in table.totals_versions.all() if t.is_current), None),
        "penalties": list(table.penalties.all()),
        # Rulings that bar a player from winning the hand about to be entered (scoring.services.rulings).
        "barred": [
            p
            for p in table.penalties.all()
            if p.bars_win and p.hand_number == next_index + 1 and not p.cancelled
        ],
        "late": list(table.late_arrivals.all()),
        "wind_names": WIND_NAMES,
        "late_note": rules.late_note_in(get_language()),
        "hand_word": rules.word("hand", get_language()),  # in the page's language
        "last_number": rows[-1]["hand"].number if rows else 0,
        **_confirmation_context(table, viewer, state),
        **forms,
    }


def hand_form_for(table: Table, data: Any = None, **kwargs: Any) -> HandEntryForm:
    """The hand form of the event's rule set (its class names it)."""
    rules = table.round.tournament.rule_set
    form_class: Callable[..., HandEntryForm] = import_string(rules.hand_form)
    return form_class(data, seats=_seat_choices(table), rules=rules, **kwargs)


def _penalty_form(table: Table, data: Any) -> PenaltyForm:
    rules = table.round.tournament.rule_set
    return PenaltyForm(
        data,
        players=_offender_choices(table),
        catalogue=rules.penalty_catalogue(),
        words=lambda english: rules.word(english, get_language()),
        hand_word=rules.word("hand", get_language()),
        rules=rules,
    )


def _blind_form(table: Table, data: Any) -> BlindEntryForm:
    rules = table.round.tournament.rule_set
    return BlindEntryForm(
        data,
        seats=_seat_choices(table),
        hands=rules.hands_allowed(table.round.tournament.hands_per_session)
        or max(len(queries.played_hands(table)), 1),
    )


FORMS: dict[str, Callable[[Table, Any], Any]] = {
    "hand": hand_form_for,
    "totals": lambda table, data: TotalsForm(data, seats=_seat_choices(table)),
    "penalty": _penalty_form,
    "late": lambda table, data: LateForm(data, players=player_choices(table)),
    "void": lambda table, data: VoidForm(data),
    "sign": lambda table, data: PinForm(data),
    "blind": _blind_form,
}
"""The table page's forms by name, each made from the table and the posted data (``None``: unbound)."""

TAKEOVER_FORMS = frozenset({"penalty", "late"})
"""The forms (and saves) that name a substitute who took over a seat, so read the table's substitutions."""


def table_forms(table: Table, data: Any = None, which: str = "") -> dict[str, Any]:
    """Every form of the table page, ``data`` bound to the one named ``which`` only."""
    return {f"{name}_form": build(table, data if which == name else None) for name, build in FORMS.items()}


def load_table(request: HttpRequest, slug: str, number: int, table_number: int) -> Table:
    """The table a referee of the event may open, with its results read for the page."""
    tournament = event_for(request, slug, Role.REFEREE)
    table = table_of(tournament, number, table_number)
    return queries.table_with_results(table)


def load_table_for_forms(
    request: HttpRequest, slug: str, number: int, table_number: int, which: str
) -> Table:
    """A table with only what the posted form's choices need (its seats, and who took them over for the
    forms that may name a substitute): a save goes to the service, which reads the results under the
    table's lock itself, so prefetching them here would be five queries per save for nothing (saves
    while the hall reads, docs/scale.md). A refused form re-renders from ``load_table``."""
    tournament = event_for(request, slug, Role.REFEREE)
    table = table_of(tournament, number, table_number)
    prefetch_related_objects([table], *queries.seat_prefetches(substitutions=which in TAKEOVER_FORMS))
    return table


def _never_shown(context: dict[str, Any]) -> bool:
    """A form the page does not know is never shown: its refusal is said at the top."""
    return False


SHOWN: dict[str, Callable[[dict[str, Any]], bool]] = {
    "hand": lambda c: c["can_add"] and not c["table"].totals_only,
    "totals": lambda c: c["table"].totals_only and not c["rows"],
    "penalty": lambda c: True,
    "late": lambda c: True,
    "sign": lambda c: (
        c["state"] == "complete" and not c["confirmation"] and not c["hide_first_entry"] and c["players_sign"]
    ),
    "blind": lambda c: c["state"] == "complete" and not c["confirmation"] and c["hide_first_entry"],
}
"""Whether the table page shows each form with its errors (templates/scoring/referee/table.html), given
its context; the others (a button, such as "delete last hand") say a refusal at the top of the page."""


def render_table(
    request: HttpRequest,
    table: Table,
    forms_: dict[str, Any],
    *,
    status: int = 200,
    refused: tuple[str, str] | None = None,
) -> HttpResponse:
    """The table page; ``refused`` (form name, problem) is said at the top of the page only when that
    form is no longer shown (its errors are said on the form otherwise, once)."""
    context = page_context(request, table, forms_)
    if refused is not None and not SHOWN.get(refused[0], _never_shown)(context):
        messages.error(request, refusal_text(forms_[f"{refused[0]}_form"], refused[1]))
    context["offline_ahead"] = offline_ahead(context)
    return render(request, "scoring/referee/table.html", context, status=status)


AHEAD = 16
"""How many hands past the next one the page knows the winds of, in a session without a limit."""


def offline_ahead(context: dict[str, Any]) -> dict[str, Any]:
    """What the page needs to show hands kept on the phone while the Wi-Fi is down as if they were sent
    (static/js/offline-entry.js): the winds of the coming hands ("E:SWNE", the prevalent wind then each
    starting seat's, from hand ``first`` on) and the rule set's points table, both from the rule set, so
    the phone looks the figures up and never scores a hand itself."""
    rules = context["rule_set"]
    language = get_language()
    first = context["next_number"]
    winds = []
    for count in range(first - 1, max(context["limit"] or 0, first + AHEAD)):
        shown = rules.winds_after(count)
        if shown is None:
            break
        winds.append(f"{shown.prevalent or ''}:{''.join(shown.seats.get(w, '-') for w in WINDS)}")
    table = rules.points_table()
    return {
        "first": first,
        "winds": winds,
        "seats": list(WINDS),
        "names": {w: vocabulary.wind_label(w, language) for w in WINDS},  # as the wind_name filter
        "short": {w: vocabulary.wind_short(w, language) for w in WINDS},
        "dealer": gettext("dealer"),
        "points": table.as_json() if table is not None else None,
        "penalty_form": "penalty-form",
        "penalties": penalty_points(context["table"], rules),
    }


def penalty_points(table: Table, rules: RuleSet) -> dict[str, Any]:
    """The rule set's penalty table (``RuleSet.penalty_table``) with the players the penalty form names as
    the seats they are charged at (a substitute at the seat taken over, as ``scoring/facts.py``
    ``_seat_of``), and "Other" standing for the points and payee typed."""
    seat_of: dict[str, str] = {}
    for seat in table.seats.all():
        for item in seat_substitutions.of_seat(seat):
            seat_of.setdefault(str(item.substitute.code), seat.wind)
    seat_of.update({str(seat.registration.code): seat.wind for seat in table.seats.all()})
    penalties = rules.penalty_table()
    fills: dict[str, Mapping[str, Mapping[str, str]]] = {
        "kind": {**penalties.fills["kind"], PenaltyForm.OTHER: {}},
        "player": {code: {"seat": wind} for code, wind in seat_of.items()},
        "paid_to_player": {code: {"receiver": wind} for code, wind in seat_of.items()},
    }
    return replace(penalties, fills=fills).as_json()


def refusal_text(form: Any, refusal: str) -> str:
    """What a refused form says when the form itself is not shown: the service's refusal, else the
    form's errors, as "Not saved: ..."."""
    problem = " ".join(str(e) for errors in form.errors.values() for e in errors)
    return refusal or gettext("Not saved: %(problem)s") % {"problem": problem}


def page_context(request: HttpRequest, table: Table, forms_: dict[str, Any]) -> dict[str, Any]:
    """Everything the table page (and the parts of it a saved hand sends back) is drawn from, each form
    started where the table is now (the next hand's number and its winds, the last hand, the versions)."""
    context = _table_context(table, request.user, **forms_)
    # The appeals page answers only those who decide appeals: a plain referee is not shown its link.
    context["can_decide_appeals"] = can_decide_appeals(request.user, table.round.tournament)
    rules = table.round.tournament.rule_set
    previous = [row["record"] for row in context["rows"]]
    context["hand_form"].initial.setdefault("expected_number", context["next_number"])
    # Each entry form its token (services.entry_tokens): a replayed post is stored once.
    for name in ("hand_form", "totals_form", "penalty_form", "late_form", "blind_form"):
        if name in context:
            context[name].initial.setdefault("entry_token", uuid4())
    context["void_form"].initial.setdefault("expected_last", context["last_number"])
    totals = context["totals"]
    if "totals_form" in context:  # the parts a saved hand sends back make only the forms they show
        context["totals_form"].initial.setdefault("expected_version", totals.version if totals else 0)
    blind_entry = context["blind_entry"]
    if "blind_form" in context:
        context["blind_form"].initial.setdefault(
            "expected_version", blind_entry.version if blind_entry else 0
        )
    context["penalty_form"].initial.setdefault("expected_position", len(table.penalties.all()))
    context["penalty_form"].initial.setdefault("hand_number", context["next_number"])
    for key, value in rules.next_hand_initial(previous).items():
        context["hand_form"].initial.setdefault(key, value)
    return context


HAND_PARTS = ("hand", "void", "penalty")
"""The forms in the parts of the page a saved hand sends back (the penalty form for its hand number)."""


def hand_saved(request: HttpRequest, table: Table, message: str) -> HttpResponse:
    """The answer to a hand saved with htmx: only what the hand changed on the referee's page (its row,
    the running totals, the next hand's form and what names the next hand), a few kilobytes instead of
    the whole page (saves while the hall reads, docs/scale.md); ``_hand_saved.html`` swaps them in by id.
    When the page changes shape (the first hand makes the hands' table; the last one, the clock or a
    totals entry closes the form; blind entry hides the figures) the browser loads the whole page."""
    context = page_context(request, table, {f"{name}_form": FORMS[name](table, None) for name in HAND_PARTS})
    if not SHOWN["hand"](context) or len(context["rows"]) < 2 or context["hide_first_entry"]:
        messages.success(request, message, extra_tags=HAND_FORM_ID)
        # The query makes it a new address: the browser loads it (the same address with only an anchor
        # would merely scroll), and lands at the hand form as without JavaScript.
        after = f"?after={len(context['rows'])}#{HAND_FORM_ID}"
        return HttpResponseClientRedirect(_table_url(table) + after)
    # Said in the next hand's form, where the referee is (as the whole page says it, table.html).
    context["saved_message"] = message
    context["row"] = context["rows"][-1]
    # The penalty form names the next hand by default, as a reloaded page would.
    context["penalty_hand_number"] = context["penalty_form"]["hand_number"].as_widget(
        attrs={"hx-swap-oob": "true"}
    )
    return render(request, "scoring/referee/_hand_saved.html", context)


def hand_refused(request: HttpRequest, table: Table, forms_: dict[str, Any], refusal: str) -> HttpResponse:
    """A hand refused with htmx: its form back with what was typed and why (422; nothing was saved); when
    the form is no longer shown (the table was completed meanwhile) the whole page, saying why."""
    context = page_context(request, table, forms_)
    if not SHOWN["hand"](context):
        messages.error(request, refusal_text(forms_["hand_form"], refusal))
        response = HttpResponseClientRedirect(_table_url(table))
        response.status_code = 422  # refused all the same (htmx follows HX-Redirect whatever the status)
        return response
    return render(request, "scoring/referee/_hand_refused.html", context, status=422)


def _table_url(table: Table) -> str:
    return reverse(
        "referee:table",
        kwargs={"slug": table.round.tournament.slug, "number": table.round.number, "table": table.number},
    )


@login_required
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """One table's page: its results so far and the forms that add to them."""
    table_obj = load_table(request, slug, number, table)
    return render_table(request, table_obj, table_forms(table_obj))


def table_registrations(table: Table) -> dict[str, Any]:
    """The table's players and its substitutes by code (prefetched ``seats__substitutions``)."""
    found = {seat.registration.code: seat.registration for seat in table.seats.all()}
    for seat in table.seats.all():
        found.update({item.substitute.code: item.substitute for item in seat_substitutions.of_seat(seat)})
    return found


def hand_text(hand: Hand, tournament: Any) -> str:
    """A hand's one line in the page's language (the audit log keeps ``queries.describe_hand``)."""
    return queries.event_rules(tournament).describe_in(queries.hand_record(hand), get_language())
