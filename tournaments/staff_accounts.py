"""An organiser creates a volunteer's login from the staff page.

On the morning of an event a referee turns up without an account, and ``/admin/`` is for the site's
administrators only. The organiser types a username and picks a role: the account is created with no
usable password, holding only that role in that event (no staff flag, no site permission), and the
organiser gets a link to hand over. The link opens a set-password form (Django's
``PasswordResetConfirmView``); it is valid for ``INVITATION_HOURS`` and stops working once a password is
set (the token hashes the password)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_encode
from django.utils.translation import gettext

from tournaments.audit import AuditAction, User, audit
from tournaments.errors import ServiceError
from tournaments.field_limits import check_length
from tournaments.models import EventRole, Role, Tournament

INVITATION_HOURS = 24


class InvitationTokenGenerator(PasswordResetTokenGenerator):
    """Django's password-reset tokens under their own salt, valid for ``INVITATION_HOURS`` whatever
    ``PASSWORD_RESET_TIMEOUT`` says."""

    key_salt = "tournaments.staff_accounts.InvitationTokenGenerator"

    def check_token(self, user: object, token: str | None) -> bool:
        if not super().check_token(user, token):  # type: ignore[arg-type]  # a user or None, as Django's
            return False
        assert token is not None  # checked by Django's
        try:
            made_at = base36_to_int(token.split("-")[0])
        except ValueError:
            return False
        return self._num_seconds(self._now()) - made_at <= INVITATION_HOURS * 3600


invitation_tokens = InvitationTokenGenerator()


@dataclass(frozen=True)
class Invitation:
    """The new account and the path of its set-password page (make it absolute for the organiser)."""

    user: object
    path: str


def invitation_path(user: object) -> str:
    """The set-password page for ``user`` (a fresh token, valid for ``INVITATION_HOURS``)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))  # type: ignore[attr-defined]  # a user
    return reverse("staff_invitation", kwargs={"uidb64": uid, "token": invitation_tokens.make_token(user)})  # type: ignore[arg-type]


def _check_username(username: str) -> str:
    username = username.strip()
    model = get_user_model()
    if not username:
        raise ServiceError(gettext("The account needs a username."), code="username_required")
    check_length(model, model.USERNAME_FIELD, username, label=gettext("The username"))
    try:  # the model's own rules
        model._meta.get_field(model.USERNAME_FIELD).run_validators(username)  # type: ignore[union-attr]
    except ValidationError as error:
        raise ServiceError(
            gettext("A username has letters, digits and @ . + - _ only, without spaces."),
            code="bad_username",
        ) from error
    return username


@transaction.atomic
def create_staff_account(
    tournament: Tournament, username: str, role: str, *, acting_user: User
) -> Invitation:
    """Create a login holding only ``role`` in ``tournament``, with no usable password yet; logged."""
    username = _check_username(username)
    if role not in Role.values:
        raise ServiceError(gettext("Unknown role %(role)s.") % {"role": repr(role)}, code="bad_role")
    model = get_user_model()
    # Usernames are unique as typed; refuse one that differs only in case too, or two volunteers would
    # log in as each other by mistake.
    if model.objects.filter(**{f"{model.USERNAME_FIELD}__iexact": username}).exists():
        raise ServiceError(
            gettext(
                "The username %(username)s is taken: choose another, or grant the role to that account above."
            )
            % {"username": repr(username)},
            code="username_taken",
        )
    user = model(**{model.USERNAME_FIELD: username})
    user.set_unusable_password()
    user.save()
    EventRole.objects.create(tournament=tournament, user=user, role=role)
    audit(
        tournament,
        acting_user,
        AuditAction.CREATE_STAFF_ACCOUNT,
        f"Created the account {username} as {role}",
        user=username,
        role=role,
    )
    return Invitation(user=user, path=invitation_path(user))


@transaction.atomic
def reissue_invitation(event_role: EventRole, *, acting_user: User) -> Invitation:
    """A new set-password link for a volunteer who lost theirs before choosing a password; logged.

    Only for an account this event's organiser may vouch for: one that never set a password and holds roles in
    this event only (an organiser must not take over a login that serves another event, or the site's
    administrators); a volunteer who set a password logs in with it."""
    user = event_role.user
    tournament = event_role.tournament
    username = user.get_username()
    if user.has_usable_password():
        raise ServiceError(
            gettext("%(username)s has chosen a password already and logs in with it.")
            % {"username": username},
            code="password_set",
        )
    elsewhere = EventRole.objects.filter(user=user).exclude(tournament=tournament).exists()
    if user.is_staff or user.is_superuser or elsewhere:
        raise ServiceError(
            gettext(
                "%(username)s serves beyond this event: only the site's administrators can give them a new link."
            )
            % {"username": username},
            code="not_this_events",
        )
    audit(
        tournament,
        acting_user,
        AuditAction.NEW_STAFF_LINK,
        f"New set-password link for {username}",
        user=username,
    )
    return Invitation(user=user, path=invitation_path(user))
