"""nginx's one-second public page cache as deployed (deploy/nginx-public-cache.conf and its maps, with
deploy/nginx-proxy.conf) in front of a live server on the test database: a second read is a HIT with the same
body, htmx is keyed as django-htmx reads it, a page taken back to draft answers 404 to every reader within
about two seconds and never a stored 200 after that, and a reader with a session is never served from the
cache (docs/public-pages.md)."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from scoring import views_public
from tournaments import public_read
from tournaments.release import publish_event, publish_session

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

if not Path(NGINX).exists():
    if os.environ.get("CI"):
        pytest.fail("nginx is missing in CI: apt-get install nginx-light", pytrace=False)
    pytest.skip("nginx is not installed (apt-get install nginx-light)", allow_module_level=True)

# deploy/nginx.conf's public location on loopback, without TLS: the snippet files included as deployed.
CONF = """
pid {work}/nginx.pid;
error_log {work}/error.log warn;
daemon off;
worker_processes 1;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    proxy_cache_path {work}/cache levels=1:2 keys_zone=mahjong_public:1m max_size=10m inactive=1m use_temp_path=off;
    include {root}/deploy/nginx-public-cache-maps.conf;
    server {{
        listen {host}:{port};
        location / {{
            proxy_pass {upstream};
            include {root}/deploy/nginx-proxy.conf;
            include {root}/deploy/nginx-public-cache.conf;
        }}
    }}
}}
"""

POLL = 0.2  # seconds between a reader's polls
WITHIN = 3.0  # a change reaches every reader within this
HOLD = 1.0  # once a reader saw the change, it must stick this long

# Readers whose answers are stored under different keys: the page, the htmx fragment, the gzipped page.
READERS: dict[str, dict[str, str]] = {
    "page": {},
    "fragment": {"HX-Request": "true"},
    "gzip": {"Accept-Encoding": "gzip"},
}


@dataclass(frozen=True)
class Answer:
    status: int
    cache: str
    body: bytes


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


@pytest.fixture
def nginx(live_server) -> Iterator[int]:
    """A loopback nginx with a cache of its own in front of ``live_server``: its port. Running as root,
    the master gives the cache and temp directories to the worker's user; the workers only need to
    reach them, hence 0o755 on the directory (mkdtemp makes it 0o700)."""
    work = Path(tempfile.mkdtemp(prefix="mahjong-nginx."))
    os.chmod(work, 0o755)
    process: subprocess.Popen[bytes] | None = None
    try:
        for _attempt in range(3):  # the free port may be taken before nginx binds it
            port = _free_port()
            conf = work / "nginx.conf"
            conf.write_text(CONF.format(work=work, root=ROOT, host=HOST, port=port, upstream=live_server.url))
            process = subprocess.Popen(
                [NGINX, "-p", str(work), "-e", str(work / "error.log"), "-c", str(conf)],
                cwd=work,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + 5
            while process.poll() is None and not _answering(port) and time.monotonic() < deadline:
                time.sleep(0.02)
            if process.poll() is None and _answering(port):
                break
            _stop(process)
        else:
            log = work / "error.log"
            pytest.fail(f"nginx did not start: {log.read_text() if log.exists() else 'no log'}")
        yield port
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(work, ignore_errors=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def get(port: int, path: str, headers: dict[str, str] | None = None) -> Answer:
    """One request on a connection of its own, without cookies unless ``headers`` carries one."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return Answer(response.status, response.getheader("X-Cache", ""), response.read())
    finally:
        conn.close()


def watch(port: int, path: str, wanted: int, hold: float) -> dict[str, tuple[float, list[int]]]:
    """Every reader polls ``path`` every 0.2 s until each has got ``wanted`` and kept polling ``hold``
    seconds more (or three seconds have passed): per reader, the seconds until its first ``wanted`` (inf if none)
    and the statuses it got from then on."""
    start = time.monotonic()
    first: dict[str, float] = {}
    after: dict[str, list[int]] = {name: [] for name in READERS}
    while True:
        now = time.monotonic() - start
        if now > WITHIN + hold or (len(first) == len(READERS) and now >= max(first.values()) + hold):
            break
        for name, headers in READERS.items():
            status = get(port, path, headers).status
            if status == wanted and name not in first:
                first[name] = time.monotonic() - start
            if name in first:
                after[name].append(status)
        time.sleep(POLL)
    return {name: (first.get(name, float("inf")), after[name]) for name in READERS}


def assert_every_reader_gets(
    port: int, path: str, change: Callable[[], object], wanted: int, *, hold: float = HOLD
) -> float:
    """Warm every reader's stored copy, make the change, and check that each reader gets ``wanted``
    within three seconds and nothing else in the ``hold`` seconds that follow (one; a page published again
    need not be watched longer); the slowest reader's seconds."""
    for headers in READERS.values():
        get(port, path, headers)  # a fresh stored copy: the worst case
    change()
    seen = watch(port, path, wanted, hold)
    for name, (seconds, statuses) in seen.items():
        assert seconds <= WITHIN, f"{name} reader of {path} never got {wanted} (got {statuses})"
        assert set(statuses) == {wanted}, f"{name} reader of {path}: {statuses} after the first {wanted}"
    return max(seconds for seconds, _ in seen.values())


