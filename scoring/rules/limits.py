"""Limits on what the pure request parsers accept, so hostile input is refused quickly and plainly.

Every ``score_request`` of the rule engines (MCR, NMJL, the classical books) calls
:func:`check_request` first, and ``score_hands`` reads its input with :func:`load_json`, so that no
input (tiles nested 50,000 deep, a 5,000-digit number, a list of a million tiles, a NUL byte, a value
of the wrong type) gives a traceback or hangs: each gets a :class:`HandInputError` (code
``input_limit``) whose message names the limit and where in the input it was exceeded.

The limits are far above what any real hand needs (a hand holds at most 18 tiles and 4 melds; an NMJL
outcome a few events) and far below what could slow the engines down. Pure Python, no Django.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules.errors import HandInputError

MAX_DEPTH = 8  # lists and objects inside one request (an MCR hand uses 4: hand, melds, meld, tiles)
MAX_LIST = 100  # entries in one list (a hand has at most 18 tiles, a table a few events)
MAX_KEYS = 50  # fields in one object
MAX_STRING = 200  # characters in one string or field name
MAX_NODES = 5_000  # values in one request, all levels together
MAX_INT = 10**9  # integers (points, values, counts) lie within -MAX_INT..MAX_INT
MAX_NUMBER_DIGITS = 30  # a number written with more digits is not even converted

MAX_INPUT_BYTES = 5_000_000  # what score_hands reads (about 10,000 ordinary hands)
MAX_ITEMS = 10_000  # requests in one score_hands input
MAX_DOCUMENT_DEPTH = 200  # in a document too deep for Python's parser, deeper elements are refused unread

LIMIT_CODE = "input_limit"

_BAD_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class Oversized:
    """A number too long to convert, kept by :func:`load_json` so that only its request is refused."""

    digits: int


def _limit(message: str) -> HandInputError:
    return HandInputError(message, code=LIMIT_CODE)


_Path = tuple[Any, ...] | None  # (parent path, key or index), built cheaply, written out only on error


def _path_text(path: _Path) -> str:
    keys: list[Any] = []
    while path is not None:
        path, key = path
        keys.append(key)
    text = ""
    for key in reversed(keys):
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text


def _where(path: _Path) -> str:
    return f" at {_path_text(path)}" if path is not None else ""


def _check_string(text: str, path: _Path, what: str) -> None:
    if len(text) > MAX_STRING:
        raise _limit(f"{what}{_where(path)} has {len(text)} characters; at most {MAX_STRING} are accepted")
    if not text.isprintable():
        bad = _BAD_CHARACTERS.search(text)
        if bad:
            raise _limit(
                f"{what}{_where(path)} holds the character U+{ord(bad.group()):04X}; text may not hold NUL, "
                "other control characters or unpaired surrogates"
            )


def _out_of_range(path: _Path) -> HandInputError:
    return _limit(f"the number{_where(path)} is out of range; numbers lie between {-MAX_INT} and {MAX_INT}")


def check_request(data: Any) -> None:
    """Refuse a request that exceeds a limit or holds a value no JSON document can hold.

    Walks the value without recursion and stops at the first problem, so its cost is bounded by
    ``MAX_NODES`` whatever the input. Accepts objects (any mapping with string keys), lists (and
    tuples), strings, whole numbers, finite decimals, true/false and null.
    """
    stack: list[tuple[Any, _Path, int]] = [(data, None, 1)]
    nodes = 0
    while stack:
        value, path, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise _limit(f"the input holds more than {MAX_NODES} values; at most {MAX_NODES} are accepted")
        kind = type(value)
        if kind is str:
            if len(value) > MAX_STRING or not value.isprintable():
                _check_string(value, path, "the text")
        elif value is None or kind is bool:
            continue
        elif kind is int:
            if not -MAX_INT <= value <= MAX_INT:
                raise _out_of_range(path)
        elif kind is dict or kind is list or kind is tuple or isinstance(value, Mapping | list | tuple):
            if depth > MAX_DEPTH:
                raise _limit(
                    f"lists and objects nest more than {MAX_DEPTH} levels deep{_where(path)}; "
                    f"at most {MAX_DEPTH} are accepted"
                )
            if kind is dict or (kind is not list and isinstance(value, Mapping)):
                if len(value) > MAX_KEYS:
                    raise _limit(
                        f"the object{_where(path)} has {len(value)} fields; at most {MAX_KEYS} are accepted"
                    )
                for key in value:
                    if type(key) is not str:
                        raise _limit(f"the object{_where(path)} has a field name that is not text")
                    if len(key) > MAX_STRING or not key.isprintable():
                        _check_string(key, path, "a field name")
                    stack.append((value[key], (path, key), depth + 1))
            else:
                if len(value) > MAX_LIST:
                    raise _limit(
                        f"the list{_where(path)} has {len(value)} entries; at most {MAX_LIST} are accepted"
                    )
                stack.extend((item, (path, i), depth + 1) for i, item in enumerate(value))
        elif isinstance(value, Oversized):
            if not value.digits:
                raise _limit(f"the value{_where(path)} is NaN or Infinity, which JSON does not allow")
            raise _limit(
                f"the number{_where(path)} has {value.digits} digits; numbers lie between {-MAX_INT} "
                f"and {MAX_INT}"
            )
        elif isinstance(value, float):
            if value != value or abs(value) > MAX_INT:
                raise _out_of_range(path)
        elif isinstance(value, int) and not isinstance(value, bool):
            if not -MAX_INT <= value <= MAX_INT:
                raise _out_of_range(path)
        elif isinstance(value, str):
            _check_string(value, path, "the text")
        else:
            raise _limit(f"the value{_where(path)} is a {type(value).__name__}, which JSON does not have")


# ---------------------------------------------------------------------------------------------
# Reading a JSON document (score_hands)


class UnreadableInputError(Exception):
    """The document cannot be read at all (score_hands exits 2); ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _parse_int(text: str) -> int | Oversized:
    digits = len(text) - text.startswith("-")
    return Oversized(digits) if digits > MAX_NUMBER_DIGITS else int(text)


