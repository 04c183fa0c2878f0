"""Hypothesis strategies that mangle a valid event document: a value replaced by junk anywhere."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.sampled_from(["", "p1", "p2", "a/b", "E", "mcr", "nmjl", "upheld", "\x00", "x" * 300]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    paths = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            paths.extend(_paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            paths.extend(_paths(child, (*prefix, index)))
    return paths


@st.composite
def mangled(draw: Any, document: dict) -> Any:
    """``document`` with one to three values (or whole branches) replaced by junk."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = [p for p in _paths(doc) if p]
        if not paths or not isinstance(doc, dict):
            break
        path = draw(st.sampled_from(paths))
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = draw(JUNK)
    return doc
