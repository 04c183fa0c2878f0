"""The 81 MCR fans with their points, and which fans may not be combined.

Source: Sloper, *The Red Dragon & The West Wind* (``shared/seeds/003_2541481d343502a5.txt``), rule 95
(lines 2415-2870) for names, points and each fan's "may not combine with" list; rule 64 (line 2295) and
section B (lines 4038-4048) for the principle of implied inclusions. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class FanDefinition(NamedTuple):
    """One of the 81 fans: its number in rule 95, its name as the book spells it, points, book line."""

    number: int
    name: str
    points: int
    line: int


# Rule 95, lines 2417-2860 (numbers, names and values as the book lists them).
FANS: tuple[FanDefinition, ...] = (
    FanDefinition(1, "Big Four Winds", 88, 2417),
    FanDefinition(2, "Big Three Dragons", 88, 2423),
    FanDefinition(3, "All Green", 88, 2429),
    FanDefinition(4, "Nine Gates", 88, 2435),
    FanDefinition(5, "Four Kongs", 88, 2441),
    FanDefinition(6, "Seven Shifted Pairs", 88, 2447),
    FanDefinition(7, "Thirteen Orphans", 88, 2453),
    FanDefinition(8, "All Terminals", 64, 2459),
    FanDefinition(9, "Little Four Winds", 64, 2465),
    FanDefinition(10, "Little Three Dragons", 64, 2471),
    FanDefinition(11, "All Honors", 64, 2477),
    FanDefinition(12, "Four Concealed Pungs", 64, 2484),
    FanDefinition(13, "Pure Terminal Chows", 64, 2490),
    FanDefinition(14, "Quadruple Chow", 48, 2496),
    FanDefinition(15, "Four Pure Shifted Pungs", 48, 2502),
    FanDefinition(16, "Four Shifted Chows", 32, 2508),
    FanDefinition(17, "Three Kongs", 32, 2514),
    FanDefinition(18, "All Terminals and Honors", 32, 2520),
    FanDefinition(19, "Seven Pairs", 24, 2526),
    FanDefinition(20, "Greater Honors and Knitted Tiles", 24, 2532),
    FanDefinition(21, "All Even Pungs", 24, 2538),
    FanDefinition(22, "Full Flush", 24, 2544),
    FanDefinition(23, "Pure Triple Chow", 24, 2550),
    FanDefinition(24, "Pure Shifted Pungs", 24, 2556),
    FanDefinition(25, "Upper Tiles", 24, 2562),
    FanDefinition(26, "Middle Tiles", 24, 2568),
    FanDefinition(27, "Lower Tiles", 24, 2574),
    FanDefinition(28, "Pure Straight", 16, 2580),
    FanDefinition(29, "Three-Suited Terminal Chows", 16, 2585),
    FanDefinition(30, "Pure Shifted Chows", 16, 2591),
    FanDefinition(31, "All Fives", 16, 2596),
    FanDefinition(32, "Triple Pung", 16, 2602),
    FanDefinition(33, "Three Concealed Pungs", 16, 2607),
    FanDefinition(34, "Lesser Honors and Knitted Tiles", 12, 2612),
    FanDefinition(35, "Knitted Straight", 12, 2618),
    FanDefinition(36, "Upper Four", 12, 2624),
    FanDefinition(37, "Lower Four", 12, 2629),
    FanDefinition(38, "Big Three Winds", 12, 2634),
    FanDefinition(39, "Mixed Straight", 8, 2639),
    FanDefinition(40, "Reversible Tiles", 8, 2644),
    FanDefinition(41, "Mixed Triple Chow", 8, 2649),
    FanDefinition(42, "Mixed Shifted Pungs", 8, 2654),
    FanDefinition(43, "Chicken Hand", 8, 2659),
    FanDefinition(44, "Last Tile Draw", 8, 2664),
    FanDefinition(45, "Last Tile Claim", 8, 2670),
    FanDefinition(46, "Out with Replacement Tile", 8, 2675),
    FanDefinition(47, "Robbing the Kong", 8, 2681),
    FanDefinition(48, "Two Concealed Kongs", 8, 2689),
    FanDefinition(49, "All Pungs", 6, 2694),
    FanDefinition(50, "Half Flush", 6, 2699),
    FanDefinition(51, "Mixed Shifted Chows", 6, 2704),
    FanDefinition(52, "All Types", 6, 2709),
    FanDefinition(53, "Melded Hand", 6, 2715),
    FanDefinition(54, "Two Dragons", 6, 2721),
    FanDefinition(55, "Outside Hand", 4, 2726),
    FanDefinition(56, "Fully Concealed Hand", 4, 2731),
    FanDefinition(57, "Two Melded Kongs", 4, 2737),
    FanDefinition(58, "Last Tile", 4, 2742),
    FanDefinition(59, "Dragon Pung", 2, 2747),
    FanDefinition(60, "Prevalent Wind", 2, 2753),
    FanDefinition(61, "Seat Wind", 2, 2758),
    FanDefinition(62, "Concealed Hand", 2, 2763),
    FanDefinition(63, "All Chows", 2, 2768),
    FanDefinition(64, "Tile Hog", 2, 2774),
    FanDefinition(65, "Double Pung", 2, 2779),
    FanDefinition(66, "Two Concealed Pungs", 2, 2784),
    FanDefinition(67, "Concealed Kong", 2, 2789),
    FanDefinition(68, "All Simples", 2, 2794),
    FanDefinition(69, "Pure Double Chow", 1, 2799),
    FanDefinition(70, "Mixed Double Chow", 1, 2804),
    FanDefinition(71, "Short Straight", 1, 2809),
    FanDefinition(72, "Two Terminal Chows", 1, 2814),
    FanDefinition(73, "Pung of Terminals or Honors", 1, 2819),
    FanDefinition(74, "Melded Kong", 1, 2825),
    FanDefinition(75, "One Voided Suit", 1, 2830),
    FanDefinition(76, "No Honors", 1, 2835),
    FanDefinition(77, "Edge Wait", 1, 2840),
    FanDefinition(78, "Closed Wait", 1, 2845),
    FanDefinition(79, "Single Wait", 1, 2850),
    FanDefinition(80, "Self-Drawn", 1, 2855),
    FanDefinition(81, "Flower Tiles", 1, 2860),
)

FAN_POINTS: dict[str, int] = {fan.name: fan.points for fan in FANS}
FAN_NUMBER: dict[str, int] = {fan.name: fan.number for fan in FANS}

# "May not combine with" as rule 95 states it for each fan (item c of each fan; section B repeats the
# lists at lines 3258-3990 and adds Two Terminal Chows to Four Shifted Chows, line 3404).
BOOK_EXCLUSIONS: dict[str, frozenset[str]] = {
    "Big Four Winds": frozenset(
        {
            "Big Three Winds",
            "Little Four Winds",
            "All Pungs",
            "Seat Wind",
            "Prevalent Wind",
            "Pung of Terminals or Honors",
        }
    ),
    "Big Three Dragons": frozenset({"Dragon Pung", "Two Dragons"}),
    "Nine Gates": frozenset(
        {
            "Full Flush",
            "Concealed Hand",
            "Edge Wait",
            "Closed Wait",
            "Single Wait",
            "Pung of Terminals or Honors",
        }
    ),
    "Four Kongs": frozenset({"Single Wait"}),
    "Seven Shifted Pairs": frozenset({"Full Flush", "Concealed Hand", "Single Wait"}),
    "Thirteen Orphans": frozenset({"All Types", "Concealed Hand", "Single Wait"}),
    "All Terminals": frozenset({"All Pungs", "Outside Hand", "No Honors"}),
    # Little Four Winds: "not with Big Three Winds or Pung of Terminals or Honors"; the latter is applied
    # to its three wind pungs (see calculator and docs/mcr-book-vs-1998-code.md).
    "Little Four Winds": frozenset({"Big Three Winds"}),
    "Little Three Dragons": frozenset({"Dragon Pung", "Two Dragons"}),
    "All Honors": frozenset({"All Pungs", "Outside Hand", "Pung of Terminals or Honors"}),
    "Four Concealed Pungs": frozenset({"Concealed Hand", "All Pungs"}),
    "Pure Terminal Chows": frozenset(
        {
            "Full Flush",
            "All Chows",
            "Seven Pairs",
            "Pure Double Chow",
            "Mixed Double Chow",
            "Two Terminal Chows",
        }
    ),
    "Quadruple Chow": frozenset({"Tile Hog", "Pure Triple Chow", "Pure Double Chow", "Pure Shifted Pungs"}),
    "Four Pure Shifted Pungs": frozenset({"All Pungs", "Pure Triple Chow"}),
    "Four Shifted Chows": frozenset({"Short Straight", "Two Terminal Chows"}),
    "All Terminals and Honors": frozenset({"All Pungs", "Outside Hand", "Pung of Terminals or Honors"}),
    "Seven Pairs": frozenset({"Concealed Hand", "Single Wait"}),
    "Greater Honors and Knitted Tiles": frozenset({"Concealed Hand", "All Types"}),
    "All Even Pungs": frozenset({"All Pungs", "All Simples"}),
    "Full Flush": frozenset({"No Honors"}),
    "Pure Triple Chow": frozenset({"Pure Shifted Pungs", "Pure Double Chow"}),
    "Pure Shifted Pungs": frozenset({"Pure Triple Chow"}),
    "Upper Tiles": frozenset({"No Honors"}),
    "Middle Tiles": frozenset({"No Honors", "All Simples"}),
    "Lower Tiles": frozenset({"No Honors"}),
    "Three-Suited Terminal Chows": frozenset({"All Chows", "Two Terminal Chows", "Mixed Double Chow"}),
    "All Fives": frozenset({"All Simples"}),
    "Lesser Honors and Knitted Tiles": frozenset({"Concealed Hand", "All Types"}),
    "Knitted Straight": frozenset({"Edge Wait", "Closed Wait"}),
    "Last Tile Draw": frozenset({"Self-Drawn"}),
    "Out with Replacement Tile": frozenset({"Self-Drawn"}),
    "Robbing the Kong": frozenset({"Last Tile"}),
    "Melded Hand": frozenset({"Single Wait"}),
    "Fully Concealed Hand": frozenset({"Self-Drawn", "Concealed Hand"}),
    "All Chows": frozenset({"No Honors"}),
}

# Rule 64a (line 2295, repeated at 4038 and illustrated at 4046): a fan that cannot be made without
# another fan implies it, and the implied fan is not scored, even where item c of rule 95 is silent.
# Each entry holds in every hand: e.g. the book itself (line 4046) excludes No Honors from All Even
# Pungs although rule 95 no. 21 does not list it. Kong counts: Four Kongs' and Three Kongs' notes
# (lines 3300, 3412) give exactly one concealment fan per number of concealed kongs.
IMPLIED_EXCLUSIONS: dict[str, frozenset[str]] = {
    "Nine Gates": frozenset({"No Honors"}),
    "Four Kongs": frozenset({"All Pungs", "Three Kongs", "Two Melded Kongs", "Melded Kong"}),
    "Seven Shifted Pairs": frozenset({"Seven Pairs", "No Honors"}),
    "All Terminals": frozenset({"All Terminals and Honors"}),
    "All Honors": frozenset({"All Terminals and Honors"}),
    "Four Concealed Pungs": frozenset({"Three Concealed Pungs", "Two Concealed Pungs"}),
    "Pure Terminal Chows": frozenset({"No Honors"}),
    "Four Pure Shifted Pungs": frozenset({"Pure Shifted Pungs"}),
    "Four Shifted Chows": frozenset({"Pure Shifted Chows"}),
    "Three Kongs": frozenset({"Two Melded Kongs", "Melded Kong"}),
    "All Even Pungs": frozenset({"No Honors"}),
    "Upper Tiles": frozenset({"Upper Four"}),
    "Lower Tiles": frozenset({"Lower Four"}),
    "Three-Suited Terminal Chows": frozenset({"No Honors"}),
    "All Fives": frozenset({"No Honors"}),
    "Three Concealed Pungs": frozenset({"Two Concealed Pungs"}),
    "Upper Four": frozenset({"No Honors"}),
    "Lower Four": frozenset({"No Honors"}),
    "Two Concealed Kongs": frozenset({"Concealed Kong", "Two Concealed Pungs"}),
    "Two Dragons": frozenset({"Dragon Pung"}),
    "Two Melded Kongs": frozenset({"Melded Kong"}),
    "All Simples": frozenset({"No Honors"}),
    "Middle Tiles": frozenset({"No Honors"}),
    # Reversible Tiles (no. 40, line 2646) allows no character tile, so the suit a reversible hand voids
    # is always the characters: the voided suit is part of the pattern (docs/mcr-book-vs-1998-code.md,
    # row 4; the 1998 code alike).
    "Reversible Tiles": frozenset({"One Voided Suit"}),
}


def _merge() -> dict[str, frozenset[str]]:
    merged: dict[str, frozenset[str]] = {}
    for table in (BOOK_EXCLUSIONS, IMPLIED_EXCLUSIONS):
        for name, excluded in table.items():
            merged[name] = merged.get(name, frozenset()) | excluded
    return merged


EXCLUSIONS: dict[str, frozenset[str]] = _merge()


def _check_names() -> None:
    for table in (BOOK_EXCLUSIONS, IMPLIED_EXCLUSIONS):
        for name, excluded in table.items():
            unknown = ({name} | excluded) - FAN_POINTS.keys()
            if unknown:  # a misspelt name would silently never exclude anything
                raise ValueError(f"unknown fan names in exclusion table: {sorted(unknown)}")


_check_names()


def drop_excluded(names: Iterable[str]) -> set[str]:
    """The fans left when every fan present removes those it may not combine with.

    Exclusions are taken from all fans present, a removed one included: a fan implied by an implied
    fan is implied too (e.g. Nine Gates implies Full Flush, which implies No Honors; rule 64a).
    """
    present = set(names)
    excluded: set[str] = set()
    for name in present:
        excluded |= EXCLUSIONS.get(name, frozenset())
    return present - excluded
