"""Wrong answers, one per named misconception: each is the reference solution with one edit.

A wrong answer is ``(task id, misconception, [(old, new), ...], failing case, phrase)``: the
edit turns the solution into what a learner with that misconception writes; the task's check
must fail the named case and its message must explain the misconception (contain ``phrase``).
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises import get_task


@attrs.frozen
class WrongAnswer:
    task_id: str
    misconception: str
    edits: tuple[tuple[str, str], ...]
    failing_case: str
    phrase: str

    def build(self) -> Callable[..., Any]:
        """The solution's source with the edits applied, compiled in the solution's module."""
        solution = get_task(self.task_id).load_solution()
        source = textwrap.dedent(inspect.getsource(solution))
        for old, new in self.edits:
            assert source.count(old) == 1, f"{self.misconception}: edit {old!r} must match exactly once"
            source = source.replace(old, new)
        namespace = dict(inspect.getmodule(solution).__dict__)
        exec(compile(source, f"<wrong answer {self.task_id}: {self.misconception}>", "exec"), namespace)  # noqa: S102
        return namespace[solution.__name__]


WRONG_ANSWERS = (
    WrongAnswer("8.2", "binds synchronously",
                (('sim.go(bind, name=f"bind {pod.metadata.namespace}/{pod.metadata.name}")', "bind()"),),
                "bind runs in a goroutine", "goroutine"),
    WrongAnswer("8.2", "assumes the pod as it came from the queue",
                (("cfg.scheduler_cache.assume_pod(assumed)", "cfg.scheduler_cache.assume_pod(pod)"),),
                "bind: assume a copy with NodeName", "copy"),
    WrongAnswer("8.2", "a failed bind needs no cache cleanup",
                (("                cfg.scheduler_cache.forget_pod(assumed)\n", "                pass\n"),),
                "bind error: forget the assumed pod", "ForgetPod"),
    WrongAnswer("4.1", "the newest delta first", (("for d in deltas:", "for d in reversed(deltas):"),),
                "TestUpdate: from -> to", "oldest"),
    WrongAnswer("4.1", "the delta type says which handler to call",
                (("if exists:", "if exists or d.type == UPDATED:"),
                 ("old, exists = client_state.get(d.object)", "old, exists = client_state.get(d.object)\n"
                  "            old = old if exists else d.object")),
                "Updated, unknown object", "store.Get"),
    WrongAnswer("4.1", "the handler is all that matters",
                (("            client_state.delete(d.object)\n", ""),),
                "Deleted", "removes the object from the store"),
    WrongAnswer("5.3", "the informer's Add is only a notification",
                (("            del cache._assumed_pods[key]\n", ""),),
                "TestAddPodWillConfirm", "confirms"),
    WrongAnswer("5.3", "AddPod always adds",
                (("            del cache._assumed_pods[key]\n", "            cache._add_pod(pod)\n"
                  "            del cache._assumed_pods[key]\n"),),
                "confirm counts once", "second time"),
    WrongAnswer("5.3", "an expired pod is gone for good",
                (("            cache._add_pod(pod)\n            cache._pod_states[key] = _PodState(pod=pod)\n",
                  "            pass\n"),),
                "TestAddPodAfterExpiration", "adds it back"),
    WrongAnswer("1.1", "informers started before the scheduler asked for them",
                (('"NewSharedInformerFactory", "createScheduler",\n            "go startHTTP", "informerFactory.Start",',
                  '"NewSharedInformerFactory", "informerFactory.Start",\n            "createScheduler", "go startHTTP",'),),
                "three-nodes", "no informers at all"),
    WrongAnswer("1.1", "leader election is only about who is in charge of logging",
                (('"leaderelection", "sched.Run"]', '"sched.Run", "leaderelection"]'),),
                "ha-failover", "two replicas scheduled at the same time"),
    WrongAnswer("1.1", "the HTTP endpoints can come last",
                (('"go startHTTP", "informerFactory.Start", "leaderelection", "sched.Run"]',
                  '"informerFactory.Start", "leaderelection", "sched.Run", "go startHTTP"]'),),
                "three-nodes", "never served /healthz"),
    WrongAnswer("9.1", "renew without checking the holder",
                (("    if le.observed_time + le.config.lease_duration > now and old.holder_identity != lock.identity():\n"
                  "        return False\n", ""),),
                "don't acquire from led, acked object", "renew without checking the holder"),
    WrongAnswer("9.1", "the lease is judged by the record's renewTime",
                (("if le.observed_time + le.config.lease_duration > now and",
                  "if (old.renew_time or float('-inf')) + le.config.lease_duration > now and"),),
                "the observed-time rule", "observedTime"),
    WrongAnswer("9.1", "a takeover is just a renewal",
                (("record = attrs.evolve(record, leader_transitions=old.leader_transitions + 1)",
                  "record = attrs.evolve(record, leader_transitions=old.leader_transitions)"),),
                "acquire from led, unacked object", "takeover adds 1"),
    WrongAnswer("2.1", "a requirement on a missing label is always false",
                (("return key not in labels or labels[key] not in values", "return key in labels and labels[key] not in values"),),
                "1.6: x!=y {}", "negative"),
    WrongAnswer("2.1", "a label with an empty value does not exist",
                (('    if operator == "exists":\n        return key in labels\n',
                  '    if operator == "exists":\n        return bool(labels.get(key))\n'),),
                "1.6: x {'x': ''}", "empty value"),
    WrongAnswer("2.1", "gt and lt compare the text",
                (("have, want = int(labels[key], 10), int(values[0], 10)", "have, want = labels[key], values[0]"),),
                "1.6: x<10 {'x': '9'}", "base-10 integers"),
    WrongAnswer("7.4", "the zone score replaces the node score",
                (("f = f32(f32(f * f32(1.0 / 3.0)) + f32(ZONE_WEIGHTING * f32(MAX_PRIORITY * share)))",
                  "f = f32(MAX_PRIORITY * share)"),),
                "two pods, 1 matching (in z2)", "1/3 x the node spread"),
    WrongAnswer("7.4", "float32 is just less precise",
                (("f32(f * f32(1.0 / 3.0))", "f32(f * f32(1.0 - ZONE_WEIGHTING))"),),
                "float32: 1 - zoneWeighting", "0.33333331"),
    WrongAnswer("7.4", "a zero division is guarded",
                (("if max_zone > 0 else math.nan", "if max_zone > 0 else f32(1.0)"),),
                "1.6: NaN with zones", "int(NaN)"),
    WrongAnswer("11.1", "fix it where it shows",
                (('("_zone_share", "return math.nan", "return 1.0")',
                  '("_go_int", "return _GO_MIN_INT64", "return 0")'),),
                "the function", "int(NaN) only converts"),
    WrongAnswer("11.1", "no pod in a zone means the worst zone",
                (('"return 1.0"', '"return 0.0"'),),
                "the quirk is gone", "the best, maximum score"),
    WrongAnswer("11.1", "leave empty zones out of the count",
                (('("_zone_share", "return math.nan", "return 1.0")',
                  '("calculate_spread_priority", "counts_by_zone[zone_id] = _f32(counts_by_zone.get(zone_id, 0.0) + count)", '
                  '"if count > 0: counts_by_zone[zone_id] = _f32(counts_by_zone.get(zone_id, 0.0) + count)")'),),
                "nothing else changes", "still be counted as 0"),
    WrongAnswer("15.1", "a sync creates everything it is missing",
                (("diff = min(-diff, rm.burst_replicas)", "diff = -diff"),),
                "TestControllerBurstReplicas", "burstReplicas"),
    WrongAnswer("15.1", "any surplus pod will do",
                (("            controller.sort_active_pods(pods)\n", "            pass\n"),),
                "the first to go", "matter least first"),
    WrongAnswer("15.1", "a failed create is only logged",
                (("    if errors:\n        raise errors[0]\n", ""),),
                "a failed create", "raise) the first error"),
    WrongAnswer("4.2", "a DELETED event needs no store change",
                (("        reflector.store.delete(obj)\n", "        pass\n"),),
                "TestReflectorWatchHandler: the store", "foo must be gone"),
    WrongAnswer("4.2", "the watch only sends the type I asked for",
                (("    if reflector.expected_type is not None and type(obj) is not reflector.expected_type:\n"
                  "        return False\n", ""),),
                "TestReflectorWatchHandler: the type check", "expectedType"),
    WrongAnswer("4.2", "the resourceVersion only matters on a relist",
                (("    resource_version[0] = new_resource_version\n", ""),),
                "TestReflectorWatchHandler: resume RV", "resumes after the last event"),
)
