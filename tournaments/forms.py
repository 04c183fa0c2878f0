from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import get_language, gettext, gettext_lazy

from players.models import Player
from scoring.rules import registry
from scoring.rules.settings import Setting
from tournaments.field_limits import max_length
from tournaments.models import PUBLIC_NAME_CHOICES, Registration, Role, Tournament
from tournaments.venue_time import default_time_zone, zone_names


def _rule_set_choices() -> list[tuple[str, str]]:
    """The rule sets by name in the page's language."""
    return [(code, cls().label_in(get_language())) for code, cls in registry.RULE_SETS.items()]


def _zone_choices() -> list[tuple[str, str]]:
    """Every IANA name the machine knows (``zoneinfo.available_timezones()``); a name outside it is refused."""
    return [(name, name) for name in zone_names()]


def _time_zone_field(*, required: bool = True) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=_zone_choices,
        required=required,
        initial=default_time_zone,
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("The venue's clock: every time shown for the event is in it."),
        error_messages={
            "invalid_choice": gettext_lazy(
                "%(value)s is not a known time zone: choose one such as Europe/Amsterdam."
            )
        },
    )


class TimeZoneForm(forms.Form):
    """The venue's clock on the settings page (``tournaments.services.events.set_time_zone``)."""

    time_zone = _time_zone_field()


class EventForm(forms.Form):
    name = forms.CharField(max_length=max_length(Tournament, "name"), label=gettext_lazy("Name"))
    slug = forms.SlugField(
        max_length=max_length(Tournament, "slug"),
        required=False,
        label=gettext_lazy("Web address"),
        help_text=gettext_lazy("Web address; made from the name if empty"),
    )
    rules = forms.ChoiceField(
        choices=_rule_set_choices, initial=registry.DEFAULT, label=gettext_lazy("Rules")
    )
    start_date = forms.DateField(
        label=gettext_lazy("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=gettext_lazy("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    num_sessions = forms.IntegerField(label=gettext_lazy("Sessions"), min_value=1, max_value=50, initial=4)
    hands_per_session = forms.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        initial=16,
        label=gettext_lazy("Hands per session"),
        help_text=gettext_lazy("MCR rule 74: a full game is 16 hands"),
    )
    session_minutes = forms.IntegerField(
        label=gettext_lazy("Time limit per session (minutes)"), min_value=10, max_value=600, required=False
    )
    time_zone = _time_zone_field(required=False)  # empty: the site's zone

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not data.get("hands_per_session") and not data.get("session_minutes"):
            raise forms.ValidationError(gettext("Set hands per session, a time limit per session, or both."))
        return data


class CountryInput(forms.TextInput):
    """A text field with the ISO 3166 list as suggestions (``<datalist id="countries">`` on the page):
    searchable as one types, and any typed name or code is accepted and mapped by the service."""

    def __init__(self) -> None:
        super().__init__(
            attrs={
                "list": "countries",
                "autocomplete": "off",
                "placeholder": gettext_lazy("e.g. Portugal or PT"),
            }
        )


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=max_length(Player, "name"), label=gettext_lazy("Name"))
    family_name = forms.CharField(
        max_length=max_length(Player, "family_name"),
        required=False,
        label=gettext_lazy("Family name"),
        help_text=gettext_lazy("Optional, as the federation lists it: de Vries, García López, 陈"),
    )
    given_name = forms.CharField(
        max_length=max_length(Player, "given_name"),
        required=False,
        label=gettext_lazy("Given names"),
        help_text=gettext_lazy("Optional: Jan, María José, 波 (the EMA file uses both when given)"),
    )
    country = forms.CharField(
        max_length=80,
        required=False,
        widget=CountryInput(),
        label=gettext_lazy("Country"),
        help_text=gettext_lazy("A country name or its ISO code"),
    )
    ema_id = forms.CharField(label=gettext_lazy("EMA id"), max_length=8, required=False)
    team = forms.CharField(
        max_length=max_length(Registration, "team"), required=False, label=gettext_lazy("Team")
    )
    public_name = forms.ChoiceField(
        choices=PUBLIC_NAME_CHOICES,
        required=False,
        label=gettext_lazy("Public name"),
        help_text=gettext_lazy("The player may show less than the event does, never more"),
    )


