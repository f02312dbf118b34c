"""Port of client-go tools/cache/testing/fake_controller_source_test.go (v1.6.1).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/testing/fake_controller_source_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/testing/fake_controller_source_test.go at
cluster-capacity commit f271bd0a9394ad63384802cf75294f6ecab36ac2).

A watch from resourceVersion N replays exactly the changes after N, and Shutdown closes every
watch; the consumers run as simulated goroutines.
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta, Pod
from kschedlearn.client_go.tools.cache.listwatch import ListOptions
from kschedlearn.client_go.tools.cache.testing import new_fake_controller_source


def consume(w: Any, rvs: list[str], done: sim.WaitGroup, errors: list[str]) -> None:
    """Go's consume: the watch delivers the requested versions, and only those."""
    try:
        for rv in rvs:
            got, ok = w.result_chan().recv()
            if not ok:
                errors.append(f"{rvs}: unexpected channel close, wanted {rv}")
                return
            got_rv = got.object.metadata.resource_version
            if got_rv != rv:
                errors.append(f"wanted {rv}, got {got_rv}")
        got, is_open = w.result_chan().recv()
        if is_open:
            errors.append(f"{rvs}: unwanted object {got!r}")
    finally:
        done.done()


def test_RCNumber() -> None:
    def pod(name: str) -> Pod:
        return Pod(metadata=ObjectMeta(name=name))

    errors: list[str] = []

    def body() -> str:
        wg = sim.WaitGroup()
        wg.add(3)
        source = new_fake_controller_source()
        source.add(pod("foo"))
        source.modify(pod("foo"))
        source.modify(pod("foo"))

        w = source.watch(ListOptions(resource_version="1"))
        sim.go(consume, w, ["2", "3"], wg, errors)
        list_rv = source.list(ListOptions()).metadata.resource_version
        w2 = source.watch(ListOptions(resource_version="2"))
        sim.go(consume, w2, ["3"], wg, errors)
        w3 = source.watch(ListOptions(resource_version="3"))
        sim.go(consume, w3, [], wg, errors)
        source.shutdown()
        wg.wait()
        return list_rv

    rt = sim.Runtime(seed=1)
    assert rt.run_fn(body) == "3"
    assert rt.crashes == [] and errors == []


def test_watch_from_the_future_is_an_error() -> None:
    """kschedlearn: Go's Watch refuses a resourceVersion beyond its change log."""
    source = new_fake_controller_source()
    source.add(Pod(metadata=ObjectMeta(name="foo")))
    with pytest.raises(ValueError, match="^resource version in the future not supported by this fake$"):
        source.watch(ListOptions(resource_version="2"))
