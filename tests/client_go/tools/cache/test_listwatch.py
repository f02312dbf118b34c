"""Tests of listwatch.go: ListWatch delegation and NewListWatchFromClient against the
embedded API server (field selector replaces the options', watch from a resourceVersion).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listwatch.go
"""

from __future__ import annotations

import pytest

from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta, Pod, PodSpec
from kschedlearn.apiserver import APIServer, new_for_server
from kschedlearn.client_go.tools.cache import ListOptions, ListWatch, new_list_watch_from_client


def test_list_watch_delegates() -> None:
    seen: list[tuple[str, ListOptions]] = []
    lw = ListWatch(lambda o: seen.append(("list", o)) or "L", lambda o: seen.append(("watch", o)) or "W")
    opts = ListOptions(resource_version="7")
    assert lw.list(opts) == "L" and lw.watch(opts) == "W"
    assert seen == [("list", opts), ("watch", opts)]


def test_new_list_watch_from_client_applies_field_selector() -> None:
    rt = sim.Runtime(seed=1)
    server = APIServer(rt, validation=False)  # as Go's fake clientset
    client = new_for_server(server)
    lw = new_list_watch_from_client(client, "pods", "", "spec.nodeName!=")

    def body() -> tuple[list[str], str, str]:
        pods = client.core_v1().pods("default")
        pods.create(Pod(metadata=ObjectMeta(name="bound"), spec=PodSpec(node_name="n1")))
        pods.create(Pod(metadata=ObjectMeta(name="pending")))
        lst = lw.list(ListOptions(resource_version="0", field_selector="ignored=x"))
        w = lw.watch(ListOptions(resource_version=lst.metadata.resource_version, timeout_seconds=300))
        pods.create(Pod(metadata=ObjectMeta(name="late"), spec=PodSpec(node_name="n2")))
        event, ok = w.result_chan().recv()
        w.stop()
        return [p.metadata.name for p in lst.items], event.type, event.object.metadata.name

    names, etype, ename = rt.run_fn(body)
    assert names == ["bound"]
    assert (etype, ename) == ("ADDED", "late")


def test_unknown_resource_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown resource 'widgets'"):
        new_list_watch_from_client(object(), "widgets", "", "")