class RegisterForm(PlayerForm):
    register_anyway = forms.BooleanField(
        required=False,
        label=gettext_lazy("Register anyway"),
        help_text=gettext_lazy("Only when the warning is about a different person"),
    )


class DeskForm(forms.Form):
    q = forms.CharField(
        label=gettext_lazy("Scan a seat slip or type a name"),
        max_length=300,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autofocus": True, "enterkeyhint": "go"}),
    )


class WithdrawForm(forms.Form):
    withdrawn = forms.BooleanField(required=False)


class PlayerImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=gettext_lazy(
            "CSV or XLSX with a header row: name, country, ema_id, team (optional: family_name, given_name)"
        ),
    )

    def clean_file(self) -> UploadedFile:
        upload: UploadedFile = self.cleaned_data["file"]
        # A FileField's upload always has a name and a size (the stubs allow None for a file built by hand).
        if not (upload.name or "").lower().endswith((".csv", ".xlsx", ".txt")):
            raise forms.ValidationError(gettext("Upload a .csv or .xlsx file."))
        if (upload.size or 0) > 2 * 1024 * 1024:
            raise forms.ValidationError(gettext("The file is larger than 2 MB."))
        return upload


class SeatingForm(forms.Form):
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"), min_value=0, max_value=10**9, initial=0, required=False
    )
    scope = forms.ChoiceField(
        choices=[
            ("one", gettext_lazy("This session")),
            ("remaining", gettext_lazy("This and all later sessions")),
        ],
        required=False,
        widget=forms.HiddenInput,
    )


class CheckInForm(forms.Form):
    checked_in = forms.BooleanField(required=False)


class SelfCheckInForm(forms.Form):
    """Open self check-in for so many minutes from now (``desk.set_self_check_in``); the close button
    sends ``close``."""

    minutes = forms.IntegerField(
        label=gettext_lazy("Open for (minutes)"),
        min_value=1,
        max_value=12 * 60,
        initial=60,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 4}),
    )
    close = forms.BooleanField(required=False, widget=forms.HiddenInput)


class FixedTableForm(forms.Form):
    fixed_table = forms.IntegerField(
        min_value=1,
        max_value=500,
        required=False,
        label=gettext_lazy("Fixed table"),
        error_messages={
            "invalid": gettext_lazy("A fixed table is a table number (1 or more), or empty for none.")
        },
    )


class AllowedForm(forms.Form):
    allowed = forms.BooleanField(required=False)


class StaffForm(forms.Form):
    username = forms.CharField(
        max_length=max_length(get_user_model(), "username"), label=gettext_lazy("Username")
    )
    role = forms.ChoiceField(choices=Role.choices, initial=Role.REFEREE, label=gettext_lazy("Role"))

    def clean_username(self) -> object:
        username = self.cleaned_data["username"]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(
                gettext("No account named %(username)s: create it under New volunteer account.")
                % {"username": repr(username)}
            )
        return user


