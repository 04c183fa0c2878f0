"""Which hands of the card do 14 tiles complete? The NMJL hand matcher.

Sloper (shared/seeds/003_2541481d343502a5.txt): rule 23 (a hand must be on the card), rules 26-38 (reading
the card), rules 80-83 and ~line 1470 (jokers are wild only in sets of 3 or more, never in a pair or a single,
rule 81), rule 73 (jokerless), rule 97b (an exposure is 3 or more identical tiles, jokers counting as
identical), rule 26 (a ``C`` hand shows no exposure before mah-jongg).

``tiles`` are all 14 tiles of the hand, the exposed ones included; ``exposures`` are the sets exposed before
mah-jongg, each a list of tiles also counted in ``tiles``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules.errors import HandInputError, gettext_noop
from scoring.rules.nmjl.card import HAND_TILES, Card, CardHand, Variant
from scoring.rules.nmjl.tiles import (
    JOKER,
    TILE_KINDS,
    check_copies,
    count_tiles,
    nmjl_code,
    parse_tiles,
)

JOKER_RULE = "jokers are never used in a pair or a single (rule 81)"


@dataclass(frozen=True, slots=True)
class Exposure:
    """An exposed set: ``tile`` is its natural tile, ``size`` its length, ``jokers`` how many are jokers."""

    tile: int
    size: int
    jokers: int


@dataclass(frozen=True, slots=True)
class Match:
    """A card hand the tiles complete; ``arrangement`` is the hand's groups as tile codes."""

    card_id: str
    family: str
    hand_id: str
    pattern: str
    value: int
    jokerless: bool
    singles_and_pairs: bool
    concealed: bool
    arrangement: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class NearMiss:
    """A card hand the tiles do not complete: ``missing`` tiles short (0 when only exposures are wrong)."""

    card_id: str
    family: str
    hand_id: str
    value: int
    missing: int
    reasons: tuple[str, ...]


def parse_exposure(tiles: Sequence[int], position: int) -> Exposure:
    """Rule 97b: an exposure is 3 or more identical tiles (jokers count as identical) with a natural tile."""
    where = f"exposure {position + 1}"
    if len(tiles) < 3:
        raise HandInputError(
            gettext_noop("%(where)s has %(count)s tiles; only sets of 3 or more may be exposed (rule 97b)"),
            code="bad_exposure",
            where=where,
            count=len(tiles),
        )
    naturals = sorted({tile for tile in tiles if tile != JOKER})
    if not naturals:
        raise HandInputError(
            gettext_noop(
                "%(where)s is only jokers; an exposure is made on a natural discard (rules 58, 89c)"
            ),
            code="bad_exposure",
            where=where,
        )
    if len(naturals) > 1:
        names = ", ".join(nmjl_code(tile) for tile in naturals)
        raise HandInputError(
            gettext_noop(
                "%(where)s mixes different tiles (%(names)s); all tiles of a set must be identical (rule 97b)"
            ),
            code="bad_exposure",
            where=where,
            names=names,
        )
    return Exposure(tile=naturals[0], size=len(tiles), jokers=sum(1 for tile in tiles if tile == JOKER))


def prepare(tiles: Sequence[int], exposures: Sequence[Sequence[int]]) -> tuple[list[int], list[Exposure]]:
    """Check the tile count (rule 101a), the copies (rules 1-6) and that exposures are among the tiles."""
    if len(tiles) != HAND_TILES:
        raise HandInputError(
            gettext_noop("a mah-jongg hand has %(hand_tiles)s tiles, not %(count)s (rule 101a)"),
            code="tile_count",
            hand_tiles=HAND_TILES,
            count=len(tiles),
        )
    counts = count_tiles(tiles)
    check_copies(counts)
    parsed = [parse_exposure(exposure, i) for i, exposure in enumerate(exposures)]
    exposed = count_tiles(tile for exposure in exposures for tile in exposure)
    for tile in range(TILE_KINDS):
        if exposed[tile] > counts[tile]:
            raise HandInputError(
                gettext_noop(
                    "the exposures show %(exposed)s %(tile)s but the 14 tiles have only %(counts)s "
                    "(give all 14 tiles, exposed ones included)"
                ),
                code="bad_exposure",
                exposed=exposed[tile],
                tile=nmjl_code(tile),
                counts=counts[tile],
            )
    return counts, parsed


