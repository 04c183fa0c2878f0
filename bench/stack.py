"""A throw-away production stack on loopback for the benchmarks and the two-server test: its own PostgreSQL
cluster (or a SQLite file) and its own redis-server in a temporary directory, on private ports, gunicorn pools
and background workers started from this checkout, and a small HTTP client that logs in and posts forms
as a referee's browser does. Nothing outside the temporary directory is touched; everything stops at the end.
"""

from __future__ import annotations

import glob
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only, by design
PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).parent / "gunicorn")


def free_base(port: int) -> int:
    """The first of port, port + 100, ... whose neighbours the stack uses (+0..+9 for servers, +90 PostgreSQL,
    +91 Redis) are free: two runs at once (CI and a benchmark) must not meet."""
    for base in range(port, port + 5000, 100):
        wanted = [*range(base, base + 10), base + 90, base + 91]
        if all(_free(p) for p in wanted):
            return base
    raise SystemExit(f"no free ports near {port}")


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


def load_line() -> str:
    """The machine's load, to print with every figure (the machine may be shared)."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


class Stack:
    """PostgreSQL (``db="postgres"``) or SQLite, Redis, and the app's processes, all on private ports."""

    def __init__(self, db: str, *, port: int, redis: bool = True) -> None:
        self.db = db
        self.port = port
        self.work = Path(tempfile.mkdtemp(prefix="mahjong-stack."))
        os.chmod(self.work, 0o755)
        self.processes: list[subprocess.Popen] = []
        self.pg_data: Path | None = None
        self.pg_bin = ""
        self.redis: subprocess.Popen | None = None
        self.redis_port = port + 91
        self.env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "AXES_ENABLED": "0",  # many logins from one address in a few seconds
            "API_RATE": "",  # the read API's readers come from one address too (its limit: api/tests)
            "BACKGROUND_WORKER": "1",
            "GUNICORN_ACCESS_LOG": "/dev/null",
            "STATIC_ROOT": str(self.work / "static"),
            "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "ERROR"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        self.env.pop("DATABASE_URL", None)
        self.env.pop("CACHE_URL", None)
        if db == "postgres":
            self._start_postgres(port + 90)
        else:
            self.env["DATABASE_URL"] = f"sqlite:///{self.work / 'db.sqlite3'}"
        if redis:
            self.start_redis()

    # --- services -------------------------------------------------------------------------------------
    def _start_postgres(self, pg_port: int) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not bins:
            sys.exit("PostgreSQL is not installed (apt-get install postgresql)")
        self.pg_bin = bins[-1]
        self.pg_data = self.work / "pg"
        self.pg_data.mkdir()
        as_postgres = os.geteuid() == 0
        if as_postgres:
            shutil.chown(self.pg_data, "postgres")
        self._pg(f"{self.pg_bin}/initdb -D {self.pg_data} -A trust -U postgres", as_postgres)
        options = f"-p {pg_port} -k /tmp -c listen_addresses={HOST} -c fsync=on -c max_connections=200"
        self._pg(
            f"{self.pg_bin}/pg_ctl -D {self.pg_data} -l {self.pg_data}/server.log -o '{options}' -w start",
            as_postgres,
        )
        self._pg(f"{self.pg_bin}/createdb -h {HOST} -p {pg_port} -U postgres mahjong", as_postgres)
        self.env["DATABASE_URL"] = f"postgres://postgres@{HOST}:{pg_port}/mahjong"
        self._pg_as = as_postgres

    @staticmethod
    def _pg(command: str, as_postgres: bool) -> None:
        argv = ["su", "postgres", "-s", "/bin/sh", "-c", command] if as_postgres else ["sh", "-c", command]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)

    def start_redis(self) -> None:
        """redis-server on ``redis_port`` (again, after :meth:`stop_redis`: the same port, an empty cache)."""
        if shutil.which("redis-server") is None:
            print("redis-server not found: each process keeps its own cache")
            return
        redis_port = self.redis_port
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(redis_port),
                "--bind",
                HOST,
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            cwd=self.work,
        )
        self.processes.append(self.redis)
        for _ in range(50):
            if (
                subprocess.run(["redis-cli", "-p", str(redis_port), "ping"], capture_output=True).returncode
                == 0
            ):
                break
            time.sleep(0.1)
        self.env["CACHE_URL"] = f"redis://{HOST}:{redis_port}/0"

    def stop_redis(self) -> None:
        """Redis gone (SIGTERM, nothing saved): the app's cache answers as empty until :meth:`start_redis`."""
        if self.redis is not None and self.redis.poll() is None:
            self.redis.terminate()
            self.redis.wait(timeout=30)

    def restart_postgres(self) -> float:
        """``pg_ctl restart -m fast`` of the stack's own cluster (every connection dropped); seconds taken."""
        if self.pg_data is None:
            raise RuntimeError("no PostgreSQL in this stack")
        started = time.monotonic()
        self._pg(
            f"{self.pg_bin}/pg_ctl -D {self.pg_data} -l {self.pg_data}/server.log -m fast -w restart",
            self._pg_as,
        )
        return time.monotonic() - started

    # --- the app --------------------------------------------------------------------------------------
    def manage(self, *command: str, quiet: bool = True) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *command],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout if quiet else print(done.stdout) or done.stdout

    def shell(self, code: str) -> str:
        """Run Python in the app (Django 5.2's shell, without its automatic imports and their banner)."""
        return self.manage("shell", "--no-imports", "-c", code)

    def prepare(self, event_file: Path) -> None:
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.manage("import_event", str(event_file), "--replace")

    def gunicorn(
        self,
        port: int,
        *,
        workers: int,
        threads: int = 2,
        name: str = "mahjong",
        nice: int = 0,
        idle: bool = False,
        access_log: Path | None = None,
        access_format: str = "%(m)s %(U)s %(s)s %(M)s",
        cpus: str | None = None,
    ) -> subprocess.Popen:
        """A gunicorn pool; ``nice=10, idle=True`` (SCHED_IDLE) as deploy/serve runs the public pool (the
        referees' pool goes first).
        ``access_log``: a file of "METHOD PATH STATUS MILLISECONDS" lines (``access_format``), the server's side
        of each request."""
        env = {**self.env, "GUNICORN_ERROR_LOG": str(self.work / f"gunicorn-{port}.log")}
        if access_log is not None:
            env |= {
                "GUNICORN_ACCESS_LOG": str(access_log),
                "GUNICORN_ACCESS_FORMAT": access_format,
            }
        process = subprocess.Popen(
            [
                *(("taskset", "-c", cpus) if cpus else ()),
                *(("chrt", "--idle", "0") if idle else ()),
                *("nice", "-n", str(nice)),
                *(GUNICORN, "-c", "config/gunicorn_config.py", "--bind", f"{HOST}:{port}"),
                *("--bind", f"unix:{self.work / f'gunicorn-{port}.sock'}"),  # nginx may use either
                *("--workers", str(workers), "--threads", str(threads), "--name", name),
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,  # kill -9 of the whole group in the fault run
        )
        self.processes.append(process)
        wait_for(port, process, self.work / f"gunicorn-{port}.log")
        return process

    def worker(self, name: str, *, log_level: str = "") -> subprocess.Popen:
        """``manage.py run_worker`` (its output in ``worker-<name>.log``; ``log_level`` e.g. INFO to read
        what it did)."""
        log = (self.work / f"worker-{name}.log").open("w")
        process = subprocess.Popen(
            [PYTHON, "manage.py", "run_worker", "--poll", "0.2", "--name", name],
            cwd=ROOT,
            env={**self.env, **({"LOG_LEVEL": log_level} if log_level else {})},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.processes):  # the app first, Redis last
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
        if self.pg_data is not None:
            self._pg(f"{self.pg_bin}/pg_ctl -D {self.pg_data} -m fast -w stop", self._pg_as)
        keep = os.environ.get("BENCH_KEEP_LOGS")  # a folder to copy the stack's logs to, to read them after
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for log in self.work.glob("*.log"):
                shutil.copy(log, Path(keep) / log.name)
        shutil.rmtree(self.work, ignore_errors=True)


NGINX_CONF = """
# bench/stack.py: deploy/nginx.conf's upstreams, routes and public page cache (the same snippet files) on
# loopback, without TLS.
worker_processes auto;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
daemon off;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {work}/nginx-body;
    proxy_temp_path {work}/nginx-proxy;
    fastcgi_temp_path {work}/nginx-fastcgi;
    uwsgi_temp_path {work}/nginx-uwsgi;
    scgi_temp_path {work}/nginx-scgi;
    proxy_cache_path {work}/nginx-cache levels=1:2 keys_zone=mahjong_public:10m max_size=100m inactive=10m use_temp_path=off;
    include {repo}/deploy/nginx-public-cache-maps.conf;
    upstream mahjong {{ server {public}; keepalive 16; }}
    upstream mahjong_staff {{ server {staff}; keepalive 8; }}
    server {{
        listen {host}:{port};
        location ~ ^/(referee|manage|accounts|admin)/ {{
            proxy_pass http://mahjong_staff;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
        }}
        location = /healthz {{
            proxy_pass http://mahjong;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
        }}
        location / {{
            proxy_pass http://mahjong;
            include {repo}/deploy/nginx-public-cache.conf;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
        }}
    }}
}}
"""


def nginx(
    stack: Stack,
    port: int,
    *,
    public: int,
    staff: int,
    unix: bool = False,
    cpus: str | None = None,
    idle: bool = True,
) -> subprocess.Popen:
    """nginx on ``port`` in front of the two pools, as deployed (``deploy/nginx.conf``: upstream keep-alive,
    /referee/ and /manage/ to the staff pool). Its idle upstream connections are reused last in, first out,
    so requests go to the workers that answered last: what phones meet, which wrk alone cannot show. The
    public pages go through deploy/nginx-public-cache.conf (one second) and nginx runs under SCHED_IDLE, as
    deploy/systemd/nginx-idle.conf runs it.
    ``unix``: to the pools over their Unix sockets instead of loopback TCP (``GUNICORN_BIND=unix:...``);
    ``idle=False``: nginx at the normal priority, to compare."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        sys.exit("nginx is not installed (apt-get install nginx-light)")
    conf = stack.work / "nginx.conf"

    def upstream(pool: int) -> str:
        return f"unix:{stack.work / f'gunicorn-{pool}.sock'}" if unix else f"{HOST}:{pool}"

    conf.write_text(
        NGINX_CONF.format(
            work=stack.work,
            host=HOST,
            public=upstream(public),
            staff=upstream(staff),
            port=port,
            repo=Path(__file__).resolve().parent.parent,
        )
    )
    process = subprocess.Popen(
        [
            *(("taskset", "-c", cpus) if cpus else ()),
            *(("chrt", "--idle", "0") if idle else ()),
            *(binary, "-c", str(conf), "-p", str(stack.work)),
        ],
        cwd=stack.work,
        start_new_session=True,
    )
    stack.processes.append(process)
    wait_for(port, process, stack.work / "nginx-error.log")
    return process


def kill_group(process: subprocess.Popen) -> None:
    """kill -9 of a gunicorn master and all its workers (a power cut, as far as the app is concerned)."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def wait_for(port: int, process: subprocess.Popen, log: Path) -> None:
    for _ in range(240):
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200 and process.poll() is None:  # ours, not another run's
                return
        except OSError:
            pass
        if process.poll() is not None:
            sys.exit(log.read_text() if log.exists() else "gunicorn did not start")
        time.sleep(0.25)
    sys.exit(f"nothing answers on port {port}")


class Browser:
    """One person's browser, kept-alive connection and cookies: logs in, reads pages, posts forms."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, str] | None = None,
        *,
        htmx: bool = False,
        etag: str = "",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str, str]:
        """Status, Location and body (the answer's headers in ``self.headers``); ``htmx``: as htmx asks
        (``HX-Request: true``); ``etag``: the copy the browser holds (``If-None-Match``). A broken
        connection raises OSError (the caller decides to retry); ``headers``: more headers to send."""
        headers = {
            **(headers or {}),
            "Host": HOST,
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        if htmx:
            headers["HX-Request"] = "true"
        if etag:
            headers["If-None-Match"] = etag
        data = None
        if body is not None:
            data = urlencode({**body, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://{HOST}:{self.port}{path}"
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        elif self.conn.sock is not None and self._idle() > 4:
            self.conn.close()  # gunicorn closes idle kept-alive connections after 5 s
        self.last_used = time.monotonic()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        self.headers = response.headers
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value
        return response.status, response.headers.get("Location", ""), text

    def _idle(self) -> float:
        return time.monotonic() - getattr(self, "last_used", 0.0)

    def login(self, username: str, password: str) -> None:
        self.request("GET", "/accounts/login/")
        status, _, text = self.request(
            "POST", "/accounts/login/", {"username": username, "password": password}
        )
        if status != 302:
            raise RuntimeError(
                f"login of {username} failed: HTTP {status} {re.sub(r'<[^>]+>', ' ', text)[:300]}"
            )


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


REFEREE_PASSWORD = "bench-referee-pw-1"
"""The password of the event stack's referees ``bench-ref0``, ``bench-ref1``, ..."""


def event_stack(db: str, *, port: int, players: int, sessions: int, referees: int) -> tuple[Stack, str, int]:
    """A :class:`Stack` holding the generated event (bench/make_event.py, the last two sessions seated but
    unplayed) and ``referees`` referees of it; returns the stack, the event's slug and the sessions played."""
    stack = Stack(db, port=port)  # port: from free_base()
    slug = f"bench-{players}"
    event = stack.work / "event.json"
    played = sessions - 2
    subprocess.run(
        [
            PYTHON,
            "bench/make_event.py",
            f"--players={players}",
            f"--sessions={sessions}",
            f"--played={played}",
            f"--slug={slug}",
            f"--output={event}",
        ],
        cwd=ROOT,
        check=True,
        stderr=subprocess.DEVNULL,
    )
    stack.prepare(event)
    stack.shell(
        "from django.contrib.auth import get_user_model\n"
        "from tournaments.services.events import grant_role\n"
        "from tournaments.models import Role, Tournament\n"
        f"t = Tournament.objects.get(slug={slug!r})\n"
        f"for i in range({referees}):\n"
        f"    u = get_user_model().objects.create_user(f'bench-ref{{i}}', password={REFEREE_PASSWORD!r})\n"
        "    grant_role(t, u, Role.REFEREE, acting_user=None)\n"
    )
    return stack, slug, played


Hand = tuple[int, int, int]  # session, table, hand number


def referee_tables(first: int, last: int, tables: int, referees: int) -> list[list[tuple[int, int]]]:
    """Each referee's (session, table) pairs of sessions ``first`` to ``last``: table t to referee t mod n, as
    a hall's referees each keep their own tables."""
    return [
        [(s, t) for s in range(first, last + 1) for t in range(1, tables + 1) if t % referees == i]
        for i in range(referees)
    ]


def stored_hands(stack: Stack, slug: str, played: int) -> list[Hand]:
    """Every current hand stored for the unplayed sessions (after ``played``), repeats included."""
    stored = json.loads(
        stack.shell(
            "import json\n"
            "from scoring.models import Hand\n"
            f"rows = Hand.objects.in_force().filter(table__round__tournament__slug={slug!r},"
            f" table__round__number__gt={played}).values_list('table__round__number', 'table__number', 'number')\n"
            "print(json.dumps(list(rows)))\n"
        )
    )
    return [(session, table, number) for session, table, number in stored]


def check_hands(
    acknowledged: list[Hand], stored: list[Hand]
) -> tuple[list[Hand], int, list[tuple[int, int]]]:
    """What went wrong in the store: acknowledged hands missing, hands stored twice, tables (session, table)
    whose hand numbers do not run 1..n."""
    duplicates = len(stored) - len(set(stored))
    lost = sorted(set(acknowledged) - set(stored))
    by_table: dict[tuple[int, int], list[int]] = {}
    for session, table, number in stored:
        by_table.setdefault((session, table), []).append(number)
    gaps = [key for key, numbers in by_table.items() if sorted(numbers) != list(range(1, len(numbers) + 1))]
    return lost, duplicates, gaps


CPU_NAMES = (
    ("player_pages.py", "phones"),  # bench/player_pages.py's child process (its own session)
    ("mahjong-staff", "staff pool"),
    ("gunicorn", "public pool"),
    ("postgres", "postgres"),
    ("redis-server", "redis"),
    ("nginx", "nginx"),
    ("wrk", "wrk"),
    ("phone_readers", "readers (phones)"),
)


def cpu_by_name() -> dict[str, float]:
    """CPU seconds used so far by live processes, summed by what leads their session (each gunicorn pool,
    nginx and wrk starts one) and, for the kernel, its softirq time (loopback's packets) from /proc/stat."""
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = {}
    ours = os.getsid(0)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            session = int(fields[3])
            # Redis runs in this script's session: named by its own command line there, others by their leader's.
            named = stat.parent if session == ours else Path(f"/proc/{session}")
            command = (named / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if stat.parent.name == str(os.getpid()):  # its own arguments may say "nginx" or "postgres"
            name = "this script (referees)"
        elif session == ours:
            name = "redis" if "redis-server" in command else "worker" if "run_worker" in command else "other"
        else:
            name = next((label for word, label in CPU_NAMES if word in command), "other")
        used[name] = used.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    cpu = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    used["kernel softirq"] = (int(cpu[6]) + int(cpu[7])) / tick
    used["idle"] = (int(cpu[4]) + int(cpu[5])) / tick
    return used


def cpu_line(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    share = {k: (after.get(k, 0.0) - before.get(k, 0.0)) / seconds for k in after}
    return ", ".join(f"{k} {v:.2f}" for k, v in sorted(share.items(), key=lambda kv: -kv[1]) if v >= 0.02)