class NewStaffAccountForm(forms.Form):
    """A volunteer's new login: the service checks the username (taken, characters) and creates it."""

    new_username = forms.CharField(
        max_length=max_length(get_user_model(), "username"),
        label=gettext_lazy("Username"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    new_role = forms.ChoiceField(choices=Role.choices, initial=Role.REFEREE, label=gettext_lazy("Role"))


class CardForm(forms.Form):
    card = forms.FileField(
        label=gettext_lazy("Card"),
        help_text=gettext_lazy("The year's card as JSON (see docs/nmjl-card-format.md), at most 512 KB"),
    )

    def __init__(self, *args: Any, max_bytes: int, **kwargs: Any) -> None:
        """``max_bytes``: the event's rule set's ``card_max_bytes``."""
        super().__init__(*args, **kwargs)
        self.max_bytes = max_bytes

    def clean_card(self) -> UploadedFile:
        """Refused before it is read: a card is some 20 KB; a large upload is a mistake or an attack."""
        upload: UploadedFile = self.cleaned_data["card"]
        size = upload.size or 0  # a FileField's upload always has one (the stubs allow None)
        if self.max_bytes and size > self.max_bytes:
            raise forms.ValidationError(
                gettext("The card file has %(count)s bytes; at most %(max_card_bytes)s are accepted.")
                % {"count": format(size, ","), "max_card_bytes": format(self.max_bytes, ",")}
            )
        return upload


class SwapForm(forms.Form):
    a = forms.ChoiceField(label=gettext_lazy("Swap"))
    b = forms.ChoiceField(label=gettext_lazy("with"))

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["a"]).choices = players
        cast(forms.ChoiceField, self.fields["b"]).choices = players


class SettingsForm(forms.Form):
    """One group of an event's settings, built from their schema (``tournaments.event_settings``)."""

    def __init__(self, *args: Any, settings: Sequence[Setting], values: Mapping[str, Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.settings = {self._name(s): s for s in settings}
        for name, setting in self.settings.items():
            value = values.get(setting.key)
            if setting.to_form is not None:
                value = setting.to_form(value)
            self.fields[name] = self._field(setting)
            self.initial[name] = value

    @staticmethod
    def _name(setting: Setting) -> str:
        return setting.key.replace(".", "__")

    @staticmethod
    def _field(setting: Setting) -> forms.Field:
        # The schema's words are marked for the catalogue (gettext_noop) and translated here.
        label, help_text = gettext(setting.label), gettext(setting.help) if setting.help else ""
        if setting.choices:
            kind: Callable[[Any], Any] = type(setting.choices[0][0])
            return forms.TypedChoiceField(
                choices=[(str(v), gettext(text) if text else text) for v, text in setting.choices],
                coerce=kind,
                label=label,
                help_text=help_text,
            )
        if setting.kind == "bool":
            return forms.BooleanField(required=False, label=label, help_text=help_text)
        if setting.kind == "int":
            # An "int" setting's bounds are whole numbers (``Setting`` types them as float for both kinds).
            return forms.IntegerField(
                required=not setting.optional,
                min_value=cast("int | None", setting.minimum),
                max_value=cast("int | None", setting.maximum),
                label=label,
                help_text=help_text,
            )
        if setting.kind == "float":
            return forms.FloatField(
                required=not setting.optional,
                min_value=setting.minimum,
                max_value=setting.maximum,
                label=label,
                help_text=help_text,
            )
        return forms.CharField(
            required=not setting.optional, max_length=200, label=label, help_text=help_text
        )

    def changes(self) -> dict[str, Any]:
        """The cleaned values by dotted key, ready for ``tournaments.services.events.update_settings``."""
        result = {}
        for name, setting in self.settings.items():
            value = self.cleaned_data.get(name)
            if value in ("", None):
                value = None
            elif setting.from_form is not None:
                value = setting.from_form(value)
            result[setting.key] = value
        return result


class EntryForm(forms.Form):
    """A player's own entry (``/e/<event>/register/``); ``website`` is the honeypot (hidden from people,
    filled by bots) and ``stamp`` the time trap (``tournaments.services.entries.form_stamp``)."""

    family_name = forms.CharField(
        max_length=max_length(Player, "family_name"), label=gettext_lazy("Family name")
    )
    given_name = forms.CharField(
        max_length=max_length(Player, "given_name"), label=gettext_lazy("Given names")
    )
    country = forms.CharField(
        max_length=80,
        required=False,
        widget=CountryInput(),
        label=gettext_lazy("Country"),
        help_text=gettext_lazy("A country name or its ISO code"),
    )
    ema_id = forms.CharField(
        label=gettext_lazy("EMA id"),
        max_length=8,
        required=False,
        help_text=gettext_lazy("8 digits, if you have one"),
    )
    team = forms.CharField(
        max_length=max_length(Registration, "team"), required=False, label=gettext_lazy("Team")
    )
    email = forms.EmailField(max_length=254, label=gettext_lazy("Email address"))
    website = forms.CharField(
        required=False,
        label=gettext_lazy("Leave this field empty"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )
    stamp = forms.CharField(widget=forms.HiddenInput)


class EntryWindowForm(forms.Form):
    capacity = forms.IntegerField(min_value=1, max_value=10000, label=gettext_lazy("Places"))
    closes_at = forms.DateTimeField(
        label=gettext_lazy("Registration closes at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
