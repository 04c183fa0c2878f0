"""python manage.py load_demo: (re)load the demo events from fixtures/ and create demo logins."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from scoring.interchange import import_event
from tournaments.models import Role
from tournaments.services.events import grant_role

DEMO_USERS = (("organiser", "organiser-demo", Role.ORGANISER), ("referee", "referee-demo", Role.REFEREE))


class Command(BaseCommand):
    help = "Load every fixtures/demo-*.json event (replacing earlier copies) and create demo accounts."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--fixtures", default=str(Path(settings.BASE_DIR) / "fixtures"))

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        users = []
        for username, password, role in DEMO_USERS:
            user, created = get_user_model().objects.get_or_create(username=username)
            if created or not user.check_password(password):
                user.set_password(password)
                user.save()
            if role == Role.ORGANISER:
                user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
            users.append((user, password, role))
        for path in sorted(Path(options["fixtures"]).glob("demo-*.json")):
            with path.open(encoding="utf-8") as handle:
                tournament = import_event(json.load(handle), replace=True)
            for user, _, role in users:
                grant_role(tournament, user, role, acting_user=None)
            self.stdout.write(f"Loaded {tournament.name} (/e/{tournament.slug}/)")
        self.stdout.write("Demo logins (local use only):")
        for user, password, role in users:
            self.stdout.write(f"  {role:10} username {user.username!r} password {password!r}")
