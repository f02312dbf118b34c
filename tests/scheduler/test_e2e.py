"""End-to-end: the whole 1.6 kube-scheduler against the embedded API server, in virtual time.

Go: none directly — these check the behaviour that plugin/pkg/scheduler/scheduler.go,
factory/factory.go and schedulercache/cache.go produce together (spec §2, §3, §4, §11), the
"Must show" list of the scheduler-core issue.
"""

from __future__ import annotations

import attrs
import pytest

from e2e_harness import SCHEDULER_PROCESS, pod_request, start_cluster
from kschedlearn.observe.views import cache_state

FIT_ERROR_5CPU = "No nodes are available that match all of the following predicates:: Insufficient cpu (5)."


def _no_crashes(c):
    assert c.crashes() == []


def test_50_pods_on_5_nodes_each_bound_once_with_event_and_consistent_cache():
    c = start_cluster(nodes=5)
    for i in range(50):
        c.create_pod(f"p-{i}")
    c.run(20)
    _no_crashes(c)

    # every pod bound exactly once; no bind refused with "already assigned"
    binds = c.bind_counts()
    assert binds == {f"default/p-{i}": 1 for i in range(50)}
    assert not [e for e in c.rt.tracer.events if "already assigned" in e.message]
    assert not c.api_events(reason="FailedScheduling")

    # one Normal Scheduled event per pod, with the 1.6 text
    for i in range(50):
        pod = c.pod(f"p-{i}")
        assert pod.spec.node_name
        (ev,) = c.api_events(f"p-{i}")
        assert (ev.type, ev.reason, ev.message) == (
            "Normal", "Scheduled", f"Successfully assigned p-{i} to {pod.spec.node_name}")
        assert ev.source.component == "default-scheduler"

    # the cache agrees with the API server, and nothing is left assumed
    assert c.cache_pods() == c.server_bound()
    state = cache_state(c.cache)
    assert state.assumed_pods == ()
    by_key = {f"{p.metadata.namespace}/{p.metadata.name}": p for p in c.pods()}
    for n in state.nodes:
        cpu = sum(pod_request(by_key[k])[0] for k in n.pods)
        mem = sum(pod_request(by_key[k])[1] for k in n.pods)
        assert (n.requested.milli_cpu, n.requested.memory) == (cpu, mem)
    # the default priorities spread 50 equal pods evenly over 5 equal nodes
    assert sorted(len(v) for v in c.server_bound().values()) == [10] * 5


def test_unschedulable_pod_event_condition_backoff_and_later_success():
    c = start_cluster(nodes=5)
    c.create_pod("big", cpu="5")
    c.run(40)  # t = 41
    _no_crashes(c)

    # Warning FailedScheduling with the exact 1.6 FitError text (aggregated by the correlator)
    (ev,) = c.api_events("big")
    assert (ev.type, ev.reason, ev.message) == ("Warning", "FailedScheduling", FIT_ERROR_5CPU)
    assert ev.count >= 6
    cond = c.pod("big").status.conditions
    assert [(x.type, x.status, x.reason, x.message) for x in cond] == [
        ("PodScheduled", "False", "Unschedulable", FIT_ERROR_5CPU)]

    # Right after the first failure the condition update is a MODIFIED event on the
    # unassigned-pod watch: the reflector re-adds the pod at once (spec §2.7, last bullet).
    pops = [e.time for e in c.trace("scheduleOne.pop", pod="default/big")]
    assert pops[:2] == [1.0, 1.0]
    status_write = c.trace("apiserver.update", key="default/big")[0]
    readd = [e for e in c.rt.tracer.events if e.stage in ("fifo.add", "fifo.update")
             and e.data.get("key") == "default/big" and e.seq > status_write.seq]
    assert readd and readd[0].time == 1.0
    # ... so the second, immediate attempt finds the first retry still sleeping and gives up
    abandoned = [e for e in c.trace("log") if "Request for pod default/big already in flight, abandoning" in e.message]
    assert [e.time for e in abandoned] == [1.0]

    # Backoff sleeps 1, 2, 4, 8, 16, 32 s: each retry re-GETs the pod and re-queues it
    requeues = [e.time for e in c.trace("error.requeue", pod="default/big")]
    assert requeues == [2.0, 4.0, 8.0, 16.0, 32.0]
    sleeping = [(e.time, e.data["backoff"]) for e in c.trace("error.backoff", pod="default/big")
                if e.time not in [a.time for a in abandoned] or e.data["backoff"] == 1.0]
    assert sleeping == [(1.0, 1.0), (2.0, 2.0), (4.0, 4.0), (8.0, 8.0), (16.0, 16.0), (32.0, 32.0)]
    assert pops[2:] == [2.0, 4.0, 8.0, 16.0, 32.0]
    assert c.pod("big").spec.node_name == ""

    # a big-enough node: the next retry (t = 64) schedules it
    c.add_node("node-big", cpu="8")
    c.run(30)  # t = 71
    assert c.pod("big").spec.node_name == "node-big"
    assert c.bind_counts()["default/big"] == 1
    assert [e.time for e in c.trace("apiserver.bind", pod="default/big")] == [64.0]
    (ok,) = c.api_events("big", reason="Scheduled")
    assert ok.message == "Successfully assigned big to node-big"


