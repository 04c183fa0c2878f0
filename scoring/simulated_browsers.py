"""The simulated referees of a rehearsal over HTTP (``manage.py play_rehearsal --server PORT``): each one is the
load benchmark's browser (``Browser`` of bench/stack.py, the client bench/entry_load.py's referees use: a
kept-alive connection with cookies that reads pages and posts forms), signed in as a simulated referee, posting
the real hand form (the rule set's form fields for the hand, ``RuleSet.initial_for``) and the confirm button of
the table page of a server running on this machine with this database. Seating and publishing stay the
organiser's services (``scoring.services.simulated_referees``)."""

from __future__ import annotations

import importlib
import importlib.util
import re
from typing import Any
from uuid import uuid4

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse

from scoring.rules.ruleset import HandRecord
from scoring.services.entry import HandEntry
from scoring.services.queries import is_confirmed
from tournaments.errors import ServiceError
from tournaments.models import Table

BENCH_STACK = settings.BASE_DIR / "bench" / "stack.py"
SESSION_BACKEND = "django.contrib.auth.backends.ModelBackend"


def benchmark_browser() -> Any:
    """The benchmark's ``Browser`` class, loaded from bench/stack.py (not a package the site imports)."""
    spec = importlib.util.spec_from_file_location("bench_stack", BENCH_STACK)
    if spec is None or spec.loader is None or not BENCH_STACK.exists():
        raise ServiceError(
            f"The benchmark's browser ({BENCH_STACK}) is not in this checkout.", code="no_bench"
        )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Browser


def signed_in_session(user: AbstractBaseUser) -> str:
    """A session of ``user`` in the site's session store, as a login makes it (the simulated referees have no
    password: nobody can log in as them)."""
    store = importlib.import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = SESSION_BACKEND
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return str(store.session_key)


def _form_data(fields: dict[str, Any]) -> dict[str, str]:
    """The hand form's fields as a browser posts them: an unticked box or an empty field is not sent."""
    return {
        key: str(value)
        for key, value in fields.items()
        if value is not None and value is not False and not (isinstance(value, str | list) and not value)
    }


def _said(body: str) -> str:
    """What a refused page says, in a line (its errors first)."""
    errors = re.findall(r'class="errorlist[^"]*"[^>]*>(.*?)</ul>', body, flags=re.S)
    text = " ".join(errors) if errors else body
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())[:300]


class OverHttp:
    """The referees as browsers on ``http://127.0.0.1:PORT/`` (``scoring.services.simulated_referees.Referees``)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.browser_class = benchmark_browser()
        self.browsers: dict[Any, Any] = {}
        self.requests = 0

    def _browser(self, referee: AbstractBaseUser) -> Any:
        browser = self.browsers.get(referee.pk)
        if browser is None:
            browser = self.browser_class(self.port)
            browser.cookies[settings.SESSION_COOKIE_NAME] = signed_in_session(referee)
            self.browsers[referee.pk] = browser
        return browser

    def _post(
        self, table: Table, name: str, referee: AbstractBaseUser, data: dict[str, str]
    ) -> tuple[int, str]:
        """Open the table page (as the referee's phone has it, with its CSRF cookie), then post one form."""
        browser = self._browser(referee)
        args = [table.round.tournament.slug, table.round.number, table.number]
        status, _, body = browser.request("GET", reverse("referee:table", args=args))
        if status != 200:
            raise ServiceError(f"The table page answered HTTP {status}: {_said(body)}", code="http")
        status, _, body = browser.request("POST", reverse(f"referee:{name}", args=args), data)
        self.requests += 2
        return status, body

    def add_hand(
        self, table: Table, entry: HandEntry, record: HandRecord, number: int, referee: AbstractBaseUser
    ) -> None:
        rules = table.round.tournament.rule_set
        data = _form_data(rules.initial_for(record))
        data.update(expected_number=str(number), entry_token=str(uuid4()))
        status, body = self._post(table, "add_hand", referee, data)
        if status != 302:  # saved: back to the table page; refused: the page again, saying why
            raise ServiceError(
                f"Table {table.number}, hand {number} was not saved (HTTP {status}): {_said(body)}",
                code="http",
            )

    def finish(self, table: Table, referee: AbstractBaseUser) -> None:
        self._post(table, "finish_table", referee, {})
        if not Table.objects.filter(pk=table.pk, finished_at__isnull=False).exists():
            raise ServiceError(f"Table {table.number} was not marked complete.", code="http")

    def confirm(self, table: Table, referee: AbstractBaseUser) -> None:
        self._post(table, "confirm_table", referee, {})
        if not is_confirmed(table, fresh=True):
            raise ServiceError(f"Table {table.number} was not confirmed.", code="http")
