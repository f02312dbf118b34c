"""Task 9.1: leader election's ``tryAcquireOrRenew`` - acquire, renew, or respect another's lease.

Go: pkg/client/leaderelection/leaderelection.go (tryAcquireOrRenew) and leaderelection_test.go
(TestTryAcquireOrRenew: "acquire from no object", "acquire from unled object", "acquire from
led, unacked object", "don't acquire from led, acked object", "renew already acquired object")
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L213-L269
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.api.errors import GroupResource, new_not_found
from kschedlearn.client.leaderelection import LeaderCallbacks, LeaderElectionConfig, LeaderElector
from kschedlearn.client.leaderelection.resourcelock import LeaderElectionRecord
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView, describe
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr

TASK_ID = "9.1"
NAME = "try_acquire_or_renew"
_REAL = LeaderElector._try_acquire_or_renew
HOUR = 3600.0
NOW = 10 * HOUR  # Go's test starts from time.Now(); any fixed instant will do


class _FakeLock:
    """A lock object in memory: ``record`` None = the Endpoints object does not exist."""

    def __init__(self, record: LeaderElectionRecord | None, *, get_error: Exception | None = None,
                 update_error: Exception | None = None) -> None:
        self.record, self.get_error, self.update_error = record, get_error, update_error
        self.actions: list[str] = []

    def identity(self) -> str:
        return "baz"

    def describe(self) -> str:
        return "foo/bar"

    def record_event(self, s: str) -> None:
        pass

    def get(self) -> LeaderElectionRecord:
        self.actions.append("get")
        if self.get_error is not None:
            raise self.get_error
        if self.record is None:
            raise new_not_found(GroupResource("", "endpoints"), "bar")
        return self.record

    def create(self, ler: LeaderElectionRecord) -> None:
        self.actions.append("create")
        self.record = ler

    def update(self, ler: LeaderElectionRecord) -> None:
        self.actions.append("update")
        if self.update_error is not None:
            raise self.update_error
        self.record = ler


def _elector(lock: Any) -> LeaderElector:
    cfg = LeaderElectionConfig(lock=lock, lease_duration=10.0, renew_deadline=0.0, retry_period=0.0,
                               callbacks=LeaderCallbacks(on_started_leading=lambda stop: None,
                                                         on_stopped_leading=lambda: None))
    return LeaderElector(config=cfg)


def _attempt(record: LeaderElectionRecord | None, observed: LeaderElectionRecord | None, observed_at: float | None,
             **lock_kw: Any) -> Callable[[Callable[..., Any]], Any]:
    """One tryAcquireOrRenew at t=NOW; observe result, actions, record written, observed state."""
    def run(fn: Callable[..., Any]) -> Any:
        lock = _FakeLock(record, **lock_kw)
        le = _elector(lock)
        if observed is not None:
            le.observed_record = observed
        if observed_at is not None:
            le.observed_time = observed_at
        rt = sim.Runtime(seed=1, start_time=NOW)
        ok = rt.run_fn(fn, le)
        w = lock.record
        written = (None if w is None or "update" not in lock.actions and "create" not in lock.actions
                   else (w.holder_identity, w.leader_transitions, w.acquire_time == NOW, w.renew_time == NOW))
        return ok, tuple(lock.actions), le.observed_record.holder_identity, written, le.observed_time == NOW
    return run


BING = LeaderElectionRecord(holder_identity="bing")
BAZ = LeaderElectionRecord(holder_identity="baz", lease_duration_seconds=10, acquire_time=NOW - 100,
                           renew_time=NOW - 2, leader_transitions=3)


def _cases() -> list[fw.Case]:
    past, future = NOW - 1000 * HOUR, NOW + 1000 * HOUR
    return [
        fw.Case("acquire from no object", "no lock object yet",
                (True, ("get", "create"), "baz", ("baz", 0, True, True), True), _attempt(None, None, None),
                why="Go: TestTryAcquireOrRenew - Get says NotFound, so Create the record (holder = us) and "
                    "remember it, observed now."),
        fw.Case("acquire from unled object", "a lock object with an empty record",
                (True, ("get", "update"), "baz", ("baz", 1, True, True), True),
                _attempt(LeaderElectionRecord(), None, None),
                why="An empty record is nobody's lease; taking it over counts as a leader transition."),
        fw.Case("acquire from led, unacked object", "bing holds it; we saw that record 1000 h ago",
                (True, ("get", "update"), "baz", ("baz", 1, True, True), True), _attempt(BING, BING, past),
                why="Misconception: 'a takeover is just a renewal'. The record has not changed since we "
                    "observed it more than LeaseDuration ago, so bing's lease expired: take it over, and a "
                    "takeover adds 1 to leaderTransitions (only renewing our own lease keeps the count)."),
        fw.Case("don't acquire from led, acked object", "bing holds it; our observation of it is still fresh",
                (False, ("get",), "bing", None, True), _attempt(BING, None, future),
                why="Misconception: 'renew without checking the holder'. Another holder's lease that has not "
                    "expired must be left alone: no Update, return False."),
        fw.Case("renew already acquired object", "we (baz) hold it",
                (True, ("get", "update"), "baz", ("baz", 3, False, True), True), _attempt(BAZ, BAZ, future),
                why="Renewing our own lease: new renewTime, but acquireTime and leaderTransitions are kept."),
        fw.Case("the observed-time rule", "bing's record says renewTime = 100 s ago (its clock is behind), "
                "and it has just changed since we last looked",
                (False, ("get",), "bing", None, True),
                _attempt(attrs.evolve(BING, renew_time=NOW - 100, lease_duration_seconds=10),
                         BING, past),
                why="Misconception: 'the lease is judged by the record's renewTime'. Clocks of different "
                    "machines disagree, so 1.6 never reads renewTime: the lease runs from the moment *we* saw "
                    "the record change (observedTime). It just changed, so it is fresh: do not take over."),
        fw.Case("Get fails", "the API server cannot be reached",
                (False, ("get",), "", None, False), _attempt(None, None, None, get_error=RuntimeError("connection refused")),
                why="Any Get error other than NotFound: log and return False (no Create)."),
        fw.Case("Update conflict", "bing's lease expired but another candidate updated first (409)",
                (False, ("get", "update"), "bing", ("bing", 0, False, False), False),
                _attempt(BING, BING, past, update_error=RuntimeError("Operation cannot be fulfilled: conflict")),
                why="A failed Update returns False and leaves observedRecord at what Get returned."),
    ]


def _candidate(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    le = args[0] if args else kwargs["le"]
    return f"{le.config.lock.identity()} at t={sim.now():g}s"


def _observed(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    le = args[0] if args else kwargs["le"]
    return f"observed {describe(le.observed_record)} at {le.observed_time:g}"


#: an attempt is judged by its answer and by what the candidate then believes about the lock
CALL_VIEW = CallView(subject=_candidate, state=_observed)


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def try_acquire_or_renew(self: LeaderElector) -> bool:
        return fn(self)

    with swap_attr(LeaderElector, "_try_acquire_or_renew", try_acquire_or_renew):
        yield


def _experiment(attempt: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    """Two candidates a and b share one lock; a renews every 2 s until it dies at t=6."""
    lock = _FakeLock(None)
    a, b = _elector(_Named(lock, "a")), _elector(_Named(lock, "b"))  # type: ignore[arg-type]
    ids = {id(a): "a", id(b): "b"}
    rt = sim.Runtime(seed=1)

    def body() -> None:
        for t in range(0, 30, 2):
            for le in ((a, b) if t < 6 else (b,)):
                ok = attempt(le)
                if t in (0, 2, 6, 14, 16, 18):
                    rows.append((f"t={t}s {ids[id(le)]} tries", f"{'ok' if ok else 'no'}, holder="
                                 f"{lock.record.holder_identity if lock.record else '-'}"))
            sim.sleep(2.0)

    rt.run_fn(body)


@attrs.define(eq=False)
class _Named:
    """The shared lock as seen by one candidate (its own identity)."""

    inner: _FakeLock
    name: str

    def identity(self) -> str:
        return self.name

    def describe(self) -> str:
        return self.inner.describe()

    def record_event(self, s: str) -> None:
        self.inner.record_event(s)

    def get(self) -> LeaderElectionRecord:
        return self.inner.get()

    def create(self, ler: LeaderElectionRecord) -> None:
        self.inner.create(ler)

    def update(self, ler: LeaderElectionRecord) -> None:
        self.inner.update(ler)


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "leader election", fn, _REAL, _experiment, bool, NAME,
                   note="Lease 10 s; a and b try every 2 s; a dies at t=6 s, so b may take over once it has seen "
                        "the record unchanged for 10 s.")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    return run_capstone(TASK_ID, fn, (scenario or "ha-failover",), seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="leader election tryAcquireOrRenew", slug="try-acquire-or-renew", function_name=NAME,
    stub_imports=("import attrs\n\nfrom kschedlearn import sim\nfrom kschedlearn.apimachinery.api.errors import is_not_found\n"
                  "from kschedlearn.client.leaderelection import LeaderElector\n"
                  "from kschedlearn.client.leaderelection.resourcelock import LeaderElectionRecord"),
    intro=("With `--leader-elect` (on by default in 1.6) every replica runs `RunOrDie`: it retries "
           "`tryAcquireOrRenew` until it gets the lease, starts scheduling, and then keeps renewing. The lease "
           "is an annotation on the Endpoints object kube-system/kube-scheduler. The subtle part is *time*: a "
           "candidate never trusts the renewTime written by another machine's clock; it judges the lease "
           "from when it itself last saw the record change.\n\nWrite `try_acquire_or_renew(le)`. "
           "`plug_in_scenario(\"9.1\", try_acquire_or_renew)` runs ha-failover with your function in both "
           "replicas and compares every stage - the takeover time must match."),
    go_links=(("leaderelection.go tryAcquireOrRenew", GO + "pkg/client/leaderelection/leaderelection.go#L213-L269"),
              ("leaderelection_test.go TestTryAcquireOrRenew", GO + "pkg/client/leaderelection/leaderelection_test.go#L39-L266")),
    hints=("Three outcomes: create the lock if there is none; back off if someone else's lease is still valid "
           "by your own observation; otherwise write yourself in (renewal or takeover).",
           "Go's `tryAcquireOrRenew` (leaderelection.go L213-L269): `oldLeaderElectionRecord, err := le.config.Lock.Get()` (NotFound → "
           "Create); `if !reflect.DeepEqual(le.observedRecord, *oldLeaderElectionRecord) { le.observedRecord = ...; "
           "le.observedTime = time.Now() }`; `if le.observedTime.Add(le.config.LeaseDuration).After(now.Time) && "
           "oldLeaderElectionRecord.HolderIdentity != le.config.Lock.Identity() { return false }`; renew keeps "
           "AcquireTime and LeaderTransitions, else `LeaderTransitions + 1`; `Lock.Update(...)`.",
           "`if le.observed_record != old: le.observed_record, le.observed_time = old, sim.now()`; "
           "`if le.observed_time + le.config.lease_duration > now and old.holder_identity != lock.identity(): return False`; "
           "`record = attrs.evolve(record, acquire_time=old.acquire_time, leader_transitions=old.leader_transitions)` "
           "when renewing."),
    returns=bool, cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=_plug_in, solution="nb09:try_acquire_or_renew",
    scenario_plugin=_scenario_plugin,
)
