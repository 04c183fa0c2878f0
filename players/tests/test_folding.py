"""Searching names as people type them: case, accents and punctuation ignored."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from players.folding import MAX_QUERY, _fold_unicode, fold, matches, query_words


def test_accents_case_and_apostrophes_are_ignored():
    assert fold("Marta García") == "marta garcia"
    assert fold("Paula HORVÁTH") == "paula horvath"
    assert fold("Niamh O'Brien") == fold("niamh obrien")
    assert fold("Søren Łukasz Straße") == "soren lukasz strasse"
    assert matches(query_words("garcia"), "Marta García")
    assert matches(query_words("o brien"), "Niamh O'Brien")
    assert matches(query_words("陈"), "陈波 Chen Bo")


def test_a_query_of_nothing_searchable_matches_nobody():
    assert query_words("%%% --- ;") == []
    assert not matches(query_words("%"), "Anyone")


@given(st.text(max_size=3 * MAX_QUERY))
def test_any_text_folds_without_error_and_a_query_is_cut(text):
    folded = fold(text)
    assert folded == fold(folded)
    assert len(" ".join(query_words(text))) <= 4 * MAX_QUERY


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_the_quick_ascii_path_folds_as_the_full_one(text):
    assert fold(text) == _fold_unicode(text)
