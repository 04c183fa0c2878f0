from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from scoring.export_jobs import EXPORTS
        from scoring.services.pins import pin_for_new_registration
        from scoring.services.standings import ScoringResults
        from scoring.standings_page import keep_drawn_ahead
        from tournaments import results, worker
        from tournaments.models import Registration

        results.register(ScoringResults())
        worker.register_companion("standings-ahead", keep_drawn_ahead)  # scoring.standings_page
        worker.register(EXPORTS)  # long prints go through the background worker (scoring.export_jobs)
        # Every registration gets its PIN as it is made (in the same transaction), however it is made:
        # the desk, a player import or an event import (the event layer cannot import scoring).
        post_save.connect(pin_for_new_registration, sender=Registration, dispatch_uid="scoring-pin")
