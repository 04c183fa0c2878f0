"""Registration by the players: the public form and each player's private page (never stored by the
public page cache: not ``public_page`` views), and the organiser's list of entries
(``tournaments.services.entries``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from config.security import client_ip
from players import countries
from tournaments.access import event_for, public_event
from tournaments.errors import ServiceError
from tournaments.forms import EntryForm, EntryWindowForm
from tournaments.models import Entry, EntryStatus, EntryWindow, Role, Tournament
from tournaments.services import entries
from tournaments.venue_time import venue_time


def entry_link(request: HttpRequest, entry: Entry) -> str:
    """The entry's private page, as the emails give it."""
    return request.build_absolute_uri(
        reverse("public:entry", args=[entry.tournament.slug, entries.entry_token(entry)])
    )


def _render_register(
    request: HttpRequest, tournament: Tournament, form: EntryForm, status: int
) -> HttpResponse:
    window = EntryWindow.objects.filter(tournament=tournament).first()
    return render(
        request,
        "tournaments/register.html",
        {
            "tournament": tournament,
            "form": form,
            "closed": entries.closed_reason(tournament),
            "window": window,
            "countries": countries.choices(),
        },
        status=status,
    )


def _details(form: EntryForm) -> entries.EntryDetails:
    data = form.cleaned_data
    return entries.EntryDetails(
        family_name=data["family_name"],
        given_name=data["given_name"],
        email=data["email"],
        country=data["country"],
        ema_id=data["ema_id"],
        team=data["team"],
    )


@never_cache
def register(request: HttpRequest, slug: str) -> HttpResponse:
    """The registration form: every refusal (closed, a bot, a flood, a duplicate, bad input) is said on
    the form, with what was typed kept."""
    tournament = public_event(slug)
    if request.method != "POST":
        return _render_register(request, tournament, EntryForm(initial={"stamp": entries.form_stamp()}), 200)
    data = request.POST.copy()
    stamp = data.get("stamp", "")
    data["stamp"] = entries.form_stamp()  # a form shown again starts the time trap again
    form = EntryForm(data)
    try:
        entries.check_flood(client_ip(request))
        entries.check_stamp(stamp)
        if data.get("website", ""):  # the honeypot: people never see it
            raise ServiceError(gettext("The form was not filled in by a person."), code="honeypot")
        if not form.is_valid():
            return _render_register(request, tournament, form, 422)
        entry = entries.submit_entry(tournament, _details(form))
    except ServiceError as error:
        form.add_error(None, error.message)
        return _render_register(request, tournament, form, 422)
    link = entry_link(request, entry)
    if not entries.send_entry_email(entry, link):
        messages.warning(
            request, gettext("The confirmation email could not be sent: keep this page's address.")
        )
    return redirect(link)


def _entry_or_404(tournament: Tournament, token: str) -> Entry:
    entry = entries.entry_from_token(tournament, token)
    if entry is None:
        raise Http404(gettext("This link is not valid."))
    return entry


@never_cache
def entry_page(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's private page: their entry, its status, and a button to withdraw."""
    tournament = public_event(slug)
    entry = _entry_or_404(tournament, token)
    return render(
        request,
        "tournaments/entry.html",
        {
            "tournament": tournament,
            "entry": entry,
            "token": token,
            "waiting": entries.waiting_number(entry),
            "active": entry.status in entries.ACTIVE,
            "country": countries.name_of(entry.country) if entry.country else "",
        },
    )


@require_POST
def withdraw_entry(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = public_event(slug)
    entry = _entry_or_404(tournament, token)
    try:
        moved = entries.withdraw_entry(entry)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        entries.notify_moved_up(moved, lambda other: entry_link(request, other))
        messages.success(request, gettext("Your entry is withdrawn."))
    return redirect("public:entry", slug=slug, token=token)


# -- The organiser's pages -----------------------------------------------------------------------------------


def _render_entries(
    request: HttpRequest, tournament: Tournament, form: EntryWindowForm | None = None
) -> HttpResponse:
    window = EntryWindow.objects.filter(tournament=tournament).first()
    if form is None:
        initial = (
            {"capacity": window.capacity, "closes_at": venue_time(window.closes_at, tournament)}
            if window
            else {}
        )
        form = EntryWindowForm(initial=initial)
    rows = list(tournament.entries.select_related("registration", "player"))
    counts = {status: sum(1 for row in rows if row.status == status) for status in EntryStatus.values}
    return render(
        request,
        "tournaments/organiser/entries.html",
        {
            "tournament": tournament,
            "window": window,
            "closed": entries.closed_reason(tournament),
            "form": form,
            "entries": rows,
            "counts": counts,
            "statuses": EntryStatus,
        },
        status=200 if form.is_bound is False or form.is_valid() else 422,
    )


@login_required
def entry_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The entries in order of arrival, with what can be done to each, and the registration window."""
    return _render_entries(request, event_for(request, slug, Role.ORGANISER, archived_ok=True))


@login_required
@require_POST
def entry_window(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    if request.POST.get("close"):
        entries.close_registration(tournament, acting_user=request.user)
        messages.success(request, gettext("Registration by the players is closed."))
        return redirect("manage:entries", slug=slug)
    form = EntryWindowForm(request.POST)
    if not form.is_valid():
        return _render_entries(request, tournament, form)
    entries.open_registration(
        tournament,
        capacity=form.cleaned_data["capacity"],
        closes_at=form.cleaned_data["closes_at"],
        acting_user=request.user,
    )
    messages.success(request, gettext("Registration by the players is open."))
    return redirect("manage:entries", slug=slug)


@login_required
@require_POST
def entry_action(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    """Approve, refuse, or mark the fee paid or not paid."""
    tournament = event_for(request, slug, Role.ORGANISER)
    entry = get_object_or_404(Entry, tournament=tournament, pk=pk)
    try:
        if action == "approve":
            entries.approve_entry(entry, acting_user=request.user)
            messages.success(request, gettext("%(name)s is approved and registered.") % {"name": entry.name})
        elif action == "refuse":
            moved = entries.refuse_entry(entry, acting_user=request.user)
            entries.notify_moved_up(moved, lambda other: entry_link(request, other))
            messages.success(request, gettext("%(name)s is refused.") % {"name": entry.name})
        elif action in ("paid", "unpaid"):
            entries.set_fee_paid(entry, action == "paid", acting_user=request.user)
        else:
            raise Http404
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("manage:entries", slug=slug)