@pytest.mark.slow
def test_a_second_read_within_the_second_is_a_hit_with_the_same_body(nginx, event):
    for path in (f"/e/{event.slug}/", f"/e/{event.slug}/standings/"):
        first = get(nginx, path)
        again = get(nginx, path)
        assert first.status == 200 and first.cache in {"MISS", "EXPIRED"}, (path, first.cache)
        assert again.status == 200 and again.cache == "HIT", (path, again.cache)
        assert again.body == first.body


@pytest.mark.slow
def test_hx_request_false_gets_the_page_and_true_right_after_the_fragment(nginx, event):
    path = f"/e/{event.slug}/standings/"
    page = get(nginx, path, {"HX-Request": "false"})
    fragment = get(nginx, path, {"HX-Request": "true"})
    assert page.status == 200 and b"<html" in page.body
    assert fragment.status == 200 and b"<html" not in fragment.body
    assert fragment.cache == "MISS"  # not the page stored a moment ago
    assert get(nginx, path, {"HX-Request": "true"}).body == fragment.body
    assert b"<html" in get(nginx, path).body  # no header: the page too


@pytest.mark.slow
def test_a_withdrawn_event_answers_404_to_every_reader_within_three_seconds(nginx, event, organiser):
    path = f"/e/{event.slug}/standings/"
    withdrawn = assert_every_reader_gets(
        nginx, path, lambda: publish_event(event, False, acting_user=organiser), 404
    )
    back = assert_every_reader_gets(
        nginx, path, lambda: publish_event(event, True, acting_user=organiser), 200, hold=0
    )
    print(f"event withdrawn: 404 after {withdrawn:.2f} s; published again: 200 after {back:.2f} s")


@pytest.mark.slow
def test_withdrawn_session_results_answer_404_to_every_reader_within_three_seconds(nginx, event, organiser):
    round_ = event.rounds.get(number=1)
    path = f"/e/{event.slug}/results/1/"
    withdrawn = assert_every_reader_gets(
        nginx, path, lambda: publish_session(round_, "results", False, acting_user=organiser), 404
    )
    back = assert_every_reader_gets(
        nginx, path, lambda: publish_session(round_, "results", True, acting_user=organiser), 200, hold=0
    )
    print(f"results withdrawn: 404 after {withdrawn:.2f} s; published again: 200 after {back:.2f} s")


@pytest.mark.slow
def test_a_failing_app_is_not_hidden_behind_a_stored_copy(nginx, event, monkeypatch):
    """No stale copy when the app fails (it could be a withdrawn page): with
    proxy_cache_background_update on, nginx 1.22 served the stored 200 for as long as the app failed."""

    def database_away(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database is away")

    def fail() -> None:  # the read path's versions, then the view's event
        monkeypatch.setattr(public_read, "public_stamp", database_away)
        monkeypatch.setattr(views_public, "public_event", database_away)

    assert_every_reader_gets(nginx, f"/e/{event.slug}/standings/", fail, 500)


@pytest.mark.slow
def test_a_reader_with_a_session_is_never_served_from_the_cache(nginx, event):
    path = f"/e/{event.slug}/standings/"
    get(nginx, path)
    assert get(nginx, path).cache == "HIT"  # stored for anonymous readers
    for cookie in ("sessionid=not-a-session", "messages=x", "sessionid=a; language=en"):
        for _ in range(2):
            answer = get(nginx, path, {"Cookie": cookie})
            assert answer.status == 200 and answer.cache == "BYPASS", (cookie, answer.cache)


@pytest.mark.slow
def test_a_poll_s_if_none_match_reaches_the_app_and_a_page_s_stays_nginx_s(nginx, event, monkeypatch):
    """With a proxy cache nginx asks the app with its own copy's ETag instead of the browser's, even when the
    request bypasses the cache: a personal poll (a session) or an htmx poll must reach the app with the
    browser's, so it answers 304 before drawing (the maps' $mahjong_if_none_match)."""
    from django.middleware import http as conditional

    seen: list[str] = []
    real = conditional.get_conditional_response

    def spy(request, *args, **kwargs):
        seen.append(request.META.get("HTTP_IF_NONE_MATCH", ""))
        return real(request, *args, **kwargs)

    monkeypatch.setattr(conditional, "get_conditional_response", spy)
    path = f"/e/{event.slug}/standings/"
    held = {"If-None-Match": '"held-by-the-phone"'}
    for headers in (
        {"HX-Request": "true"},
        {"HX-Request": "true", "Cookie": "sessionid=x"},
        {"Cookie": "sessionid=x"},
    ):
        seen.clear()
        get(nginx, path, {**headers, **held})
        assert seen == ['"held-by-the-phone"'], headers
    seen.clear()
    get(
        nginx, path + "?anonymous-page", held
    )  # a page for anonymous readers: nginx's own, and 304s from its copy
    assert seen == [""]
