"""The 81 fans by their Chinese names, and tiles and winds in both languages (pure, no database)."""

from __future__ import annotations

from scoring.rules import vocabulary
from scoring.rules.mcr.fan_names import CHINESE_FAN_NAMES, FAN_NAMES
from scoring.rules.mcr.fan_table import FANS
from scoring.rules.mcr.ruleset import MCRRuleSet
from scoring.rules.nmjl.ruleset import NMJLRuleSet


def test_every_one_of_the_81_fans_has_one_chinese_name_and_no_two_share_it():
    """Sloper rule 95 (seeds/003_2541481d343502a5.txt, lines 2415-2870) numbers the fans 1-81."""
    assert sorted(CHINESE_FAN_NAMES) == list(range(1, 82)) == [fan.number for fan in FANS]
    assert len(set(CHINESE_FAN_NAMES.values())) == 81
    assert set(FAN_NAMES["zh-hans"]) == {fan.name for fan in FANS}


def test_the_rule_set_names_fans_by_their_official_chinese_names():
    rules = MCRRuleSet()
    expected = {
        "Big Four Winds": "大四喜",  # rule 95 no. 1
        "Big Three Dragons": "大三元",  # no. 2
        "All Green": "绿一色",  # no. 3
        "Nine Gates": "九莲宝灯",  # no. 4
        "Four Kongs": "四杠",  # no. 5
        "Seven Shifted Pairs": "连七对",  # no. 6
        "Thirteen Orphans": "十三幺",  # no. 7
        "Chicken Hand": "无番和",  # no. 43
        "All Chows": "平和",  # no. 63
        "Self-Drawn": "自摸",  # no. 80
        "Flower Tiles": "花牌",  # no. 81
    }
    for english, chinese in expected.items():
        assert rules.fan_label(english, "zh-hans") == chinese
        assert rules.fan_label(english, "en") == english


def test_an_unknown_fan_or_language_reads_as_given():
    rules = MCRRuleSet()
    assert rules.fan_label("Something Else", "zh-hans") == "Something Else"
    assert rules.fan_label("All Green", "fr") == "All Green"
    assert rules.fan_label("All Green", None) == "All Green"
    assert rules.fan_label("All Green", "zh-Hans-CN") == "绿一色"


def test_tiles_are_named_in_each_language():
    assert vocabulary.tile_label("5s", "en") == "Five of Bamboo"
    assert vocabulary.tile_label("5s", "zh-hans") == "五条"
    assert vocabulary.tile_label("1m", "zh-hans") == "一万"
    assert vocabulary.tile_label("9p", "en") == "Nine of Dots"
    assert vocabulary.tile_label("9p", "zh-hans") == "九筒"
    assert [vocabulary.tile_label(f"{n}z", "zh-hans") for n in range(1, 8)] == [
        "东风", "南风", "西风", "北风", "白板", "发财", "红中",
    ]  # fmt: skip
    assert vocabulary.tile_label("7z", "en") == "Red Dragon"
    assert vocabulary.tile_label("f", "zh-hans") == "花牌"
    assert vocabulary.tile_label("j", "en") == "Joker"


def test_a_code_that_is_no_tile_is_shown_as_typed():
    for code in ("0m", "8z", "xx", "", "10m"):
        assert vocabulary.tile_label(code, "zh-hans") == code


def test_winds_and_sets_in_each_language():
    assert [vocabulary.wind_label(w, "zh-hans") for w in "ESWN"] == ["东", "南", "西", "北"]
    assert vocabulary.wind_label("E", "en") == "East"
    assert vocabulary.wind_short("E", "en") == "E"
    assert vocabulary.wind_short("N", "zh-hans") == "北"
    assert vocabulary.meld_label("pung", "zh-hans") == "刻子"


def test_each_rule_set_says_its_own_words_for_a_hand():
    assert MCRRuleSet().word("hands", "zh-hans") == "盘"
    assert NMJLRuleSet().word("hand", "en") == "game"
    assert NMJLRuleSet().word("hands", "zh-hans") == "局"
    assert MCRRuleSet().label_in("zh-hans") == "国标麻将（MCR）"
    assert NMJLRuleSet().label_in("de") == "American (NMJL)"


def test_every_ruling_of_the_referees_mcr_catalogue_has_a_chinese_name():
    """Sloper rules 77-91 (seeds/003_2541481d343502a5.txt, chapter 4), as the referee's list shows them."""
    rules = MCRRuleSet()
    for ruling in rules.penalty_catalogue():
        chinese = rules.word(ruling.label, "zh-hans")
        assert chinese != ruling.label and not any("a" <= c.lower() <= "z" for c in chinese), ruling.label
    assert rules.word("False hu with a ready hand", "zh-hans") == "诈和（已听牌）"  # rule 84a


def test_every_rule_set_names_its_rulings_in_chinese():
    """NMJL rules 92-98 and the tournament rules (Sloper chapter 3), the classical books' warnings."""
    from scoring.rules.registry import RULE_SETS

    for cls in RULE_SETS.values():
        rules = cls()
        for ruling in rules.penalty_catalogue():
            assert rules.word(ruling.label, "zh-hans") != ruling.label, (cls.code, ruling.label)
