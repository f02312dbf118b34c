"""Solutions for notebook 09: leader election.

Go: pkg/client/leaderelection/leaderelection.go (tryAcquireOrRenew)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L213-L269
"""

from __future__ import annotations

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.api.errors import is_not_found
from kschedlearn.client.leaderelection import LeaderElector
from kschedlearn.client.leaderelection.resourcelock import LeaderElectionRecord


def try_acquire_or_renew(le: LeaderElector) -> bool:
    """One attempt to take or keep the lease; True on success.

    Go: (*LeaderElector).tryAcquireOrRenew, leaderelection.go#L213-L269. ``lock = le.config.lock``
    has ``identity()``, ``get()`` (raises; ``is_not_found(err)`` tells a missing lock object),
    ``create(record)`` and ``update(record)`` (both may raise). ``le.observed_record`` /
    ``le.observed_time`` are the record this candidate last saw and the local time (``sim.now()``)
    at which it saw it *change*. The new record: ``LeaderElectionRecord(holder_identity=us,
    lease_duration_seconds=int(le.config.lease_duration), renew_time=now, acquire_time=now)``.

    1. ``get`` fails with NotFound: ``create`` the record, observe it, True (other errors: False).
    2. If the fetched record differs from ``observed_record``, observe it now. If another holder's
       lease has not expired by *our* clock (``observed_time + lease_duration > now``): False.
    3. Renewing our own lease keeps ``acquire_time`` and ``leader_transitions``; taking over
       another's adds 1 to ``leader_transitions``. ``update`` it (an error: False), observe it, True.
    """
    lock = le.config.lock
    now = sim.now()
    record = LeaderElectionRecord(holder_identity=lock.identity(), lease_duration_seconds=int(le.config.lease_duration),
                                  renew_time=now, acquire_time=now)
    try:
        old = lock.get()
    except Exception as err:  # noqa: BLE001 - Go gets any error back from Get
        if not is_not_found(err):
            return False
        try:
            lock.create(record)
        except Exception:  # noqa: BLE001
            return False
        le.observed_record, le.observed_time = record, sim.now()
        return True
    if le.observed_record != old:
        le.observed_record, le.observed_time = old, sim.now()
    if le.observed_time + le.config.lease_duration > now and old.holder_identity != lock.identity():
        return False
    if old.holder_identity == lock.identity():
        record = attrs.evolve(record, acquire_time=old.acquire_time, leader_transitions=old.leader_transitions)
    else:
        record = attrs.evolve(record, leader_transitions=old.leader_transitions + 1)
    try:
        lock.update(record)
    except Exception:  # noqa: BLE001 - e.g. a 409 Conflict when another candidate won
        return False
    le.observed_record, le.observed_time = record, sim.now()
    return True
