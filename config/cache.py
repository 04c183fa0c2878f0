"""The shared cache, degrading instead of failing: with Redis away, a read finds nothing and a write keeps
nothing, so every page is computed from the database (slower, never a 500).

Every use of the cache on a request path (public pages, result cards, standings, side rankings) goes through
``django.core.cache.cache``; ``config/settings.py`` configures this backend for ``redis://`` URLs. Sessions and
django-axes keep their state in the database, not here.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_SECONDS = 2.0
"""After a failure, how long every worker thread skips the cache before asking Redis again: a Redis that
stops answering costs one ``socket_timeout`` per period, not one per call."""

_away_until: dict[str, float] = {}  # per Redis location, shared by the threads of a process
_away_lock = threading.Lock()


class ResilientRedisCache(RedisCache):
    """Django's Redis cache that logs and answers as an empty cache when Redis does not answer (refused
    connection, timeout, a Redis still loading or out of memory: any ``RedisError``):

    - ``get`` → the default, ``get_many`` → ``{}``, ``has_key``/``touch``/``delete`` → ``False``;
    - ``set``/``set_many``/``delete_many``/``clear`` store nothing (``set_many`` names every key as not stored);
    - ``add`` → ``True``: callers use it as a lock ("I compute this"), and with nobody able to hold a lock the
      caller must compute rather than wait for a result that will never be stored;
    - ``incr``/``decr`` raise ``ValueError``, as for a missing key.

    After a failure the cache is skipped for ``RETRY_SECONDS``; :meth:`answers` asks Redis itself (the
    health check)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.location = server if isinstance(server, str) else ",".join(server)

    def _degraded(self, operation: str, call: Callable[[], T], fallback: T) -> T:
        location = self.location
        if _away_until.get(location, 0.0) > time.monotonic():
            return fallback
        try:
            return call()
        except RedisError as error:
            with _away_lock:
                first = _away_until.get(location, 0.0) == 0.0
                _away_until[location] = time.monotonic() + RETRY_SECONDS
            log.warning(
                "cache at %s unavailable (%s: %s); %s answered without it for %.0f s",
                location,
                type(error).__name__,
                error,
                operation,
                RETRY_SECONDS,
                exc_info=first,
            )
            return fallback

    def answers(self) -> bool:
        """Whether Redis answers now (a PING), whatever the last failure was."""
        try:
            answered = bool(self._cache.get_client(write=True).ping())  # type: ignore[attr-defined]
        except RedisError:
            return False
        if answered:
            _away_until.pop(self.location, None)
        return answered

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._degraded(
            "add", lambda: super(ResilientRedisCache, self).add(key, value, timeout, version), True
        )

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._degraded(
            "get", lambda: super(ResilientRedisCache, self).get(key, default, version), default
        )

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._degraded(
            "set", lambda: super(ResilientRedisCache, self).set(key, value, timeout, version), None
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._degraded(
            "touch", lambda: super(ResilientRedisCache, self).touch(key, timeout, version), False
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._degraded("delete", lambda: super(ResilientRedisCache, self).delete(key, version), False)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._degraded(
            "get_many", lambda: super(ResilientRedisCache, self).get_many(keys, version), {}
        )

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._degraded(
            "has_key", lambda: super(ResilientRedisCache, self).has_key(key, version), False
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        missing = object()
        value = self._degraded(
            "incr", lambda: super(ResilientRedisCache, self).incr(key, delta, version), missing
        )
        if value is missing:
            raise ValueError(f"Key {key!r} not found (the cache is unavailable).")
        return value  # type: ignore[return-value]

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        return self._degraded(
            "set_many", lambda: super(ResilientRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._degraded(
            "delete_many", lambda: super(ResilientRedisCache, self).delete_many(keys, version), None
        )

    def clear(self) -> None:
        self._degraded("clear", lambda: super(ResilientRedisCache, self).clear(), None)
