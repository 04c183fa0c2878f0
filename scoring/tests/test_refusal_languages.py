"""Refusals in the reader's language: the rule engines' errors (a stable code, an English
template and parameters, scoring/rules/errors.py) and the services' errors reach the referee page in
Chinese when the page is Chinese, and word for word as before in English."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.rules.errors import HandInputError
from scoring.rules.mcr import calculator
from scoring.rules.mcr.ruleset import MCRRuleSet
from scoring.rules.mcr.session import HandOutcome, validate_hand
from scoring.rules.tiles import parse_hand
from scoring.views_tiles import breakdown
from tournaments.messages import rule_message, rule_sentence

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def _refusal(call: Any) -> HandInputError:
    with pytest.raises(HandInputError) as caught:
        call()
    return caught.value


BAD_INPUTS = [
    # Rule 24 (seeds/mcr.md): a winning hand needs 8 fan points without the flowers.
    lambda: validate_hand(HandOutcome(winner="E", discarder="S", fan=7)),
    lambda: validate_hand(HandOutcome(winner="E", discarder="E", fan=8)),
    lambda: parse_hand({"concealed": ["1m", "x9"], "melds": [], "win_tile": "1m"}),
    lambda: parse_hand({"concealed": ["1m"], "melds": [{"type": "chow", "tiles": ["1z", "2z", "3z"]}]}),
    lambda: calculator.calculate(parse_hand({"concealed": ["1m"] * 4 + ["2m"] * 9, "win_tile": "1m"})),
]


@pytest.mark.parametrize("call", BAD_INPUTS)
def test_an_engine_refusal_reads_as_before_in_english_and_in_chinese_in_chinese(call):
    error = _refusal(call)
    assert error.code and error.template
    with translation.override("en"):
        assert rule_message(error) == error.message
    with translation.override("zh-hans"):
        chinese = rule_message(error)
    assert chinese != error.message
    assert any("\u4e00" <= char <= "\u9fff" for char in chinese), chinese


def test_an_error_quoted_inside_another_is_translated_too():
    error = _refusal(BAD_INPUTS[3])
    assert error.message == "meld 1: a chow cannot be made of honours"
    with translation.override("zh-hans"):
        assert rule_message(error) == "第1组副露：字牌不能组成顺子"
        assert rule_sentence(error).endswith("。")
    with translation.override("en"):
        assert rule_sentence(error) == "Meld 1: a chow cannot be made of honours."


def test_a_template_the_catalogue_lacks_reads_in_english():
    error = HandInputError("nothing like this is in the catalogue (%(n)s)", code="x", n=3)
    with translation.override("zh-hans"):
        assert rule_message(error) == "nothing like this is in the catalogue (3)"


def test_a_hand_below_the_minimum_is_refused_in_the_page_language(client, event, table, referee):
    """MCR rule 24 (seeds/mcr.md): the referee page says why, in Chinese or in English."""
    client.force_login(referee)
    url = reverse("referee:add_hand", args=[event.slug, 1, 1])
    form = {"how": "discard", "winner": "E", "discarder": "S", "fan": "7", "expected_number": "1"}
    chinese = client.post(url, form, **ZH).content.decode()
    assert "和牌至少需要8番（不计花牌，国标规则第24条）；录入了7番" in chinese
    assert "fan points, flowers excluded" not in chinese
    english = client.post(url, form, **EN).content.decode()
    assert (
        "A winning hand needs at least 8 fan points, flowers excluded (MCR rule 24); 7 was entered" in english
    )


def test_a_service_refusal_is_in_the_page_language(client, event, table, referee):
    client.force_login(referee)
    url = reverse("referee:table", args=[event.slug, 1, 1]) + "hands/void/"
    chinese = client.post(url, {"expected_last": "0"}, follow=True, **ZH).content.decode()
    assert "没有可删除的牌局。" in chinese
    english = client.post(url, {"expected_last": "0"}, follow=True, **EN).content.decode()
    assert "There is no hand to delete." in english


def test_the_typed_tiles_breakdown_names_the_problem_in_the_page_language():
    raw = json.dumps({"concealed": ["1m", "x9"], "melds": [], "win_tile": "1m"})
    with translation.override("zh-hans"):
        assert "未知的牌代码'x9'" in breakdown(raw, MCRRuleSet())["error"]
    with translation.override("en"):
        assert "unknown tile code 'x9'" in breakdown(raw, MCRRuleSet())["error"]


def test_the_nmjl_lateness_note_carries_the_scheme_points_in_both_languages():
    from scoring.rules import registry

    rules = registry.rule_set("nmjl", {})
    points = rules.scheme.late
    english = rules.late_note_in("en")
    assert english == rules.late_note()
    assert english == f"Not in seat at the start: {points} tournament points (the event's scoring scheme)."
    assert rules.late_note_in("zh-hans") == f"开局时未就座：{points}比赛积分（赛事的计分方案）。"


def test_a_settings_problem_is_refused_in_the_page_language(event, organiser):
    from tournaments.errors import ServiceError
    from tournaments.services import events as event_services

    for language, expected in [
        ("en", "Clock.slow_minutes: must be at least 1."),
        ("zh-hans", "Clock.slow_minutes：不能小于1。"),
    ]:
        with translation.override(language), pytest.raises(ServiceError) as refused:
            event_services.update_settings(event, {"clock.slow_minutes": 0}, acting_user=organiser)
        assert refused.value.code == "bad_settings"
        assert refused.value.message == expected
