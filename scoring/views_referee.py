"""Referee pages: pick a table, enter its hands (or totals), penalties, lateness and appeals."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from config.security import client_ip
from scoring import confirmation, rulings, services
from scoring.forms import (
    AppealForm,
    BlindEntryForm,
    DecisionForm,
    ExpectedVersionForm,
    HandEntryForm,
    LateForm,
    PenaltyForm,
    PinForm,
    TotalsForm,
    VoidForm,
)
from scoring.models import Appeal, Hand, LateArrival, Penalty
from scoring.rules import vocabulary
from scoring.templatetags.rules_words import rules_text
from tournaments import clock as session_clock
from tournaments import takeovers
from tournaments.access import appeals_event_for, can_decide_appeals, event_for, table_of
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Role, Table
from tournaments.views_clock import clock_context

HAND_FORM_ID = "hand-form"
"""The id of the table page's hand form: a saved hand goes back to it (templates/scoring/referee/table.html)."""

WIND_NAMES = dict(zip(WINDS, ("East", "South", "West", "North"), strict=True))


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.REFEREE)
    tables = services.tables_with_results(tournament)
    rounds = []
    for round_ in tournament.rounds.all():
        mine = [t for t in tables if t.round_id == round_.pk]
        rounds.append(
            {
                "round": round_,
                "tables": [
                    {"table": t, "state": services.table_state(t), "confirmed": services.is_confirmed(t)}
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


def _player_choices(table: Table) -> list[tuple[str, str]]:
    """The players by registration code, in seat order with their seat, as the hand form lists them."""
    return [(str(registration.code), label) for _, registration, label in _seated(table)]


def _offender_choices(table: Table) -> list[tuple[str, str]]:
    """Who a penalty may name: the seated players and anyone who took over a seat (issue 16), so a
    penalty during a substitute's hands names the substitute (prefetched ``seats__substitutions``)."""
    choices = _player_choices(table)
    for seat in table.seats.all():
        for item in takeovers.of_seat(seat):
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
    confirmed = services.confirmed_by(table)
    blind = confirmation.blind_entry_on(tournament)
    entry = confirmation.current_blind_entry(table) if blind else None
    # Counts, never names: a name appearing after a PIN was typed would tell whose PIN it was.
    signed, sign_seats = (
        confirmation.signing_progress(table, confirmation.signatures(table))
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
    rows = services.running_scores(table)
    by_wind = {seat.wind: seat for seat in table.seats.all()}
    next_index = len(rows)
    winds = rules.winds([row["record"] for row in rows])
    for index, row in enumerate(rows):
        row["position"] = index + 1
    state = services.table_state(table)
    result = services.session_result(table)
    time_refusal = None
    if state != "complete":
        time_refusal = session_clock.after_time_refusal(
            table, services.hands_first_entered(table), now=timezone.now()
        )
    seats = [
        {
            "start": w,
            "name": by_wind[w].registration.player.name,
            "takeovers": takeovers.of_seat(by_wind[w]),
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
        # Rulings that bar a player from winning the hand about to be entered (scoring.rulings).
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
        or max(len(services.played_hands(table)), 1),
    )


FORMS: dict[str, Callable[[Table, Any], Any]] = {
    "hand": hand_form_for,
    "totals": lambda table, data: TotalsForm(data, seats=_seat_choices(table)),
    "penalty": _penalty_form,
    "late": lambda table, data: LateForm(data, players=_player_choices(table)),
    "void": lambda table, data: VoidForm(data),
    "sign": lambda table, data: PinForm(data),
    "blind": _blind_form,
}
"""The table page's forms by name, each made from the table and the posted data (``None``: unbound)."""

TAKEOVER_FORMS = frozenset({"penalty", "late"})
"""The forms (and saves) that name a substitute who took over a seat, so read the table's substitutions."""


def _forms(table: Table, data: Any = None, which: str = "") -> dict[str, Any]:
    return {f"{name}_form": build(table, data if which == name else None) for name, build in FORMS.items()}


def _load_table(request: HttpRequest, slug: str, number: int, table_number: int) -> Table:
    tournament = event_for(request, slug, Role.REFEREE)
    table = table_of(tournament, number, table_number)
    return services.table_with_results(table)


def _load_table_for_forms(
    request: HttpRequest, slug: str, number: int, table_number: int, which: str
) -> Table:
    """A table with only what the posted form's choices need (its seats, and who took them over for the
    forms that may name a substitute): a save goes to the service, which reads the results under the
    table's lock itself, so prefetching them here would be five queries per save for nothing (issue 12:
    saves while the hall reads). A refused form re-renders from ``_load_table``."""
    tournament = event_for(request, slug, Role.REFEREE)
    table = table_of(tournament, number, table_number)
    prefetch_related_objects([table], *services.seat_prefetches(substitutions=which in TAKEOVER_FORMS))
    return table


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


def _render_table(
    request: HttpRequest,
    table: Table,
    forms_: dict[str, Any],
    *,
    status: int = 200,
    refused: tuple[str, str] | None = None,
) -> HttpResponse:
    """The table page; ``refused`` (form name, problem) is said at the top of the page only when that
    form is no longer shown (its errors are said on the form otherwise, once)."""
    context = _table_context(table, request.user, **forms_)
    if refused is not None and not SHOWN.get(refused[0], lambda c: False)(context):
        form = forms_[f"{refused[0]}_form"]
        problem = " ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, refused[1] or gettext("Not saved: %(problem)s") % {"problem": problem})
    # The appeals page answers only those who decide appeals: a plain referee is not shown its link.
    context["can_decide_appeals"] = can_decide_appeals(request.user, table.round.tournament)
    rules = table.round.tournament.rule_set
    previous = [row["record"] for row in context["rows"]]
    context["hand_form"].initial.setdefault("expected_number", context["next_number"])
    context["void_form"].initial.setdefault("expected_last", context["last_number"])
    totals = context["totals"]
    context["totals_form"].initial.setdefault("expected_version", totals.version if totals else 0)
    blind_entry = context["blind_entry"]
    context["blind_form"].initial.setdefault("expected_version", blind_entry.version if blind_entry else 0)
    context["penalty_form"].initial.setdefault("expected_position", len(table.penalties.all()))
    context["penalty_form"].initial.setdefault("hand_number", context["next_number"])
    for key, value in rules.next_hand_initial(previous).items():
        context["hand_form"].initial.setdefault(key, value)
    return render(request, "scoring/referee/table.html", context, status=status)


@login_required
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    table_obj = _load_table(request, slug, number, table)
    return _render_table(request, table_obj, _forms(table_obj))


def _table_action(
    which: str, save: Callable[[HttpRequest, Table, Any], str], *, anchor: str = ""
) -> Callable[..., HttpResponse]:
    """A POST endpoint for one of the table page's forms: validate it, call the service, and go back
    to the table (at ``anchor``, an element id, when given: after a hand, the next hand's form, so a
    phone does not land at the top of a long page); a refusal is shown on the form that caused it
    (nothing was saved)."""

    @login_required
    @require_POST
    def view(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
        table_obj = _load_table_for_forms(request, slug, number, table, which)
        # Only the posted form: the page's other forms are made if it is shown again (a refusal).
        form = FORMS[which](table_obj, request.POST) if which in FORMS else None
        try:
            if form is not None and not form.is_valid():
                raise _InvalidFormError
            message = save(request, table_obj, form)
        except ServiceError as error:
            if form is None:
                messages.error(request, gettext("Not saved: %(problem)s") % {"problem": error.message})
                return redirect("referee:table", slug=slug, number=number, table=table)
            # Said once: on the form, or at the top of the page when the form is no longer shown (a
            # table completed meanwhile), so the referee knows plainly that nothing was saved.
            refusal = gettext("Not saved: %(problem)s") % {"problem": error.message}
            form.add_error(None, refusal)
        except _InvalidFormError:
            refusal = ""
        else:
            messages.success(request, message)
            url = reverse("referee:table", kwargs={"slug": slug, "number": number, "table": table})
            return redirect(f"{url}#{anchor}" if anchor else url)
        loaded = _load_table(request, slug, number, table)
        forms_ = {**_forms(loaded), f"{which}_form": form}
        return _render_table(request, loaded, forms_, status=422, refused=(which, refusal))

    view.__name__ = f"{which}_action"
    return view


class _InvalidFormError(Exception):
    """The form did not validate; its errors are shown."""


def _registrations(table: Table) -> dict[str, Any]:
    """The table's players and its substitutes by code (prefetched ``seats__substitutions``)."""
    found = {seat.registration.code: seat.registration for seat in table.seats.all()}
    for seat in table.seats.all():
        found.update({item.substitute.code: item.substitute for item in takeovers.of_seat(seat)})
    return found


def _save_hand(request: HttpRequest, table: Table, form: Any) -> str:
    hand = services.record_hand(
        table,
        services.HandEntry(**form.entry()),
        acting_user=request.user,
        expected_number=form.cleaned_data.get("expected_number"),
    )
    rules, language = table.round.tournament.rule_set, get_language()
    return gettext("%(hand)s saved (%(what)s).") % {
        "hand": rules.word("hand", language).capitalize(),
        "what": rules.describe_in(services.hand_record(hand), language),
    }


def _save_totals(request: HttpRequest, table: Table, form: Any) -> str:
    services.record_totals(
        table,
        {w: form.cleaned_data[w] for w in WINDS},
        acting_user=request.user,
        expected_version=form.cleaned_data.get("expected_version"),
    )
    return gettext("Session totals saved.")


def _save_penalty(request: HttpRequest, table: Table, form: Any) -> str:
    data = form.cleaned_data
    registrations = _registrations(table)
    registration = registrations[data["player"]]
    receiver = registrations.get(data.get("paid_to_player") or "")
    if data["kind"] != PenaltyForm.OTHER:
        penalty = rulings.add_ruling(
            table,
            registration,
            data["kind"],
            hand_number=data.get("hand_number"),
            tiles=data.get("tiles"),
            paid_to_player=receiver,
            reason=data["reason"],
            expected_position=data.get("expected_position"),
            acting_user=request.user,
        )
        rule_set = table.round.tournament.rule_set
        return gettext("Ruling recorded: %(reason)s (%(rule)s).") % {
            "reason": rules_text(penalty.reason, rule_set),
            "rule": rules_text(penalty.rule, rule_set),
        }
    services.add_penalty(
        table,
        registration,
        data["points"],
        paid_to=data["paid_to"],
        paid_to_player=receiver,
        rule=data["rule"],
        reason=data["reason"],
        expected_position=data.get("expected_position"),
        acting_user=request.user,
    )
    return gettext("Penalty recorded.")


def _save_late(request: HttpRequest, table: Table, form: Any) -> str:
    registration = _registrations(table)[form.cleaned_data["player"]]
    services.record_late(table, registration, form.cleaned_data["minutes"], acting_user=request.user)
    return gettext("Lateness recorded.")


def _void(request: HttpRequest, table: Table, form: Any) -> str:
    services.void_last_hand(
        table, acting_user=request.user, expected_last=form.cleaned_data.get("expected_last")
    )
    return gettext("Last hand deleted (kept in the history).")


def _finish(request: HttpRequest, table: Table, form: Any) -> str:
    services.set_table_finished(table, True, acting_user=request.user)
    return gettext("Table marked complete.")


def _reopen(request: HttpRequest, table: Table, form: Any) -> str:
    services.set_table_finished(table, False, acting_user=request.user)
    return gettext("Table reopened; its results are provisional until confirmed again.")


def _confirm(request: HttpRequest, table: Table, form: Any) -> str:
    confirmation.confirm(table, acting_user=request.user)
    return gettext("Results confirmed: they now count in the standings.")


def _sign(request: HttpRequest, table: Table, form: Any) -> str:
    """The answer says how many have signed, not whose PIN it was (docs/confirmation.md)."""
    result = confirmation.sign_with_pin(
        table, form.cleaned_data["pin"], acting_user=request.user, address=client_ip(request)
    )
    if result.confirmed:
        return gettext("PIN accepted. Every player has signed: the results are confirmed and count.")
    return gettext("PIN accepted: %(signed)s of %(seats)s signed.") % {
        "signed": result.signed,
        "seats": result.seats,
    }


def _blind(request: HttpRequest, table: Table, form: Any) -> str:
    _, found = confirmation.record_blind_entry(
        table,
        form.cleaned_data["totals"],
        form.cleaned_data["rows"],
        acting_user=request.user,
        expected_version=form.cleaned_data.get("expected_version"),
    )
    if not found:
        return gettext("The second entry agrees with the first: the results are confirmed and count.")
    return (
        f"The second entry differs from the first in {len(found)} places; nothing is confirmed. "
        "A referee resolves it below."
    )


add_hand = _table_action("hand", _save_hand, anchor=HAND_FORM_ID)
sign_table = _table_action("sign", _sign)
blind_entry = _table_action("blind", _blind)
add_totals = _table_action("totals", _save_totals)
add_penalty = _table_action("penalty", _save_penalty)
add_late = _table_action("late", _save_late)
void_hand = _table_action("void", _void)
finish_table = _table_action("finish", _finish)
reopen_table = _table_action("reopen", _reopen)
confirm_table = _table_action("confirm", _confirm)


@login_required
def correct_hand(request: HttpRequest, slug: str, number: int, table: int, hand: int) -> HttpResponse:
    table_obj = _load_table(request, slug, number, table)
    current = get_object_or_404(Hand.objects.in_force(), table=table_obj, number=hand)
    rules = table_obj.round.tournament.rule_set
    # A blind table's hand is not shown to whoever may still make the second entry: the form starts
    # empty and the versions are not listed.
    visible = confirmation.figures_visible(table_obj, request.user)
    form = hand_form_for(
        table_obj,
        request.POST or None,
        initial=rules.initial_for(services.hand_record(current), current.tiles) if visible else None,
    )
    version_form = ExpectedVersionForm(request.POST or None, initial={"expected_version": current.version})
    if request.method == "POST" and form.is_valid() and version_form.is_valid():
        try:
            services.correct_hand(
                current,
                services.HandEntry(**form.entry()),
                acting_user=request.user,
                expected_version=version_form.cleaned_data["expected_version"],
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, gettext("Hand corrected; the earlier version is kept in the history."))
            return redirect("referee:table", slug=slug, number=number, table=table)
    # Hands with a display-only ``text`` attribute added below for the template.
    history: list[Any] = list(
        Hand.objects.filter(table=table_obj, number=hand).select_related("entered_by").order_by("version")
    )
    for version in history:
        version.text = (
            "" if version.voided or not visible else _hand_text(version, table_obj.round.tournament)
        )
    return render(
        request,
        "scoring/referee/correct_hand.html",
        {
            "tournament": table_obj.round.tournament,
            "table": table_obj,
            "hand": current,
            "form": form,
            "version_form": version_form,
            "history": history,
            "hidden": not visible,
        },
    )


def _ruling(table: Table, subject: str, pk: int) -> Penalty | LateArrival | Hand:
    if subject == "penalty":
        return get_object_or_404(Penalty, table=table, pk=pk)
    if subject == "late":
        return get_object_or_404(LateArrival, table=table, pk=pk)
    if subject == "hand":
        return get_object_or_404(Hand.objects.in_force(), table=table, number=pk)
    raise Http404("No such ruling.")


@login_required
def appeal(
    request: HttpRequest, slug: str, number: int, table: int, penalty: int, subject: str = "penalty"
) -> HttpResponse:
    """File a written appeal against a ruling (MCR rule 94): a penalty, a lateness or a hand's result."""
    table_obj = _load_table(request, slug, number, table)
    ruling = _ruling(table_obj, subject, penalty)
    tournament = table_obj.round.tournament
    fee = rulings.appeal_fee(tournament)
    form = AppealForm(
        request.POST or None, players=_player_choices(table_obj), fee=fee, rules=tournament.rule_set
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            rulings.file_appeal(
                ruling,
                statement=data["statement"],
                signed_by=data["signed_by"],
                appellant=_registrations(table_obj).get(data["appellant"]),
                fee_received=data.get("fee_received", False),
                acting_user=request.user,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, gettext("Appeal filed: the chief referee or the appeals committee decides it.")
            )
            return redirect("referee:table", slug=slug, number=number, table=table)
    deadline = ruling.created_at + timedelta(minutes=rulings.APPEAL_DEADLINE_MINUTES)
    return render(
        request,
        "scoring/referee/appeal.html",
        {
            "tournament": tournament,
            "table": table_obj,
            "subject": subject,
            "ruling": ruling,
            "ruling_text": _ruling_text(
                ruling,
                tournament,
                hidden=subject == "hand" and not confirmation.figures_visible(table_obj, request.user),
            ),
            "deadline": deadline,
            "fee": fee,
            "form": form,
        },
    )


def _hand_text(hand: Hand, tournament: Any) -> str:
    """A hand's one line in the page's language (the audit log keeps ``services.describe_hand``)."""
    return services.event_rules(tournament).describe_in(services.hand_record(hand), get_language())


def _ruling_text(ruling: Penalty | LateArrival | Hand, tournament: Any, *, hidden: bool = False) -> str:
    """The ruling appealed against in one line; a hand's result withheld when ``hidden`` (a blind table
    before its second entry)."""
    if isinstance(ruling, Penalty):
        return rulings.penalty_line(ruling, services.event_rules(tournament))
    if isinstance(ruling, LateArrival):
        return rulings.late_line(ruling)
    hand = tournament.rule_set.word("hand", get_language())
    return gettext("%(hand)s %(number)s: %(text)s") % {
        "hand": hand[:1].upper() + hand[1:],
        "number": ruling.number,
        "text": gettext("Hidden until the blind second entry agrees.")
        if hidden
        else _hand_text(ruling, tournament),
    }


@login_required
def appeals(request: HttpRequest, slug: str) -> HttpResponse:
    """The chief referee's page: every appeal of the event, pending ones first, each decided here."""
    tournament = appeals_event_for(request, slug)
    items = rulings.event_appeals(tournament)
    items.sort(key=lambda a: (a.status != "pending", a.created_at))
    return render(
        request,
        "scoring/referee/appeals.html",
        {
            "tournament": tournament,
            "appeals": [
                {"appeal": a, "text": rulings.ruling_line(a), "own": a.ruled_by_id == request.user.pk}
                for a in items
            ],
        },
    )


@login_required
@require_POST
def decide_appeal(request: HttpRequest, slug: str, appeal: int, **_: Any) -> HttpResponse:
    """Decide an appeal (chief referee or appeals committee only; never the ruling referee)."""
    tournament = appeals_event_for(request, slug)
    appeal_obj = get_object_or_404(Appeal, table__round__tournament=tournament, pk=appeal)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            gettext("Not saved: choose whether the appeal is granted or rejected, and give the reasons."),
        )
    else:
        try:
            rulings.decide_appeal(
                appeal_obj,
                form.cleaned_data["status"],
                reasons=form.cleaned_data["reasons"],
                revise=form.cleaned_data["revise"],
                acting_user=request.user,
            )
        except ServiceError as error:
            messages.error(request, gettext("Not saved: %(problem)s") % {"problem": error.message})
        else:
            messages.success(
                request,
                gettext("Appeal granted: ruling withdrawn. The decision is recorded.")
                if form.cleaned_data["status"] == "upheld"
                else gettext("Appeal rejected: ruling stands. The decision is recorded."),
            )
    return redirect("referee:appeals", slug=slug)
