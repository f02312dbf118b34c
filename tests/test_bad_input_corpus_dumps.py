"""The adversarial corpus for cluster dumps (``Simulation.from_manifests``, ``kschedlearn serve --from``).

Same rules as the other corpora: every case pins the exact message, which names the object, the
field and the value; no raw Python exception; nothing accepted silently. A dump is never refused
whole for one item: an item 1.6 could not take is skipped and named (document, item, field, value)
and the rest loads — so most cases here assert the exact ``skipped_items`` line, that the API
server's storage holds exactly the objects that loaded (the skipped one is absent, nothing else is
lost) and that the replay runs. Cases that concern the whole dump raise ``ScenarioError`` and leave
an unrelated notebook session intact (cursor, history and storage unchanged; it still steps).

Cases that found a defect when they were written are marked ``(defect)``; they are the dump cases
of issue #26 (duplicates, a pod on a node the dump lacks, a List inside a List: silent) and #23.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.cli import main
from kschedlearn.scenarios.cluster_dump import load_cluster_dump
from kschedlearn.scenarios.dump_report import NOT_IN_1_6, SCHEDULING
from kschedlearn.scenarios.scenario import ScenarioError

from tests.test_bad_input_corpus import RAW, _raises  # noqa: E402  (the corpus's own checks)

NODE = "- {kind: Node, metadata: {name: n}, status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}}\n"
POD = "- {kind: Pod, metadata: {name: ok}, spec: {containers: [{name: c}]}}\n"


def _dump(*items: str) -> str:
    """A List holding a node, a good pod and the items under test (the good ones must still load)."""
    return "kind: List\nitems:\n" + NODE + POD + "".join(items)


def _pod(name: str, spec: str, meta: str = "") -> str:
    return f"- {{kind: Pod, metadata: {{name: {name}{meta}}}, spec: {spec}}}\n"


W = "<dump>: document 1: "
SKIPPED = [
    ("bad-quantity", _dump(_pod("p", "{containers: [{name: c, resources: {requests: {cpu: 12Q}}}]}")),
     f'{W}items[2]: Pod p: spec.containers[0].resources.requests.cpu: invalid quantity "12Q"'),
    ("negative-request", _dump(_pod("p", "{containers: [{name: c, resources: {requests: {cpu: '-1'}}}]}")),
     f'{W}items[2]: Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be '
     "greater than or equal to 0 (1.6's API server refuses it)"),
    ("labels-not-a-map", _dump(_pod("p", "{containers: [{name: c}]}", ", labels: 5")),
     f"{W}items[2]: Pod p: metadata.labels: expected a map, got 5"),
    ("no-kind", _dump("- {metadata: {name: x}}\n"),
     f"{W}items[2]: kind: required (a Kubernetes object names its kind), got None"),
    ("kind-not-a-string", _dump("- {kind: [Pod], metadata: {name: x}}\n"),
     f"{W}items[2]: kind: required (a Kubernetes object names its kind), got ['Pod']"),
    ("item-not-a-mapping", _dump("- 42\n"), f"{W}items[2]: expected a Kubernetes object (a mapping), got int 42"),
    ("item-a-list", _dump("- [1, 2]\n"), f"{W}items[2]: expected a Kubernetes object (a mapping), got list [1, 2]"),
    ("wrong-api-version", _dump("- {apiVersion: v2, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}\n"),
     f'{W}items[2]: Pod p: apiVersion: expected "v1", got "v2"'),
    ("no-name", _dump("- {kind: Pod, metadata: {labels: {a: b}}, spec: {containers: [{name: c}]}}\n"),
     f'{W}items[2]: Pod "" is invalid: metadata.name: Required value: name or generateName is required '
     "(1.6's API server refuses it)"),
    ("node-name-invalid", _dump("- {kind: Node, metadata: {name: Node_1}}\n"),
     f'{W}items[2]: Node "Node_1" is invalid: metadata.name: Invalid value: "Node_1": a DNS-1123 subdomain must '
     "consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
     "character (e.g. 'example.com', regex used for validation is "
     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') (1.6's API server refuses it)"),
    ("inner-items-not-a-list", _dump("- {kind: PodList, items: 3}\n"), f"{W}items[2]: items: expected a list, got int 3"),
    # (defect) the same node twice loaded, then crashed at the first step with AlreadyExistsError
    ("duplicate-node", _dump("- {kind: Node, metadata: {name: n}}\n"),
     f"{W}items[2]: Node \"n\" is also {W}items[0]: the later item is skipped (1.6's API server answers "
     "AlreadyExists to a second create)"),
    # a pod without a namespace is in "default", as the API server puts it
    ("duplicate-pod-default-namespace", _dump(_pod("ok", "{containers: [{name: c}]}", ", namespace: default")),
     f"{W}items[2]: Pod \"default/ok\" is also {W}items[1]: the later item is skipped (1.6's API server answers "
     "AlreadyExists to a second create)"),
    ("duplicate-in-nested-list", _dump("- {kind: List, items: [{kind: Node, metadata: {name: n}}]}\n"),
     f"{W}items[2].items[0]: Node \"n\" is also {W}items[0]: the later item is skipped (1.6's API server answers "
     "AlreadyExists to a second create)"),
    ("a-protocol-1.6-refuses", _dump(_pod("p", "{containers: [{name: c, ports: [{containerPort: 80, protocol: SCTP}]}]}")),
     f'{W}items[2]: Pod "p" is invalid: spec.containers[0].ports[0].protocol: Unsupported value: "SCTP": supported '
     "values: TCP, UDP (1.6's API server refuses it)"),
]


def _deep_list(depth: int) -> str:
    inner: dict[str, Any] = {"kind": "Node", "metadata": {"name": "deep"}}
    for _ in range(depth):
        inner = {"kind": "List", "items": [inner]}
    good = [{"kind": "Node", "metadata": {"name": "n"}}, {"kind": "Pod", "metadata": {"name": "ok"},
                                                          "spec": {"containers": [{"name": "c"}]}}]
    return json.dumps({"kind": "List", "items": [*good, inner]})


SKIPPED.append(("list-nested-too-deep", _deep_list(17),
                "<dump>: document 1: items[2]" + ".items[0]" * 15 + ": a List nested 16 levels deep (the limit is 16)"))


def _stored(sim: Simulation) -> set[str]:
    sim.run_until(lambda e: e.time > 0.5)
    api = sim.world.api
    return {f"{r}/{o.metadata.namespace}/{o.metadata.name}".replace("//", "/") for r in ("pods", "nodes")
            for o in api.storage.items(r)}


@pytest.mark.parametrize(("text", "line"), [c[1:] for c in SKIPPED], ids=[c[0] for c in SKIPPED])
def test_an_item_1_6_cannot_take_is_skipped_and_named(text: str, line: str) -> None:
    _, report = load_cluster_dump(text)
    assert [s.line() for s in report.skipped_items] == [line]
    assert not any(raw in line for raw in RAW)
    assert " ".join(line.split()) in " ".join(report.summary().split())
    # the rest loads, and storage holds exactly it: the node and the good pod, nothing skipped, nothing lost
    sim = Simulation.from_manifests(text, seed=1, snapshots=False)
    stored = _stored(sim)
    assert {"nodes/n", "pods/default/ok"} <= stored and not any(s.endswith(("/p", "/x", "Node_1")) for s in stored)
    assert len(stored) == report.nodes + report.bound_pods + report.pending_pods


# -- the whole dump: errors that name the file; an unrelated session is left as it was ---------------------

WHOLE = [
    ("invalid-yaml", "kind: [\n", ("<dump>: invalid YAML", "line 2")),
    ("invalid-json", '{"kind": "List", "items": [}', ("<dump>: invalid JSON", "Expecting value", "column 28")),
    ("no-nodes", "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n",
     ("<dump>: no Node objects: a dump needs `kubectl get nodes,pods,... -o yaml`",)),
    # when nothing loads, the first reason is given
    ("only-skipped-items", "kind: List\nitems: [{metadata: {name: x}}, 3]\n",
     ("<dump>: no Node objects", "; 2 items skipped, the first: <dump>: document 1: items[0]: kind: required",)),
    ("empty", "\n", ("<dump>: no Node objects",)),
    ("only-a-node-list-of-nothing", "kind: NodeList\nitems: []\n", ("<dump>: no Node objects",)),
    ("not-a-dump-value", 3.5, ("<dump>: expected the dump's YAML text or a file path, got 3.5 (float)",)),
]


@pytest.fixture(scope="module")
def session() -> Simulation:
    s = Simulation.from_scenario("three-nodes", seed=1, snapshots=False)
    for _ in range(5):
        s.step()
    return s


def _session_state(sim: Simulation) -> tuple[Any, ...]:
    api = sim.world.api
    return (sim.cursor, len(sim.trace), tuple(sorted(json.dumps(o.to_dict(), sort_keys=True)
                                                     for r in ("pods", "nodes") for o in api.storage.items(r))))


@pytest.mark.parametrize(("text", "fragments"), [c[1:] for c in WHOLE], ids=[c[0] for c in WHOLE])
def test_a_dump_refused_whole_names_the_file_and_leaves_the_session(session, text, fragments) -> None:
    before = _session_state(session)
    _raises(lambda: Simulation.from_manifests(text), ScenarioError, fragments)
    assert _session_state(session) == before
    session.step()  # still steps
    session.back()


# -- what a modern cluster carries: loaded, changed as a careful person would, each named in the report ----

def _find(report: Any, part: str, field: str) -> Any:
    found = [f for f in report.part(part) if f.field == field]
    assert len(found) == 1, (field, [f.field for f in report.part(part)])
    return found[0]


def test_a_pending_daemon_pod_is_pinned_as_1_6s_daemonset_controller_did() -> None:
    text = _dump(_pod("ds-1", "{containers: [{name: c}], affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuring"
                               "Execution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, "
                               "values: [n]}]}]}}}}"))
    scenario, report = load_cluster_dump(text)
    pod = next(o for o in scenario.objects if o.metadata.name == "ds-1")
    assert pod.spec.node_name == "n" and pod.spec.affinity is None
    f = _find(report, SCHEDULING, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                                  "nodeSelectorTerms[].matchFields")
    assert (f.count, f.action) == (1, "replaced by spec.nodeName (as 1.6's DaemonSet controller set it)")
    assert "controller_utils.go#L544-L568" in f.why and report.bound_pods == 1


def test_other_match_fields_on_a_pending_pod_are_removed_and_said_to_change_scheduling() -> None:
    text = _dump(_pod("p", "{containers: [{name: c}], affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuring"
                           "Execution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: NotIn, "
                           "values: [n]}], matchExpressions: [{key: a, operator: Exists}]}]}}}}"))
    scenario, report = load_cluster_dump(text)
    pod = next(o for o in scenario.objects if o.metadata.name == "p")
    term = pod.spec.affinity.node_affinity.required_during_scheduling_ignored_during_execution.node_selector_terms[0]
    assert [r.key for r in term.match_expressions] == ["a"] and not pod.spec.node_name
    f = _find(report, SCHEDULING, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                                  "nodeSelectorTerms[].matchFields")
    assert f.action == "removed: the pod may go to a node the term excluded"


def test_unknown_resource_names_are_removed_and_extended_ones_kept_unchecked() -> None:
    text = _dump(_pod("etcd", "{containers: [{name: c, resources: {requests: {cpu: 100m, ephemeral-storage: 100Mi, "
                              "hugepages-2Mi: 2Mi, nvidia.com/gpu: '1'}, limits: {nvidia.com/gpu: '1', hugepages-2Mi: 2Mi}}}]}"))
    scenario, report = load_cluster_dump(text)
    pod = next(o for o in scenario.objects if o.metadata.name == "etcd")
    assert set(pod.spec.containers[0].resources.requests) == {"cpu", "nvidia.com/gpu"}
    assert set(pod.spec.containers[0].resources.limits) == {"nvidia.com/gpu"}
    removed = _find(report, SCHEDULING, "spec.containers[].resources.requests[ephemeral-storage]")
    assert removed.action == "removed" and "validation.go#L3121-L3131" in removed.why
    gpu = _find(report, SCHEDULING, "spec.containers[].resources.requests[nvidia.com/gpu]")
    assert gpu.action == "kept, not checked by 1.6" and "predicates.go#L546-L592" in gpu.why
    assert _find(report, SCHEDULING, "spec.containers[].resources.limits[hugepages-2Mi]").action == "removed"


def test_dns_policy_none_is_read_as_default() -> None:
    scenario, report = load_cluster_dump(_dump(_pod("p", "{containers: [{name: c}], dnsPolicy: None}")))
    assert next(o for o in scenario.objects if o.metadata.name == "p").spec.dns_policy == "Default"
    assert _find(report, NOT_IN_1_6, "spec.dnsPolicy").action == "None read as Default"


# (defect) pods bound to a node the dump lacks were silent
def test_pods_on_a_node_not_in_the_dump_are_listed_and_kept_out_of_every_node() -> None:
    text = _dump(_pod("ghost-1", "{nodeName: gone, containers: [{name: c, resources: {requests: {cpu: '1'}}}]}"),
                 _pod("ghost-2", "{nodeName: gone-too, containers: [{name: c}]}", ", namespace: kube-system"))
    _, report = load_cluster_dump(text)
    assert report.ghost_pods == (("default/ghost-1", "gone"), ("kube-system/ghost-2", "gone-too"))
    assert "Pods bound to nodes not in the dump (2): default/ghost-1 on gone, kube-system/ghost-2 on gone-too" \
        in report.summary()
    f = _find(report, SCHEDULING, "spec.nodeName (a node not in the dump)")
    assert f.count == 2 and "cache.go#L183-L191" in f.why and "predicates.go#L1097-L1120" in f.why


# (defect) a List inside a List had its items dropped
def test_a_list_inside_a_list_is_read() -> None:
    text = ("kind: List\nitems:\n- {kind: NodeList, items: [{metadata: {name: n1}}, {metadata: {name: n2}}]}\n"
            "- {kind: List, items: [{kind: PodList, apiVersion: v1, items: [{metadata: {name: p}, spec: "
            "{containers: [{name: c}]}}]}]}\n")
    scenario, report = load_cluster_dump(text)
    assert (report.nodes, report.pending_pods, report.skipped_items) == (2, 1, ())
    assert sorted(o.metadata.name for o in scenario.objects) == ["n1", "n2", "p"]


def test_serve_from_a_dump_with_no_nodes_is_a_one_line_error(tmp_path, capsys) -> None:
    dump = tmp_path / "pods-only.yaml"
    dump.write_text("kind: List\nitems: [{metadata: {name: x}}]\n")
    assert main(["serve", "--from", str(dump), "--serve-for", "0.01"]) == 1
    err = capsys.readouterr().err
    assert err == (f"kschedlearn: error: --from {dump}: pods-only.yaml: no Node objects: a dump needs `kubectl get "
                   "nodes,pods,... -o yaml`; 1 item skipped, the first: pods-only.yaml: document 1: items[0]: kind: "
                   "required (a Kubernetes object names its kind), got None\n")


def test_objects_named_by_the_server_are_never_duplicates() -> None:
    gen = "- {kind: Pod, metadata: {generateName: web-}, spec: {containers: [{name: c}]}}\n"
    _, report = load_cluster_dump(_dump(gen, gen))
    assert (report.pending_pods, report.skipped_items) == (3, ())


def test_serve_from_a_dump_prints_its_report_first(tmp_path, capsys) -> None:
    dump = tmp_path / "ghosts.yaml"
    dump.write_text(_dump(_pod("ghost", "{nodeName: gone, containers: [{name: c}]}"), "- {kind: Deployment}\n"))
    assert main(["serve", "--from", str(dump), "--serve-for", "0.01", "--kubeconfig", str(tmp_path / "k")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ghosts.yaml: 1 node, 1 bound pod, 1 pending pod, 0 other objects\n")
    assert "Pods bound to nodes not in the dump (1): default/ghost on gone" in out
    assert "kinds the 1.6 scheduler does not read: Deployment ×1" in out
    assert out.index("Deployment ×1") < out.index("serving 'ghosts' on https://127.0.0.1:")
