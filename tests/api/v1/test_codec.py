"""Decoding errors name the object and the field; times map to the simulated epoch."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.api import v1
from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1.codec import format_time, parse_time


def _pod(spec=None, metadata=None):
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "web-1", "namespace": "default"} if metadata is None else metadata,
        "spec": spec or {},
    }


BAD_INPUTS = {
    "bad quantity": (
        v1.Pod,
        _pod({"containers": [{"name": "c", "resources": {"requests": {"cpu": "12Q"}}}]}),
        'Pod default/web-1: spec.containers[0].resources.requests.cpu: invalid quantity "12Q"',
    ),
    "bad quantity under a dotted resource name": (
        v1.Pod,
        _pod({"containers": [{"resources": {"limits": {"alpha.kubernetes.io/nvidia-gpu": "x"}}}]}),
        'Pod default/web-1: spec.containers[0].resources.limits["alpha.kubernetes.io/nvidia-gpu"]: invalid quantity "x"',
    ),
    "quantity is a bool": (
        v1.Node,
        {"kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"pods": True}}},
        "Node n1: status.allocatable.pods: expected quantity string, got true",
    ),
    "hostPort is a string": (
        v1.Pod,
        _pod({"containers": [{"ports": [{"containerPort": 80}, {"containerPort": 81, "hostPort": "80a"}]}]}),
        'Pod default/web-1: spec.containers[0].ports[1].hostPort: expected integer, got "80a"',
    ),
    "int field given a bool": (
        v1.Pod,
        _pod({"containers": [{"ports": [{"containerPort": True}]}]}),
        "Pod default/web-1: spec.containers[0].ports[0].containerPort: expected integer, got true",
    ),
    "int field given a float": (
        v1.Pod,
        _pod({"terminationGracePeriodSeconds": 1.5}),
        "Pod default/web-1: spec.terminationGracePeriodSeconds: expected integer, got 1.5",
    ),
    "labels not a map": (
        v1.Pod,
        _pod(metadata={"name": "web-1", "namespace": "default", "labels": ["app=web"]}),
        "Pod default/web-1: metadata.labels: expected a map, got a list",
    ),
    "label value not a string": (
        v1.Pod,
        _pod(metadata={"name": "web-1", "namespace": "default", "labels": {"enabled": True}}),
        "Pod default/web-1: metadata.labels.enabled: expected string, got true",
    ),
    "containers not a list": (
        v1.Pod,
        _pod({"containers": {"name": "c"}}),
        "Pod default/web-1: spec.containers: expected a list, got a map",
    ),
    "container not a map": (
        v1.Pod,
        _pod({"containers": ["nginx"]}),
        'Pod default/web-1: spec.containers[0]: expected a map, got "nginx"',
    ),
    "bool field given a string": (
        v1.Node,
        {"kind": "Node", "metadata": {"name": "n1"}, "spec": {"unschedulable": "yes"}},
        'Node n1: spec.unschedulable: expected boolean, got "yes"',
    ),
    "bad time": (
        v1.Pod,
        _pod(metadata={"name": "web-1", "namespace": "default", "creationTimestamp": "yesterday"}),
        'Pod default/web-1: metadata.creationTimestamp: invalid time "yesterday" (want RFC3339, e.g. "2017-04-03T00:00:00Z")',
    ),
    "time is a number": (
        v1.Node,
        {"kind": "Node", "metadata": {"name": "n1"}, "spec": {"taints": [{"key": "k", "effect": "NoSchedule", "timeAdded": 5}]}},
        "Node n1: spec.taints[0].timeAdded: expected RFC3339 time string, got 5",
    ),
    "targetPort is a list": (
        v1.Service,
        {"kind": "Service", "metadata": {"name": "web", "namespace": "prod"}, "spec": {"ports": [{"port": 80, "targetPort": []}]}},
        "Service prod/web: spec.ports[0].targetPort: expected integer or string, got a list",
    ),
    "label selector inside affinity": (
        v1.Pod,
        _pod(
            {
                "affinity": {
                    "podAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": [
                            {"labelSelector": {"matchLabels": {"app": 1}}, "topologyKey": "zone"}
                        ]
                    }
                }
            }
        ),
        "Pod default/web-1: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
        ".labelSelector.matchLabels.app: expected string, got 1",
    ),
    "wrong kind": (
        v1.Pod,
        {"kind": "Node", "metadata": {"name": "n1"}},
        'Pod n1: kind: expected "Pod", got "Node"',
    ),
    "wrong apiVersion": (
        v1.ReplicaSet,
        {"apiVersion": "v1", "kind": "ReplicaSet", "metadata": {"name": "rs", "namespace": "default"}},
        'ReplicaSet default/rs: apiVersion: expected "extensions/v1beta1", got "v1"',
    ),
    "unnamed object": (
        v1.Pod,
        {"kind": "Pod", "spec": {"nodeName": 3}},
        "Pod <unnamed>: spec.nodeName: expected string, got 3",
    ),
    "cluster-scoped object": (
        v1.PersistentVolume,
        {"kind": "PersistentVolume", "metadata": {"name": "pv-1"}, "spec": {"capacity": {"storage": "lots"}}},
        'PersistentVolume pv-1: spec.capacity.storage: invalid quantity "lots"',
    ),
    "whole object not a map": (
        v1.Pod,
        ["not", "a", "pod"],
        "Pod <unnamed>: expected a map, got a list",
    ),
}


@pytest.mark.parametrize("cls,manifest,message", list(BAD_INPUTS.values()), ids=list(BAD_INPUTS))
def test_bad_input_messages(cls, manifest, message):
    with pytest.raises(ManifestError) as info:
        cls.from_dict(manifest)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_error_fields_and_source_prefix():
    with pytest.raises(ManifestError) as info:
        v1.Pod.from_dict(BAD_INPUTS["bad quantity"][1], path="scenario.yaml: document 2")
    err = info.value
    assert err.obj == "Pod default/web-1"
    assert err.path == "spec.containers[0].resources.requests.cpu"
    assert err.msg == 'invalid quantity "12Q"'
    assert str(err) == (
        'scenario.yaml: document 2: Pod default/web-1: spec.containers[0].resources.requests.cpu: invalid quantity "12Q"'
    )


def test_manifest_error_constructor():
    err = ManifestError("Pod default/web-1", "spec.nodeName", "boom")
    assert str(err) == "Pod default/web-1: spec.nodeName: boom"
    assert str(err.with_source("f.yaml")) == "f.yaml: Pod default/web-1: spec.nodeName: boom"


@pytest.mark.parametrize(
    "text,seconds",
    [
        ("2017-04-03T00:00:00Z", 0.0),
        ("2017-04-03T00:01:00Z", 60.0),
        ("2017-04-02T23:59:59Z", -1.0),
        ("2017-04-03T02:00:00+02:00", 0.0),
        ("2017-04-03T00:00:01.25Z", 1.25),
        ("2017-04-03T00:00:01.123456789Z", 1.123456),
    ],
)
def test_parse_time(text, seconds):
    assert parse_time(text) == pytest.approx(seconds, abs=1e-9)


def test_yaml_datetimes_are_times():
    aware = dt.datetime(2017, 4, 3, 0, 0, 10, tzinfo=dt.timezone.utc)
    assert parse_time(aware) == 10.0
    assert parse_time(dt.datetime(2017, 4, 3, 0, 0, 10)) == 10.0  # naive = UTC


@pytest.mark.parametrize(
    "seconds,text",
    [(0.0, "2017-04-03T00:00:00Z"), (86400.0, "2017-04-04T00:00:00Z"), (1.5, "2017-04-03T00:00:01.5Z"), (-1.0, "2017-04-02T23:59:59Z")],
)
def test_format_time(seconds, text):
    assert format_time(seconds) == text


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(min_value=-(10**9), max_value=10**9), st.integers(min_value=0, max_value=999_999))
def test_time_round_trip(whole, micros):
    seconds = whole + micros / 1_000_000
    assert parse_time(format_time(seconds)) == pytest.approx(seconds, abs=1e-6)
    assert format_time(parse_time(format_time(seconds))) == format_time(seconds)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.dictionaries(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz-./", min_size=1, max_size=12),
        st.text(max_size=10),
        max_size=4,
    ),
    st.integers(min_value=0, max_value=65535),
    st.sampled_from(["100m", "1", "2500m", "1Gi", "128Mi", "3"]),
)
def test_pod_round_trip_property(labels, host_port, cpu):
    manifest = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "labels": labels},
        "spec": {"containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": host_port}], "resources": {"requests": {"cpu": cpu}}}]},
    }
    pod = v1.Pod.from_dict(manifest)
    assert v1.Pod.from_dict(pod.to_dict()) == pod
