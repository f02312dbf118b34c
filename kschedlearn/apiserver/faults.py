"""Fault injection for the embedded API server: failed calls, slow calls, broken watches.

Go: none — kschedlearn-only (DESIGN §5). These reproduce, on demand, what a real cluster does
now and then: a bind answered with 500 or 409, a slow apiserver, a watch connection that drops,
a watch that lags, a watch cache that has moved on ("too old resource version").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from kschedlearn.apimachinery.api.errors import StatusError, new_internal_error

if TYPE_CHECKING:
    from kschedlearn.apiserver.server import APIServer

VERBS = ("create", "get", "list", "watch", "update", "update_status", "delete", "bind")
ANY = "*"


@attrs.define(eq=False)
class _Rule:
    verb: str
    resource: str
    remaining: int
    error: StatusError | None = None
    delay: float = 0.0

    def applies(self, verb: str, resource: str) -> bool:
        return (self.remaining > 0 and self.verb in (verb, ANY)
                and self.resource in (resource, ANY))


def _check_verb(verb: str) -> None:
    if verb != ANY and verb not in VERBS:
        raise ValueError(f"faults: unknown verb {verb!r} (one of {', '.join(VERBS)} or '*')")


@attrs.define(eq=False)
class Faults:
    """The fault hooks of one :class:`APIServer` (``server.faults``)."""

    server: APIServer = attrs.field(repr=False)
    failures: list[_Rule] = attrs.field(factory=list)
    delays: list[_Rule] = attrs.field(factory=list)

    def fail_next(self, verb: str, resource: str = ANY, error: StatusError | None = None,
                  n: int = 1) -> None:
        """Make the next ``n`` calls of ``verb`` on ``resource`` raise ``error``.

        ``error`` defaults to a 500 ``Internal error occurred: injected fault``. Verb names:
        create, get, list, watch, update, update_status, delete, bind (or ``"*"``).
        """
        _check_verb(verb)
        err = error if error is not None else new_internal_error("injected fault")
        if not isinstance(err, StatusError):
            raise TypeError(f"faults.fail_next: error must be a StatusError, got {err!r}")
        self.failures.append(_Rule(verb, resource, n, error=err))

    def delay_next(self, verb: str, seconds: float, resource: str = ANY, n: int = 1) -> None:
        """Make the next ``n`` calls of ``verb`` on ``resource`` take ``seconds`` of virtual time
        (the calling goroutine sleeps before the call is served)."""
        _check_verb(verb)
        if seconds < 0:
            raise ValueError(f"faults.delay_next: seconds must be >= 0, got {seconds}")
        self.delays.append(_Rule(verb, resource, n, delay=seconds))

    def clear(self) -> None:
        """Forget every pending failure and delay."""
        self.failures.clear()
        self.delays.clear()

    # -- consulted by the server on every call ------------------------------------------
    def take_delay(self, verb: str, resource: str) -> float:
        for rule in self.delays:
            if rule.applies(verb, resource):
                rule.remaining -= 1
                self.delays = [r for r in self.delays if r.remaining > 0]
                return rule.delay
        return 0.0

    def take_failure(self, verb: str, resource: str) -> StatusError | None:
        for rule in self.failures:
            if rule.applies(verb, resource):
                rule.remaining -= 1
                self.failures = [r for r in self.failures if r.remaining > 0]
                assert rule.error is not None
                return type(rule.error)(rule.error.err_status)  # a fresh exception each time
        return None

    # -- watch faults (delegating to the server) -----------------------------------------
    def close_watches(self, resource: str | None = None) -> int:
        """Drop every open watch (of ``resource``) now; returns how many were closed."""
        return self.server.close_watches(resource)

    def stall_watches(self, duration: float, resource: str | None = None) -> int:
        """Hold back the events of open watches for ``duration``, then release them in order."""
        return self.server.stall_watches(duration, resource)

    def expire_watch_window(self, n: int = 0, resource: str | None = None) -> None:
        """Shrink the watch history to ``n`` events so reconnecting watches get 410 Gone."""
        self.server.set_watch_window(n, resource)

    def describe(self) -> list[dict[str, object]]:
        """Plain-data list of pending rules (for snapshots)."""
        return [
            {"kind": "fail" if r.error is not None else "delay", "verb": r.verb,
             "resource": r.resource, "remaining": r.remaining,
             "error": str(r.error) if r.error is not None else None, "delay": r.delay}
            for r in (*self.failures, *self.delays)
        ]
