"""Chinese Official (MCR) rules as Sloper's book states them (seeds/003_2541481d343502a5.txt, chapter 4).

Pure Python: settlement and session scoring live in :mod:`scoring.rules.mcr.session`, the fan
calculator in :mod:`scoring.rules.mcr.calculator`, a claim checked against the tiles in
:mod:`scoring.rules.mcr.claims`, the penalty catalogue and no-hu rulings in
:mod:`scoring.rules.mcr.penalties` (see docs/rules-engines-api.md).
"""