def _fits(variant: Variant, counts: list[int], present: list[int]) -> bool:
    """Do the tiles make this reading exactly? No tile beyond its places, every single and pair natural;
    the jokers then fill the remaining set places exactly, since both sides hold 14 tiles."""
    for tile in present:
        if counts[tile] > variant.natural[tile] + variant.set_capacity[tile]:
            return False
    return all(counts[tile] >= natural for tile, natural, _places in variant.needs)


def _shortfall(variant: Variant, counts: list[int], present: list[int]) -> tuple[int, list[str]]:
    """How many tiles the hand is short of this reading, and what is missing or left over."""
    jokers = counts[JOKER]
    filled = 0
    open_set_places = 0
    reasons: list[str] = []
    short_sets = []
    unused = [
        (tile, 0, 0) for tile in present if not variant.natural[tile] and not variant.set_capacity[tile]
    ]
    for tile, need_natural, capacity in (*variant.needs, *unused):
        have = counts[tile]
        used = min(have, need_natural + capacity)
        filled += used
        open_set_places += capacity - max(0, used - need_natural)
        if have < need_natural:
            reasons.append(
                f"needs {need_natural - have} more natural {nmjl_code(tile)} for a single or pair; "
                f"{JOKER_RULE}"
            )
        elif capacity and have < need_natural + capacity:
            short_sets.append(nmjl_code(tile))
        if have > need_natural + capacity:
            extra = have - need_natural - capacity
            reasons.append(f"{extra} {nmjl_code(tile)} not used by this hand")
    filled += min(jokers, open_set_places)
    if jokers > open_set_places:
        reasons.append(f"{jokers - open_set_places} joker(s) with no set to sit in; {JOKER_RULE}")
    if open_set_places > jokers and short_sets:
        reasons.append(f"sets short of tiles or jokers: {', '.join(short_sets)}")
    return HAND_TILES - filled, reasons


def _exposure_problems(
    hand: CardHand, variant: Variant, counts: list[int], exposures: list[Exposure]
) -> list[str]:
    """Rule 26 (``C`` hands show nothing) and rule 97: each exposure must be one of the hand's sets."""
    if not exposures:
        return []
    if hand.concealed:
        return ["the hand is concealed (C): no exposure is allowed before mah-jongg (rule 26)"]
    problems = []
    free: dict[tuple[int, int], int] = {}
    for tile_size in variant.sets:
        free[tile_size] = free.get(tile_size, 0) + 1
    exposed_naturals = [0] * TILE_KINDS
    exposed_places = [0] * TILE_KINDS
    for exposure in exposures:
        key = (exposure.tile, exposure.size)
        if free.get(key, 0) == 0:
            problems.append(
                f"the exposure of {exposure.size} {nmjl_code(exposure.tile)} is not a set of this hand"
            )
            continue
        free[key] -= 1
        exposed_naturals[exposure.tile] += exposure.size - exposure.jokers
        exposed_places[exposure.tile] += exposure.size
    if problems:
        return problems
    for tile in range(TILE_KINDS - 1):
        rest = counts[tile] - exposed_naturals[tile]
        if rest > variant.natural[tile] + variant.set_capacity[tile] - exposed_places[tile]:
            problems.append(f"too many {nmjl_code(tile)} besides the exposure for this hand")
        elif rest < variant.natural[tile]:
            problems.append(
                f"the exposure uses natural {nmjl_code(tile)} the hand's single or pair needs; {JOKER_RULE}"
            )
    return problems


def _present(counts: list[int]) -> list[int]:
    return [tile for tile in range(TILE_KINDS - 1) if counts[tile]]


def _completing(hand: CardHand, counts: list[int], exposures: list[Exposure]) -> Variant | None:
    """A reading of ``hand`` the tiles and exposures make exactly, if any."""
    present = _present(counts)
    for variant in hand.variants:
        if _fits(variant, counts, present) and not _exposure_problems(hand, variant, counts, exposures):
            return variant
    return None


def _evaluate(hand: CardHand, counts: list[int], exposures: list[Exposure]) -> tuple[Variant, int, list[str]]:
    """The reading of ``hand`` closest to the tiles: (variant, tiles missing, reasons)."""
    complete = _completing(hand, counts, exposures)
    if complete is not None:
        return complete, 0, []
    present = _present(counts)
    best: tuple[Variant, int, list[str]] | None = None
    for variant in hand.variants:
        missing, reasons = _shortfall(variant, counts, present)
        reasons = reasons + _exposure_problems(hand, variant, counts, exposures)
        if best is None or (missing, len(reasons)) < (best[1], len(best[2])):
            best = (variant, missing, reasons)
    assert best is not None
    return best


