"""The API server's trace stages: registered with Go references, emitted with short messages."""

from __future__ import annotations

from kschedlearn.trace import CATALOGUE, Tracer


def test_stages_registered_with_go_refs():
    import kschedlearn.apiserver  # noqa: F401 - registers the stages

    for name in ("apiserver.create", "apiserver.update", "apiserver.delete", "apiserver.bind",
                 "apiserver.watch_event"):
        assert CATALOGUE[name].go_ref.startswith("https://github.com/kubernetes/kubernetes/blob/v1.6.1/")
    assert "pod/storage/storage.go" in CATALOGUE["apiserver.bind"].go_ref


def test_events_emitted(client, rt, h):
    rt.tracer = Tracer()
    w = client.core_v1().pods().watch(field_selector="spec.nodeName!=")
    h.collect(rt, w)
    pods = client.core_v1().pods("default")
    p = pods.create(h.make_pod("web-1"))
    pods.bind(h.make_binding("web-1", "n1"))
    pods.delete("web-1", grace_period_seconds=0)
    h.settle(rt)
    seen = [(e.stage, e.message) for e in rt.tracer.events if e.stage.startswith("apiserver.")]
    assert seen == [
        ("apiserver.watch", "watch pods from rv now"),
        ("apiserver.create", "create pods default/web-1"),
        ("apiserver.bind", "bind default/web-1 to n1"),
        ("apiserver.delete", "delete pods default/web-1"),
        ("apiserver.watch_event", "watch-1 ADDED default/web-1"),
        ("apiserver.watch_event", "watch-1 DELETED default/web-1"),
    ]
    bind = next(e for e in rt.tracer.events if e.stage == "apiserver.bind")
    assert bind.data["node"] == "n1" and bind.data["pod"] == "default/web-1"
    assert p.metadata.resource_version == "2"
