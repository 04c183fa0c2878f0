"""The finalists seated by rank (no Django): who sits with whom at the final tables.

Each of the ``k`` tables takes one player from each quarter of the qualifying order, in a snake: table
``t`` (0 first) seats the ranks ``t+1``, ``2k-t``, ``2k+t+1`` and ``4k-t``. So for one table the top 4 play
together; for two tables it is the usual 1-4-5-8 / 2-3-6-7; for four tables 1-8-9-16, 2-7-10-15,
3-6-11-14, 4-5-12-13. Why a snake: every table's ranks add up to the same sum (``8k+2``), so no table is
stronger than another by seeding, and the top seeds meet neither each other nor only the weakest.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.seating.models import RoundSeating, TableSeating


def final_groups(finalists: Sequence[str]) -> list[list[str]]:
    """The finalists (best first) in tables of four, by the snake above; refused unless 4, 8 or 16."""
    if len(finalists) not in (4, 8, 16):
        raise ValueError("a final seats 4, 8 or 16 players")
    k = len(finalists) // 4
    return [[finalists[rank - 1] for rank in (t + 1, 2 * k - t, 2 * k + t + 1, 4 * k - t)] for t in range(k)]


def final_round(finalists: Sequence[str], session_index: int) -> RoundSeating:
    """The final tables of the ``session_index``-th final session (0 first), seats in wind order E, S, W,
    N: in the first the best seed of each table starts East, and the starting winds turn by one each
    further session, so in a final of four sessions with fixed groups each finalist starts once in each
    seat (re-seated by the final standings, ``finalists`` is that order and the turn still applies)."""
    shift = session_index % 4
    return RoundSeating(
        tables=tuple(
            TableSeating(
                number,
                (group[-shift % 4], group[(1 - shift) % 4], group[(2 - shift) % 4], group[(3 - shift) % 4]),
            )
            for number, group in enumerate(final_groups(finalists), start=1)
        )
    )


def reseeded(ranked: Sequence[tuple[str, int | None]], finalists: Sequence[str]) -> list[str]:
    """The finalists best first by the final standings so far (``ranked``: id and rank, MCR rule 73,
    seeds/003_2541481d343502a5.txt line 2321), for the next final session's snake. Players still equal
    after every tie-break, or out of the ranking (placed last), keep the cut's order: their qualifying
    seeding decides, as it did for the first final session."""
    seed = {code: index for index, code in enumerate(finalists)}
    rank = dict(ranked)

    def key(code: str) -> tuple[bool, int, int]:
        place = rank.get(code)
        return (place is None, place or 0, seed[code])

    return sorted(finalists, key=key)
