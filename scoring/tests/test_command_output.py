"""The commands that print a document share their output (scoring/management/output.py): ``--output FILE``
writes exactly what standard output would show, in UTF-8 with names in their own script."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from players.models import Player

pytestmark = pytest.mark.django_db


def _printed(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize("command", ["export_event", "player_data"])
def test_output_file_holds_what_standard_output_shows(demo_event, tmp_path, command):
    player = Player.objects.get(name="Marta García")
    argument = demo_event.slug if command == "export_event" else str(player.pk)
    printed = _printed(command, argument)
    target = tmp_path / "out.json"
    assert _printed(command, argument, "--output", str(target)) == ""
    written = target.read_text(encoding="utf-8")
    assert written == printed and written.endswith("}\n") and "Marta García" in written
    assert json.loads(written)