def _as_match(card: Card, hand: CardHand, variant: Variant, counts: list[int]) -> Match:
    return Match(
        card_id=card.id,
        family=hand.family,
        hand_id=hand.id,
        pattern=hand.pattern,
        value=hand.value,
        jokerless=counts[JOKER] == 0,
        singles_and_pairs=hand.singles_and_pairs,
        concealed=hand.concealed,
        arrangement=tuple(tuple(nmjl_code(tile) for tile in group) for group in variant.groups),
    )


def match_tiles(card: Card, tiles: Sequence[int], exposures: Sequence[Sequence[int]] = ()) -> list[Match]:
    """Every hand of ``card`` the tiles complete (tile indices), in card order."""
    counts, parsed = prepare(tiles, exposures)
    matches = []
    for hand in card.hands:
        variant = _completing(hand, counts, parsed)
        if variant is not None:
            matches.append(_as_match(card, hand, variant, counts))
    return matches


def _codes(tiles: Any, where: str) -> list[int]:
    return parse_tiles(list(tiles) if isinstance(tiles, tuple) else tiles, where)


def _exposure_codes(exposures: Any) -> list[list[int]]:
    if exposures is None:
        return []
    if not isinstance(exposures, list | tuple):
        raise HandInputError(
            gettext_noop("exposures must be a list of sets, each a list of tile codes"), code="bad_field"
        )
    parsed = []
    for i, exposure in enumerate(exposures):
        tiles = exposure.get("tiles") if isinstance(exposure, dict) else exposure
        parsed.append(_codes(tiles, f"exposures[{i}]"))
    return parsed


def match_hand(card: Card, tiles: Any, exposures: Any = ()) -> list[Match]:
    """Every hand of ``card`` the 14 tiles complete; tiles are codes (``"3p"``, ``"F"``, ``"J"``).

    ``exposures`` is a list of exposed sets (lists of codes, or objects with ``"tiles"``), each also part of
    ``tiles``. An empty list means the tiles complete no hand; :func:`close_hands` says why.
    """
    return match_tiles(card, _codes(tiles, "tiles"), _exposure_codes(exposures))


def close_hands(card: Card, tiles: Any, exposures: Any = (), *, max_missing: int = 1) -> list[NearMiss]:
    """Hands the tiles do not complete but come within ``max_missing`` tiles of, with the reasons."""
    counts, parsed = prepare(_codes(tiles, "tiles"), _exposure_codes(exposures))
    misses = []
    for hand in card.hands:
        _variant, missing, reasons = _evaluate(hand, counts, parsed)
        if (missing or reasons) and missing <= max_missing:
            misses.append(
                NearMiss(
                    card_id=card.id,
                    family=hand.family,
                    hand_id=hand.id,
                    value=hand.value,
                    missing=missing,
                    reasons=tuple(reasons),
                )
            )
    misses.sort(key=lambda miss: (miss.missing, len(miss.reasons)))
    return misses


def check_hand(card: Card, hand_id: str, tiles: Any, exposures: Any = ()) -> Match:
    """The match of the tiles for one named hand, or a clear error saying why they do not make it."""
    hand = card.hand(hand_id)
    counts, parsed = prepare(_codes(tiles, "tiles"), _exposure_codes(exposures))
    variant, missing, reasons = _evaluate(hand, counts, parsed)
    if missing == 0 and not reasons:
        return _as_match(card, hand, variant, counts)
    detail = "; ".join(reasons) or f"{missing} tile(s) short"
    raise HandInputError(
        gettext_noop("the tiles do not make hand %(hand_id)r (%(pattern)s): %(detail)s"),
        code="hand_not_made",
        hand_id=hand_id,
        pattern=hand.pattern,
        detail=detail,
    )


def identify_hand(card: Card, tiles: Any, exposures: Any = (), hand_id: str | None = None) -> Match:
    """The hand the winner's tiles make: the named one, checked, or else the best the card allows (the
    winner names hers and the highest value is taken, rule 66d). No hand: a clear error naming the
    closest one and why it is not made (rule 23)."""
    if hand_id:
        return check_hand(card, hand_id, tiles, exposures)
    matches = match_hand(card, tiles, exposures)
    if not matches:
        misses = close_hands(card, tiles, exposures)
        hint = f"; closest is {misses[0].hand_id}: {'; '.join(misses[0].reasons)}" if misses else ""
        raise HandInputError(
            gettext_noop("the tiles make no hand on card %(id)r (rule 23)%(hint)s"),
            code="hand_not_made",
            id=card.id,
            hint=hint,
        )
    return max(matches, key=lambda match: (match.value, not match.singles_and_pairs))
