"""django-tables2 tables for the public pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.utils.functional import Promise
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.standings import UNRANKED_LABELS
from scoring.standings_cache import decided_text


def _points(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


class UnseenHeaderColumn(tables.Column):  # type: ignore[misc]  # django-tables2 ships no type hints
    """A column whose heading is read by screen readers but not shown: a blank ``<th>`` leaves a
    column unnamed (WCAG 1.3.1), while a word over the column would only crowd a phone's narrow table."""

    def __init__(self, heading: Promise, **kwargs: Any) -> None:
        super().__init__(verbose_name="", **kwargs)
        self.heading = heading

    @property
    def header(self) -> SafeString:
        """The heading in the page's language, in the site's ``.visually-hidden`` span (static/css/site.css)."""
        return format_html('<span class="visually-hidden">{}</span>', self.heading)


class StandingsTable(tables.Table):  # type: ignore[misc]  # django-tables2 ships no type hints
    rank = tables.Column(
        verbose_name="#",
        attrs={"td": {"class": "num"}},
        default="—",
        # By the standings' order, not the rank itself: a player out of the ranking (rank None, MCR
        # 77e-f, 89) stays at the bottom instead of sorting first.
        order_by=("place",),
    )
    name = tables.Column(verbose_name=_("Player"), linkify=lambda record, table: table.player_url(record))
    status = UnseenHeaderColumn(_("Status"), orderable=False, default="")
    country = UnseenHeaderColumn(_("Country"), orderable=False, default="")
    decided = tables.Column(
        verbose_name=_("Tie-break"),
        orderable=False,
        empty_values=(),
        accessor="player",
        attrs={"td": {"class": "tie-break"}},
    )
    table_points = tables.Column(verbose_name=_("Table pts"), attrs={"td": {"class": "num"}})
    score = tables.Column(verbose_name=_("Score"), attrs={"td": {"class": "num"}})

    class Meta:
        attrs = {"class": "standings"}
        order_by = "rank"
        template_name = "scoring/public/_sortable_table.html"
        row_attrs = {"data-name": lambda record: record["name"]}  # the search box filters by it (site.js)

    def __init__(self, *args: Any, tournament_slug: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament_slug = tournament_slug

    def player_url(self, record: dict[str, Any]) -> str:
        from django.urls import reverse

        return reverse("public:player", args=[self.tournament_slug, record["player"]])

    def body_html(self) -> SafeString:
        """The rows as django-tables2's body draws them (``scoring/tests/test_standings_page.py`` compares
        the two, parsed, for every sort, language and rule set), in one pass over the records without its
        per-cell machinery: at 400 players ~20 ms a drawing instead of ~190, and the standings are drawn
        for every public version and language (``scoring.standings_page``)."""
        columns = list(self.columns)
        unknown = {column.name for column in columns} - set(FAST_CELLS)
        if unknown:  # a column added to the table: draw it here too (the test says what differs)
            raise NotImplementedError(f"standings columns without a fast cell: {sorted(unknown)}")
        cells = [(column.attrs["td"].as_html(), FAST_CELLS[column.name]) for column in columns]
        drawn = []
        for row in self.rows:
            record = row.record
            tds = "".join(f"<td {attrs}>{cell(self, record)}</td>" for attrs, cell in cells)
            drawn.append(f"<tr {row.attrs.as_html()}>{tds}</tr>")
        return mark_safe("\n".join(drawn))  # noqa: S308  # each cell escaped below

    def render_table_points(self, value: Any) -> str:
        return _points(value)

    def render_decided(self, record: dict[str, Any]) -> str:
        """What decided the place against the neighbours ("ahead on head-to-head", MCR rule 73's
        "shared"): ``scoring.standings_cache.decided_text``."""
        return decided_text(record)

    def render_status(self, value: str) -> str:
        """Out of the ranking by a ruling (MCR rules 77e-f and 89): said in words, not left blank."""

        return UNRANKED_LABELS.get(value, value)


def _or_default(record: dict[str, Any], key: str, default: str = "—") -> str:
    """A cell as django-tables2 draws a plain column: the value escaped, or the default when empty."""
    value = record.get(key)
    return default if value is None or value == "" else str(conditional_escape(value))


def _table_points_cell(table: StandingsTable, record: dict[str, Any]) -> str:
    value = record.get("table_points")
    return "—" if value is None or value == "" else str(conditional_escape(table.render_table_points(value)))


FAST_CELLS: dict[str, Callable[[StandingsTable, dict[str, Any]], str]] = {
    "rank": lambda table, record: _or_default(record, "rank"),
    "name": lambda table, record: format_html(
        '<a href="{}">{}</a>', table.player_url(record), record["name"]
    ),
    "status": lambda table, record: (
        str(conditional_escape(table.render_status(record["status"]))) if record.get("status") else ""
    ),
    "country": lambda table, record: _or_default(record, "country", ""),
    "decided": lambda table, record: str(conditional_escape(table.render_decided(record))),
    "table_points": _table_points_cell,
    "score": lambda table, record: _or_default(record, "score"),
}
"""Each standings column's cell for :meth:`StandingsTable.body_html`, drawn as its column above draws it."""


class ScoreStandingsTable(StandingsTable):
    """Rule sets ranked by score alone (NMJL tournament points, classical totals)."""

    class Meta(StandingsTable.Meta):
        exclude = ("table_points",)
