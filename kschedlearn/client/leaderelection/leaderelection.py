"""Leader election: only one kube-scheduler replica schedules; the others wait to take over.

Go: pkg/client/leaderelection/leaderelection.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L74-L288

How it works: every candidate reads a record (holder, renew time, ...) stored on a lock object.
A candidate may take the lock only when the record has not *changed* for ``LeaseDuration`` as
measured on its own clock (never by comparing the record's timestamps with its clock -- so
clock offsets between machines do not matter). The leader rewrites the record every
``RetryPeriod``; if it cannot for ``RenewDeadline`` it stops leading, and the scheduler exits
("lost master") so that a fresh process can start over as a candidate.

Differs from Go: time is the simulation's virtual clock (``sim.now()``), jitter comes from the
runtime's seeded RNG; durations are float seconds. Go's ``time.Time`` zero value is
``float("-inf")`` for ``observed_time`` (always long expired).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.api.errors import is_not_found
from kschedlearn.apimachinery.util import wait
from kschedlearn.apis.componentconfig.types import LeaderElectionConfiguration
# Go: leaderelection.DefaultLeaseDuration / DefaultRenewDeadline / DefaultRetryPeriod (15s/10s/2s).
from kschedlearn.apis.componentconfig.v1alpha1.defaults import (
    DEFAULT_LEASE_DURATION as DEFAULT_LEASE_DURATION,
    DEFAULT_RENEW_DEADLINE as DEFAULT_RENEW_DEADLINE,
    DEFAULT_RETRY_PERIOD as DEFAULT_RETRY_PERIOD,
)
from kschedlearn.client.leaderelection.resourcelock.interface import (
    Interface,
    LeaderElectionRecord,
)
from kschedlearn.sim import Chan
from kschedlearn.trace import glog

_GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go"

#: Go: leaderelection.JitterFactor -- retries wait RetryPeriod plus up to 120% more.
JITTER_FACTOR = 1.2

_ZERO_TIME = float("-inf")  # Go's zero time.Time: before every simulated instant

class LeaderElectionConfigError(ValueError):
    """Go: the error ``NewLeaderElector`` returns for a bad configuration (RunOrDie panics)."""


def _ns(d: float) -> int:
    """A float duration as Go's ``time.Duration`` (int64 nanoseconds)."""
    return round(d * 1_000_000_000)


@attrs.frozen(kw_only=True)
class LeaderCallbacks:
    """Go: leaderelection.LeaderCallbacks. Started/new-leader callbacks run in new goroutines."""

    on_started_leading: Callable[[Chan], None]
    on_stopped_leading: Callable[[], None]
    on_new_leader: Callable[[str], None] | None = None


@attrs.frozen(kw_only=True)
class LeaderElectionConfig:
    """Go: leaderelection.LeaderElectionConfig (durations in seconds)."""

    lock: Interface | None
    lease_duration: float
    renew_deadline: float
    retry_period: float
    callbacks: LeaderCallbacks


def new_leader_elector(lec: LeaderElectionConfig) -> LeaderElector:
    """Check the timings and build an elector.

    Go: NewLeaderElector. Raises :class:`LeaderElectionConfigError` with Go's texts. Go turns
    ``JitterFactor*RetryPeriod`` back into a whole-nanosecond Duration before comparing; so
    does this.
    """
    if _ns(lec.lease_duration) <= _ns(lec.renew_deadline):
        raise LeaderElectionConfigError("leaseDuration must be greater than renewDeadline")
    if _ns(lec.renew_deadline) <= int(JITTER_FACTOR * float(_ns(lec.retry_period))):
        raise LeaderElectionConfigError("renewDeadline must be greater than retryPeriod*JitterFactor")
    if lec.lock is None:
        raise LeaderElectionConfigError("Lock must not be nil.")
    return LeaderElector(config=lec)