def _parse_float(text: str) -> float | Oversized:
    if len(text) > MAX_NUMBER_DIGITS + 10:
        return Oversized(sum(c.isdigit() for c in text))
    return float(text)


def _parse_constant(name: str) -> Oversized:
    # NaN, Infinity and -Infinity are not JSON; refused (per request) as a number out of range.
    return Oversized(0)


def _loads(text: str) -> Any:
    return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)


def _scan(text: str) -> tuple[list[tuple[int, int, int]] | None, bool, int]:
    """One pass over the text, for a document too deep for Python's parser: when it is a list, the span
    and nesting depth of each element (``None`` when it is not a list), whether its brackets balance
    with nothing after them, and its greatest depth. Strings are skipped, escapes honoured."""
    depth = deepest = 0
    spans: list[tuple[int, int, int]] | None = None
    start = element_deepest = 0
    in_string = escaped = False
    closed_at = -1
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if closed_at >= 0:
            if not char.isspace():
                return spans, False, deepest
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            if depth == 0:
                spans = [] if char == "[" else None
                start = index + 1
            depth += 1
            deepest = max(deepest, depth)
            element_deepest = max(element_deepest, depth - 1)
        elif char in "]}":
            depth -= 1
            if depth < 0:
                return spans, False, deepest
            if depth == 0:
                closed_at = index
                if spans is not None and text[start:index].strip():
                    spans.append((start, index, element_deepest))
        elif char == "," and depth == 1 and spans is not None:
            spans.append((start, index, element_deepest))
            start = index + 1
            element_deepest = 0
    return spans, closed_at >= 0 and not in_string, deepest


def _load_deep(text: str) -> Any:
    """A document Python's parser cannot read for its depth: a list's elements are read one by one,
    those nested more than ``MAX_DOCUMENT_DEPTH`` deep replaced, unread, by :class:`TooDeep`."""
    spans, balanced, deepest = _scan(text)
    if not balanced:
        raise UnreadableInputError("the input is not valid JSON: its brackets do not balance")
    if spans is None:
        return TooDeep(deepest)
    return [
        TooDeep(depth) if depth > MAX_DOCUMENT_DEPTH else _loads(text[begin:end])
        for begin, end, depth in spans
    ]


def load_json(raw: bytes | str, *, max_bytes: int = MAX_INPUT_BYTES, max_items: int = MAX_ITEMS) -> list[Any]:
    """The requests of a ``score_hands`` input: a JSON object, or a list of them, as a list.

    Raises :class:`UnreadableInputError` for what cannot be read at all: more than ``max_bytes`` bytes, text
    that is not UTF-8 or not JSON, more than ``max_items`` requests. Problems inside one request do not
    stop the others: a number too long to convert is kept as :class:`Oversized`, and in a list nested
    deeper than Python's parser can go, each element nested more than ``MAX_DOCUMENT_DEPTH`` deep is
    left unread as :class:`TooDeep`; :func:`check_document_value` refuses both for their request alone.
    """
    if len(raw) > max_bytes:
        raise UnreadableInputError(f"the input is larger than {max_bytes} bytes; split it into smaller files")
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UnreadableInputError(f"the input is not UTF-8 text: {error}") from None
    else:
        text = raw
    text = text.removeprefix("\ufeff")
    try:
        try:
            data = _loads(text)
        except RecursionError:
            data = _load_deep(text)
    except RecursionError:
        raise UnreadableInputError("the input nests too deep to read") from None
    except ValueError as error:  # json.JSONDecodeError is a ValueError
        raise UnreadableInputError(f"the input is not valid JSON: {error}") from None
    items = data if isinstance(data, list) else [data]
    if len(items) > max_items:
        raise UnreadableInputError(
            f"the input holds {len(items)} requests; at most {max_items} are scored in one run"
        )
    return items


@dataclass(frozen=True, slots=True)
class TooDeep:
    """A request nested deeper than :data:`MAX_DOCUMENT_DEPTH`, left unread by :func:`load_json`."""

    depth: int


def check_document_value(data: Any) -> None:
    """:func:`check_request` for a value read by :func:`load_json` (which may be :class:`TooDeep`)."""
    if isinstance(data, TooDeep):
        raise _limit(f"lists and objects nest {data.depth} levels deep; at most {MAX_DEPTH} are accepted")
    check_request(data)
