"""Every write of a result goes through a service here, one module per use case: checked by the event's
rule set, written through the one write kernel (``kernel.table_write``: in a transaction under the
table's lock, as a new version, attributed and audited, the confirmation withdrawn, the versions bumped).

- ``kernel``: the write kernel; ``queries``: reading results; ``entry``: hands, totals, complete tables;
- ``penalties``: penalties and lateness; ``rulings``: the rule set's rulings; ``appeals``: appeals;
- ``confirmation``: confirming a result; ``pins``: players' PINs and signatures;
- ``seat_changes``: seats fixed after play and substitutions; ``standings``: the event's standings.
"""
