"""The referee's MCR catalogue (Sloper rules 77-91, chapter 4) in Simplified Chinese, keyed by the English
label of :mod:`scoring.rules.mcr.penalties`, for the penalty list on the referee's page. Pure Python."""

from __future__ import annotations

CHINESE_PENALTY_LABELS: dict[str, str] = {
    "Warning": "警告",
    "Loss of competitive rank": "取消比赛名次",
    "Erroneous exposure: no hu in this hand": "错误亮牌：本盘不得和牌",
    "Empty calling (changing one's mind about a claim)": "空叫（叫牌后反悔）",
    "Touching the wall tile before the upper seat discards": "上家打牌前摸牌墙的牌",
    "Seeing or revealing the wall tile early: no hu in this hand": "提前看到或亮出牌墙的牌：本盘不得和牌",
    "Taking the discard after reaching toward the wall: no exposures and no hu in this hand": (
        "伸手摸牌后又吃碰打出的牌：本盘不得吃碰杠、不得和牌"
    ),
    "Late pung call (after 3 seconds)": "碰牌过迟（超过3秒）",
    "False hu with a ready hand": "诈和（已听牌）",
    "False hu with an unready hand": "诈和（未听牌）",
    "Empty hu (hu said, hand not exposed): no hu in this hand": "空和（喊和未亮牌）：本盘不得和牌",
    "Taking the winning tile after counting began": "计分开始后才取和牌张",
    "Showing the tiles without saying hu": "未喊和即亮牌",
    "Showing the score with tiles of the hand": "用手中的牌示意番数",
    "Winning hand worth less than 8 points": "和牌不足8番",
    "Revealing one's own tile: discard it next turn": "亮出自己的牌：下一轮须打出该牌",
    "Revealing the hand before an invalid win is checked": "在错和核查前亮出手牌",
    "Revealing the hand before another player's valid win is checked": "在他人和牌核查前亮出手牌",
    "Revealing an opponent's tiles: 5 points per tile, paid to that opponent": "亮出对手的牌：每张5分，付给该对手",
    "Revealing an opponent's tiles: no hu in this hand (referee's choice)": "亮出对手的牌：本盘不得和牌（由裁判决定）",
    "Wrong number of tiles: no hu in this hand": "牌数不对（相公）：本盘不得和牌",
    "Giving information to another player: no hu in this hand": "向他人透露信息：本盘不得和牌",
    "Disqualification for disturbing the competition or disobeying the judges": "扰乱比赛或不服从裁判：取消资格",
    "Called discard not taken within two turns: no hu in this hand": "叫牌后两轮内未取打出的牌：本盘不得和牌",
    "Incorrect melded set (left as is): no hu in this hand": "错误的明牌组（保持原样）：本盘不得和牌",
}
