"""Shared helpers for the embedded API server tests."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.api.v1 import Binding, Container, ContainerPort, ObjectMeta, ObjectReference, Pod, PodSpec, PodStatus
from kschedlearn.apimachinery.watch import Event
from kschedlearn.apiserver import APIServer, Clientset, new_for_server
from kschedlearn.sim import Runtime


def make_pod(name: str, ns: str = "default", node: str = "", labels: dict[str, str] | None = None,
             phase: str = "", **meta: Any) -> Pod:
    return Pod(
        metadata=ObjectMeta(name=name, namespace=ns, labels=labels or {}, **meta),
        spec=PodSpec(node_name=node, containers=(Container(name="c", ports=(ContainerPort(container_port=80, protocol=""),)),)),
        status=PodStatus(phase=phase),
    )


def make_binding(name: str, node: str, ns: str = "default", annotations: dict[str, str] | None = None) -> Binding:
    return Binding(metadata=ObjectMeta(name=name, namespace=ns, annotations=annotations or {}),
                   target=ObjectReference(kind="Node", name=node))


@attrs.define(eq=False)
class Collector:
    """Receives a watch's events in a goroutine; ``closed`` once the channel closes."""

    events: list[Event] = attrs.field(factory=list)
    closed: bool = False

    def types(self) -> list[tuple[str, str]]:
        return [(e.type, getattr(e.object.metadata, "name", "") if e.type != "ERROR" else "")
                for e in self.events]


def collect(rt: Runtime, w: Any) -> Collector:
    box = Collector()

    def loop() -> None:
        while True:
            ev, ok = w.result_chan().recv()
            if not ok:
                box.closed = True
                return
            box.events.append(ev)

    rt.go(loop, name="collector", process=rt.new_process("client"))
    return box


def settle(rt: Runtime) -> None:
    """Run everything ready now, without advancing the virtual clock."""
    rt.run(until=rt.now)


@pytest.fixture
def rt() -> Runtime:
    return Runtime(seed=1)


@pytest.fixture
def server(rt: Runtime) -> APIServer:
    return APIServer(rt)


@pytest.fixture
def client(server: APIServer) -> Clientset:
    return new_for_server(server)


@attrs.frozen
class Helpers:
    make_pod: Any = staticmethod(make_pod)
    make_binding: Any = staticmethod(make_binding)
    collect: Any = staticmethod(collect)
    settle: Any = staticmethod(settle)


@pytest.fixture(scope="session")
def h() -> Helpers:
    """The helper functions above (test modules cannot import conftest under importlib mode)."""
    return Helpers()
