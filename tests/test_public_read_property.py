"""Anonymous public reads through the page cache answer exactly what an uncached rendering answers.

A hypothesis state machine interleaves organiser and referee actions (publish or take back the event, a
session's seating or results, freeze the standings, record, correct and delete hands, confirm a table,
withdraw a confirmation) with anonymous reads of every public page (whole page, ``HX-Request: true``
fragment, ``HX-Request: false``, two languages, the standings' sort orders and ``?provisional=1``, the
downloads). Each read is made through the cache twice, then with every cache off; the three answers must
agree. After every action the last pages read are read again, so a copy kept across a change is caught.

Invariants that hold whatever the cache does: a draft event answers 404 on every public page, a draft
session's seating or results page answers 404, an anonymous ``?provisional=1`` gets the public standings,
an htmx request to a page that has a fragment gets the fragment and any other request the whole page.

The event is built once per test; each example runs in a savepoint rolled back at its end, with the cache
cleared. ``PUBLIC_READ_STEPS`` (steps per example) and ``PUBLIC_READ_EXAMPLES`` run it longer
(``bench/public_read_property.py``).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client, TestCase, override_settings
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from scoring.models import Hand
from scoring.services import confirmation
from scoring.services.entry import HandEntry, correct_hand, record_hand, set_table_finished, void_last_hand
from tournaments import public_read, release
from tournaments.errors import ServiceError
from tournaments.models import Round, Table, Tournament
from tournaments.services import events as event_services
from tournaments.services import registrations, reseating

pytestmark = pytest.mark.django_db

STEPS = int(os.environ.get("PUBLIC_READ_STEPS", "25"))
EXAMPLES = int(os.environ.get("PUBLIC_READ_EXAMPLES", "12"))
SHRINK = os.environ.get("PUBLIC_READ_SHRINK", "1") != "0"
PHASES = tuple(Phase) if SHRINK else tuple(p for p in Phase if p not in (Phase.shrink, Phase.explain))
"""PUBLIC_READ_SHRINK=0: report the first failing sequence as found (shrinking one takes up to 5 minutes)."""
REPORT = os.environ.get("PUBLIC_READ_REPORT", "")
"""A file to which each test appends a JSON line: examples and steps run, requests made, seconds taken."""
VERBOSE = bool(os.environ.get("PUBLIC_READ_VERBOSE"))
"""Print each action as it runs (with -s)."""
SLUG = "prop-open"
HANDS_PER_SESSION = 2
RECHECKED_AFTER_AN_ACTION = 2
"""How many of the last distinct reads are read again after each action (a stale copy shows there)."""

NO_CACHE = {
    "CACHES": {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}},
    "PUBLIC_PAGE_CACHE": False,
}
FRAGMENT_PAGES = {"results", "standings", "player", "teams", "side", "projector"}
"""The pages whose view answers ``request.htmx`` with a fragment; the event and seating pages have none."""

_FOLD = re.compile(r"\s*\n\s*")
_PROVISIONAL = re.compile(
    r"\?provisional=1(?=[\"'\s#<]|$)|(?<=\?)provisional=1(?:&amp;|&)|(?:&amp;|&)provisional=1"
)
"""``provisional=1`` in a page's links (the poll address, the sort links): dropped to compare the anonymous
provisional standings with the public ones."""


def fold(text: str) -> str:
    """The page as the cache stores it: every run of whitespace holding a line break is one line break."""
    return _FOLD.sub("\n", text)


@dataclass(frozen=True)
class Read:
    """One anonymous request."""

    page: str
    number: int = 1
    player: int = 1
    sort: str = ""
    provisional: bool = False
    hx: str | None = None
    language: str = "en"
    fmt: str = "csv"

    @property
    def path(self) -> str:
        base = f"/e/{SLUG}/"
        paths = {
            "event": base,
            "seating": f"{base}seating/{self.number}/",
            "results": f"{base}results/{self.number}/",
            "standings": f"{base}standings/",
            "player": f"{base}players/p{self.player}/",
            "teams": f"{base}teams/",
            "side": f"{base}side-rankings/",
            "projector": f"{base}projector/",
            "download": f"/e/{SLUG}/standings.{self.fmt}",
        }
        return paths[self.page]

    @property
    def query(self) -> dict[str, str]:
        if self.page != "standings":
            return {}
        query = {"sort": self.sort} if self.sort else {}
        return {**query, "provisional": "1"} if self.provisional else query

    def __str__(self) -> str:
        query = "&".join(f"{k}={v}" for k, v in self.query.items())
        return f"{self.path}{'?' + query if query else ''} HX-Request={self.hx} lang={self.language}"


PAGES = ["event", "seating", "results", "player", "teams", "side", "projector"]
numbers = st.sampled_from([1, 2])
players = st.integers(1, 8)
headers = st.sampled_from([None, "true", "false"])
languages = st.sampled_from(["en", "zh-hans"])
sorts = st.sampled_from(["", "-score", "name"])
# XLSX and PDF take tens of milliseconds each: seldom drawn, compared by their parsed content.
formats = st.sampled_from(["csv", "csv", "csv", "json", "json", "csv", "xlsx", "pdf"])
entries = st.builds(
    HandEntry,
    winner=st.sampled_from(["E", "S", "W", "N"]),
    discarder=st.sampled_from([None, "E", "S", "W", "N"]),
    fan=st.sampled_from([8, 12, 24, 88]),
)
tables = st.tuples(st.sampled_from([1, 2]), st.sampled_from([1, 2]))  # (session, table)


def _entry(entry: HandEntry) -> HandEntry:
    """A discarder is never the winner (self-drawn instead)."""
    return replace(entry, discarder=None) if entry.discarder == entry.winner else entry


@dataclass(frozen=True)
class Answer:
    status: int
    body: str


_MADE_AT = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")
"""A download's "made at" minute (``scoring.exports.base.made_at``): a stored file says when it was made,
which an uncached one a minute later does not."""


def _body(read: Read, content: bytes, content_type: str) -> str:
    """What a reader sees, without what differs per rendering (a PDF's creation date, a workbook's zip,
    the minute a download was made)."""
    if "pdf" in content_type:
        from pypdf import PdfReader

        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
        return _MADE_AT.sub("<made at>", text)
    if "spreadsheet" in content_type:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(content), read_only=True)
        sheets = repr([(ws.title, [list(row) for row in ws.iter_rows(values_only=True)]) for ws in book])
        return _MADE_AT.sub("<made at>", sheets)
    text = fold(content.decode())
    if "csv" in content_type:
        return repr(list(csv.reader(io.StringIO(text))))
    return text


def _difference(cached: str, fresh: str) -> str:
    """How a cached body differs from the uncached one, in a line."""
    if ("<html" in cached) != ("<html" in fresh):
        return (
            "a whole page where the fragment is due" if "<html" in cached else "a fragment for a whole page"
        )
    lines = [(a, b) for a, b in zip(cached.splitlines(), fresh.splitlines(), strict=False) if a != b]
    first = lines[0] if lines else (cached[-80:], fresh[-80:])
    return f"answer differs from the uncached one: {first[0][:160]!r} instead of {first[1][:160]!r}"


def _build_event(organiser: Any, referee: Any) -> Tournament:
    """An MCR draft event: 8 players, 2 sessions of 2 hands, both seated, nothing published."""
    from tournaments.models import Role

    tournament = event_services.create_tournament(
        event_services.EventDetails(
            name="Property Open", slug=SLUG, num_sessions=2, hands_per_session=HANDS_PER_SESSION
        ),
        acting_user=organiser,
    )
    event_services.grant_role(tournament, referee, Role.REFEREE, acting_user=organiser)
    event_services.set_seating_options(
        tournament, substitute_policy="none", swiss=False, time_limit=0.5, acting_user=organiser
    )
    for index, name in enumerate(["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"], start=1):
        registrations.register_player(
            tournament, registrations.PlayerRow(name=name, team=f"T{index % 4}"), acting_user=organiser
        )
    for number in (1, 2):
        reseating.generate_seating(tournament.rounds.get(number=number), acting_user=organiser)
    return Tournament.objects.get(pk=tournament.pk)


@dataclass
class Stats:
    examples: int = 0
    steps: int = 0
    requests: int = 0


class PublicReads(RuleBasedStateMachine):
    """Organiser and referee actions interleaved with anonymous reads, each read compared with an
    uncached one. ``organiser`` and ``referee`` are set by the test (the event is built once per test)."""

    organiser: ClassVar[Any] = None
    referee: ClassVar[Any] = None
    stats: ClassVar[Stats] = Stats()
    exact: ClassVar[bool] = True
    """Whether cached answers must equal uncached ones (False: only the visibility invariants; every test
    of the one read path asks for exact answers)."""

    def __init__(self) -> None:
        super().__init__()
        self._savepoint = transaction.atomic()
        self._savepoint.__enter__()
        # Each example starts the event's versions again (the savepoint rolls them back, which a real
        # database never does): no answer stored under them may carry over.
        cache.clear()
        public_read.recent_answers.clear()
        self.stats.examples += 1
        self.recent: list[Read] = []

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._savepoint.__exit__(None, None, None)
        cache.clear()
        public_read.recent_answers.clear()

    # --- the world -----------------------------------------------------------------------------------

    @property
    def event(self) -> Tournament:
        return Tournament.objects.get(slug=SLUG)

    def _table(self, where: tuple[int, int]) -> Table:
        session, number = where
        return Table.objects.select_related("round__tournament").get(
            round__tournament__slug=SLUG, round__number=session, number=number
        )

    def _released(self) -> tuple[Any, ...]:
        """What the public may see: the event, each session's seating and results, the freeze."""
        event = self.event
        parts = event.rounds.order_by("number").values_list("seating_published_at", "results_published_at")
        return (
            event.published_at is not None,
            event.standings_frozen_after,
            *((seating is not None, results is not None) for seating, results in parts),
        )

    @contextmanager
    def _acting(self, what: str) -> Iterator[None]:
        """An action as a request makes it: its own transaction (a savepoint here), its on-commit work
        done, a refusal (``ServiceError``) changing nothing; then the last pages read are read again,
        and must be exactly the uncached ones after a visibility change even when ``exact`` is off."""
        self.stats.steps += 1
        before = self._released()
        try:
            with TestCase.captureOnCommitCallbacks(execute=True):
                yield
        except ServiceError as error:
            what = f"{what}: refused ({error.code})"
        if VERBOSE:
            print(what)
        exact = self.exact or self._released() != before
        for read in self.recent:
            self._check(read, twice=False, exact=exact)

    # --- organiser ----------------------------------------------------------------------------------

    @initialize(published=st.booleans())
    def start(self, published: bool) -> None:
        """Half the examples start from a published event with every session published."""
        if published:
            with self._acting("publish everything"):
                release.publish_everything(self.event, acting_user=self.organiser)

    @rule(published=st.booleans())
    def organiser_publishes_the_event(self, published: bool) -> None:
        with self._acting(f"publish_event({published})"):
            release.publish_event(self.event, published, acting_user=self.organiser)

    @rule(
        number=st.sampled_from([1, 2]), part=st.sampled_from(["seating", "results"]), published=st.booleans()
    )
    def organiser_publishes_a_session(self, number: int, part: str, published: bool) -> None:
        round_ = Round.objects.get(tournament__slug=SLUG, number=number)
        with self._acting(f"publish_session({number}, {part}, {published})"):
            release.publish_session(round_, part, published, acting_user=self.organiser)

    @rule(after=st.sampled_from([None, 1, 2]))
    def organiser_freezes_the_standings(self, after: int | None) -> None:
        with self._acting(f"freeze_standings({after})"):
            release.freeze_standings(self.event, after, acting_user=self.organiser)

    # --- referees -----------------------------------------------------------------------------------

    @rule(where=tables, entry=entries)
    def referee_records_a_hand(self, where: tuple[int, int], entry: HandEntry) -> None:
        with self._acting(f"record_hand({where}, {entry})"):
            record_hand(self._table(where), _entry(entry), acting_user=self.referee)

    @rule(where=tables)
    def referee_completes_and_organiser_confirms(self, where: tuple[int, int]) -> None:
        """Mark the table complete (referee) and confirm it (organiser, a second person)."""
        with self._acting(f"confirm({where})"):
            table = self._table(where)
            if Hand.objects.filter(table=table, is_current=True, voided=False).exists():
                set_table_finished(table, True, acting_user=self.referee)
            confirmation.confirm(table, acting_user=self.organiser)

    @rule(where=tables, number=st.integers(1, HANDS_PER_SESSION), entry=entries)
    def referee_corrects_a_hand(self, where: tuple[int, int], number: int, entry: HandEntry) -> None:
        table = self._table(where)
        hand = Hand.objects.filter(table=table, number=number, is_current=True).first()
        with self._acting(f"correct_hand({where}, {number}, {entry})"):
            if hand is None:
                raise ServiceError("no such hand", code="no_hand")
            correct_hand(hand, _entry(entry), acting_user=self.referee)

    @rule(where=tables)
    def referee_deletes_the_last_hand(self, where: tuple[int, int]) -> None:
        with self._acting(f"void_last_hand({where})"):
            void_last_hand(self._table(where), acting_user=self.referee)

    @rule(where=tables)
    def referee_reopens_the_table(self, where: tuple[int, int]) -> None:
        """Reopen the table: its confirmation is withdrawn."""
        with self._acting(f"reopen({where})"):
            set_table_finished(self._table(where), False, acting_user=self.referee)

    # --- readers ------------------------------------------------------------------------------------

    @rule(page=st.sampled_from(PAGES), number=numbers, player=players, hx=headers, language=languages)
    def anonymous_reads_a_page(
        self, page: str, number: int, player: int, hx: str | None, language: str
    ) -> None:
        self._read(Read(page, number=number, player=player, hx=hx, language=language))

    @rule(page=st.sampled_from(sorted(FRAGMENT_PAGES)), number=numbers, player=players, language=languages)
    def anonymous_polls_a_fragment(self, page: str, number: int, player: int, language: str) -> None:
        """What each page's htmx poll asks for."""
        self._read(Read(page, number=number, player=player, hx="true", language=language))

    @rule(sort=sorts, provisional=st.booleans(), hx=headers, language=languages)
    def anonymous_reads_the_standings(
        self, sort: str, provisional: bool, hx: str | None, language: str
    ) -> None:
        self._read(Read("standings", sort=sort, provisional=provisional, hx=hx, language=language))

    @rule(fmt=formats, language=languages)
    def anonymous_downloads_the_standings(self, fmt: str, language: str) -> None:
        self._read(Read("download", fmt=fmt, language=language))

    @rule(index=st.integers(0, RECHECKED_AFTER_AN_ACTION - 1))
    def anonymous_reloads(self, index: int) -> None:
        """A reader reloads a page read lately (served from the cache when nothing changed)."""
        if self.recent:
            self._read(self.recent[index % len(self.recent)])
        else:
            self.stats.steps += 1

    def _read(self, read: Read) -> None:
        self.stats.steps += 1
        self._check(read)
        if read in self.recent:
            self.recent.remove(read)
        self.recent = [*self.recent, read][-RECHECKED_AFTER_AN_ACTION:]

    def _get(self, read: Read) -> Answer:
        headers = {"Accept-Language": read.language}
        if read.hx is not None:
            headers["HX-Request"] = read.hx
        self.stats.requests += 1
        response = Client().get(read.path, read.query, headers=headers)
        content_type = response.get("Content-Type", "")
        return Answer(response.status_code, _body(read, response.content, content_type))

    def _uncached(self, read: Read) -> Answer:
        with override_settings(**NO_CACHE):
            return self._get(read)

    def _check(self, read: Read, *, twice: bool = True, exact: bool | None = None) -> None:
        """Read through the cache (twice: rendered, then stored) and without it, and compare."""
        first = self._get(read)
        again = self._get(read) if twice else first
        fresh = self._uncached(read)
        if self.exact if exact is None else exact:
            assert (first.status, again.status) == (fresh.status, fresh.status), (
                f"{read}: cached {first.status}, {again.status}; uncached {fresh.status}"
            )
            assert first.body == fresh.body, f"{read}: cached {_difference(first.body, fresh.body)}"
            assert again.body == fresh.body, f"{read}: stored {_difference(again.body, fresh.body)}"
        for answer in (first, again, fresh):
            self._visible_as_released(read, answer)
            self._shaped_as_asked(read, answer)
        if read.page == "standings" and read.provisional:
            plain = self._uncached(replace(read, provisional=False))
            ours, public = _PROVISIONAL.sub("", fresh.body), _PROVISIONAL.sub("", plain.body)
            assert (fresh.status, ours) == (plain.status, public), (
                f"{read}: an anonymous reader's provisional standings differ from the public standings"
            )

    def _visible_as_released(self, read: Read, answer: Answer) -> None:
        event = self.event
        if event.published_at is None:
            assert answer.status == 404, f"{read}: {answer.status} for a draft event"
            return
        if read.page in ("seating", "results"):
            round_ = event.rounds.get(number=read.number)
            field = "seating_published_at" if read.page == "seating" else "results_published_at"
            if getattr(round_, field) is None:
                assert answer.status == 404, f"{read}: {answer.status} for a draft session {read.page}"

    def _shaped_as_asked(self, read: Read, answer: Answer) -> None:
        if answer.status != 200 or read.page == "download":
            return
        fragment = read.hx == "true" and read.page in FRAGMENT_PAGES
        assert ("<html" in answer.body) != fragment, (
            f"{read}: {'a whole page' if not fragment else 'a fragment'} expected"
        )


