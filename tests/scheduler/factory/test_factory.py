"""Port of plugin/pkg/scheduler/factory/factory_test.go (1.6 shape: NewConfigFactory taking informers).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory_test.go

Differs from Go: Go's httptest server answering 500 becomes the embedded API server with every
call failing (``faults.fail_next("*")``) where the Go test used one; the tests run inside a
goroutine of the simulated runtime (``run_fn``) because the factory starts goroutines (the
cache's sweep, ``Run``'s reflectors). Each test uses its own plugin registry with the
1.6 defaults, so registering PredicateOne & co. does not leak into other tests. Added beyond
Go: every policy of spec/policy-examples.json through ``create_from_config``, the
unknown-predicate fatal text, and the ``--policy-config-file`` paths of the configurator.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import attrs
import pytest

from kschedlearn import sim
from kschedlearn.api.v1 import Binding, Node, ObjectMeta, ObjectReference, Pod
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.server import APIServer
from kschedlearn.client_go.informers import new_shared_informer_factory
from kschedlearn.client_go.tools.cache.fifo import new_fifo
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func
from kschedlearn.cmd.kube_scheduler.app.configurator import ConfigError, SchedulerConfigurator
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithmprovider.defaults import register_defaults
from kschedlearn.scheduler.api.latest import load_policy
from kschedlearn.scheduler.factory import plugins
from kschedlearn.scheduler.factory.factory import (
    NodePredicateLister,
    get_node_condition_predicate,
    new_config_factory,
)
from kschedlearn.scheduler.util.backoff_utils import create_pod_backoff
from kschedlearn.trace.glog import FatalError

DEFAULT_SCHEDULER_NAME = "default-scheduler"
DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT = 1


@pytest.fixture
def reg():
    registry = plugins.new_plugin_registry()
    register_defaults(registry=registry, environ={})
    yield registry
    preds.reset_predicate_precomputations()


@attrs.define
class Env:
    rt: sim.Runtime
    api: APIServer
    client: object


@pytest.fixture
def env():
    rt = sim.Runtime(seed=1)
    api = APIServer(rt, validation=False)  # as Go's fake clientset
    return Env(rt, api, new_for_server(api))


def _failing_server(env: Env) -> None:
    """Go: utiltesting.FakeHandler{StatusCode: 500} — every request fails."""
    env.api.faults.fail_next("*", n=10**9)


def _new_factory(env: Env, reg, name: str = DEFAULT_SCHEDULER_NAME,
                 weight: int = DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT):
    informer_factory = new_shared_informer_factory(env.client, 0)
    return new_config_factory(
        name, env.client,
        informer_factory.core().v1().nodes(),
        informer_factory.core().v1().persistent_volumes(),
        informer_factory.core().v1().persistent_volume_claims(),
        informer_factory.core().v1().replication_controllers(),
        informer_factory.extensions().v1beta1().replica_sets(),
        informer_factory.apps().v1beta1().stateful_sets(),
        informer_factory.core().v1().services(),
        weight, registry=reg,
    )


def _in_goroutine(env: Env, fn):
    return env.rt.run_fn(fn)


def test_create(env, reg):  # Go: TestCreate
    _failing_server(env)

    def body():
        factory = _new_factory(env, reg)
        return factory.create()

    cfg = _in_goroutine(env, body)
    provider = plugins.get_algorithm_provider(plugins.DEFAULT_PROVIDER, registry=reg)
    assert set(cfg.algorithm.predicates) == set(provider.fit_predicate_keys)
    assert isinstance(cfg.node_lister, NodePredicateLister)
    assert cfg.recorder is None  # injected later by createScheduler's modifier


# Go: PredicateOne / PredicateTwo / PriorityOne / PriorityTwo
def _predicate_one(pod, meta, node_info):
    return True, []


def _predicate_two(pod, meta, node_info):
    return True, []


def _priority_one(pod, node_name_to_info, nodes):
    return []


def _priority_two(pod, node_name_to_info, nodes):
    return []


CONFIG_DATA = """{
    "kind" : "Policy",
    "apiVersion" : "v1",
    "predicates" : [
        {"name" : "TestZoneAffinity", "argument" : {"serviceAffinity" : {"labels" : ["zone"]}}},
        {"name" : "TestRequireZone", "argument" : {"labelsPresence" : {"labels" : ["zone"], "presence" : true}}},
        {"name" : "PredicateOne"},
        {"name" : "PredicateTwo"}
    ],
    "priorities" : [
        {"name" : "RackSpread", "weight" : 3, "argument" : {"serviceAntiAffinity" : {"label" : "rack"}}},
        {"name" : "PriorityOne", "weight" : 2},
        {"name" : "PriorityTwo", "weight" : 1}
    ]
}"""


def _register_ones_and_twos(reg) -> None:
    plugins.register_fit_predicate("PredicateOne", _predicate_one, registry=reg)
    plugins.register_fit_predicate("PredicateTwo", _predicate_two, registry=reg)
    plugins.register_priority_function("PriorityOne", _priority_one, 1, registry=reg)
    plugins.register_priority_function("PriorityTwo", _priority_two, 1, registry=reg)


def test_create_from_config(env, reg):  # Go: TestCreateFromConfig
    _failing_server(env)
    _register_ones_and_twos(reg)
    policy = load_policy(CONFIG_DATA)

    def body():
        factory = _new_factory(env, reg)
        return factory, factory.create_from_config(policy)

    factory, cfg = _in_goroutine(env, body)
    assert sorted(cfg.algorithm.predicates) == ["PredicateOne", "PredicateTwo", "TestRequireZone", "TestZoneAffinity"]
    assert cfg.algorithm.predicates["PredicateOne"] is _predicate_one
    # priorities in alphabetical key order (PriorityOne, PriorityTwo, RackSpread), each with
    # the policy's weight
    assert [(p.weight, p.function) for p in cfg.algorithm.prioritizers][:2] == [
        (2, _priority_one), (1, _priority_two)]
    assert cfg.algorithm.prioritizers[2].weight == 3  # RackSpread (ServiceAntiAffinity)
    assert factory.get_hard_pod_affinity_symmetric_weight() == DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT


def test_create_from_config_hard_pod_affinity_weight_comes_from_the_flag(env, reg):
    # 1.7 added hardPodAffinitySymmetricWeight to the Policy; in 1.6 the JSON decoder ignores
    # the unknown field and the weight is the factory's (the --hard-pod-affinity-... flag).
    _register_ones_and_twos(reg)
    data = json.loads(CONFIG_DATA)
    data["hardPodAffinitySymmetricWeight"] = 10
    policy = load_policy(json.dumps(data))

    def body():
        factory = _new_factory(env, reg, weight=7)
        factory.create_from_config(policy)
        return factory

    factory = _in_goroutine(env, body)
    assert factory.get_hard_pod_affinity_symmetric_weight() == 7


@pytest.mark.parametrize("data", ["{}", '{"kind": "Policy", "apiVersion": "v1", "predicates": [], "priorities": []}'],
                         ids=["TestCreateFromEmptyConfig", "empty predicate and priority lists"])
def test_create_from_empty_config(env, reg, data):
    _failing_server(env)
    policy = load_policy(data)
    cfg = _in_goroutine(env, lambda: _new_factory(env, reg).create_from_config(policy))
    # no predicates at all, and no priorities (EqualPriority is applied implicitly, spec §5.4)
    assert cfg.algorithm.predicates == {}
    assert cfg.algorithm.prioritizers == []


def test_default_error_func(env, reg, monkeypatch):  # Go: TestDefaultErrorFunc
    test_pod = env.client.core_v1().pods("bar").create(Pod.from_dict({"metadata": {"name": "foo", "namespace": "bar"}}))
    queue = new_fifo(meta_namespace_key_func)
    gets = []

    def body():
        factory = _new_factory(env, reg)
        original_get = APIServer.get

        def counting_get(self, resource, namespace, name):
            gets.append((sim.now(), resource, namespace, name))
            return original_get(self, resource, namespace, name)

        # Go: handler.ValidateRequest — see which GETs the retry made
        monkeypatch.setattr(APIServer, "get", counting_get)
        pod_backoff = create_pod_backoff(0.001, 1.0)
        err_func = factory.make_default_error_func(pod_backoff, queue)
        err_func(test_pod, RuntimeError("nil"))
        start = sim.now()
        while True:
            sim.sleep(0.010)  # Go polls every 10ms
            got, exists = queue.get(test_pod)
            if exists:
                return start, got

    start, got = _in_goroutine(env, body)
    assert got == test_pod
    assert gets == [(start + 0.001, "pods", "bar", "foo")]  # one GET, after the 1ms backoff


def test_default_error_func_drops_a_pod_that_got_bound(env, reg):
    pod = env.client.core_v1().pods("bar").create(Pod.from_dict({"metadata": {"name": "foo", "namespace": "bar"}}))
    env.client.core_v1().nodes().create(Node.from_dict({"metadata": {"name": "n"}}))
    queue = new_fifo(meta_namespace_key_func)

    def body():
        factory = _new_factory(env, reg)
        factory.make_default_error_func(create_pod_backoff(0.001, 1.0), queue)(pod, RuntimeError("x"))
        env.client.core_v1().pods("bar").bind(Binding(
            metadata=ObjectMeta(namespace="bar", name="foo"), target=ObjectReference(kind="Node", name="n")))
        sim.sleep(1)

    _in_goroutine(env, body)
    assert queue.list_keys() == []  # AddIfNotPresent only for a still-unassigned pod


@pytest.mark.skip(reason="nodeEnumerator (a cache.Poller adapter with no caller in 1.6) is not mirrored in factory.py")
def test_node_enumerator():  # Go: TestNodeEnumerator
    pass


def test_bind(env, reg, monkeypatch):  # Go: TestBind
    from kschedlearn.scheduler.factory.factory import Binder

    env.client.core_v1().pods("default").create(Pod.from_dict({"metadata": {"name": "foo"}}))
    binding = Binding(metadata=ObjectMeta(namespace="default", name="foo"),
                      target=ObjectReference(name="foohost.kubernetes.mydomain.com"))
    routes: list[tuple[str, str]] = []
    original = APIServer.bind

    def spy(self, namespace, body, *, route="bindings"):
        routes.append((namespace, route))
        return original(self, namespace, body, route=route)

    monkeypatch.setattr(APIServer, "bind", spy)
    _in_goroutine(env, lambda: Binder(env.client).bind(binding))
    # Go's TestBind expects POST /api/v1/namespaces/default/bindings (the legacy resource)
    assert routes == [("default", "bindings")]
    assert env.client.core_v1().pods("default").get("foo").spec.node_name == "foohost.kubernetes.mydomain.com"


def test_bindings_resource_follows_the_subresource_rules(env):
    """(kschedlearn) 1.6 serves ``bindings`` and ``pods/binding`` with one BindingREST: the
    same 409 for an assigned pod, the same 400 for a namespace mismatch."""
    from kschedlearn.apimachinery.api.errors import StatusError

    core = env.client.core()
    core.pods("default").create(Pod.from_dict({"metadata": {"name": "foo"}}))
    binding = Binding(metadata=ObjectMeta(namespace="default", name="foo"), target=ObjectReference(name="n1"))

    def post(ns, b):
        core.rest_client().post().namespace(ns).resource("bindings").body(b).do().error()

    with pytest.raises(StatusError, match="does not match the namespace sent on the request"):
        post("other", binding)
    post("default", binding)
    with pytest.raises(StatusError) as via_resource:
        post("default", binding)
    with pytest.raises(StatusError) as via_subresource:
        core.pods("default").bind(binding)
    assert str(via_resource.value) == str(via_subresource.value) == (
        'Operation cannot be fulfilled on pods/binding "foo": pod foo is already assigned to node "n1"')
    assert via_resource.value.code == via_subresource.value.code == 409


@pytest.mark.parametrize("pod_scheduler,picked_by_default,picked_by_foo", [
    ("default-scheduler", True, False),
    ("foo-scheduler", False, True),
    ("bar-scheduler", False, False),
], ids=["default-scheduler", "foo-scheduler", "bar-scheduler"])
def test_responsible_for_pod(env, reg, pod_scheduler, picked_by_default, picked_by_foo):  # Go: TestResponsibleForPod
    _failing_server(env)
    pod = Pod.from_dict({"metadata": {"name": "foo", "namespace": "bar"}, "spec": {"schedulerName": pod_scheduler}})

    def body():
        default = _new_factory(env, reg, DEFAULT_SCHEDULER_NAME)
        foo = _new_factory(env, reg, "foo-scheduler")
        return default.responsible_for_pod(pod), foo.responsible_for_pod(pod)

    assert _in_goroutine(env, body) == (picked_by_default, picked_by_foo)


def test_invalid_hard_pod_affinity_symmetric_weight(env, reg):  # Go: TestInvalidHardPodAffinitySymmetricWeight
    _failing_server(env)
    with pytest.raises(ValueError):
        _in_goroutine(env, lambda: _new_factory(env, reg, weight=-1).create())


@pytest.mark.parametrize("weight,expect_err", [
    (-1, "invalid hardPodAffinitySymmetricWeight: -1, must be in the range 0-100"),
    (101, "invalid hardPodAffinitySymmetricWeight: 101, must be in the range 0-100"),
], ids=["-1", "101"])
def test_invalid_factory_args(env, reg, weight, expect_err):  # Go: TestInvalidFactoryArgs
    _failing_server(env)
    with pytest.raises(ValueError) as info:
        _in_goroutine(env, lambda: _new_factory(env, reg, weight=weight).create())
    assert str(info.value) == expect_err


def _cond_node(name, conditions=(), unschedulable=None):
    d = {"metadata": {"name": name}, "status": {"conditions": [{"type": t, "status": s} for t, s in conditions]}}
    if unschedulable is not None:
        d["spec"] = {"unschedulable": unschedulable}
    return Node.from_dict(d)


NODE_CONDITION_TABLE = [
    _cond_node("node1", [("Ready", "True")]),  # considered
    _cond_node("node2", [("Ready", "False")]),  # not Ready
    _cond_node("node3", [("OutOfDisk", "True")]),  # out of disk
    _cond_node("node4", [("OutOfDisk", "False")]),  # considered
    _cond_node("node5", [("Ready", "True"), ("OutOfDisk", "True")]),  # out of disk
    _cond_node("node6", [("Ready", "True"), ("OutOfDisk", "False")]),  # considered
    _cond_node("node7", [("Ready", "False"), ("OutOfDisk", "True")]),  # both
    _cond_node("node8", [("Ready", "False"), ("OutOfDisk", "False")]),  # not Ready
    _cond_node("node9", unschedulable=True),  # unschedulable
    _cond_node("node10", unschedulable=False),  # considered
    _cond_node("node11"),  # considered
]


def test_node_condition_predicate():  # Go: TestNodeConditionPredicate
    node_func = get_node_condition_predicate()
    names = [n.metadata.name for n in NODE_CONDITION_TABLE if node_func(n)]
    assert names == ["node1", "node4", "node6", "node10", "node11"]


def test_node_condition_predicate_network_unavailable():
    node_func = get_node_condition_predicate()
    assert not node_func(_cond_node("n", [("NetworkUnavailable", "True")]))
    assert node_func(_cond_node("n", [("NetworkUnavailable", "False")]))


# --- beyond Go: every upstream policy document, and the configurator's file paths -----------


def _examples() -> dict:
    import importlib.resources

    return json.loads((importlib.resources.files("kschedlearn.scheduler.api") / "policy_examples.json").read_text())


EXAMPLES = _examples()


@pytest.mark.parametrize("case", EXAMPLES["cases"], ids=[c["version"] for c in EXAMPLES["cases"]])
def test_create_from_config_with_policy_examples(env, reg, case):
    _failing_server(env)
    policy = load_policy(case["policy_json"])
    cfg = _in_goroutine(env, lambda: _new_factory(env, reg, "some-scheduler-name").create_from_config(policy))
    assert set(cfg.algorithm.predicates) == {p.name for p in policy.predicates}
    assert sorted(p.weight for p in cfg.algorithm.prioritizers) == sorted(p.weight for p in policy.priorities)
    assert callable(cfg.next_pod) and callable(cfg.error)


def test_create_from_config_unknown_predicate_is_fatal(env, reg):
    policy = load_policy('{"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": "NoSuchPredicate"}]}')
    with pytest.raises(FatalError) as info:
        _in_goroutine(env, lambda: _new_factory(env, reg).create_from_config(policy))
    assert str(info.value) == "Invalid configuration: Predicate type not found for NoSuchPredicate"


def test_create_from_config_unknown_priority_is_fatal(env, reg):
    policy = load_policy('{"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "NoSuchPriority", "weight": 1}]}')
    with pytest.raises(FatalError) as info:
        _in_goroutine(env, lambda: _new_factory(env, reg).create_from_config(policy))
    assert str(info.value) == "Invalid configuration: Priority type not found for NoSuchPriority"


def _configurator(env, reg, policy_file: str):
    return SchedulerConfigurator(_new_factory(env, reg), policy_file, plugins.DEFAULT_PROVIDER)


def test_configurator_missing_policy_file_uses_the_provider(env, reg, tmp_path):
    cfg = _in_goroutine(env, lambda: _configurator(env, reg, str(tmp_path / "nope.json")).create())
    provider = plugins.get_algorithm_provider(plugins.DEFAULT_PROVIDER, registry=reg)
    assert set(cfg.algorithm.predicates) == set(provider.fit_predicate_keys)
    # the empty flag too
    cfg = _in_goroutine(env, lambda: _configurator(env, reg, "").create())
    assert set(cfg.algorithm.predicates) == set(provider.fit_predicate_keys)


def test_configurator_reads_a_policy_file(env, reg, tmp_path):
    path = tmp_path / "policy.json"
    path.write_text('{"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": "PodFitsHostPorts"}],'
                    ' "priorities": [{"name": "LeastRequestedPriority", "weight": 5}]}')
    cfg = _in_goroutine(env, lambda: _configurator(env, reg, str(path)).create())
    assert list(cfg.algorithm.predicates) == ["PodFitsHostPorts"]
    assert [p.weight for p in cfg.algorithm.prioritizers] == [5]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read a mode-000 file")
def test_configurator_unreadable_policy_file(env, reg, tmp_path):
    path = tmp_path / "policy.json"
    path.write_text("{}")
    path.chmod(0)
    try:
        with pytest.raises(ConfigError) as info:
            _in_goroutine(env, lambda: _configurator(env, reg, str(path)).create())
    finally:
        path.chmod(0o600)
    assert str(info.value).startswith("unable to read policy config: ")


def test_configurator_policy_file_is_a_directory(env, reg, tmp_path):
    # exists (os.Stat succeeds) but cannot be read as a file: the read error path
    with pytest.raises(ConfigError) as info:
        _in_goroutine(env, lambda: _configurator(env, reg, str(tmp_path)).create())
    assert str(info.value).startswith("unable to read policy config: ")


def test_configurator_invalid_json(env, reg, tmp_path):
    path = tmp_path / "policy.json"
    path.write_text("{bad")
    with pytest.raises(ConfigError) as info:
        _in_goroutine(env, lambda: _configurator(env, reg, str(path)).create())
    assert str(info.value) == ("invalid configuration: couldn't get version/kind; json parse error: "
                               "invalid character 'b' looking for beginning of object key string")
