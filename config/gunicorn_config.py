"""gunicorn settings: ``gunicorn -c config/gunicorn_config.py config.wsgi``. Each one can be set from the environment.

- ``GUNICORN_BIND`` (default ``127.0.0.1:8000``: loopback, a TLS reverse proxy in front; ``unix:/run/...`` works)
- ``WEB_CONCURRENCY`` worker processes (default 4) and ``GUNICORN_THREADS`` threads each (default 6: a slow phone
  on the hall's Wi-Fi does not hold a whole process), of which ``GUNICORN_WORKING_THREADS`` (default 2) work at once;
  the others only wait, for the worker's drawing or another reader's rendering (config/working.py)
- ``GUNICORN_NAME`` the process name (default ``mahjong``). The referees' and organisers' pool is the same
  config with ``--bind 127.0.0.1:8001 --workers 2 --threads 2 --name mahjong-staff`` (deploy/serve, deploy/systemd)
- ``GUNICORN_TIMEOUT`` seconds before a stuck request's worker is restarted (default 60: PDF exports and imports)
"""

from __future__ import annotations

import os
import sys
from typing import Any

# A worker thread rendering a page hands the interpreter over every 0.5 ms instead of 5 ms, so its other
# thread serving a stored page (tournaments/public_read.py) never waits long.
sys.setswitchinterval(0.0005)

bind = [item.strip() for item in os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",") if item.strip()]
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
threads = int(os.environ.get("GUNICORN_THREADS", "6"))
working_threads = int(os.environ.get("GUNICORN_WORKING_THREADS", "2"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
# No max_requests: without BACKGROUND_WORKER a web worker may run a seating search in a thread; recycling would cut it.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # noqa: S108  (heartbeats in memory)
# Only our own proxy on this machine may say the request came over https (X-Forwarded-Proto).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
if os.environ.get("GUNICORN_ACCESS_FORMAT"):  # bench/entry_load.py: the server's own time per request (%(M)s)
    access_log_format = os.environ["GUNICORN_ACCESS_FORMAT"]
errorlog = os.environ.get("GUNICORN_ERROR_LOG", "-")
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
proc_name = os.environ.get("GUNICORN_NAME", "mahjong")
control_socket_disable = True  # gunicorn 27's control socket (one path per user): not used, would clash
wsgi_app = "config.wsgi:application"


def post_worker_init(worker: Any) -> None:
    """Warm a new worker before it takes a connection (config/warmup.py: its first pages cost 3-30 times
    more). Imported here: gunicorn reads this file before the worker loads Django."""
    from config.warmup import warm
    from config.working import limit

    limit(working_threads if worker.cfg.threads > working_threads else 0)
    worker.log.info("worker warmed in %.0f ms", warm() * 1000)