@attrs.define(eq=False, slots=False)
class LeaderElector:
    """One candidate: its config plus what it last saw in the lock and when (local time).

    Go: leaderelection.LeaderElector. ``observed_time`` is the local time at which
    ``observed_record`` last *changed* -- the lease is judged from it.
    """

    config: LeaderElectionConfig
    observed_record: LeaderElectionRecord = attrs.field(factory=LeaderElectionRecord)
    observed_time: float = _ZERO_TIME
    reported_leader: str = ""

    def run(self) -> None:
        """Block until leader, start ``on_started_leading``, renew until that fails, then stop.

        Go: LeaderElector.Run. Go's deferred ``HandleCrash`` re-panics, so
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L142-L153
        ``on_stopped_leading`` runs only on the normal path -- a crash (or a killed process)
        skips it, exactly as here where it simply follows the body.
        """
        self._acquire()
        stop = Chan(name="leaderelection.stop")
        sim.go(self.config.callbacks.on_started_leading, stop, name="OnStartedLeading")
        self._renew()
        stop.close()
        self.config.callbacks.on_stopped_leading()

    def get_leader(self) -> str:
        """The holder last seen in the record ("" before the first read). Go: GetLeader."""
        return self.observed_record.holder_identity

    def is_leader(self) -> bool:
        """Whether the last record seen names us. Go: IsLeader."""
        return self.observed_record.holder_identity == self.config.lock.identity()  # type: ignore[union-attr]

    def _acquire(self) -> None:
        """Retry ``_try_acquire_or_renew`` until it succeeds, every RetryPeriod..2.2×RetryPeriod.

        Go: LeaderElector.acquire -- ``wait.JitterUntil`` with JitterFactor 1.2, sliding (the
        pause starts after each attempt).
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L176-L192
        """
        stop = Chan(name="leaderelection.acquire")
        lock = self.config.lock
        assert lock is not None
        glog.infof("attempting to acquire leader lease...")

        def try_once() -> None:
            succeeded = self._try_acquire_or_renew()
            self._maybe_report_transition()
            desc = lock.describe()
            if not succeeded:
                glog.v(4).infof("failed to acquire lease %v", desc)
                return
            lock.record_event("became leader")
            glog.infof("successfully acquired lease %v", desc)
            stop.close()

        wait.jitter_until(try_once, self.config.retry_period, JITTER_FACTOR, True, stop)

    def _renew(self) -> None:
        """Renew every RetryPeriod; return once a renewal has failed for RenewDeadline.

        Go: LeaderElector.renew -- ``wait.Until(body, 0)`` whose body is
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L194-L211
        ``wait.Poll(RetryPeriod, RenewDeadline, tryAcquireOrRenew)``: each poll waits one
        RetryPeriod, then tries; it gives up after RenewDeadline without a success.
        """
        stop = Chan(name="leaderelection.renew")
        lock = self.config.lock
        assert lock is not None

        def body() -> None:
            err: Exception | None = None
            try:
                wait.poll(self.config.retry_period, self.config.renew_deadline, self._try_acquire_or_renew)
            except wait.ErrWaitTimeout as exc:
                err = exc
            self._maybe_report_transition()
            desc = lock.describe()
            if err is None:
                glog.v(4).infof("successfully renewed lease %v", desc)
                return
            lock.record_event("stopped leading")
            glog.infof("failed to renew lease %v", desc)
            stop.close()

        wait.until(body, 0, stop)

    def _try_acquire_or_renew(self) -> bool:
        """One attempt: create the record, or take it over / renew it if allowed. True on success.

        Go: LeaderElector.tryAcquireOrRenew. The takeover rule: fail if the record *changed*
        less than LeaseDuration ago (local time of the change) and is held by someone else.
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L213-L269
        """
        lock = self.config.lock
        assert lock is not None
        now = sim.now()
        leader_election_record = LeaderElectionRecord(
            holder_identity=lock.identity(),
            lease_duration_seconds=_ns(self.config.lease_duration) // 1_000_000_000,
            renew_time=now,
            acquire_time=now,
        )

        # 1. Read the record, or create it when the lock object does not exist yet.
        try:
            old_leader_election_record = lock.get()
        except Exception as err:  # noqa: BLE001 - Go gets any error back from Get
            if not is_not_found(err):
                glog.errorf("error retrieving resource lock %v: %v", lock.describe(), err)
                return False
            try:
                lock.create(leader_election_record)
            except Exception as create_err:  # noqa: BLE001 - Go logs every Create error
                glog.errorf("error initially creating leader election record: %v", create_err)
                return False
            self.observed_record = leader_election_record
            self.observed_time = sim.now()
            return True

        # 2. Restart the lease countdown whenever the record changed since we last looked.
        if self.observed_record != old_leader_election_record:
            self.observed_record = old_leader_election_record
            self.observed_time = sim.now()
        if (self.observed_time + self.config.lease_duration > now
                and old_leader_election_record.holder_identity != lock.identity()):
            glog.v(4).infof("lock is held by %v and has not yet expired",
                            old_leader_election_record.holder_identity)
            return False

        # 3. Renewing keeps acquireTime and the transition count; a takeover bumps the count.
        if old_leader_election_record.holder_identity == lock.identity():
            leader_election_record = attrs.evolve(
                leader_election_record,
                acquire_time=old_leader_election_record.acquire_time,
                leader_transitions=old_leader_election_record.leader_transitions,
            )
        else:
            leader_election_record = attrs.evolve(
                leader_election_record,
                leader_transitions=old_leader_election_record.leader_transitions + 1,
            )

        try:
            lock.update(leader_election_record)
        except Exception as err:  # noqa: BLE001 - e.g. a 409 Conflict when another candidate won
            glog.errorf("Failed to update lock: %v", err)
            return False
        self.observed_record = leader_election_record
        self.observed_time = sim.now()
        return True

    def _maybe_report_transition(self) -> None:
        """Call ``on_new_leader`` (in a new goroutine) when the observed holder changed.

        Go: LeaderElector.maybeReportTransition. The scheduler sets no such callback.
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L271-L279
        """
        if self.observed_record.holder_identity == self.reported_leader:
            return
        self.reported_leader = self.observed_record.holder_identity
        if self.config.callbacks.on_new_leader is not None:
            sim.go(self.config.callbacks.on_new_leader, self.reported_leader, name="OnNewLeader")


