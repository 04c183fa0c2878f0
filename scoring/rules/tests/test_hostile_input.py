"""Hostile input never gives a traceback or hangs; each is refused naming the limit.

Short fuzz runs here (a few hundred examples per rule set); ``bench/fuzz_score_hands.py`` runs 10,000.
The limits are in ``scoring/rules/limits.py``; ``score_hands`` follows shared/specs/scoring-json.md.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings

from scoring.rules.errors import MAX_MESSAGE, HandInputError
from scoring.rules.limits import (
    LIMIT_CODE,
    MAX_DEPTH,
    MAX_INT,
    MAX_LIST,
    MAX_NODES,
    MAX_STRING,
    TooDeep,
    UnreadableInputError,
    check_document_value,
    check_request,
    load_json,
)
from scoring.rules.tests.strategies import MCR_HAND, RULE_SETS, Tally, requests, score_one, scorer

FUZZ = settings(max_examples=100, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def refusal(rules: str, data: object) -> HandInputError:
    with pytest.raises(HandInputError) as error:
        scorer(rules)(data)
    assert len(error.value.message) <= MAX_MESSAGE
    return error.value


def nested(depth: int) -> object:
    value: object = "1m"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("rules", RULE_SETS)
def test_tiles_nested_50000_deep_are_refused_naming_the_depth_limit(rules):
    error = refusal(rules, dict(MCR_HAND, concealed=nested(50_000)))
    assert error.code == LIMIT_CODE
    assert f"at most {MAX_DEPTH}" in error.message


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_number_out_of_range_is_refused_naming_the_range(rules):
    error = refusal(rules, dict(MCR_HAND, flowers=10**4999))
    assert error.code == LIMIT_CODE
    assert str(MAX_INT) in error.message and "flowers" in error.message


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize(
    ("field", "value", "limit"),
    [
        ("concealed", ["1m"] * 1_000_000, str(MAX_LIST)),
        ("seat_wind", "E" * 10_000_000, str(MAX_STRING)),
        ("seat_wind", "E\x00", "NUL"),
        ("seat_wind", "\ud800", "surrogate"),
    ],
)
def test_enormous_lists_and_strings_and_nul_bytes_are_refused_quickly(rules, field, value, limit):
    started = time.perf_counter()
    error = refusal(rules, dict(MCR_HAND, **{field: value}))
    assert time.perf_counter() - started < 0.5
    assert error.code == LIMIT_CODE
    assert limit in error.message


def test_a_request_with_too_many_values_is_refused_without_walking_them_all():
    # A hundred million leaves sharing lists: walking them all would take minutes, so a bound of seconds
    # (not a speed target: generous for a loaded machine) tells the early refusal from a full walk.
    wide = [[[["1m"] * MAX_LIST] * MAX_LIST] * MAX_LIST] * MAX_LIST
    started = time.perf_counter()
    with pytest.raises(HandInputError) as error:
        check_request({"concealed": wide})
    assert time.perf_counter() - started < 5
    assert str(MAX_NODES) in error.value.message


@pytest.mark.parametrize("value", [object(), {1: "x"}, b"1m", {"1m"}, float("nan"), float("inf")])
def test_values_no_json_document_holds_are_refused(value):
    with pytest.raises(HandInputError) as error:
        check_request({"concealed": value})
    assert error.value.code == LIMIT_CODE


def test_an_ordinary_hand_passes_the_limits():
    check_request(MCR_HAND)
    check_request({"scheme": {"discard_penalties": ((2, -10), (3, -25))}})


# ---------------------------------------------------------------------------------------------
# Reading the document (score_hands)


def test_a_list_holding_a_request_nested_50000_deep_refuses_that_request_only():
    text = '[{"concealed": ' + "[" * 50_000 + "]" * 50_000 + '}, {"a": 1}]'
    first, second = load_json(text)
    assert isinstance(first, TooDeep)
    with pytest.raises(HandInputError) as error:
        check_document_value(first)
    assert f"at most {MAX_DEPTH}" in error.value.message
    assert second == {"a": 1}


def test_a_single_request_nested_50000_deep_is_refused_as_a_request():
    [only] = load_json('{"concealed": ' + "[" * 50_000 + "]" * 50_000 + "}")
    with pytest.raises(HandInputError):
        check_document_value(only)


def test_a_5000_digit_number_is_read_without_converting_it_and_refused_with_its_request():
    [request] = load_json('{"flowers": ' + "7" * 5_000 + "}")
    with pytest.raises(HandInputError) as error:
        check_document_value(request)
    assert "5000 digits" in error.value.message


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("[" * 50_000, "not valid JSON"),
        ("{nope", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" + ",".join(["1"] * 10_001) + "]", "at most 10000"),
        (" " * 5_000_001, "larger than"),
    ],
)
def test_what_cannot_be_read_is_refused_whole(raw, message):
    with pytest.raises(UnreadableInputError) as error:
        load_json(raw)
    assert message in error.value.message


def test_nan_and_infinity_are_refused_with_their_request():
    for item in load_json("[NaN, Infinity, -Infinity]"):
        with pytest.raises(HandInputError) as error:
            check_document_value(item)
        assert "NaN or Infinity" in error.value.message


def test_an_ordinary_document_reads_as_json_does():
    document = json.dumps([MCR_HAND, MCR_HAND])
    assert load_json(document) == json.loads(document)
    assert load_json(json.dumps(MCR_HAND).encode()) == [MCR_HAND]


# ---------------------------------------------------------------------------------------------
# Fuzz: every rule set answers a result or a clear error, fast.


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS)
def test_fuzzed_requests_get_a_result_or_a_clear_error(rules):
    tally = Tally(rules)

    @FUZZ
    @given(requests(rules))
    def run(data: object) -> None:
        result = score_one(rules, data, tally)
        if result is not None:
            json.dumps(result)

    run()
    assert tally.tried >= 100
    assert tally.slowest < 2.0, tally.slowest_input


def test_a_message_quoting_hostile_input_stays_short():
    long_strings = ["x" * MAX_STRING] * MAX_LIST
    error = refusal("mcr", dict(MCR_HAND, self_drawn=long_strings))
    assert error.code == "bad_field"
    assert len(error.message) <= MAX_MESSAGE
