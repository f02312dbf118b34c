"""Trace points of leader election: ``leaderelection.acquire`` / ``renew`` / ``lost``.

Go: none — kschedlearn-only (DESIGN principle 5: ``leaderelection.go`` carries no notebook
lines). Each stands right after the glog line Go writes for the same outcome — ``failed to
acquire lease`` (V(4)) and ``successfully acquired lease`` in ``acquire``, ``successfully renewed
lease`` (V(4)) and ``failed to renew lease`` in ``renew`` — whether or not that line's verbosity
is on, and carries the lock record as this candidate sees it. The attempt number of an
``acquire`` is counted here, from the candidate's calls of ``tryAcquireOrRenew``.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any

from kschedlearn.client.leaderelection import leaderelection
from kschedlearn.client.leaderelection.leaderelection import LeaderElector
from kschedlearn.observe.observation import Observation
from kschedlearn.observe.points import point
from kschedlearn.observe.wrap import Call, on_method, site_of
from kschedlearn.trace import register_stage

_GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go"
register_stage(
    "leaderelection.acquire", _GO + "#L176-L192",
    "A candidate tries to become leader: it reads the lock record and takes it if nobody "
    "holds it or the holder has not renewed for a whole lease duration (on this candidate's "
    "own clock). Failed attempts are retried every RetryPeriod plus jitter.",
)
register_stage(
    "leaderelection.renew", _GO + "#L194-L211",
    "The leader rewrites the lock record (a new renewTime) to show it is alive; the other "
    "candidates see the record change and restart their lease countdown.",
)
register_stage(
    "leaderelection.lost", _GO + "#L194-L211",
    "The leader could not renew the lock within RenewDeadline. It stops leading; the "
    "scheduler's OnStoppedLeading callback then exits the process (\"lost master\").",
)

_TRY_ONCE = site_of(LeaderElector._acquire, "try_once")
_RENEW_BODY = site_of(LeaderElector._renew, "body")
#: id(elector) -> (a weak reference to the elector, how many times its acquire loop has tried so
#: far). Weak: the entry goes with its elector — a strong one kept every finished world's
#: elector, and through its lock and client the whole world, alive for the process's life
#: (the fault campaign: ~9,000 tracked objects a seed, 200 seeds in one test worker).
_ATTEMPTS: dict[int, tuple[weakref.ref[LeaderElector], int]] = {}


def _record(elector: LeaderElector, **data: Any) -> dict[str, Any]:
    rec = elector.observed_record
    return {
        "identity": elector.config.lock.identity() if elector.config.lock else "",
        "holder": rec.holder_identity,
        "leader_transitions": rec.leader_transitions,
        "observed_time": elector.observed_time,
        "lease_expires": elector.observed_time + elector.config.lease_duration,
        **data,
    }


def _attempts(elector: LeaderElector) -> int:
    known = _ATTEMPTS.get(id(elector))
    return known[1] if known is not None and known[0]() is elector else 0


def _count_attempt(call: Call) -> None:
    elector = call.receiver
    key = id(elector)
    known = _ATTEMPTS.get(key)
    if known is not None and known[0]() is elector:
        _ATTEMPTS[key] = (known[0], known[1] + 1)
    else:  # a new elector (an id may be reused once its elector is gone: counted afresh)
        _ATTEMPTS[key] = (weakref.ref(elector, functools.partial(_forget, key)), 1)


def _forget(key: int, ref: weakref.ref[LeaderElector]) -> None:
    """The elector behind ``ref`` is gone: its count goes too (unless a newer elector with the
    same id has its own entry already)."""
    known = _ATTEMPTS.get(key)
    if known is not None and known[0] is ref:
        del _ATTEMPTS[key]


def _acquire_failed(call: Call) -> None:
    elector, lock, desc = call.local("self"), call.local("lock"), call.local("desc")
    point("leaderelection.acquire", f"{lock.identity()}: failed to acquire lease {desc}",
          _record(elector, attempt=_attempts(elector), result="held" if elector.get_leader() else "failed"), None)


def _acquired(call: Call) -> None:
    elector, lock, desc = call.local("self"), call.local("lock"), call.local("desc")
    point("leaderelection.acquire", f"{lock.identity()}: successfully acquired lease {desc}",
          _record(elector, attempt=_attempts(elector), result="acquired"), None)


def _renewed(call: Call) -> None:
    elector, lock, desc = call.local("self"), call.local("lock"), call.local("desc")
    point("leaderelection.renew", f"{lock.identity()}: successfully renewed lease {desc}",
          _record(elector, result="renewed"), None)


def _lost(call: Call) -> None:
    elector, lock, desc = call.local("self"), call.local("lock"), call.local("desc")
    point("leaderelection.lost", f"{lock.identity()}: failed to renew lease {desc}",
          _record(elector, result="lost", error=str(call.local("err"))), None)


def observe_elector(elector: LeaderElector) -> LeaderElector:
    """Count one elector's acquire attempts (its ``tryAcquireOrRenew`` calls from ``acquire``)."""
    on_method(elector, "_try_acquire_or_renew", site=_TRY_ONCE, before=_count_attempt)
    return elector


def observe_leader_election(observation: Observation) -> None:
    """The leader-election stages of this simulation's candidates."""
    observation.on_attribute(leaderelection, "new_leader_elector", after=lambda c: observe_elector(c.result))
    observation.on_log(_TRY_ONCE, "failed to acquire lease %v", _acquire_failed)
    observation.on_log(_TRY_ONCE, "successfully acquired lease %v", _acquired)
    observation.on_log(_RENEW_BODY, "successfully renewed lease %v", _renewed)
    observation.on_log(_RENEW_BODY, "failed to renew lease %v", _lost)


__all__ = ["observe_elector", "observe_leader_election"]