def test_bind_failure_forgets_requeues_and_later_succeeds():
    c = start_cluster(nodes=2)
    c.api.faults.fail_next("bind")
    c.create_pod("p")
    c.run(10)
    _no_crashes(c)

    assert [e.data["pod"] for e in c.trace("forgetPod")] == ["default/p"]
    forget = c.trace("forgetPod")[0]
    finish = c.trace("finishBinding", pod="default/p")[0]
    assert finish.seq < forget.seq  # FinishBinding always comes first (spec §3.3 step 7)
    assert c.trace("error.backoff", pod="default/p")  # requeue via the error func
    (rej,) = c.api_events("p", reason="FailedScheduling")
    assert (rej.type, rej.message) == (
        "Normal", "Binding rejected: Internal error occurred: injected fault")
    # (the BindingRejected condition is checked in the next test: success overwrites it)
    assert c.pod("p").spec.node_name
    assert c.bind_counts() == {"default/p": 1}
    (ok,) = c.api_events("p", reason="Scheduled")
    assert ok.type == "Normal"
    assert c.cache_pods() == c.server_bound()


def test_bind_failure_sets_binding_rejected_condition():
    # No node fits after the failed bind, so the BindingRejected condition stays visible.
    c = start_cluster(nodes=1)
    c.api.faults.fail_next("bind")
    c.create_pod("p")
    # stop right after the bind goroutine wrote its condition, before any retry
    c.rt.run(stop_when=lambda: bool(c.trace("apiserver.update", key="default/p")))
    conds = c.pod("p").status.conditions
    assert [(x.type, x.status, x.reason, x.message) for x in conds] == [
        ("PodScheduled", "False", "BindingRejected", "")]


def test_assumed_pod_expires_when_its_add_event_is_late():
    c = start_cluster(nodes=1)
    c.create_pod("p", cpu="1")
    # run until the pod is assumed, then stall the pod watches so the Add cannot arrive
    c.rt.run(stop_when=lambda: bool(c.trace("assume", pod="default/p")))
    assert c.api.faults.stall_watches(60, "pods") >= 2
    c.run(100)
    _no_crashes(c)

    (finish,) = c.trace("finishBinding", pod="default/p")
    (expire,) = c.trace("expirePod", pod="default/p")
    assert finish.data["deadline"] == finish.time + 30
    assert finish.time + 30 < expire.time <= finish.time + 31  # the 1 s sweep
    # expired: resources freed in the cache
    adds = c.trace("cache.addPod", pod="default/p")
    assert adds and adds[0].seq > expire.seq
    assert adds[0].data["was_assumed"] is False  # "Pod was expired. We should add it back."
    assert adds[0].time == pytest.approx(1.0 + 60, abs=1)

    # after the late event the pod is back and counted once
    (node,) = cache_state(c.cache).nodes
    assert node.pods == ("default/p",)
    assert node.requested.milli_cpu == 1000
    assert c.bind_counts() == {"default/p": 1}


