"""The organiser's release controls: publish the event, each session's seating and results, and freeze
the public standings after a session until the prize-giving (``tournaments.release``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournaments import release
from tournaments.access import event_for, round_of
from tournaments.errors import ServiceError
from tournaments.models import Role


class PublishForm(forms.Form):
    published = forms.BooleanField(required=False)
    back = forms.ChoiceField(choices=[("event", "event"), ("session", "session")], required=False)


class FreezeForm(forms.Form):
    after = forms.IntegerField(min_value=1, max_value=50, required=False)


@login_required
@require_POST
def publish_event(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    form = PublishForm(request.POST)
    form.is_valid()  # a missing or odd value reads as "draft"
    published = form.cleaned_data.get("published", False)
    try:
        release.publish_event(tournament, published, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("The event is public: its published sessions show on the public pages.")
            if published
            else gettext("The event is a draft again: its public pages answer “not found”."),
        )
    return redirect("manage:event", slug=slug)


@login_required
@require_POST
def publish_session(request: HttpRequest, slug: str, number: int, part: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    if part not in release.PARTS:
        raise Http404("No such part of a session")
    round_ = round_of(tournament, number)
    form = PublishForm(request.POST)
    form.is_valid()
    published = form.cleaned_data.get("published", False)
    try:
        release.publish_session(round_, part, published, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        state = "published" if published else "a draft again"
        messages.success(
            request,
            gettext("Session %(number)s %(part)s: %(state)s.")
            % {"number": number, "part": part, "state": state},
        )
    if form.cleaned_data.get("back") == "session":
        return redirect("manage:session", slug=slug, number=number)
    return redirect("manage:event", slug=slug)


@login_required
@require_POST
def freeze_standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, slug, Role.ORGANISER)
    form = FreezeForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose a session number, or none to unfreeze."))
        return redirect("manage:event", slug=slug)
    after = form.cleaned_data["after"]
    try:
        release.freeze_standings(tournament, after, acting_user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("The public standings stay after session %(after)s until you unfreeze them.")
            % {"after": after}
            if after
            else gettext("The public standings follow the published results again."),
        )
    return redirect("manage:event", slug=slug)
