"""Versioned results read through one queryset: ``in_force()`` (current and not withdrawn) and
``current()`` (current, a withdrawing version included), for every kind of versioned result; and a
ratchet that keeps the two conditions from being spelled out again outside ``scoring/models.py``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps

from scoring.models import (
    Appeal,
    AppealDecision,
    AppealStatus,
    BlindEntry,
    Confirmation,
    Hand,
    LateArrival,
    Penalty,
    PlayerPin,
    Signature,
    TableTotals,
    VersionedResult,
)

ROOT = Path(__file__).resolve().parents[2]
MODELS = [
    Hand,
    TableTotals,
    Penalty,
    LateArrival,
    AppealDecision,
    Confirmation,
    PlayerPin,
    Signature,
    BlindEntry,
]


def _two_facts(model: type[VersionedResult], event: Any, organiser: Any) -> tuple[dict, dict]:
    """The fields of two different facts of ``model`` (two identities) in the test event."""
    tables = list(event.rounds.get(number=1).tables.order_by("number"))
    people = [seat.registration for seat in tables[0].seats.order_by("wind")]
    if model is Hand:
        return {"table": tables[0], "number": 1}, {"table": tables[0], "number": 2}
    if model is TableTotals:
        return {"table": tables[0], "scores": {}}, {"table": tables[1], "scores": {}}
    if model is Penalty:
        fields = {"table": tables[0], "registration": people[0], "points": 10}
        return {**fields, "position": 1}, {**fields, "position": 2}
    if model in (LateArrival, Signature):
        extra = {"minutes": 5} if model is LateArrival else {}
        return (
            {"table": tables[0], "registration": people[0], **extra},
            {"table": tables[0], "registration": people[1], **extra},
        )
    if model is AppealDecision:
        first, second = (Appeal.objects.create(table=tables[0], filed_by=organiser) for _ in range(2))
        return {"appeal": first, "status": AppealStatus.UPHELD}, {
            "appeal": second,
            "status": AppealStatus.UPHELD,
        }
    if model is Confirmation:
        return {"table": tables[0]}, {"table": tables[1]}
    if model is PlayerPin:
        PlayerPin.objects.filter(registration__in=people[:2]).delete()  # none but this test's
        return (
            {"tournament": event, "registration": people[0], "pin": "914270"},
            {"tournament": event, "registration": people[1], "pin": "914271"},
        )
    if model is BlindEntry:
        return {"table": tables[0], "totals": {}}, {"table": tables[1], "totals": {}}
    raise AssertionError(f"no facts for {model.__name__}: add them here")


def test_every_versioned_result_is_tested_here():
    concrete = {m for m in apps.get_models() if issubclass(m, VersionedResult)}
    assert concrete == set(MODELS)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_in_force_leaves_out_superseded_and_withdrawn_versions(model, event, organiser):
    standing, withdrawn = _two_facts(model, event, organiser)
    old = model.supersede(acting_user=organiser, **standing)
    new = model.supersede(acting_user=organiser, **standing)
    model.supersede(acting_user=organiser, **withdrawn)
    gone = model.supersede(acting_user=organiser, voided=True, **withdrawn)
    ours = model.objects.filter(pk__in=[old.pk, new.pk, gone.pk])

    assert list(ours.in_force()) == [new]
    assert set(ours.current()) == {new, gone}
    assert [row.pk for row in ours.order_by("pk") if row.is_in_force] == [new.pk]


def test_a_related_manager_reads_the_versions_in_force(table, organiser):
    Hand.supersede(table=table, number=1, acting_user=organiser)
    kept = Hand.supersede(table=table, number=1, acting_user=organiser)
    Hand.supersede(table=table, number=2, voided=True, acting_user=organiser)

    assert list(table.hands.in_force()) == [kept]
    assert set(table.hands.current().values_list("number", flat=True)) == {1, 2}


# ``is_current=True, voided=False`` in any spelling (keywords, a dict, a lookup through a relation, in
# either order), and the same test on a loaded row (``x.is_current and not x.voided``).
SPELLED_OUT = re.compile(
    r"""is_current\W{0,2}\s*[=:]\s*True\s*,\s*\W{0,2}(?:\w+__)?voided"""
    r"""|voided\W{0,2}\s*[=:]\s*False\s*,\s*\W{0,2}(?:\w+__)?is_current"""
    r"""|\.is_current\s+and\s+not\s+\w+\.voided""",
)


def _production_sources() -> list[Path]:
    found = []
    for package in ("scoring", "tournaments", "players", "config", "bench"):
        for path in (ROOT / package).rglob("*.py"):
            if "tests" not in path.parts and "migrations" not in path.parts:
                found.append(path)
    return found


def test_no_module_but_the_models_spells_out_in_force():
    allowed = {ROOT / "scoring" / "models.py"}
    offenders = [
        f"{path.relative_to(ROOT)}:{source.count(chr(10), 0, match.start()) + 1}: {match.group(0)!r}"
        for path in _production_sources()
        if path not in allowed
        for source in [path.read_text(encoding="utf-8")]
        for match in SPELLED_OUT.finditer(source)
    ]
    assert not offenders, "use .in_force() / .is_in_force / in_force_q():\n" + "\n".join(offenders)


def test_the_ratchet_catches_each_spelling():
    for spelled in [
        "Hand.objects.filter(table=t, is_current=True, voided=False)",
        "Hand.objects.filter(\n    is_current=True,\n    voided=False,\n)",
        '{"is_current": True, "voided": False}',
        "Q(hands__is_current=True, hands__voided=False)",
        "filter(voided=False, is_current=True)",
        "any(h.is_current and not h.voided for h in hands)",
    ]:
        assert SPELLED_OUT.search(spelled), spelled
    assert not SPELLED_OUT.search("Penalty.objects.filter(is_current=True).count()")
