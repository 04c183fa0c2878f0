from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from scoring.services import ScoringResults
        from tournaments import results

        results.register(ScoringResults())