def run_or_die(lec: LeaderElectionConfig) -> None:
    """Validate and run; a bad config raises (Go panics, which ends the process).

    Go: RunOrDie.
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L155-L163
    """
    le = new_leader_elector(lec)
    le.run()


def default_leader_election_configuration() -> LeaderElectionConfiguration:
    """Leader election off, 15s lease, 10s renew deadline, 2s retry.

    Go: DefaultLeaderElectionConfiguration.
    """
    return LeaderElectionConfiguration(
        leader_elect=False,
        lease_duration=DEFAULT_LEASE_DURATION,
        renew_deadline=DEFAULT_RENEW_DEADLINE,
        retry_period=DEFAULT_RETRY_PERIOD,
    )


def bind_flags(l: LeaderElectionConfiguration, fs: Any) -> None:  # noqa: E741 - Go's name
    """Register ``--leader-elect`` and the three duration flags, writing into ``l``.

    Go: BindFlags (leaderelection.go#L290-L309). ``fs`` is a
    :class:`kschedlearn.cmd.kube_scheduler.app.options.pflag.FlagSet`.
    """
    fs.bool_var(l, "leader_elect", "leader-elect", l.leader_elect,
                "Start a leader election client and gain leadership before "
                "executing the main loop. Enable this when running replicated "
                "components for high availability.")
    fs.duration_var(l, "lease_duration", "leader-elect-lease-duration", l.lease_duration,
                    "The duration that non-leader candidates will wait after observing a leadership "
                    "renewal until attempting to acquire leadership of a led but unrenewed leader "
                    "slot. This is effectively the maximum duration that a leader can be stopped "
                    "before it is replaced by another candidate. This is only applicable if leader "
                    "election is enabled.")
    fs.duration_var(l, "renew_deadline", "leader-elect-renew-deadline", l.renew_deadline,
                    "The interval between attempts by the acting master to renew a leadership slot "
                    "before it stops leading. This must be less than or equal to the lease duration. "
                    "This is only applicable if leader election is enabled.")
    fs.duration_var(l, "retry_period", "leader-elect-retry-period", l.retry_period,
                    "The duration the clients should wait between attempting acquisition and renewal "
                    "of a leadership. This is only applicable if leader election is enabled.")
