"""deploy/nginx.conf as shipped (TLS, the login limit, deploy/nginx-proxy.conf), run by a real nginx on
loopback with a self-signed certificate in front of a small echo server: the login form's GETs are never
limited, a room of referees behind one address can all log in at once, and the Host header reaches the app
with its port (else every form POST behind nginx on another port fails CSRF)."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

if not Path(NGINX).exists() or not shutil.which("openssl"):
    if os.environ.get("CI"):
        pytest.fail("nginx or openssl is missing in CI: apt-get install nginx-light openssl", pytrace=False)
    pytest.skip("nginx or openssl is not installed", allow_module_level=True)

MAIN = """
pid {work}/nginx.pid;
error_log {work}/error.log warn;
daemon off;
worker_processes 1;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    include {work}/site.conf;
}}
"""


def site_file(work: Path, *, http_port: int, https_port: int, upstream: int) -> str:
    """deploy/nginx.conf with the machine's paths and ports replaced, nothing else."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    replacements = {
        "server 127.0.0.1:8000;": f"server {HOST}:{upstream};",
        "server 127.0.0.1:8001;": f"server {HOST}:{upstream};",
        "/var/lib/nginx/mahjong-cache": str(work / "cache"),
        "/etc/nginx/snippets/mahjong-public-cache-maps.conf": str(
            ROOT / "deploy/nginx-public-cache-maps.conf"
        ),
        "/etc/nginx/snippets/mahjong-public-cache.conf": str(ROOT / "deploy/nginx-public-cache.conf"),
        "/etc/nginx/snippets/mahjong-proxy.conf": str(ROOT / "deploy/nginx-proxy.conf"),
        "/etc/letsencrypt/live/mahjong.example.org/fullchain.pem": str(work / "cert.pem"),
        "/etc/letsencrypt/live/mahjong.example.org/privkey.pem": str(work / "key.pem"),
        "listen 80;": f"listen {HOST}:{http_port};",
        "listen [::]:80;": "",
        "listen 443 ssl http2;": f"listen {HOST}:{https_port} ssl http2;",
        "listen [::]:443 ssl http2;": "",
    }
    for old, new in replacements.items():
        assert old in text, f"deploy/nginx.conf no longer holds {old!r}: update this test"
        text = text.replace(old, new)
    return text


class Echo(BaseHTTPRequestHandler):
    """The app: answers 200 with the Host header it was sent."""

    def do_GET(self) -> None:  # http.server's name
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = (self.headers.get("Host") or "").encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "private")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:  # http.server's name
        self.do_GET()

    def log_message(self, *args: object) -> None:
        pass


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _answering(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def site() -> Iterator[int]:
    """The shipped site file served by a loopback nginx: its HTTPS port."""
    work = Path(tempfile.mkdtemp(prefix="mahjong-nginx-site."))
    os.chmod(work, 0o755)
    app = ThreadingHTTPServer((HOST, 0), Echo)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    certificate = ["-keyout", str(work / "key.pem"), "-out", str(work / "cert.pem")]
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=x",
            *certificate,
        ],
        check=True,
        capture_output=True,
    )
    https_port = _free_port()
    (work / "site.conf").write_text(
        site_file(work, http_port=_free_port(), https_port=https_port, upstream=app.server_address[1])
    )
    (work / "nginx.conf").write_text(MAIN.format(work=work))
    command = [NGINX, "-p", str(work), "-e", str(work / "error.log"), "-c", str(work / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen(command, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 5
        while process.poll() is None and not _answering(https_port) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert process.poll() is None, (work / "error.log").read_text()
        yield https_port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        app.shutdown()
        shutil.rmtree(work, ignore_errors=True)


def request(port: int, method: str, path: str) -> tuple[int, str]:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection(HOST, port, context=context, timeout=10)
    try:
        body = "username=rick&password=x" if method == "POST" else None
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.mark.slow
def test_the_host_header_reaches_the_app_with_its_port(site):
    status, host = request(site, "GET", "/referee/")
    assert status == 200
    assert host == f"{HOST}:{site}"  # Django's CSRF check compares the Origin, port included


@pytest.mark.slow
def test_the_login_form_is_never_limited_and_a_room_of_referees_logs_in_at_once(site):
    with ThreadPoolExecutor(max_workers=16) as pool:
        shown = list(pool.map(lambda _: request(site, "GET", "/accounts/login/")[0], range(60)))
        assert shown == [200] * 60  # GETs count for nothing
        logins = list(pool.map(lambda _: request(site, "POST", "/accounts/login/")[0], range(12)))
    assert logins == [200] * 12  # 8+ referees behind one address (burst 20)
    more = [request(site, "POST", "/accounts/login/")[0] for _ in range(15)]
    assert 429 in more  # still a limit: about 10 a minute per address beyond the burst
