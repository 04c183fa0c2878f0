"""A new gunicorn worker is warmed before its first request (config/warmup.py, config/gunicorn_config.py)."""

from __future__ import annotations

import importlib
import sys

from django.template import engines

from config import warmup


def test_warming_compiles_the_templates_and_loads_the_views_once():
    loader = engines["django"].engine.template_loaders[0]
    loader.reset()
    assert "scoring/public/standings.html" not in loader.get_template_cache
    assert warmup.warm() > 0
    cached = loader.get_template_cache
    assert "scoring/public/standings.html" in cached and "base.html" in cached
    assert "scoring.views_public" in sys.modules  # the resolver imported every view


def test_gunicorn_warms_each_worker_before_it_takes_a_connection():
    config = importlib.import_module("config.gunicorn_config")
    messages = []

    class Log:
        def info(self, message, *args):
            messages.append(message % args)

    class Cfg:
        threads = 2

    class Worker:
        log = Log()
        cfg = Cfg()

    config.post_worker_init(Worker())
    assert messages and messages[0].startswith("worker warmed in ")
