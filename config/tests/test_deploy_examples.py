"""The environment examples as written pass ``manage.py check --deploy`` with no warning: the compose
example (with the environment compose.yaml adds) and the ``/etc/mahjong/env`` of docs/deployment.md (systemd's
EnvironmentFile=). Only the database is swapped for SQLite: the check needs no server."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SQLITE = "sqlite:///:memory:"


def key_values(lines: list[str]) -> dict[str, str]:
    """``KEY=value`` lines as systemd and compose read them (comments and blank lines skipped)."""
    found = {}
    for line in lines:
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found[key.strip()] = value.strip()
    return found


def compose_example() -> dict[str, str]:
    """deploy/compose.env.example plus the ``environment: &app-env`` block of deploy/compose.yaml."""
    env = key_values((ROOT / "deploy/compose.env.example").read_text().splitlines())
    block = (ROOT / "deploy/compose.yaml").read_text().split("environment: &app-env\n", 1)[1]
    for line in block.splitlines():
        match = re.match(r"^\s{6,}([A-Z_]+):\s*(\"[^\"]*\"|\S+)", line)
        if match is None:
            break
        env[match[1]] = match[2].strip('"').replace("${POSTGRES_PASSWORD}", env["POSTGRES_PASSWORD"])
    assert "CACHE_URL" in env  # the block was found and read
    return env


def systemd_example() -> dict[str, str]:
    """The ``cat >/etc/mahjong/env <<EOF`` of docs/deployment.md, its ``$(...)`` values filled in as the
    shell would (a random key)."""
    guide = (ROOT / "docs/deployment.md").read_text()
    body = guide.split("cat >/etc/mahjong/env <<EOF\n", 1)[1].split("\n    EOF\n", 1)[0]
    body = re.sub(r"\$\(python3 -c '[^']*'\)", secrets.token_urlsafe(50), body).replace("$DBPASS", "dbpass")
    return key_values(body.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("example", [compose_example, systemd_example], ids=["compose", "systemd"])
def test_check_deploy_is_clean_with_the_example_environment(example):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    env.update(example())
    assert env.get("SECRET_KEY")  # the example's own
    env["DATABASE_URL"] = SQLITE
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stdout + result.stderr
