"""The signed-in user's devices: "log out everywhere else" for a lost or shared referee tablet.

Sessions are stored in the database (Django's default engine), so ending a user's other sessions is a
matter of finding the rows whose data names that user. An event has at most a few thousand live sessions,
so one pass over the unexpired ones is cheap, and it needs nothing stored beside Django's own tables.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import PasswordResetConfirmView
from django.contrib.sessions.models import Session
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from tournaments.staff_accounts import invitation_tokens


def _sessions_of(user: AbstractBaseUser) -> list[Session]:
    user_id = str(user.pk)
    found = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator(chunk_size=500):
        data = session.get_decoded()  # {} for a session Django cannot read
        if str(data.get(SESSION_KEY)) == user_id:
            found.append(session)
    return found


def live_session_count(user: AbstractBaseUser) -> int:
    """How many devices (browsers) the user is signed in on now."""
    return len(_sessions_of(user))


def end_other_sessions(user: AbstractBaseUser, *, keep: str | None) -> int:
    """Sign the user out of every browser but the one whose session key is ``keep``; returns how many ended."""
    doomed = [session.session_key for session in _sessions_of(user) if session.session_key != keep]
    with transaction.atomic():
        Session.objects.filter(session_key__in=doomed).delete()
    return len(doomed)


@login_required
def devices(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    context = {
        "count": live_session_count(request.user),
        "session_hours": settings.SESSION_COOKIE_AGE // 3600,
    }
    return render(request, "registration/devices.html", context)


@login_required
@require_POST
def log_out_everywhere_else(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    ended = end_other_sessions(request.user, keep=request.session.session_key)
    if ended:
        messages.success(
            request,
            ngettext("Logged out on %(count)s other device.", "Logged out on %(count)s other devices.", ended)
            % {"count": ended},
        )
    else:
        messages.info(request, gettext("You were not logged in anywhere else."))
    return redirect("devices")


class StaffInvitationView(PasswordResetConfirmView):
    """The link an organiser hands a new volunteer (``tournaments.staff_accounts``): the volunteer chooses
    a password and is signed in, landing on their tables; the link then stops working."""

    token_generator = invitation_tokens
    template_name = "registration/staff_invitation.html"
    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"
    success_url = reverse_lazy("landing")

    def form_valid(self, form: SetPasswordForm[AbstractBaseUser]) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, gettext("Your password is set: you are logged in."))
        return response
