from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

from django import forms
from django.utils.translation import get_language, gettext, gettext_lazy

from scoring.models import REASONS_LENGTH, STATEMENT_LENGTH, Appeal, PaidTo, Penalty
from scoring.rules import vocabulary
from scoring.templatetags.rules_words import paid_to_label, with_rule
from tournaments.field_limits import max_length

HOW_CHOICES = [
    ("discard", gettext_lazy("Won by discard")),
    ("self", gettext_lazy("Self-drawn")),
    ("draw", gettext_lazy("Draw (nobody won)")),
]


class HandEntryForm(forms.Form):
    """What every rule set's hand form offers: the hand as keyword arguments of ``services.HandEntry``."""

    # One per hand, made by the page (and by static/js/offline-entry.js for each hand kept offline): the
    # same hand posted again is stored once (services.entry.record_hand).
    entry_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def entry(self) -> dict[str, Any]:
        raise NotImplementedError


class MCRHandForm(HandEntryForm):
    """One MCR hand; ``seats`` is [(wind, label)] of the table's players."""

    how = forms.ChoiceField(
        choices=HOW_CHOICES, widget=forms.RadioSelect, initial="discard", label=gettext_lazy("How")
    )
    winner = forms.ChoiceField(required=False, label=gettext_lazy("Winner"))
    discarder = forms.ChoiceField(required=False, label=gettext_lazy("Discarder"))
    fan = forms.IntegerField(
        required=False, min_value=0, max_value=1000, label=gettext_lazy("Fan points (without flowers' 8)")
    )
    tiles = forms.CharField(required=False, widget=forms.HiddenInput)
    expected_number = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: list[tuple[str, str]], rules: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *seats]
        cast(forms.ChoiceField, self.fields["winner"]).choices = choices
        cast(forms.ChoiceField, self.fields["discarder"]).choices = choices
        self.fields["fan"].label = gettext_lazy("Fan points (basic score, one per flower included)")

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "winner": data["winner"],
            "discarder": data["discarder"],
            "fan": data["fan"],
            "tiles": data["tiles"],
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        how = data.get("how")
        if how == "draw":
            data["winner"] = data["discarder"] = None
            data["fan"] = None
            data["tiles"] = None
            return data
        if not data.get("winner"):
            self.add_error("winner", gettext_lazy("Choose the winner."))
        if how == "discard" and not data.get("discarder"):
            self.add_error("discarder", gettext_lazy("Choose who discarded the winning tile."))
        if how == "self":
            data["discarder"] = None
        if data.get("fan") is None:
            self.add_error("fan", gettext_lazy("Enter the winner's fan points."))
        raw = data.get("tiles")
        data["tiles"] = None
        if raw:
            try:
                data["tiles"] = json.loads(raw)
            except json.JSONDecodeError:
                self.add_error(
                    None, gettext_lazy("The tiles could not be read; enter them again or clear them.")
                )
        return data


class TotalsForm(forms.Form):
    expected_version = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=0)
    # The page's token for this entry: posted again (kept offline, static/js/offline-entry.js), stored once.
    entry_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for wind, label in seats:
            self.fields[wind] = forms.IntegerField(label=label, min_value=-100000, max_value=100000)


class VoidForm(forms.Form):
    """The last hand's number as the page showed it: a repeated post deletes nothing more."""

    expected_last = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=0)


class PinForm(forms.Form):
    pin = forms.CharField(
        label=gettext_lazy("Your PIN (on your seat slip)"),
        max_length=12,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


class BlindEntryForm(forms.Form):
    """The score sheet entered a second time, blind: each hand's points per starting seat (rows left
    empty are ignored) and the session's totals."""

    expected_version = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=0)
    entry_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: list[tuple[str, str]], hands: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.hands = hands
        for number in range(1, hands + 1):
            for wind, _ in seats:
                self.fields[f"h{number}_{wind}"] = forms.IntegerField(
                    required=False,
                    min_value=-100000,
                    max_value=100000,
                    label=gettext("Hand %(number)s %(seat)s")
                    % {"number": number, "seat": vocabulary.wind_short(wind, get_language())},
                )
        for wind, label in seats:
            self.fields[f"total_{wind}"] = forms.IntegerField(
                min_value=-100000, max_value=100000, label=gettext("Total %(seat)s") % {"seat": label}
            )

    def grid(self) -> list[tuple[int, list[Any]]]:
        """Bound fields by hand, for the template's table."""
        return [(n, [self[f"h{n}_{wind}"] for wind, _ in self.seats]) for n in range(1, self.hands + 1)]

    def total_fields(self) -> list[Any]:
        return [self[f"total_{wind}"] for wind, _ in self.seats]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        rows = []
        blank = 0
        for number in range(1, self.hands + 1):
            values = {wind: data.get(f"h{number}_{wind}") for wind, _ in self.seats}
            if all(value is None for value in values.values()):
                blank = blank or number
                continue
            if any(value is None for value in values.values()):
                raise forms.ValidationError(
                    gettext("Hand %(number)s: enter the points of all four seats.") % {"number": number}
                )
            if blank:
                raise forms.ValidationError(
                    gettext("Hand %(number)s is empty: enter the hands in order, from hand 1.")
                    % {"number": blank}
                )
            rows.append(values)
        data["rows"] = rows
        data["totals"] = {wind: data.get(f"total_{wind}") for wind, _ in self.seats}
        return data


