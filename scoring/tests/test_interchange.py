"""The event JSON of shared/specs/event-json.md: import, export, standings."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.interchange import EventImportError, export_event, import_event
from scoring.standings_cache import standings_rows
from tournaments.models import Tournament


@pytest.mark.django_db
def test_the_spec_example_imports_and_its_standings_follow_the_rules(spec_example):
    tournament = import_event(spec_example)
    rows = standings_rows(tournament)
    # p1 (E) wins 12 from p3: +36/-8/-20/-8 (rule 67a-b); p2 (S) self-draws 8: +48/-16 x3 (rule 67c);
    # a draw; p4's rule-84a penalty is cancelled by the upheld appeal; p2 was 7 min late: -10 (rule 88a).
    assert [(r["player"], r["score"], r["table_points"]) for r in rows] == [
        ("p2", 30, 4.0),
        ("p1", 20, 2.0),
        ("p4", -24, 1.0),
        ("p3", -36, 0.0),
    ]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["sessions"] == [{"round": 1, "table_points": 4.0, "score": 30}]
    assert rows[0]["name"] == "Bruno Costa"


@pytest.mark.django_db
def test_export_then_import_into_an_empty_database_gives_the_same_json(demo_event):
    first = export_event(demo_event)
    Tournament.objects.all().delete()
    from players.models import Player

    Player.objects.all().delete()
    again = export_event(import_event(copy.deepcopy(first)))
    assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True)


@pytest.mark.django_db
def test_the_spec_example_keeps_family_and_given_names_where_given(spec_example):
    tournament = import_event(spec_example)
    players = {r.code: r.player for r in tournament.registrations.select_related("player")}
    assert (players["p1"].family_name, players["p1"].given_name) == ("Silva", "Ana")
    assert (players["p2"].family_name, players["p2"].given_name) == ("", "")
    exported = {p["id"]: p for p in export_event(tournament)["players"]}
    assert (exported["p1"]["family_name"], exported["p1"]["given_name"]) == ("Silva", "Ana")
    assert "family_name" not in exported["p2"] and "given_name" not in exported["p2"]


@pytest.mark.django_db
def test_family_and_given_names_survive_a_round_trip_and_old_documents_still_import(spec_example):
    from players.models import Player

    with_names = copy.deepcopy(spec_example)
    with_names["players"][1].update(name="陈波 Chen Bo", family_name="陈", given_name="波")
    with_names["players"][2].update(name="Jan de Vries", family_name="de Vries", given_name="Jan")
    without = copy.deepcopy(spec_example)
    for player in without["players"]:
        player.pop("family_name", None)
        player.pop("given_name", None)
    for doc in (with_names, without):
        first = export_event(import_event(copy.deepcopy(doc)))
        assert [p["name"] for p in first["players"]] == [p["name"] for p in doc["players"]]
        for mine, theirs in zip(first["players"], doc["players"], strict=True):
            assert mine.get("family_name") == theirs.get("family_name")
            assert mine.get("given_name") == theirs.get("given_name")
        Tournament.objects.all().delete()
        Player.objects.all().delete()
        again = export_event(import_event(copy.deepcopy(first)))
        assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True)
        Tournament.objects.all().delete()
        Player.objects.all().delete()


@pytest.mark.django_db
def test_family_and_given_names_are_checked_like_the_name(spec_example):
    doc = copy.deepcopy(spec_example)
    doc["players"][0]["family_name"] = "x" * 121
    doc["players"][1]["given_name"] = ["Bruno"]
    with pytest.raises(EventImportError) as error:
        import_event(doc)
    problems = error.value.problems
    assert "players[0]: family name is longer than 120 characters (it has 121)" in problems
    assert "players[1].given_name: must be text" in problems
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_bad_document_reports_every_problem_with_its_path_and_writes_nothing(spec_example):
    doc = copy.deepcopy(spec_example)
    table = doc["rounds"][0]["tables"][0]
    table["hands"][0]["fan"] = 6
    table["hands"][1]["winner"] = "p9"
    table["seats"]["N"] = "p4"
    table["penalties"][0]["paid_to"] = "everyone"
    doc["appeals"][0]["penalty"] = 3
    doc["players"][2]["country"] = "Portugal"
    with pytest.raises(EventImportError) as error:
        import_event(doc)
    problems = "\n".join(error.value.problems)
    assert "rounds[0].tables[0].hands[0]" in problems and "rule 24" in problems
    assert "rounds[0].tables[0].hands[1]: winner: 'p9' does not sit at this table" in problems
    assert "rounds[0].tables[0].penalties[0].paid_to" in problems
    assert "appeals[0].penalty" in problems
    assert "players[2]" in problems
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_player_seated_twice_in_a_round_is_reported(spec_example):
    doc = copy.deepcopy(spec_example)
    doc["rounds"][0]["tables"][0]["seats"]["N"] = "p1"
    with pytest.raises(EventImportError) as error:
        import_event(doc)
    assert any("seated twice" in p for p in error.value.problems)


@pytest.mark.django_db
def test_totals_that_do_not_sum_to_zero_are_reported(spec_example):
    doc = copy.deepcopy(spec_example)
    table = doc["rounds"][0]["tables"][0]
    del table["hands"]
    table["totals"] = {"p1": 52, "p2": -20, "p3": -12, "p4": -19}
    with pytest.raises(EventImportError) as error:
        import_event(doc)
    assert any("sum to zero" in p for p in error.value.problems)


@pytest.mark.django_db
def test_a_table_may_report_totals_only(spec_example):
    doc = copy.deepcopy(spec_example)
    table = doc["rounds"][0]["tables"][0]
    del table["hands"]
    table["penalties"] = []
    table["late"] = []
    doc["appeals"] = []
    table["totals"] = {"p1": 52, "p2": -20, "p3": -12, "p4": -20}
    rows = standings_rows(import_event(doc))
    assert [(r["player"], r["table_points"]) for r in rows] == [
        ("p1", 4.0),
        ("p3", 2.0),
        ("p2", 0.5),
        ("p4", 0.5),
    ]


@pytest.mark.django_db
def test_import_refuses_an_existing_slug_unless_replacing(spec_example):
    import_event(copy.deepcopy(spec_example))
    with pytest.raises(EventImportError):
        import_event(copy.deepcopy(spec_example))
    doc = copy.deepcopy(spec_example)
    doc["tournament"]["name"] = "Renamed"
    assert import_event(doc, replace=True).name == "Renamed"
    assert Tournament.objects.count() == 1


@pytest.mark.django_db
def test_the_import_command_exits_1_and_lists_problems(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "mahjong-event/1", "players": 3}')
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_event", str(path))
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    assert "Nothing was imported" in err
    assert "tournament: missing" in err
    assert "players: missing or not a list" in err


@pytest.mark.django_db
def test_the_import_command_reports_broken_json(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(SystemExit):
        call_command("import_event", str(path))
    assert "not valid JSON" in capsys.readouterr().err


@pytest.mark.django_db
def test_standings_command_writes_json_csv_xlsx_and_pdf(demo_event, tmp_path, capsys):
    call_command("standings", "demo-mcr", "--format", "json")
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 16
    assert rows[0]["rank"] == 1
    assert sum(r["table_points"] for r in rows) == 7 * 4 * 2  # 4 tables x 2 played sessions

    call_command("standings", "demo-mcr", "--format", "csv", "--output", str(tmp_path / "s.csv"))
    lines = (tmp_path / "s.csv").read_text().splitlines()
    assert lines[0].startswith("Rank,Player id,Name,Table points,Score")
    assert len(lines) == 17

    import openpyxl

    call_command("standings", "demo-mcr", "--format", "xlsx", "--output", str(tmp_path / "s.xlsx"))
    sheet = openpyxl.load_workbook(tmp_path / "s.xlsx").active
    assert sheet["C1"].value == "Name"
    assert sheet["C2"].value == rows[0]["name"]
    assert sheet.max_row == 17

    from pypdf import PdfReader

    call_command("standings", "demo-mcr", "--format", "pdf", "--output", str(tmp_path / "s.pdf"))
    text = PdfReader(tmp_path / "s.pdf").pages[0].extract_text()
    assert "standings" in text
    assert rows[0]["name"].split()[0] in text


@pytest.mark.django_db
def test_export_command_prints_sorted_json(demo_event, capsys):
    call_command("export_event", "demo-mcr")
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "mahjong-event/1"
    assert len(doc["rounds"]) == 3
    assert len(doc["rounds"][0]["tables"][0]["hands"]) == 16


@pytest.mark.django_db
def test_entries_that_are_not_objects_are_named_by_their_path(spec_example):
    doc = copy.deepcopy(spec_example)
    doc["rounds"][0]["tables"][0]["hands"].append(7)
    doc["rounds"][0]["tables"][0]["late"] = "seven minutes"
    doc["appeals"].append("upheld")
    with pytest.raises(EventImportError) as error:
        import_event(doc)
    assert "rounds[0].tables[0].hands[3]: must be an object" in error.value.problems
    assert "rounds[0].tables[0].late: must be a list" in error.value.problems
    assert "appeals[1]: must be an object" in error.value.problems


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        ({"tie_break": "coin"}, "tournament.settings: tie_break: must be one of"),
        ({"seating": {"time_limit": "abc"}}, "tournament.settings: seating.time_limit: must be a number"),
        ({"colour": "red"}, "tournament.settings: colour: is not a setting this event has"),
    ],
)
def test_settings_the_code_does_not_know_are_refused_at_the_door(spec_example, settings, problem, db):
    doc = copy.deepcopy(spec_example)
    doc["tournament"]["rules"] = "nmjl" if "tie_break" in settings else "mcr"
    doc["tournament"]["settings"] = {**doc["tournament"].get("settings", {}), **settings}
    with pytest.raises(EventImportError) as error:
        import_event(doc)
    assert any(p.startswith(problem) for p in error.value.problems), error.value.problems


def _problems(doc):
    with pytest.raises(EventImportError) as error:
        import_event(doc)
    return error.value.problems


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["players"][0].update(id="a/b"), "players[0].id"),
        (lambda d: d["players"][0].update(name="x" * 500), "players[0]"),
        (lambda d: d["rounds"][0]["tables"][0].update(number=10**30), "rounds[0].tables[0].number"),
        (lambda d: d["rounds"][0]["tables"][0]["seats"].update(E=["p1"]), "rounds[0].tables[0].seats.E"),
        (
            lambda d: d["rounds"][0]["tables"][0]["penalties"][0].update(player={"id": "p4"}),
            "penalties[0].player",
        ),
        (lambda d: d["appeals"][0].update(round=[1]), "appeals[0]"),
    ],
)
def test_hostile_documents_are_refused_with_the_path_and_nothing_is_written(db, spec_example, change, path):
    doc = copy.deepcopy(spec_example)
    change(doc)
    assert any(path in problem for problem in _problems(doc))
    assert not Tournament.objects.exists()


def test_a_document_nested_50000_deep_or_with_a_5000_digit_number_is_a_clear_refusal(db):
    from scoring.interchange import read_document

    with pytest.raises(EventImportError) as error:
        read_document("[" * 50_000 + "]" * 50_000)
    assert "nest" in error.value.problems[0]
    with pytest.raises(EventImportError) as error:
        read_document('{"format": ' + "9" * 5000 + "}")
    assert "digits" in error.value.problems[0]
    deep: list = []
    node = deep
    for _ in range(100):
        node.append([])
        node = node[0]
    assert "nest deeper" in _problems({"format": "mahjong-event/1", "players": deep})[0]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_mangled_document_is_imported_or_refused_never_a_crash(db, spec_example, data):
    """A short fuzz in the suite (bench/fuzz_import_event.py runs 10,000)."""
    from scoring.tests.fuzz_documents import mangled

    doc = data.draw(mangled(spec_example))
    try:
        with transaction.atomic():
            import_event(doc, replace=True)
    except EventImportError as error:
        assert error.problems
