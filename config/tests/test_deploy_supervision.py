"""The one-command stack is supervised: deploy/serve's supervisord restarts each of its four programs
however often, its nginx file (deploy/nginx-serve.conf) renders to a configuration a real nginx accepts, plain
HTTP or TLS, and the systemd units restart what dies without a start limit. The stack itself, killed and
restarted, is deploy/smoke-test's."""

from __future__ import annotations

import configparser
import os
import re
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
LONG_RUNNING = ["mahjong.service", "mahjong-staff.service", "mahjong-worker.service"]


def unit(name: str) -> str:
    return (ROOT / "deploy/systemd" / name).read_text()


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_each_long_running_unit_restarts_whatever_ends_it_one_second_later(name):
    text = unit(name)
    assert re.search(r"^Restart=always$", text, re.MULTILINE)
    assert re.search(r"^RestartSec=1$", text, re.MULTILINE)


@pytest.mark.parametrize("name", [*LONG_RUNNING, "nginx-restart.conf"])
def test_no_unit_gives_up_after_a_few_quick_deaths(name):
    unit_section = unit(name).split("[Service]")[0]
    assert re.search(r"^StartLimitIntervalSec=0$", unit_section, re.MULTILINE)


def render(tmp_path: Path, **settings: str) -> Path:
    """``deploy/serve render`` with an env file of ``settings``: the files it writes under ``tmp_path``."""
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail("nginx is missing in CI: apt-get install nginx-light", pytrace=False)
        pytest.skip("nginx is not installed")
    env_file = tmp_path / "prod.env"
    lines = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "GUNICORN_BIND": "127.0.0.1:18500",
        "STAFF_BIND": "127.0.0.1:18501",
        "NGINX_PORT": "18580",
        **settings,
    }
    env_file.write_text("".join(f"{key}={value}\n" for key, value in lines.items()))
    environ = {"PATH": os.environ["PATH"], "MAHJONG_VAR": str(tmp_path)}
    result = subprocess.run(
        [ROOT / "deploy/serve", "render"], env=environ, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return tmp_path


def test_supervisord_restarts_each_program_however_often(tmp_path):
    var = render(tmp_path)
    config = configparser.RawConfigParser()
    config.read(var / "supervisord.conf")
    programs = {s.removeprefix("program:") for s in config.sections() if s.startswith("program:")}
    assert programs == {"public-gunicorn", "staff-gunicorn", "worker", "nginx"}
    for name in programs:
        section = config[f"program:{name}"]
        assert section["autorestart"] == "true"
        assert int(section["startretries"]) >= 1000
        assert "--daemon" not in section["command"]  # supervisord must see the process it watches


def test_nginx_listens_on_the_configured_port_with_plain_http_by_default(tmp_path):
    conf = (render(tmp_path) / "nginx/nginx.conf").read_text()
    assert "listen 127.0.0.1:18580;" in conf
    assert "ssl_certificate" not in conf
    assert "server 127.0.0.1:18500;" in conf
    assert "server 127.0.0.1:18501;" in conf
    assert "@" not in re.sub(r"#.*", "", conf)  # every placeholder replaced
    assert f"pid {tmp_path}/nginx/nginx.pid;" in conf


@pytest.mark.slow
def test_nginx_serves_tls_with_the_given_certificate(tmp_path):
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=127.0.0.1",
            ),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    conf = (render(tmp_path, TLS_CERT=str(cert), TLS_KEY=str(key)) / "nginx/nginx.conf").read_text()
    assert "listen 127.0.0.1:18580 ssl http2;" in conf
    assert f"ssl_certificate {cert};" in conf
    assert f"ssl_certificate_key {key};" in conf
