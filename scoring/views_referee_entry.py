"""Saving from the referee's table page: one POST endpoint per form of the page (a hand, session totals,
a penalty or ruling, lateness, deleting the last hand, finishing, reopening, confirming, a player's PIN,
the blind second entry), and correcting a saved hand on its own page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from config.security import client_ip
from scoring.forms import ExpectedVersionForm, PenaltyForm
from scoring.models import EntryToken, Hand
from scoring.services import confirmation, entry, penalties, pins, queries, rulings
from scoring.services.entry_tokens import AlreadyStored
from scoring.templatetags.rules_words import rules_text
from scoring.views_referee_table import (
    FORMS,
    HAND_FORM_ID,
    hand_form_for,
    hand_refused,
    hand_saved,
    hand_text,
    load_table,
    load_table_for_forms,
    render_table,
    table_forms,
    table_registrations,
)
from tournaments.access import HtmxHttpRequest
from tournaments.errors import ServiceError
from tournaments.models import WINDS, Table


def _table_action(
    which: str, save: Callable[[HttpRequest, Table, Any], str], *, anchor: str = "", parts: bool = False
) -> Callable[..., HttpResponse]:
    """A POST endpoint for one of the table page's forms: validate it, call the service, and go back
    to the table (at ``anchor``, an element id, when given: after a hand, the next hand's form, so a
    phone does not land at the top of a long page); a refusal is shown on the form that caused it
    (nothing was saved). With ``parts``, a post made with htmx (the hand form, with JavaScript) is
    answered with only the parts of the page that changed, or the refused form; without JavaScript the
    same post gets the redirect and the whole page."""

    @login_required
    @require_POST
    def view(request: HtmxHttpRequest, slug: str, number: int, table: int) -> HttpResponse:
        table_obj = load_table_for_forms(request, slug, number, table, which)
        # Only the posted form: the page's other forms are made if it is shown again (a refusal).
        form = FORMS[which](table_obj, request.POST) if which in FORMS else None
        try:
            if form is not None and not form.is_valid():
                raise _InvalidFormError
            message = _saved(save, request, table_obj, form)
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
            if request.headers.get(REPLAY_HEADER):
                # Sent again from the phone's queue (static/js/offline-entry.js): "stored" in a word; the
                # page it loads next says what.
                messages.success(request, message, extra_tags=anchor)
                return HttpResponse(status=204)
            if parts and request.htmx:
                # The table the referee may open, read again with its results (and the new hand).
                return hand_saved(request, queries.table_with_results(table_obj), message)
            # Tagged with the anchor: the table page says it there, where the referee lands.
            messages.success(request, message, extra_tags=anchor)
            url = reverse("referee:table", kwargs={"slug": slug, "number": number, "table": table})
            return redirect(f"{url}#{anchor}" if anchor else url)
        loaded = load_table(request, slug, number, table)
        forms_ = {**table_forms(loaded), f"{which}_form": form}
        if parts and request.htmx:
            return hand_refused(request, loaded, forms_, refusal)
        return render_table(request, loaded, forms_, status=422, refused=(which, refusal))

    view.__name__ = f"{which}_action"
    return view


REPLAY_HEADER = "X-Entry-Replay"


def _saved(
    save: Callable[[HttpRequest, Table, Any], str], request: HttpRequest, table: Table, form: Any
) -> str:
    """What ``save`` says; a replay (a phone's queue sent again after a lost answer) is a success, said as
    such."""
    try:
        return save(request, table, form)
    except AlreadyStored as stored:
        return _already_saved(table, stored)


def _already_saved(table: Table, stored: AlreadyStored) -> str:
    if stored.kind == EntryToken.Kind.HAND:
        return gettext("%(hand)s %(number)s was already saved; nothing was added again.") % {
            "hand": table.round.tournament.rule_set.word("hand", get_language()).capitalize(),
            "number": stored.number,
        }
    return gettext("This was already saved; nothing was added again.")


class _InvalidFormError(Exception):
    """The form did not validate; its errors are shown."""


def _save_hand(request: HttpRequest, table: Table, form: Any) -> str:
    hand = entry.record_hand(
        table,
        entry.HandEntry(**form.entry()),
        acting_user=request.user,
        expected_number=form.cleaned_data.get("expected_number"),
        token=form.cleaned_data.get("entry_token"),
    )
    rules, language = table.round.tournament.rule_set, get_language()
    return gettext("%(hand)s saved (%(what)s).") % {
        "hand": rules.word("hand", language).capitalize(),
        "what": rules.describe_in(queries.hand_record(hand), language),
    }


def _save_totals(request: HttpRequest, table: Table, form: Any) -> str:
    entry.record_totals(
        table,
        {w: form.cleaned_data[w] for w in WINDS},
        acting_user=request.user,
        expected_version=form.cleaned_data.get("expected_version"),
        token=form.cleaned_data.get("entry_token"),
    )
    return gettext("Session totals saved.")


def _save_penalty(request: HttpRequest, table: Table, form: Any) -> str:
    data = form.cleaned_data
    registrations = table_registrations(table)
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
            token=data.get("entry_token"),
        )
        rule_set = table.round.tournament.rule_set
        return gettext("Ruling recorded: %(reason)s (%(rule)s).") % {
            "reason": rules_text(penalty.reason, rule_set),
            "rule": rules_text(penalty.rule, rule_set),
        }
    penalties.add_penalty(
        table,
        registration,
        data["points"],
        paid_to=data["paid_to"],
        paid_to_player=receiver,
        rule=data["rule"],
        reason=data["reason"],
        expected_position=data.get("expected_position"),
        acting_user=request.user,
        token=data.get("entry_token"),
    )
    return gettext("Penalty recorded.")


def _save_late(request: HttpRequest, table: Table, form: Any) -> str:
    registration = table_registrations(table)[form.cleaned_data["player"]]
    penalties.record_late(
        table,
        registration,
        form.cleaned_data["minutes"],
        acting_user=request.user,
        token=form.cleaned_data.get("entry_token"),
    )
    return gettext("Lateness recorded.")


def _void(request: HttpRequest, table: Table, form: Any) -> str:
    entry.void_last_hand(
        table, acting_user=request.user, expected_last=form.cleaned_data.get("expected_last")
    )
    return gettext("Last hand deleted (kept in the history).")


def _finish(request: HttpRequest, table: Table, form: Any) -> str:
    entry.set_table_finished(table, True, acting_user=request.user)
    return gettext("Table marked complete.")


def _reopen(request: HttpRequest, table: Table, form: Any) -> str:
    entry.set_table_finished(table, False, acting_user=request.user)
    return gettext("Table reopened; its results are provisional until confirmed again.")


def _confirm(request: HttpRequest, table: Table, form: Any) -> str:
    confirmation.confirm(table, acting_user=request.user)
    return gettext("Results confirmed: they now count in the standings.")


def _sign(request: HttpRequest, table: Table, form: Any) -> str:
    """The answer says how many have signed, not whose PIN it was (docs/confirmation.md)."""
    result = pins.sign_with_pin(
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
        token=form.cleaned_data.get("entry_token"),
    )
    if not found:
        return gettext("The second entry agrees with the first: the results are confirmed and count.")
    return (
        f"The second entry differs from the first in {len(found)} places; nothing is confirmed. "
        "A referee resolves it below."
    )


add_hand = _table_action("hand", _save_hand, anchor=HAND_FORM_ID, parts=True)
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
    table_obj = load_table(request, slug, number, table)
    current = get_object_or_404(Hand.objects.in_force(), table=table_obj, number=hand)
    rules = table_obj.round.tournament.rule_set
    # A blind table's hand is not shown to whoever may still make the second entry: the form starts
    # empty and the versions are not listed.
    visible = confirmation.figures_visible(table_obj, request.user)
    form = hand_form_for(
        table_obj,
        request.POST or None,
        initial=rules.initial_for(queries.hand_record(current), current.tiles) if visible else None,
    )
    version_form = ExpectedVersionForm(request.POST or None, initial={"expected_version": current.version})
    if request.method == "POST" and form.is_valid() and version_form.is_valid():
        try:
            entry.correct_hand(
                current,
                entry.HandEntry(**form.entry()),
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
        version.text = "" if version.voided or not visible else hand_text(version, table_obj.round.tournament)
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
