"""English and Simplified Chinese on the public pages: chosen from the browser's Accept-Language
or the switch at the foot of every page (a cookie), an unsupported language reads English, never an error;
fan names, tiles and winds in the page's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

PURE_STRAIGHT: dict[str, Any] = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "5p", "6p", "9s"],
    "melds": [],
    "win_tile": "9s",
    "self_drawn": False,
    "seat_wind": "S",
    "prevalent_wind": "E",
    "flowers": 0,
}


def test_a_browser_asking_for_chinese_gets_the_standings_in_chinese(client, demo_event):
    response = client.get(
        reverse("public:standings", args=[demo_event.slug]), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9"
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="zh-hans">' in text
    assert "<h1>排名</h1>" in text
    assert "标准分" in text  # MCR table points (rule 71)
    assert "Standings" not in text


def test_a_browser_asking_for_english_or_an_unsupported_language_gets_english(client, demo_event):
    for header in ("en-GB,en;q=0.9", "fr-FR,fr;q=0.9", "xx-invalid;;q=abc", ""):
        response = client.get(
            reverse("public:standings", args=[demo_event.slug]), HTTP_ACCEPT_LANGUAGE=header
        )
        text = response.content.decode()
        assert response.status_code == 200, header
        assert '<html lang="en">' in text
        assert "<h1>Standings</h1>" in text
        assert "排名" not in text


def test_the_switch_remembers_the_choice_in_a_cookie(client, demo_event):
    standings = reverse("public:standings", args=[demo_event.slug])
    page = client.get(standings).content.decode()
    assert f'action="{reverse("set_language")}"' in page
    assert 'value="zh-hans"' in page and "简体中文" in page

    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": standings})
    assert response.status_code == 302
    assert response["Location"] == standings
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    # The cookie wins over the browser's own preference.
    text = client.get(standings, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>排名</h1>" in text

    client.post(reverse("set_language"), {"language": "en", "next": standings})
    assert "<h1>Standings</h1>" in client.get(standings).content.decode()


def test_switching_to_an_unsupported_language_changes_nothing_and_is_no_error(client, demo_event):
    standings = reverse("public:standings", args=[demo_event.slug])
    response = client.post(reverse("set_language"), {"language": "klingon", "next": standings})
    assert response.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert "<h1>Standings</h1>" in client.get(standings).content.decode()
    # An outside address as "next" is not followed.
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_the_cached_standings_are_kept_per_language(client, demo_event):
    standings = reverse("public:standings", args=[demo_event.slug])
    english = client.get(standings, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true")
    chinese = client.get(standings, HTTP_ACCEPT_LANGUAGE="zh-hans", HTTP_HX_REQUEST="true")
    assert "Player" in english.content.decode() and "选手" not in english.content.decode()
    assert "选手" in chinese.content.decode()
    assert english["ETag"] != chinese["ETag"]


def test_every_public_page_reads_in_chinese(client, demo_event):
    code = demo_event.registrations.first().code
    pages = {
        reverse("public:home"): "赛事",
        reverse("public:event", args=[demo_event.slug]): "座位表",
        reverse("public:seating", args=[demo_event.slug, 1]): "查找您的座位",
        reverse("public:results", args=[demo_event.slug, 1]): "成绩：第1轮",
        reverse("public:player", args=[demo_event.slug, code]): "对手",
        reverse("public:projector", args=[demo_event.slug]): "标准分",
    }
    for url, words in pages.items():
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert response.status_code == 200, url
        assert words in response.content.decode(), url


def test_a_hands_tiles_and_fans_are_named_in_the_pages_language(client, event, table, referee):
    from scoring.services import entry

    entry.record_hand(
        table, entry.HandEntry(winner="E", discarder="S", fan=22, tiles=PURE_STRAIGHT), acting_user=referee
    )
    url = reverse("public:results", args=[event.slug, 1])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'alt="Nine of Bamboo"' in english
    assert 'alt="One of Characters"' in english
    assert "Pure Straight 16" in english  # rule 95 no. 28
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'alt="九条"' in chinese
    assert 'alt="一万"' in chinese
    assert "清龙 16" in chinese
    assert "和牌张" in chinese


def test_an_unknown_page_is_a_friendly_page_in_chinese(client):
    response = client.get("/no-such-event/standings/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 404
    assert "没有这个页面" in response.content.decode()


def _pdf_text(content: bytes) -> str:
    import io

    from pypdf import PdfReader

    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


def test_the_prints_are_in_the_language_they_are_made_in(event, referee):
    """The standings PDF, scoresheets, seat slips and table cards (wqy-zenhei embedded: reportlab's own
    fonts have no CJK glyphs)."""
    from django.utils import translation

    from scoring.exports import EVENT_PRINTS, SESSION_PRINTS
    from scoring.services import entry

    table = event.rounds.get(number=1).tables.get(number=1)
    entry.record_hand(table, entry.HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    round_ = event.rounds.get(number=1)
    expected = {
        "scoresheets": ("记分表", "本盘得分", "东圈", "签名"),
        "seat-slips": ("座位条", "扫码查看成绩", "选手编号"),
        "table-cards": ("桌牌", "第1桌"),
    }
    with translation.override("zh-hans"):
        for kind, words in expected.items():
            text = _pdf_text(SESSION_PRINTS[kind](round_, "http://hall.example").render()[2])
            for word in words:
                assert word in text, (kind, word)
        standings = _pdf_text(EVENT_PRINTS["standings"](event).render()[2])
        assert "排名" in standings and "标准分" in standings
    with translation.override("en"):
        text = _pdf_text(SESSION_PRINTS["scoresheets"](round_, "http://hall.example").render()[2])
        assert "Points this hand" in text and "East round" in text


def test_a_hand_reads_in_the_pages_language_on_the_results_and_table_pages(client, event, table, referee):
    """MCR: the winner, the fan points and who discarded, by starting wind (东南西北)."""
    from scoring.services import entry

    entry.record_hand(table, entry.HandEntry(winner="E", discarder="S", fan=10), acting_user=referee)
    entry.record_hand(table, entry.HandEntry(winner="W", fan=8), acting_user=referee)
    url = reverse("public:results", args=[event.slug, 1])
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "东 和 10番，南 放铳" in chinese and "西 自摸 8番" in chinese
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "E wins 10 from S" in english
    client.force_login(referee)
    page = client.get(reverse("referee:table", args=[event.slug, 1, 1]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = page.content.decode()
    assert "东 和 10番，南 放铳" in text and "起始座位" in text and "番数" in text
    assert "MCR 84a: 诈和（已听牌）" in text  # the penalty list, rule 84a


def test_the_organisers_prints_page_names_the_prints_in_chinese(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:prints", args=[event.slug, 1]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = page.content.decode()
    assert page.status_code == 200
    assert (
        "记分表/记分卡（每桌一页）" in text and "座位条" in text and "桌牌" in text and "排名（PDF）" in text
    )


def test_the_organisers_event_page_reads_in_chinese(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:event", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = page.content.decode()
    assert page.status_code == 200
    assert "组织Test Open" in text and "工作人员" in text and "归档赛事" in text and "未开始" in text
    assert "公开排名：" in text and "跟随已发布的成绩" in text  # the release controls


def test_the_organisers_session_page_reads_in_chinese(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:session", args=[event.slug, 1]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = page.content.decode()
    assert page.status_code == 200
    assert "<h1>第1轮</h1>" in text and "交换两名选手" in text and "本轮打印" in text


def test_the_registration_desk_reads_in_chinese(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("manage:players", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = page.content.decode()
    assert page.status_code == 200
    assert "签到/查找" in text and "报名选手" in text and "固定牌桌" in text


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("manage:settings", [], ["设置：Test Open", "选手人数不是四的倍数时", "轮次计时", "保存"]),
        ("manage:pins", [], ["选手的PIN", "重新发放"]),
        ("manage:reseat", [], ["为赛事剩余部分重新排座", "预览方案"]),
        ("manage:upload_seating", [], ["上传事先准备的座位表", "核对文件"]),
        ("manage:appeals_register", [], ["判罚与申诉", "尚未记录任何判罚。"]),
        ("manage:edit_player", ["code"], ["退赛", "保存", "姓名"]),
    ],
)
def test_the_other_organiser_pages_read_in_chinese(client, event, organiser, name, args, expected):
    """The organiser pages too (settings with the schema's labels, PINs, re-seating, uploaded
    seating, the rulings register, editing a player)."""
    code = event.registrations.first().code
    client.force_login(organiser)
    url = reverse(name, args=[event.slug, *(code for _ in args)])
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    for words in expected:
        assert words in text, words
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert not any(words in english for words in expected)