class PenaltyForm(forms.Form):
    """A ruling from the rule set's catalogue (points worked out), or any other penalty with its points."""

    OTHER = "other"
    """The ``kind`` of a penalty outside the catalogue: its points, payee and rule are typed."""
    ALWAYS = ("player", "kind", "reason")
    """The fields every ruling needs; the others are shown for the rulings that need them."""

    player = forms.ChoiceField(label=gettext_lazy("Player"))
    kind = forms.ChoiceField(
        label=gettext_lazy("Ruling"),
        error_messages={"required": gettext_lazy("Choose a ruling, or Other to enter the points.")},
    )
    hand_number = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label=gettext_lazy("In hand number"),
        help_text=gettext_lazy("For a ruling that bars a win: the player may not win this hand"),
    )
    tiles = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=14,
        label=gettext_lazy("Tiles revealed"),
        help_text=gettext_lazy("Only for points per tile"),
    )
    points = forms.IntegerField(
        min_value=0,
        max_value=10000,
        required=False,
        label=gettext_lazy("Points"),
        help_text=gettext_lazy("Only for 'other'; 0 records a warning"),
    )
    paid_to = forms.ChoiceField(choices=PaidTo.choices, required=False, label=gettext_lazy("Paid to"))
    paid_to_player = forms.ChoiceField(required=False, label=gettext_lazy("Paid to (one opponent)"))
    rule = forms.CharField(
        max_length=max_length(Penalty, "rule"),
        required=False,
        label=gettext_lazy("Rule"),
        help_text=gettext_lazy("Only for 'other': the rule applied"),
    )
    reason = forms.CharField(
        max_length=max_length(Penalty, "reason"), required=False, label=gettext_lazy("Reason")
    )
    expected_position = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # The page's token for this entry: posted again (kept offline, static/js/offline-entry.js), stored once.
    entry_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        players: list[tuple[str, str]],
        catalogue: Sequence[Any] = (),
        hand_word: str = "hand",
        words: Callable[[str], str] = str,
        rules: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # The rule set's own citations (none where its book has no such rule), and the number of tiles
        # revealed only where one of its rulings costs points per tile (MCR 85e).
        cast(forms.ChoiceField, self.fields["paid_to"]).choices = [
            (value, paid_to_label(value, rules)) for value in PaidTo.values
        ]
        if rules is not None and not rules.penalties_per_tile:
            del self.fields["tiles"]
        cast(forms.ChoiceField, self.fields["player"]).choices = players
        cast(forms.ChoiceField, self.fields["paid_to_player"]).choices = [("", "—"), *players]
        kinds = [
            (k.key, f"{words(k.citation)}: {words(k.label)}") for k in catalogue
        ]  # labels in the page's language
        # No ruling chosen at first: the referee picks one (a default would be recorded unread).
        cast(forms.ChoiceField, self.fields["kind"]).choices = [
            ("", "—"),
            *kinds,
            (self.OTHER, gettext("Other (enter the points)")),
        ]
        other = [self.OTHER]
        self.needed_by: dict[str, list[str]] = {
            "hand_number": [k.key for k in catalogue if k.needs_hand],
            "tiles": [k.key for k in catalogue if k.per_tile],
            "points": other,
            "paid_to": other,
            "rule": other,
            "paid_to_player": [*(k.key for k in catalogue if k.paid_to == "player"), *other],
        }
        """For each field not every ruling needs, the rulings that need it (the page hides it otherwise)."""
        self.fields["hand_number"].label = gettext("In %(hand)s number") % {"hand": hand_word}
        self.fields["hand_number"].help_text = gettext(
            "For a ruling that bars a win: the player may not win this %(hand)s"
        ) % {"hand": hand_word}

    def shown_fields(self) -> list[tuple[Any, str | None]]:
        """The visible fields, each with the rulings it is shown for ("key other": space-separated; None:
        every ruling). Without JavaScript every field is shown."""
        return [
            (field, None if field.name in self.ALWAYS else " ".join(self.needed_by.get(field.name, [])))
            for field in self.visible_fields()
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("kind") == self.OTHER:
            if data.get("points") is None:
                self.add_error("points", gettext_lazy("Enter the penalty points (0 for a warning)."))
            if not data.get("paid_to"):
                self.add_error("paid_to", gettext_lazy("Choose how the penalty is paid."))
            elif data["paid_to"] == PaidTo.PLAYER and not data.get("paid_to_player"):
                self.add_error("paid_to_player", gettext_lazy("Choose the player who receives the points."))
        return data


class LateForm(forms.Form):
    player = forms.ChoiceField(label=gettext_lazy("Player"))
    minutes = forms.IntegerField(min_value=0, max_value=600, label=gettext_lazy("Minutes"))
    # The page's token for this entry: posted again (kept offline, static/js/offline-entry.js), stored once.
    entry_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["player"]).choices = players


