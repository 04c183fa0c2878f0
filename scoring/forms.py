from __future__ import annotations

import json
from typing import Any

from django import forms

from scoring.models import PaidTo

HOW_CHOICES = [("discard", "Won by discard"), ("self", "Self-drawn"), ("draw", "Draw (nobody won)")]


class HandForm(forms.Form):
    """One MCR hand; ``seats`` is [(wind, label)] of the table's players."""

    how = forms.ChoiceField(choices=HOW_CHOICES, widget=forms.RadioSelect, initial="discard")
    winner = forms.ChoiceField(required=False)
    discarder = forms.ChoiceField(required=False)
    fan = forms.IntegerField(
        required=False, min_value=0, max_value=1000, label="Fan points (without flowers' 8)"
    )
    tiles = forms.CharField(required=False, widget=forms.HiddenInput)
    expected_number = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *seats]
        self.fields["winner"].choices = choices
        self.fields["discarder"].choices = choices
        self.fields["fan"].label = "Fan points (basic score)"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        how = data.get("how")
        if how == "draw":
            data["winner"] = data["discarder"] = None
            data["fan"] = None
            return data
        if not data.get("winner"):
            self.add_error("winner", "Choose the winner.")
        if how == "discard" and not data.get("discarder"):
            self.add_error("discarder", "Choose who discarded the winning tile.")
        if how == "self":
            data["discarder"] = None
        if data.get("fan") is None:
            self.add_error("fan", "Enter the winner's fan points.")
        raw = data.get("tiles")
        data["tiles"] = None
        if raw:
            try:
                data["tiles"] = json.loads(raw)
            except json.JSONDecodeError:
                self.add_error(None, "The tiles could not be read; enter them again or clear them.")
        return data


class TotalsForm(forms.Form):
    def __init__(self, *args: Any, seats: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for wind, label in seats:
            self.fields[wind] = forms.IntegerField(label=label, min_value=-100000, max_value=100000)


class PenaltyForm(forms.Form):
    player = forms.ChoiceField()
    points = forms.IntegerField(min_value=1, max_value=10000)
    paid_to = forms.ChoiceField(choices=PaidTo.choices)
    rule = forms.CharField(max_length=40, required=False, help_text="e.g. MCR 84a")
    reason = forms.CharField(max_length=300, required=False)

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = players


class LateForm(forms.Form):
    player = forms.ChoiceField()
    minutes = forms.IntegerField(min_value=0, max_value=600)

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = players


class AppealForm(forms.Form):
    minutes_after = forms.IntegerField(min_value=0, max_value=1000, label="Minutes after the judgment")
    statement = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
