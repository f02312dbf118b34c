"""Go's fixed-width integers in the scheduler: weighted priority totals wrap at 64 bits.

1.6's SelectorSpread gives a zoned node ``int(NaN)`` = MinInt64 when the pod's selectors match
no pod (spec 8.5). PrioritizeNodes multiplies that by the weight in Go ``int`` arithmetic
(generic_scheduler.go#L335-L339): MinInt64 * 2 wraps to 0, so the zoned node keeps its other
points. Unbounded Python ints made it a huge negative total and placed the pod elsewhere.
"""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from kschedlearn import Simulation
from kschedlearn.apimachinery._goint import MIN_INT64, div64, int32, int64

POLICY = """{"kind": "Policy", "apiVersion": "v1",
 "predicates": [{"name": "PodFitsResources"}],
 "priorities": [{"name": "SelectorSpreadPriority", "weight": %d},
                {"name": "PreferFast", "weight": 5,
                 "argument": {"labelPreference": {"label": "fast", "presence": true}}}]}"""

SCENARIO = """name: nan-even-weight
description: a zoned node, an unzoned one, and a Service whose selector matches no pod yet
duration: 10
follow: default/web-1
files:
  policy.json: '%s'
schedulers:
  - {name: scheduler-0, flags: ["--leader-elect=false", "--policy-config-file={files}/policy.json"]}
objects:
  - kind: Node
    metadata: {name: zoned, labels: {kubernetes.io/hostname: zoned, fast: "yes",
               failure-domain.beta.kubernetes.io/zone: z1}}
    status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, conditions: [{type: Ready, status: "True"}]}
  - kind: Node
    metadata: {name: plain, labels: {kubernetes.io/hostname: plain}}
    status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, conditions: [{type: Ready, status: "True"}]}
  - kind: Service
    metadata: {name: web, namespace: default}
    spec: {selector: {app: web}, ports: [{port: 80}]}
timeline:
  - at: 2
    create:
      kind: Pod
      metadata: {name: web-1, namespace: default, labels: {app: web}}
      spec: {containers: [{name: c, image: nginx}]}
"""


def _run(tmp_path, weight: int) -> Simulation:
    path = tmp_path / "nan.yaml"
    path.write_text(SCENARIO % (POLICY % weight).replace("\n", " "), encoding="utf-8")
    sim = Simulation.from_scenario(path, seed=1)
    sim.run_until(lambda e: False)
    return sim


def _totals_and_node(sim: Simulation) -> tuple[dict[str, int], str]:
    (ev,) = [e for e in sim.trace if e.stage == "schedule.priorities"]
    (pod,) = [p for p in sim.world.api.storage.items("pods") if p.metadata.name == "web-1"]
    return ev.data["totals"], pod.spec.node_name


@pytest.mark.parametrize(("weight", "totals", "node"), [
    # MinInt64 * 2 wraps to 0: zoned = 0 + 5*10 = 50 beats plain = 2*10 = 20
    (2, {"zoned": 50, "plain": 20}, "zoned"),
    # an odd weight keeps MinInt64 (MinInt64 * 1), then + 50 stays hugely negative
    (1, {"zoned": MIN_INT64 + 50, "plain": 10}, "plain"),
    # MinInt64 * 3 wraps to MinInt64 as well
    (3, {"zoned": MIN_INT64 + 50, "plain": 30}, "plain"),
], ids=["even-weight-wraps-to-zero", "odd-weight", "weight-3"])
def test_nan_selector_spread_total_wraps_like_go(tmp_path, weight, totals, node):
    sim = _run(tmp_path, weight)
    assert sim.world.runtime.crashes == []
    assert _totals_and_node(sim) == (totals, node)


@pytest.mark.parametrize(("value", "wrapped"), [
    (MIN_INT64 * 2, 0), (MIN_INT64 * 3, MIN_INT64), (2**63, MIN_INT64), (2**64 + 5, 5), (-1, -1),
], ids=["min-times-2", "min-times-3", "max-plus-one", "two-to-64-plus-5", "minus-one"])
def test_int64_wraps(value, wrapped):
    assert int64(value) == wrapped


def test_int32_and_truncating_division():
    assert int32(2**31) == -(2**31)
    assert int32(100 * 2**25) == 100 * 2**25 - 2**32
    assert div64(-7, 2) == -3  # Go truncates; Python's // would give -4
    assert div64(MIN_INT64, -1) == MIN_INT64


def test_node_info_sums_wrap_as_go_int64():
    """NodeInfo's requested resources are int64 in Go: three pods of 4Ei memory (2^62 bytes
    each) sum to 3 * 2^62, which wraps to -2^62."""
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info

    def pod(name: str) -> Pod:
        return Pod.from_dict({"metadata": {"name": name}, "spec": {"containers": [
            {"name": "c", "resources": {"requests": {"memory": "4Ei"}}}]}})

    info = new_node_info(pod("a"), pod("b"), pod("c"))
    assert info.requested_resource().memory == -(2**62)
    assert info.nonzero_request().memory == -(2**62)


@given(st.integers(min_value=-(2**130), max_value=2**130))
def test_int64_in_range_shortcut_equals_the_wrap(value):
    """``int64`` returns an in-range value untouched; that equals the two's-complement wrap."""
    wrapped = value & ((1 << 64) - 1)
    assert int64(value) == (wrapped - (1 << 64) if wrapped & (1 << 63) else wrapped)
