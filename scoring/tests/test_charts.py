"""The player page's chart (inline SVG built on the server) and the places after each session."""

from __future__ import annotations

from xml.etree import ElementTree

from scoring.charts import ChartPoint, progress_chart
from scoring.history import place_at_table, places_after_each_session


def test_the_chart_is_valid_svg_with_a_point_per_session_and_escapes_its_texts():
    svg = progress_chart(
        [ChartPoint("1", 3, 20), ChartPoint("2", 1, 55.5), ChartPoint("<b>&", 2, -10)],
        players=8,
        title='Ana "<script>" O\'Brien',
    )
    root = ElementTree.fromstring(svg)  # well-formed: every text escaped
    ns = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{ns}title").text == 'Ana "<script>" O\'Brien'
    assert len(root.findall(f"{ns}circle")) == 3
    assert "<script" not in svg and "&lt;b&gt;&amp;" in svg
    place_line = root.find(f"{ns}polyline[@class='place-line']").get("points").split()
    ys = [float(point.split(",")[1]) for point in place_line]
    assert ys[1] < ys[2] < ys[0]  # place 1 drawn highest


def test_no_sessions_draw_no_chart_and_one_session_draws_one_point():
    assert progress_chart([], players=8, title="t") == ""
    root = ElementTree.fromstring(progress_chart([ChartPoint("1", 1, 0)], players=1, title="t"))
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 1


def test_places_after_each_session_rank_by_table_points_then_score_and_share_equal_places():
    # MCR rule 73 (seeds/003, line ~2335): table points, then score; equal players share the rank.
    rows = [
        {
            "player": "a",
            "sessions": [
                {"round": 1, "table_points": 4.0, "score": 30},
                {"round": 2, "table_points": 0.0, "score": -40},
            ],
        },
        {
            "player": "b",
            "sessions": [
                {"round": 1, "table_points": 2.0, "score": 10},
                {"round": 2, "table_points": 4.0, "score": 50},
            ],
        },
        {"player": "c", "sessions": [{"round": 1, "table_points": 2.0, "score": 10}]},
    ]
    history = places_after_each_session(rows, use_table_points=True)
    assert history["a"] == {1: (1, 30), 2: (2, -10)}
    assert history["b"] == {1: (2, 10), 2: (1, 60)}
    assert history["c"] == {1: (2, 10)}


def test_place_at_table_counts_those_who_scored_more():
    assert place_at_table(10, [5, 20, 10]) == 2
    assert place_at_table(-5, [5, 20, 10]) == 4


def test_the_chart_names_its_axes_and_its_lines_in_escaped_svg_text():
    svg = progress_chart(
        [ChartPoint("1", 3, 20), ChartPoint("2", 1, 55.5)],
        players=8,
        title="t",
        session_axis="Session <1>",
        place_axis="Place",
        score_axis="Score & more",
        place_key="place in the standings (1 at the top)",
        score_key="total score",
    )
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = {t.get("class"): t.text for t in root.iter(f"{ns}text") if "axis-title" in (t.get("class") or "")}
    assert texts == {
        "axis-title session-axis": "Session <1>",
        "axis-title place-axis": "Place",
        "axis-title score-axis": "Score & more",
    }
    assert "Session &lt;1&gt;" in svg and "Score &amp; more" in svg
    sessions = [t.text for t in root.iter(f"{ns}text") if t.get("class") == "session-label"]
    assert sessions == ["1", "2"]
    legend = [t.text for t in root.find(f"{ns}g[@class='legend']").iter(f"{ns}text")]
    assert legend == ["place in the standings (1 at the top)", "total score"]
    # the legend's strokes are drawn like the lines they name
    assert [line.get("class") for line in root.find(f"{ns}g[@class='legend']").iter(f"{ns}line")] == [
        "place-line",
        "score-line",
    ]
    # accessible: a title and a description reading every point
    assert root.get("aria-labelledby") == "chart-title" and root.get("aria-describedby") == "chart-desc"
    assert (
        root.find(f"{ns}desc").text == "Session <1> 1: Place 3, Score 20; Session <1> 2: Place 1, Score 55.5"
    )


def test_the_player_page_chart_is_labelled_in_the_pages_language(client, demo_event):
    from django.urls import reverse

    code = demo_event.registrations.order_by("code").first().code
    url = reverse("public:player", args=[demo_event.slug, code])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert "轮次" in svg and "名次" in svg and "得分" in svg and "总得分" in svg
