"""Every write to events, players and seating goes through a service here, in a transaction, attributed
to ``acting_user`` and written to the audit log; one module per use case:

- ``events``: an event, its roles and settings;
- ``registrations``: players registered one by one, checked in, or imported from a list;
- ``seating`` (who is seated, a session's tables, what was entered at them, swaps and fixed tables),
  ``reseating`` (a plan proposed and stored), ``seating_upload`` (a prepared seating),
  ``seating_jobs`` (in the background), ``seating_bridge`` (rows to the pure engine and back),
  ``substitutions`` (who played a seat after a substitute came in).
"""
