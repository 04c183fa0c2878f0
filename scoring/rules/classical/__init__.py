"""Classical 1920s scoring: Babcock's Red Book, the 1920s Chinese rule book and Foster's proposed laws.

Pure Python. Entry points are in :mod:`scoring.rules.classical.api`; the books' tables and options in
:mod:`.rulesets`; ``docs/classical-rules.md`` describes both and lists the books' misprints.
"""
