from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from tournaments.models import RuleSet


class EventForm(forms.Form):
    name = forms.CharField(max_length=200)
    slug = forms.SlugField(
        max_length=80, required=False, help_text="Web address; made from the name if empty"
    )
    rules = forms.ChoiceField(choices=RuleSet.choices, initial=RuleSet.MCR)
    start_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    num_sessions = forms.IntegerField(label="Sessions", min_value=1, max_value=50, initial=4)
    hands_per_session = forms.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        initial=16,
        help_text="MCR rule 74: a full game is 16 hands",
    )
    session_minutes = forms.IntegerField(
        label="Time limit per session (minutes)", min_value=10, max_value=600, required=False
    )

    def clean(self) -> dict:
        data = super().clean()
        if not data.get("hands_per_session") and not data.get("session_minutes"):
            raise forms.ValidationError("Set hands per session, a time limit per session, or both.")
        return data


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    country = forms.CharField(max_length=2, required=False, help_text="Two letters, e.g. PT")
    ema_id = forms.CharField(label="EMA id", max_length=8, required=False)
    team = forms.CharField(max_length=120, required=False)


class PlayerImportForm(forms.Form):
    file = forms.FileField(help_text="CSV or XLSX with a header row: name, country, ema_id, team")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if not upload.name.lower().endswith((".csv", ".xlsx", ".txt")):
            raise forms.ValidationError("Upload a .csv or .xlsx file.")
        if upload.size > 2 * 1024 * 1024:
            raise forms.ValidationError("The file is larger than 2 MB.")
        return upload


class SeatingForm(forms.Form):
    seed = forms.IntegerField(min_value=0, max_value=10**9, initial=0, required=False)


class StaffForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=[("referee", "Referee"), ("organiser", "Organiser")])

    def clean_username(self) -> object:
        username = self.cleaned_data["username"]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(f"No account named {username!r}.")
        return user


class SchemeForm(forms.Form):
    preset = forms.ChoiceField(label="Tournament points scheme")

    def __init__(self, *args, presets: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [(p, p) for p in presets]


class CardForm(forms.Form):
    card = forms.FileField(help_text="The year's card as JSON (see docs/nmjl-card-format.md)")


class SettlementForm(forms.Form):
    round_to = forms.TypedChoiceField(
        label="Pay each amount to the nearest",
        choices=[(1, "1 (exact)"), (10, "10 (Babcock line 1204)")],
        coerce=int,
        initial=1,
    )
    stakes_limit = forms.IntegerField(
        label="No single payment over",
        required=False,
        min_value=1,
        max_value=100000,
        help_text="Foster question 11",
    )


class SwapForm(forms.Form):
    a = forms.ChoiceField(label="Swap")
    b = forms.ChoiceField(label="with")

    def __init__(self, *args, players: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["a"].choices = players
        self.fields["b"].choices = players


class SeatingOptionsForm(forms.Form):
    substitute_policy = forms.ChoiceField(
        label="When the players are not a multiple of four",
        choices=[
            ("none", "Refuse (check players in or out first)"),
            ("substitutes", "Add substitutes (1 to 3 seats, not ranked)"),
            ("sit_out", "Let 1 to 3 players sit out each session, in turn"),
        ],
    )
    swiss = forms.BooleanField(required=False, label="Swiss: seat each session by the current standings")
    time_limit = forms.FloatField(
        min_value=0.5,
        max_value=60,
        label="Seconds the engine may search",
        help_text="More time, better plans",
    )


class TieBreakForm(forms.Form):
    tie_break = forms.ChoiceField(
        label="Players with equal totals",
        choices=[("shared", "share the rank"), ("wins", "are ranked by games or hands won, then share")],
    )
