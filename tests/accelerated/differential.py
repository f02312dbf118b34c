"""Accelerated vs mirrored engine on generated scenarios: every outcome and every score compared.

kschedlearn-only test support. ``scenario(seed)`` draws a small cluster (nodes with zones,
taints, pressure conditions, images, avoid-pods annotations), services / RCs / ReplicaSets /
StatefulSets, PVs and PVCs, bound pods, a random policy (predicate subset, priority subset
with random weights) and a sequence of steps: schedule a pod (requests, host ports, node
selector, node affinity, pod affinity / anti-affinity, tolerations, volumes, nodeName), remove
a bound pod, add / remove / relabel a node. ``run(seed)`` plays it twice — mirror and
accelerated, each with its own scheduler cache fed the same events — inside a traced runtime
and returns both transcripts: per step the host or the error text, and every
``schedule.*`` / ``selectHost`` trace event (predicate verdicts per node, per-priority
scores, totals, round-robin state). Used by ``test_differential.py`` (CI size) and
``benchmarks/differential_full.py`` (full size).
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs

from kschedlearn import sim, trace
from kschedlearn.accelerated import accelerate
from kschedlearn.api.v1 import (
    Node, PersistentVolume, PersistentVolumeClaim, Pod, ReplicaSet, ReplicationController, Service, StatefulSet)
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithmprovider.defaults import register_defaults
from kschedlearn.scheduler.core.generic_scheduler import new_generic_scheduler
from kschedlearn.observe import attach
from kschedlearn.observe.generic_scheduler import observe_algorithm, observe_module_functions
from kschedlearn.scheduler.factory import plugins
from kschedlearn.scheduler.schedulercache import cache as schedulercache
from kschedlearn.client_go.listers.apps.v1beta1 import StatefulSetLister
from kschedlearn.client_go.listers.core import v1 as v1listers
from kschedlearn.client_go.listers.extensions.v1beta1 import ReplicaSetLister
from kschedlearn.client_go.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func, new_indexer
from kschedlearn.scheduler.factory.factory import NodePredicateLister
from kschedlearn.scheduler.testing import fake_lister as fl

ZONES = ["z1", "z2", "z3"]
APPS = ["a", "b", "c"]
TIERS = ["front", "back"]
IMAGES = ["img/web:1", "img/db:2", "img/cache:3"]
PREDICATES = ["CheckNodeDiskPressure", "CheckNodeMemoryPressure", "GeneralPredicates", "HostName",
              "MatchInterPodAffinity", "MatchNodeSelector", "MaxAzureDiskVolumeCount", "MaxEBSVolumeCount",
              "MaxGCEPDVolumeCount", "NoDiskConflict", "NoVolumeZoneConflict", "PodFitsHostPorts",
              "PodFitsResources", "PodToleratesNodeTaints"]
PRIORITIES = ["BalancedResourceAllocation", "EqualPriority", "ImageLocalityPriority", "InterPodAffinityPriority",
              "LeastRequestedPriority", "MostRequestedPriority", "NodeAffinityPriority", "NodePreferAvoidPodsPriority",
              "SelectorSpreadPriority", "TaintTolerationPriority"]


def _node(r: random.Random, i: int) -> dict:
    name = f"n{i}"
    labels = {"kubernetes.io/hostname": name, "disk": r.choice(["ssd", "hdd"])}
    if r.random() < 0.8:
        labels["failure-domain.beta.kubernetes.io/zone"] = r.choice(ZONES)
        labels["failure-domain.beta.kubernetes.io/region"] = "r1"
    conds = [{"type": "Ready", "status": "True"}]
    if r.random() < 0.1:
        conds.append({"type": "MemoryPressure", "status": "True"})
    if r.random() < 0.1:
        conds.append({"type": "DiskPressure", "status": "True"})
    alloc = {"cpu": r.choice(["1", "2", "4"]), "memory": r.choice(["1Gi", "2Gi", "4Gi"]), "pods": str(r.choice([3, 10, 110]))}
    d: dict[str, Any] = {"metadata": {"name": name, "labels": labels, "annotations": {}},
                         "spec": {}, "status": {"capacity": alloc, "allocatable": alloc, "conditions": conds}}
    if r.random() < 0.25:
        d["spec"]["taints"] = [{"key": "dedicated", "value": r.choice(APPS), "effect": r.choice(["NoSchedule", "PreferNoSchedule"])}]
    if r.random() < 0.3:
        d["status"]["images"] = [{"names": [r.choice(IMAGES)], "sizeBytes": r.choice([10, 300, 900]) * 1024 * 1024}]
    if r.random() < 0.1:
        d["metadata"]["annotations"]["scheduler.alpha.kubernetes.io/preferAvoidPods"] = json.dumps({"preferAvoidPods": [
            {"podSignature": {"podController": {"kind": "ReplicationController", "name": "rc-a", "uid": "uid-rc-a",
                                                "apiVersion": "v1", "controller": True}}}]})
    return d


def _term(r: random.Random) -> dict:
    return {"labelSelector": {"matchLabels": {"app": r.choice(APPS)}},
            "topologyKey": r.choice(["kubernetes.io/hostname", "failure-domain.beta.kubernetes.io/zone"])}


def _pod(r: random.Random, name: str, node_names: list[str], node: str | None = None,
         pod_affinity: float = 0.15) -> dict:
    app = r.choice(APPS)
    c: dict[str, Any] = {"name": "c", "image": r.choice(IMAGES)}
    if r.random() < 0.85:
        c["resources"] = {"requests": {"cpu": r.choice(["100m", "300m", "700m"]), "memory": r.choice(["100Mi", "500Mi", "1Gi"])}}
    if r.random() < 0.2:
        c["ports"] = [{"containerPort": 80, "hostPort": r.choice([8080, 9090])}]
    spec: dict[str, Any] = {"containers": [c]}
    meta: dict[str, Any] = {"name": name, "namespace": r.choice(["default", "default", "other"]), "labels": {"app": app}}
    if r.random() < 0.4:
        meta["labels"]["tier"] = r.choice(TIERS)  # a second label that only some Services select on
    if r.random() < 0.6:
        meta["ownerReferences"] = [{"apiVersion": "v1", "kind": "ReplicationController", "name": f"rc-{app}",
                                    "uid": f"uid-rc-{app}", "controller": True}]
    if r.random() < 0.15:
        spec["nodeSelector"] = {"disk": r.choice(["ssd", "hdd"])}
    aff: dict[str, Any] = {}
    if r.random() < 0.2:
        term = {"matchExpressions": [{"key": "failure-domain.beta.kubernetes.io/zone", "operator": "In", "values": r.sample(ZONES, 2)}]}
        aff["nodeAffinity"] = ({"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}
                               if r.random() < 0.5 else
                               {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": r.randint(1, 10), "preference": term}]})
    if r.random() < pod_affinity:
        aff["podAffinity"] = ({"requiredDuringSchedulingIgnoredDuringExecution": [_term(r)]} if r.random() < 0.5 else
                              {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": r.randint(1, 10), "podAffinityTerm": _term(r)}]})
    if r.random() < pod_affinity:
        aff["podAntiAffinity"] = ({"requiredDuringSchedulingIgnoredDuringExecution": [_term(r)]} if r.random() < 0.5 else
                                  {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": r.randint(1, 10), "podAffinityTerm": _term(r)}]})
    if aff:
        spec["affinity"] = aff
    if r.random() < 0.25:
        spec["tolerations"] = [{"key": "dedicated", "operator": "Equal", "value": r.choice(APPS),
                                "effect": r.choice(["NoSchedule", "PreferNoSchedule", ""])}]
    vols = []
    if r.random() < 0.1:
        vols.append({"name": "g", "gcePersistentDisk": {"pdName": r.choice(["pd1", "pd2"]), "readOnly": r.random() < 0.5}})
    if r.random() < 0.1:
        vols.append({"name": "e", "awsElasticBlockStore": {"volumeID": r.choice(["vol1", "vol2"])}})
    if r.random() < 0.15:
        vols.append({"name": "p", "persistentVolumeClaim": {"claimName": r.choice(["claim1", "claim2"])}})
    if vols:
        spec["volumes"] = vols
    if node is not None:
        spec["nodeName"] = node
    elif r.random() < 0.05:
        spec["nodeName"] = r.choice(node_names)  # HostName predicate (a pod that asks for a node)
    return {"metadata": meta, "spec": spec}


def _policy(r: random.Random) -> tuple[list[str], list[tuple[str, int]]]:
    if r.random() < 0.3:
        provider = plugins.get_algorithm_provider(plugins.DEFAULT_PROVIDER, registry=_registry())
        return sorted(provider.fit_predicate_keys), [(p, 1) for p in sorted(provider.priority_function_keys)]
    return (sorted(r.sample(PREDICATES, r.randint(0, len(PREDICATES)))),
            [(p, r.randint(1, 5)) for p in r.sample(PRIORITIES, r.randint(0, 5))])


def scenario(seed: int, steps: int = 12) -> dict:
    """A random scenario as plain data (reproducible from the seed)."""
    r = random.Random(seed)
    # In two scenarios of five no pod has pod (anti-)affinity terms — until, in half of those,
    # one arrives late: the engine's affinity-free shortcuts are used, then switched off.
    affinity = 0.15 if r.random() < 0.6 else 0.0
    late_affinity = affinity == 0.0 and r.random() < 0.5
    nodes = [_node(r, i) for i in range(r.randint(2, 7))]
    names = [n["metadata"]["name"] for n in nodes]
    bound = [_pod(r, f"b{i}", names, node=r.choice(names), pod_affinity=affinity) for i in range(r.randint(0, 10))]
    todo: list[tuple[str, Any]] = []
    # Pods of a few shapes recur (as replicas do), so the equivalence cache is hit and must be
    # invalidated right; a fresh shape now and then.
    templates = [_pod(r, "t", names, pod_affinity=affinity) for _ in range(r.randint(1, 3))]
    for i in range(steps):
        x = r.random()
        if late_affinity and i == steps // 2:
            todo.append(("schedule", _pod(r, f"p{i}", names, pod_affinity=0.9)))
        elif x < 0.66:
            if r.random() < 0.8:
                pod = json.loads(json.dumps(r.choice(templates)))
                pod["metadata"]["name"] = f"p{i}"
            else:
                pod = _pod(r, f"p{i}", names, pod_affinity=affinity)
            todo.append(("schedule", pod))
        elif x < 0.78:
            todo.append(("remove_pod", r.randint(0, 10**6)))
        elif x < 0.86:
            todo.append(("add_node", _node(r, 100 + i)))
        elif x < 0.9:
            todo.append(("remove_node", r.randint(0, 10**6)))
        elif x < 0.92:
            todo.append(("relabel_node", (r.randint(0, 10**6), r.choice(ZONES))))
        elif x < 0.94:
            todo.append(("flip_ready", r.randint(0, 10**6)))
        else:  # a Service appears, changes its selector or goes away
            selector = {"app": r.choice(APPS)} if r.random() < 0.5 else {"tier": r.choice(TIERS)}
            todo.append(("service", (r.choice(APPS), r.choice(["default", "default", "other"]), selector,
                                     r.random() < 0.6)))
    predicates, priorities = _policy(r)
    return {"nodes": nodes, "bound": bound, "steps": todo, "predicates": predicates, "priorities": priorities,
            "services": [{"metadata": {"name": f"svc-{a}", "namespace": "default"}, "spec": {"selector": {"app": a}}} for a in APPS[:2]],
            "rcs": [{"metadata": {"name": f"rc-{a}", "namespace": "default", "uid": f"uid-rc-{a}"},
                     "spec": {"selector": {"app": a}}} for a in APPS],
            "rss": [{"metadata": {"name": "rs-b", "namespace": "other"}, "spec": {"selector": {"matchLabels": {"app": "b"}}}}],
            "sss": [{"metadata": {"name": "ss-c", "namespace": "default"}, "spec": {"selector": {"matchLabels": {"app": "c"}}}}],
            "pvs": [{"metadata": {"name": f"pv{i}", "labels": {"failure-domain.beta.kubernetes.io/zone": z}},
                     "spec": {"gcePersistentDisk": {"pdName": f"pvd{i}"}}} for i, z in enumerate(ZONES[:2])],
            "pvcs": [{"metadata": {"name": f"claim{i + 1}", "namespace": ns}, "spec": {"volumeName": f"pv{i}"}}
                     for i in range(2) for ns in ["default", "other"]]}


_REGISTRY: list[Any] = []


def _registry() -> Any:
    if not _REGISTRY:
        reg = plugins.new_plugin_registry()
        register_defaults(registry=reg, environ={})
        _REGISTRY.append(reg)
    return _REGISTRY[0]


def _build(sc: dict, nodes: list[Node], engine: str) -> tuple[Any, Any]:
    reg = _registry()
    cache = schedulercache._new_scheduler_cache(30.0, 1.0, None)
    node_lister = _LiveNodes(nodes)
    for n in nodes:
        node_lister.store.add(n)
    # informer-backed listers (as kube-scheduler wires them), so that the accelerated engine's
    # memos over the stores (node list, getSelectors) are exercised and invalidated
    services = _store([Service.from_dict(d) for d in sc["services"]])
    node_lister.services = services
    args = plugins.PluginFactoryArgs(
        pod_lister=cache, service_lister=v1listers.ServiceLister(services, "services"),
        controller_lister=v1listers.ReplicationControllerLister(
            _store([ReplicationController.from_dict(d) for d in sc["rcs"]]), "replicationcontrollers"),
        replica_set_lister=ReplicaSetLister(_store([ReplicaSet.from_dict(d) for d in sc["rss"]]), "replicasets"),
        stateful_set_lister=StatefulSetLister(_store([StatefulSet.from_dict(d) for d in sc["sss"]]), "statefulsets"),
        node_lister=node_lister, node_info=node_lister,
        pv_info=fl.FakePersistentVolumeInfo([PersistentVolume.from_dict(d) for d in sc["pvs"]]),
        pvc_info=fl.FakePersistentVolumeClaimInfo([PersistentVolumeClaim.from_dict(d) for d in sc["pvcs"]]),
        hard_pod_affinity_symmetric_weight=1)
    predicates = plugins._get_fit_predicate_functions(sc["predicates"], args, registry=reg)
    weights = dict(sc["priorities"])
    configs = [attrs.evolve(c, weight=weights[c.name])
               for c in plugins._get_priority_function_configs([p for p, _ in sc["priorities"]], args, registry=reg)]
    algo = new_generic_scheduler(cache, predicates, plugins._get_predicate_metadata_producer(args, registry=reg),
                                 configs, plugins._get_priority_metadata_producer(args, registry=reg), [])
    algo = accelerate(algo) if engine == "accelerated" else algo
    # the schedule.* / selectHost trace points are attached from outside, as the world does
    return cache, observe_algorithm(algo), node_lister


def _store(objs: list[Any]) -> Any:
    store = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for obj in objs:
        store.add(obj)
    return store


@attrs.define(eq=False)
class _LiveNodes:
    """A node lister / node-info getter over the scenario's current nodes.

    ``store`` holds the same nodes for the informer-backed lister that ``Schedule`` is given
    (``NodePredicateLister``: the Ready / OutOfDisk / unschedulable filter).
    """

    nodes: list[Node]
    store: Any = attrs.field(factory=lambda: _store([]))
    services: Any = None

    def scheduling_lister(self) -> Any:
        return NodePredicateLister(v1listers.NodeLister(self.store, "nodes", namespaced=False))

    def list(self) -> list[Node]:  # noqa: A003 - Go's method name
        return list(self.nodes)

    def get_node_info(self, name: str) -> Node:
        for n in self.nodes:
            if n.metadata.name == name:
                return n
        raise LookupError(f"Unable to find node: {name}")


def _play(sc: dict, engine: str, traced: bool = True) -> list[Any]:
    """One engine's transcript; untraced, only the outcomes (the engine's untraced shortcuts)."""
    rt = sim.Runtime(seed=1)
    if traced:
        rt.tracer = trace.Tracer(capture_stacks=False, log_verbosity=0, snapshot_every=0)
        observe_module_functions(attach(rt))
    transcript: list[Any] = []

    def body() -> None:
        nodes = [Node.from_dict(d) for d in sc["nodes"]]
        cache, algo, lister = _build(sc, nodes, engine)
        for n in nodes:
            cache.add_node(n)
        for d in sc["bound"]:
            cache.add_pod(Pod.from_dict(d))
        placed = [Pod.from_dict(d) for d in sc["bound"]]
        for kind, arg in sc["steps"]:
            if kind == "schedule":
                pod = Pod.from_dict(arg)
                start = len(rt.tracer.events) if traced else 0
                try:
                    host = algo.schedule(pod, lister.scheduling_lister())
                    out: Any = ["host", host]
                    assumed = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=host))
                    cache.assume_pod(assumed)
                    cache.finish_binding(assumed)
                    cache.add_pod(assumed)
                    placed.append(assumed)
                except Exception as err:  # noqa: BLE001 - the error text is compared
                    out = ["error", type(err).__name__, str(err), sorted(
                        (k, [x.get_reason() for x in v]) for k, v in getattr(err, "failed_predicates", {}).items())]
                events = [(e.stage, e.message, repr(e.data)) for e in rt.tracer.events[start:]
                          if e.stage.startswith("schedule.") or e.stage == "selectHost"] if traced else []
                transcript.append([out, events])
            elif kind == "remove_pod" and placed:
                pod = placed.pop(arg % len(placed))
                cache.remove_pod(pod)
                transcript.append(["removed", pod.metadata.name])
            elif kind == "add_node":
                n = Node.from_dict(arg)
                if all(x.metadata.name != n.metadata.name for x in lister.nodes):
                    lister.nodes.append(n)
                    lister.store.add(n)
                    cache.add_node(n)
            elif kind == "remove_node" and len(lister.nodes) > 1:
                n = lister.nodes.pop(arg % len(lister.nodes))
                lister.store.delete(n)
                cache.remove_node(n)
            elif kind == "flip_ready" and lister.nodes:
                i = arg % len(lister.nodes)
                old = lister.nodes[i]
                conds = [attrs.evolve(c, status="False" if c.status == "True" else "True") if c.type == "Ready" else c
                         for c in old.status.conditions]
                new = attrs.evolve(old, status=attrs.evolve(old.status, conditions=conds))
                lister.nodes[i] = new
                lister.store.update(new)
                cache.update_node(old, new)
            elif kind == "service":
                name, namespace, selector, add = arg
                svc = Service.from_dict({"metadata": {"name": f"svc-{name}", "namespace": namespace},
                                         "spec": {"selector": selector}})
                if add:
                    lister.services.update(svc)
                else:
                    lister.services.delete(svc)
            elif kind == "relabel_node" and lister.nodes:
                i = arg[0] % len(lister.nodes)
                old = lister.nodes[i]
                labels = dict(old.metadata.labels)
                labels["failure-domain.beta.kubernetes.io/zone"] = arg[1]
                new = attrs.evolve(old, metadata=attrs.evolve(old.metadata, labels=labels))
                lister.nodes[i] = new
                lister.store.update(new)
                cache.update_node(old, new)
        transcript.append(["last_node_index", algo.last_node_index])

    rt.run_fn(body)
    preds.reset_predicate_precomputations()
    return transcript


def run(seed: int, steps: int = 12, traced: bool = True) -> tuple[list[Any], list[Any]]:
    """(mirrored transcript, accelerated transcript) of ``scenario(seed)``.

    Untraced (``traced=False``) the transcripts hold the outcomes only (hosts, error texts,
    failed-predicate maps, round-robin state): that is the accelerated engine's other path
    (no per-node trace data, selectHost without the sorted list).
    """
    sc = scenario(seed, steps)
    return _play(sc, "mirrored", traced), _play(sc, "accelerated", traced)
