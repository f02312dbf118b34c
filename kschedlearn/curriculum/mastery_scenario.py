"""The mastery check's unseen scenarios: a cluster and a timeline generated from a seed.

Go: none — kschedlearn-only (issue 22 item 3). Two scenarios per seed, written as ordinary
scenario YAML and parsed by :func:`kschedlearn.scenarios.scenario.parse_scenario` (so they are
checked like any bundled file):

- the *journey*: one scheduler; three nodes of random sizes (one labelled ``disk: ssd``, one
  already running a pod); a pod to follow; a pod that asks for ``disk: ssd``; a pod whose first
  binding the API server refuses; a pod too big for every node until a bigger node joins; and
  last, a pod whose confirmation is held back by a stalled watch until its assumed copy
  expires;
- the *failover*: two or three replicas with leader election on, pods arriving before and after
  the leader is killed at a random moment.

Names, sizes and times all come from ``random.Random(seed)``: a re-rolled seed is a different
cluster with different answers. The answers themselves are never computed here — the mastery
check runs these scenarios (:mod:`kschedlearn.curriculum.mastery`).
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import yaml

from kschedlearn.scenarios.scenario import Scenario, parse_scenario

NODE_NAMES = ("ash", "birch", "cedar", "elm", "fir", "hazel", "larch", "maple", "oak", "pine", "rowan", "yew")
APP_NAMES = ("web", "api", "shop", "cart", "auth", "feed", "mail", "blog", "chat", "wiki")
REPLICA_NAMES = ("sched-a", "sched-b", "sched-c")


@attrs.frozen
class Roles:
    """Which generated object plays which part (the questions ask about them by role)."""

    follow: str
    ssd_pod: str
    ssd_node: str
    bind_fails: str
    big_pod: str
    big_node: str
    expires: str
    nodes: tuple[str, ...]


def _node(name: str, cpu: int, mem_gi: int, labels: dict[str, str] | None = None) -> dict[str, Any]:
    return {"kind": "Node", "apiVersion": "v1",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}},
            "status": {"capacity": {"cpu": str(cpu), "memory": f"{mem_gi}Gi", "pods": "110"},
                       "allocatable": {"cpu": str(cpu), "memory": f"{mem_gi}Gi", "pods": "110"},
                       "conditions": [{"type": "Ready", "status": "True"}]}}


def _pod(name: str, app: str, cpu_m: int, mem_mi: int, *, node: str = "",
         selector: dict[str, str] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": app, "image": "nginx:1.11", "resources": {
        "requests": {"cpu": f"{cpu_m}m", "memory": f"{mem_mi}Mi"}}}]}
    if node:
        spec["nodeName"] = node
    if selector:
        spec["nodeSelector"] = selector
    return {"kind": "Pod", "apiVersion": "v1",
            "metadata": {"name": name, "namespace": "default", "labels": {"app": app}}, "spec": spec}


def journey(seed: int) -> tuple[Scenario, Roles]:
    """The single-scheduler scenario of ``seed`` and who plays which part in it."""
    rng = random.Random(seed)
    names = sorted(rng.sample(NODE_NAMES, 4))
    nodes, big_node = names[:3], names[3]
    ssd_node = rng.choice(nodes)
    sizes = [(rng.choice((2, 4, 8)), rng.choice((4, 8, 16))) for _ in nodes]
    apps = rng.sample(APP_NAMES, 6)
    loaded = rng.choice(nodes)
    objects = [_node(n, cpu, mem, {"disk": "ssd"} if n == ssd_node else None) for n, (cpu, mem) in zip(nodes, sizes)]
    objects.append(_pod(f"{apps[0]}-0", apps[0], rng.choice((500, 1000)), 512, node=loaded))
    follow, ssd_pod, bind_fails = f"{apps[1]}-1", f"{apps[2]}-1", f"{apps[3]}-1"
    big_pod, expires = f"{apps[4]}-1", f"{apps[5]}-1"
    big_cpu = max(cpu for cpu, _ in sizes) * 1000 + 1000
    # the big pod retries at 10, 12, 16 and 24 s (back-off 1, 2, 4, 8 s from its first try at 9 s):
    # the node joins before one of them, and everything after 24 s is free for the expiry story
    t_big_node = rng.randint(2, 14)
    timeline: list[dict[str, Any]] = [
        {"at": 2, "create": _pod(follow, apps[1], rng.choice((250, 500, 750)), rng.choice((256, 512, 1024)))},
        {"at": 4, "create": _pod(ssd_pod, apps[2], 250, 256, selector={"disk": "ssd"})},
        {"at": 6, "fault": {"fail_next": {"verb": "bind", "resource": "pods", "name": bind_fails}}},
        {"at": 7, "create": _pod(bind_fails, apps[3], 250, 256)},
        {"at": 9, "create": _pod(big_pod, apps[4], big_cpu, 1024)},
        {"at": 9 + t_big_node, "create": _node(big_node, big_cpu // 1000 + 4, 32)},
    ]
    t_exp = 26 + rng.randint(0, 3)
    timeline += [
        {"at": t_exp, "fault": {"delay_next": {"verb": "bind", "resource": "pods", "seconds": 2}}},
        {"at": t_exp + 1, "create": _pod(expires, apps[5], 250, 256)},
        {"at": t_exp + 2, "fault": {"stall_watches": {"resource": "pods", "duration": 40}}},
    ]
    doc = {"name": f"mastery-journey-{seed}",
           "description": f"The mastery check's single-scheduler scenario for seed {seed} (generated).",
           "duration": t_exp + 50, "follow": f"default/{follow}",
           "schedulers": [{"name": "scheduler-0", "flags": ["--leader-elect=false"]}],
           "objects": objects, "timeline": timeline}
    roles = Roles(follow=f"default/{follow}", ssd_pod=f"default/{ssd_pod}", ssd_node=ssd_node,
                  bind_fails=f"default/{bind_fails}", big_pod=f"default/{big_pod}", big_node=big_node,
                  expires=f"default/{expires}", nodes=tuple(nodes))
    return parse_scenario(yaml.safe_dump(doc, sort_keys=False), source=f"mastery journey (seed {seed})"), roles


def failover(seed: int) -> tuple[Scenario, str]:
    """The leader-election scenario of ``seed`` and the replica killed in it."""
    rng = random.Random(seed * 7919 + 1)
    replicas = list(REPLICA_NAMES[: rng.choice((2, 3))])
    nodes = sorted(rng.sample(NODE_NAMES, 2))
    kill_at = rng.randint(12, 24)
    objects = [_node(n, 4, 8) for n in nodes]
    app = rng.choice(APP_NAMES)
    times = sorted(rng.sample(range(2, kill_at), 2)) + sorted(rng.sample(range(kill_at + 1, kill_at + 12), 2))
    timeline: list[dict[str, Any]] = [{"at": t, "create": _pod(f"{app}-{i + 1}", app, 250, 256)}
                                      for i, t in enumerate(times)]
    timeline.append({"at": kill_at, "kill": replicas[0]})
    timeline.sort(key=lambda a: a["at"])
    doc = {"name": f"mastery-failover-{seed}",
           "description": f"The mastery check's leader-election scenario for seed {seed} (generated).",
           "duration": kill_at + 40, "follow": f"default/{app}-{len(times)}",
           "schedulers": [{"name": r, "flags": []} for r in replicas],
           "objects": objects, "timeline": timeline}
    return parse_scenario(yaml.safe_dump(doc, sort_keys=False), source=f"mastery failover (seed {seed})"), replicas[0]


__all__ = ["Roles", "failover", "journey"]