class AppealForm(forms.Form):
    """A written appeal against a ruling (MCR rule 94b-d): the statement, who signed it, the fee; each
    citing the rule set's own rule, where its book has one."""

    appellant = forms.ChoiceField(label=gettext_lazy("Appeal by"))
    signed_by = forms.CharField(
        max_length=max_length(Appeal, "signed_by"),
        label=gettext_lazy("Signed by"),
        help_text=gettext_lazy("The player and/or the team leader"),
    )
    statement = forms.CharField(
        max_length=STATEMENT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=gettext_lazy("Written statement"),
    )
    fee_received = forms.BooleanField(required=False, label=gettext_lazy("Fee received"))

    def __init__(
        self, *args: Any, players: list[tuple[str, str]], fee: int = 0, rules: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["appellant"]).choices = players
        signed, statement = self.fields["signed_by"], self.fields["statement"]
        signed.help_text = with_rule(str(signed.help_text), rules, "appeal_signed")
        statement.label = with_rule(str(statement.label), rules, "appeal_statement")
        if fee:
            self.fields["fee_received"].label = with_rule(
                gettext("The fee of %(fee)s was received with the appeal") % {"fee": fee}, rules, "appeal_fee"
            )
        else:
            del self.fields["fee_received"]


class DecisionForm(forms.Form):
    """An appeal's decision (rule 94) and the reasons for it; ``revise`` asks for a changed decision."""

    status = forms.ChoiceField(
        choices=[
            ("upheld", gettext_lazy("Appeal granted: ruling withdrawn")),
            ("denied", gettext_lazy("Appeal rejected: ruling stands")),
        ],
        label=gettext_lazy("Decision"),
    )
    reasons = forms.CharField(
        max_length=REASONS_LENGTH, widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Reasons")
    )
    revise = forms.BooleanField(required=False, widget=forms.HiddenInput)


WON_BY_CHOICES = [
    ("discard", gettext_lazy("Won by discard")),
    ("self_pick", gettext_lazy("Self-picked")),
    ("wall", gettext_lazy("Wall game (nobody won)")),
]