def _run(name: str, organiser: Any, referee: Any, *, exact: bool) -> None:
    _build_event(organiser, referee)
    stats = Stats()
    machine = type(
        "PublicReadsTest",
        (PublicReads,),
        {"organiser": organiser, "referee": referee, "exact": exact, "stats": stats},
    )
    started = time.perf_counter()
    try:
        run_state_machine_as_test(
            machine,
            settings=settings(
                max_examples=EXAMPLES,
                stateful_step_count=STEPS,
                deadline=None,
                phases=PHASES,
                suppress_health_check=list(HealthCheck),
            ),
        )
    finally:
        if REPORT:
            line = {**asdict(stats), "test": name, "seconds": round(time.perf_counter() - started, 2)}
            with open(REPORT, "a", encoding="utf-8") as report:
                report.write(json.dumps(line) + "\n")


@pytest.mark.slow
def test_cached_public_reads_answer_what_an_uncached_rendering_answers(organiser, referee):
    _run("exact", organiser, referee, exact=True)


@pytest.mark.slow
def test_with_each_workers_own_copies_the_answers_are_still_exact(organiser, referee, settings):
    # Production keeps the answers a worker served last in its own memory (PUBLIC_PAGE_LOCAL_BYTES), under
    # keys naming every version: they must never be older than an uncached rendering either.
    settings.PUBLIC_PAGE_LOCAL_BYTES = 32 * 1024 * 1024
    public_read.recent_answers.clear()
    try:
        _run("local copies", organiser, referee, exact=True)
    finally:
        public_read.recent_answers.clear()
