"""``sim.serve()`` driven by the official Kubernetes Python client, as a notebook user would.

Go: none — kschedlearn-only. What it pins: requests are answered on the simulation's thread,
writes become recorded external actions (replays repeat them, forks drop them), a client's
watch sees ADDED then MODIFIED with ``spec.nodeName`` as the learner steps, everything listens
on 127.0.0.1 only, and the token is required.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from kschedlearn import Simulation

kubernetes = pytest.importorskip("kubernetes", reason="the official Kubernetes Python client is a dev dependency")
from kubernetes import client as k8s_client  # noqa: E402
from kubernetes import config as k8s_config  # noqa: E402
from kubernetes import watch as k8s_watch  # noqa: E402

POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "extra", "labels": {"app": "extra"}},
       "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m"}}}]}}


def in_thread(fn: Callable[[], Any]) -> Future[Any]:
    fut: Future[Any] = Future()

    def run() -> None:
        try:
            fut.set_result(fn())
        except BaseException as err:  # noqa: BLE001 - handed to the test through the future
            fut.set_exception(err)

    threading.Thread(target=run, daemon=True).start()
    return fut


def pump_until(sim: Simulation, done: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the client never got its answer"
        sim.serve_pending()
        time.sleep(0.005)


def answer(sim: Simulation, fn: Callable[[], Any]) -> Any:
    fut = in_thread(fn)
    pump_until(sim, fut.done)
    return fut.result()


def core_v1(kubeconfig: Path) -> Any:
    api_client = k8s_config.new_client_from_config(config_file=str(kubeconfig))
    return k8s_client.CoreV1Api(api_client)


def run_session(tmp_path: Path) -> tuple[Simulation, list[tuple[str, str, str]], list[bytes], Any]:
    """The notebook story: serve, watch, apply a pod, step it to bound."""
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.start()
    serving = sim.serve(kubeconfig=tmp_path / "kubeconfig")
    v1 = core_v1(serving.kubeconfig)
    rv = answer(sim, lambda: v1.list_namespaced_pod("default").metadata.resource_version)
    seen: list[tuple[str, str, str]] = []
    w = k8s_watch.Watch()

    def watch_pods() -> None:
        for ev in w.stream(v1.list_namespaced_pod, "default", resource_version=rv, _request_timeout=30):
            seen.append((ev["type"], ev["object"].metadata.name, ev["object"].spec.node_name or ""))
            if ev["object"].metadata.name == "extra" and ev["object"].spec.node_name:
                w.stop()
                return

    watcher = in_thread(watch_pods)
    pump_until(sim, lambda: serving.hub is not None and bool(serving.hub.streams))
    stream = serving.hub.streams[0][0]
    created = answer(sim, lambda: v1.create_namespaced_pod("default", POD))
    assert created.metadata.name == "extra" and not created.spec.node_name
    stages = []
    for stage in ("scheduleOne.pop", "assume", "bind"):
        ev = sim.run_until(stage, pod="default/extra")
        assert ev is not None, stage
        stages.append(ev.stage)
    sim.run_until("apiserver.bind")
    pump_until(sim, watcher.done)
    watcher.result()
    return sim, seen, list(stream.sent), serving


def test_a_client_pod_goes_through_the_queues_and_the_watch_sees_the_binding(tmp_path: Path) -> None:
    sim, seen, _, serving = run_session(tmp_path)
    try:
        extra = [s for s in seen if s[1] == "extra"]
        assert extra[0] == ("ADDED", "extra", "")
        assert extra[-1][0] == "MODIFIED" and extra[-1][2]
        node = extra[-1][2]
        assert any(e.stage == "assume" and "default/extra" in e.message and node in e.message for e in sim.trace)
        injected = [e for e in sim.trace if e.stage == "inject"]
        assert [e.data["code"] for e in injected] == [201]
        assert "POST /api/v1/namespaces/default/pods" in injected[0].message
    finally:
        serving.stop()


def test_back_then_forward_and_a_replay_are_byte_identical(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    sim1, _, lines1, serving1 = run_session(tmp_path / "a")
    serving1.stop()
    text1 = sim1.export_json(with_snapshots=True)
    end = sim1.cursor
    sim1.back(5)
    while sim1.cursor < end:
        sim1.step("event")
    assert sim1.export_json(with_snapshots=True) == text1
    # a second session with the same requests at the same points: same trace, same watch bytes
    (tmp_path / "b").mkdir()
    sim2, _, lines2, serving2 = run_session(tmp_path / "b")
    serving2.stop()
    assert sim2.export_json(with_snapshots=True) == text1
    assert lines2 == lines1
    # a replay from scratch (rewinding before the request, then forward) repeats the request
    sim1.goto(0)
    sim1.inject.jump_clock(1.0)  # forks at event 0: the client's request came later, so it is gone
    assert all(e.stage != "inject" or "POST" not in e.message for e in sim1.trace)


def test_token_required_and_loopback_only(tmp_path: Path) -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    serving = sim.serve(kubeconfig=tmp_path / "k")
    try:
        host, port = serving.server.address
        assert host == "127.0.0.1"
        assert serving.server._httpd.server_address[0] == "127.0.0.1"
        ctx = serving.client_ssl_context()

        def get(token: str | None, path: str = "/api/v1/nodes") -> tuple[int, dict[str, Any]]:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            req = urllib.request.Request(serving.url + path, headers=headers)
            try:
                with urllib.request.urlopen(req, context=ctx, timeout=10) as resp:
                    return resp.status, json.loads(resp.read())
            except urllib.error.HTTPError as err:
                return err.code, json.loads(err.read())

        assert answer(sim, lambda: get(None))[0] == 401
        code, body = answer(sim, lambda: get("wrong"))
        assert (code, body["reason"]) == (401, "Unauthorized")
        code, body = answer(sim, lambda: get(serving.token))
        assert code == 200 and [n["metadata"]["name"] for n in body["items"]] == ["node-1", "node-2", "node-3"]
        assert answer(sim, lambda: get(serving.token, "/api/v1/namespaces/default/pods/none"))[0] == 404
        kubeconfig = serving.kubeconfig.read_text()
        assert f"server: https://127.0.0.1:{port}" in kubeconfig and serving.token in kubeconfig
        assert serving.kubeconfig.stat().st_mode & 0o077 == 0
        assert serving.kubectl == f"kubectl --kubeconfig {serving.kubeconfig}"
    finally:
        serving.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(serving.url + "/healthz", context=ctx, timeout=2)


def test_bad_serve_arguments_are_clear(tmp_path: Path) -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    with pytest.raises(ValueError, match="port must be an integer from 0 to 65535, got 99999"):
        sim.serve(99999)
    with pytest.raises(ValueError, match="cannot write the kubeconfig '/missing/dir/k'"):
        sim.serve(kubeconfig="/missing/dir/k")
    assert sim.step() is not None  # the session goes on


def test_the_explorer_says_where_it_is_served(tmp_path: Path) -> None:
    from kschedlearn.widgets.explorer import Explorer

    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.start()
    ex = Explorer(sim)
    assert "serving on" not in ex.static_html()
    serving = sim.serve(kubeconfig=tmp_path / "k")
    try:
        sim.step()
        ex2 = Explorer(sim)
        assert f"serving on 127.0.0.1:{serving.port}" in ex2.static_html()
    finally:
        serving.stop()
    assert "serving on" not in Explorer(sim).static_html()