def test_expired_pod_frees_resources_until_the_late_add():
    c = start_cluster(nodes=1)
    c.create_pod("p", cpu="1")
    c.rt.run(stop_when=lambda: bool(c.trace("assume", pod="default/p")))
    c.api.faults.stall_watches(60, "pods")
    c.run_until(45)  # expired at ~32, the Add is held until 61
    (node,) = cache_state(c.cache).nodes
    assert node.pods == ()
    assert node.requested.milli_cpu == 0
    assert cache_state(c.cache).pod_states == ()


def test_pod_with_deletion_timestamp_is_skipped():
    c = start_cluster(nodes=1)
    c.create_pod("x", cpu="5")  # does not fit: it waits in backoff
    c.run(0.5)
    # An API server with finalizers would now mark it deleting; this one deletes unbound
    # pods at once, so write the deletionTimestamp into storage (a MODIFIED watch event).
    stored = c.api.storage.get("pods", ("default", "x"))
    c.api.storage.update("pods", ("default", "x"), attrs.evolve(
        stored, metadata=attrs.evolve(stored.metadata, deletion_timestamp=c.rt.now,
                                      deletion_grace_period_seconds=30)))
    c.run(5)
    _no_crashes(c)
    skipped = c.api_events("x", reason="FailedScheduling")
    messages = [(e.type, e.message) for e in skipped]
    assert ("Warning", "skip schedule deleting pod: default/x") in messages
    assert [e for e in c.trace("log") if e.message == "Skip schedule deleting pod: default/x"]
    assert c.bind_counts()["default/x"] == 0


def test_pod_for_another_scheduler_is_never_scheduled():
    c = start_cluster(nodes=2)
    c.create_pod("mine")
    c.create_pod("theirs", scheduler_name="other")
    c.run(30)
    assert c.pod("theirs").spec.scheduler_name == "other"
    assert c.pod("theirs").spec.node_name == ""
    assert c.pod("theirs").status.conditions == ()
    # popped from podQueue and silently dropped by getNextPod
    assert [e.data["key"] for e in c.trace("fifo.pop") if e.data.get("key") == "default/theirs"]
    assert not c.trace("scheduleOne.pop", pod="default/theirs")
    assert c.api_events("theirs") == []
    assert c.bind_counts() == {"default/mine": 1}


def test_kube_api_qps_token_bucket_caps_bind_rate():
    c = start_cluster(nodes=5, kube_api_qps=50, kube_api_burst=100)
    for i in range(200):
        c.create_pod(f"p-{i}")
    c.run(20)
    _no_crashes(c)
    assert c.bind_counts() == {f"default/p-{i}": 1 for i in range(200)}
    bind_times = sorted(e.time for e in c.trace("apiserver.bind"))
    calls = sorted(e.time for e in c.rt.tracer.events
                   if e.process == SCHEDULER_PROCESS and e.stage in (
                       "apiserver.bind", "apiserver.create", "apiserver.update", "apiserver.watch"))
    # At t = 1 the bucket is full again (the start-up lists and watches at t = 0 were
    # refilled): exactly `burst` calls go through at once — binds and their events.
    assert len([t for t in calls if t == 1.0]) == 100
    assert len([t for t in bind_times if t == 1.0]) == 50
    # After the burst: 50 binds a second (every bind goroutine reserved its token before the
    # event loop did), then the events, never more than 50 calls a second in all.
    after = [t for t in bind_times if t > 1.0]
    assert (len(after) - 1) / (after[-1] - after[0]) == pytest.approx(50)
    assert bind_times[-1] == pytest.approx(4.0)  # 150 binds after the burst at 50/s
    assert calls[-1] == pytest.approx(7.0)  # 300 calls after the burst at 50/s
    for start in [1.5 + 0.5 * k for k in range(10)]:
        window = [t for t in calls if start <= t < start + 1]
        assert 49 <= len(window) <= 51, (start, len(window))