class NMJLGameForm(HandEntryForm):
    """One NMJL game: how it ended, the card hand (value filled in) or its value, jokerless, exposures,
    dead hands (Sloper chapter 3, tournament scoring ~line 1556)."""

    won_by = forms.ChoiceField(
        choices=WON_BY_CHOICES, widget=forms.RadioSelect, initial="discard", label=gettext_lazy("Result")
    )
    winner = forms.ChoiceField(required=False, label=gettext_lazy("Winner"))
    discarder = forms.ChoiceField(required=False, label=gettext_lazy("Discarder"))
    card_hand = forms.ChoiceField(required=False, label=gettext_lazy("Hand on the card"))
    value = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label=gettext_lazy("Value"),
        help_text=gettext_lazy("Only when no card hand is chosen"),
    )
    jokerless = forms.BooleanField(required=False, label=gettext_lazy("Jokerless"))
    winner_exposures = forms.IntegerField(
        min_value=0, max_value=4, initial=0, label=gettext_lazy("Winner's exposures")
    )
    tiles = forms.CharField(
        required=False,
        label=gettext_lazy("Winner's tiles (optional)"),
        help_text=gettext_lazy(
            "All 14, e.g. 2m 2m 2m 4m 4m 4m 6m 6m 6m 6m 8m 8m 8m J; J joker, F flower, 5z soap"
        ),
    )
    exposures = forms.CharField(
        required=False,
        label=gettext_lazy("Of which exposed (optional)"),
        help_text=gettext_lazy("Groups separated by ; e.g. 8m 8m 8m J"),
    )
    dead = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label=gettext_lazy("Dead hands")
    )
    expected_number = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: list[tuple[str, str]], rules: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        card = rules.card
        language = get_language()
        card_hands = (
            [(h.id, f"{rules.word(h.family, language)}: {h.pattern} ({h.xc}, {h.value})") for h in card.hands]
            if card
            else []
        )
        choices = [("", "—"), *seats]
        cast(forms.ChoiceField, self.fields["winner"]).choices = choices
        cast(forms.ChoiceField, self.fields["discarder"]).choices = choices
        cast(forms.ChoiceField, self.fields["dead"]).choices = seats
        cast(forms.ChoiceField, self.fields["card_hand"]).choices = [
            ("", gettext("— (enter the value)")),
            *card_hands,
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        won_by = data.get("won_by")
        if won_by != "wall" and not data.get("winner"):
            self.add_error("winner", gettext_lazy("Choose the winner."))
        if won_by == "discard" and not data.get("discarder"):
            self.add_error("discarder", gettext_lazy("Choose who discarded the winning tile."))
        data["tile_list"] = data.get("tiles", "").replace(",", " ").split()
        data["exposure_list"] = [
            group.split() for group in data.get("exposures", "").split(";") if group.split()
        ]
        if data["exposure_list"] and not data["tile_list"]:
            self.add_error("tiles", gettext_lazy("Give all 14 tiles when you give the exposures."))
        if won_by != "wall" and not data.get("card_hand") and not data.get("value") and not data["tile_list"]:
            self.add_error(
                "value", gettext_lazy("Choose the hand on the card, enter its value, or enter the tiles.")
            )
        return data

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        won_by = data["won_by"]
        details: dict[str, Any] = {"won_by": won_by, "dead": list(data.get("dead") or [])}
        if won_by != "wall":
            details.update(jokerless=data["jokerless"], winner_exposures=data["winner_exposures"] or 0)
            if data.get("card_hand"):
                details["hand"] = data["card_hand"]
            elif data.get("value"):
                details["value"] = data["value"]
            if data.get("tile_list"):
                details["tiles"] = data["tile_list"]
                details["exposures"] = data["exposure_list"]
        return {
            "winner": data["winner"] if won_by != "wall" else None,
            "discarder": data["discarder"] if won_by == "discard" else None,
            "data": details,
        }


class ClassicalHandForm(HandEntryForm):
    """One classical hand: who went out (or a draw), who was East, and every player's hand score
    (losing hands score too in these books); the settlement follows from them."""

    winner = forms.ChoiceField(required=False, label=gettext_lazy("Went out"))
    east = forms.ChoiceField(label=gettext_lazy("East (dealer) this hand"))
    expected_number = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: list[tuple[str, str]], rules: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["winner"]).choices = [("", gettext("Nobody (draw)")), *seats]
        cast(forms.ChoiceField, self.fields["east"]).choices = seats
        self.seat_labels = seats
        for wind, label in seats:
            self.fields[f"score_{wind}"] = forms.IntegerField(
                label=gettext("Hand score: %(seat)s") % {"seat": label},
                min_value=0,
                max_value=100000,
            )  # no 0 shown: a score not typed is refused, never counted as 0

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "winner": data["winner"] or None,
            "discarder": None,
            "data": {"east": data["east"], "scores": {w: data[f"score_{w}"] for w, _ in self.seat_labels}},
        }


class ExpectedVersionForm(forms.Form):
    """The version of a hand the referee's page showed: a correction based on a stale page is refused."""

    expected_version = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)


class PlayerSignInForm(forms.Form):
    """A player's code and PIN from their seat slip, for their own page (``scoring/views_player.py``)."""

    code = forms.CharField(
        label=gettext_lazy("Player code"),
        max_length=40,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    pin = forms.CharField(
        label=gettext_lazy("Your PIN (on your seat slip)"),
        max_length=12,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
