"""``kschedlearn serve``: run a scenario with its virtual clock following the wall clock, for kubectl.

Go: none — kschedlearn-only. The scenario runs without end, its virtual time advancing at
``--speed`` times wall time; the embedded API server is served on 127.0.0.1 (see
:mod:`kschedlearn.simulation.serving`) and a kubeconfig is written for kubectl. Ctrl-C (or
``--serve-for``) stops it.
"""

from __future__ import annotations

import argparse
import math
import threading
import time
from typing import Any, TextIO

import attrs

#: how often the loop advances the simulation when no request wakes it (wall seconds)
TICK = 0.02
#: ``--speed`` bounds: from a thousandth of the wall clock to a virtual day in under 90 s. Faster,
#: a step of the loop (every 20 ms) asks the simulation for more virtual time than it can run in
#: that time, so the served cluster stops answering kubectl between steps (1e308 used to reach
#: ``run_for``'s own limit, Go's longest time.Duration, and end in a traceback).
MIN_SPEED, MAX_SPEED = 1e-3, 1e3
#: the longest wall-clock gap one step of the loop catches up (a suspended laptop, a debugger):
#: after a longer one the virtual clock lags behind instead of running minutes at once
MAX_CATCH_UP = 1.0


def _positive_speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid speed {text!r}: not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"invalid speed {text!r}: must be a finite number > 0")
    if not MIN_SPEED <= value <= MAX_SPEED:
        raise argparse.ArgumentTypeError(
            f"invalid speed {text!r}: must be between {MIN_SPEED:g} and {MAX_SPEED:,.0f} virtual seconds per "
            "wall second")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port {text!r}: not an integer") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"invalid port {text!r}: must be 0 (any free port) to 65535")
    return value


def seed_arg(text: str) -> int:
    """``--seed``: a whole number that fits Go's int64 (argparse turns the error into a usage error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not -(2**63) <= value < 2**63:
        raise argparse.ArgumentTypeError(f"{text!r} does not fit a 64-bit integer")
    return value


def add_serve_parser(sub: Any) -> None:
    """Register the ``serve`` subcommand on ``kschedlearn``'s parser."""
    p = sub.add_parser("serve", help="serve a running scenario to kubectl on 127.0.0.1 (Ctrl-C to stop)")
    p.add_argument("scenario", nargs="?", help="a bundled scenario's name or a scenario YAML file")
    p.add_argument("--from", dest="dump", metavar="DUMP.yaml",
                   help="a `kubectl get ... -o yaml` dump of a real cluster to replay instead of a scenario")
    p.add_argument("--seed", type=seed_arg, default=0)
    p.add_argument("--port", type=_port, default=0, help="the port on 127.0.0.1 (default: any free port)")
    p.add_argument("--kubeconfig", default="kschedlearn.kubeconfig", help="where to write the kubeconfig")
    p.add_argument("--speed", type=_positive_speed, default=1.0,
                   help=f"virtual seconds per wall second, {MIN_SPEED:g} to {MAX_SPEED:,.0f} (default 1)")
    p.add_argument("--serve-for", type=float, default=None, metavar="SECONDS",
                   help="stop after this many wall seconds (default: until Ctrl-C)")
    p.add_argument("--without-scheduler", action="store_true",
                   help="run the cluster without the scenario's simulated kube-scheduler replicas, "
                        "for a scheduler outside (e.g. the real 1.6 kube-scheduler) to do the scheduling")


def _simulation(args: argparse.Namespace) -> Any:
    from kschedlearn import Simulation
    from kschedlearn.cli import CLIError, _load

    if (args.scenario is None) == (args.dump is None):
        raise CLIError("serve: give a SCENARIO or --from DUMP.yaml (one of them)")
    if args.dump is not None:
        from kschedlearn.scenarios.scenario import ScenarioError

        try:
            sim = Simulation.from_manifests(args.dump, seed=args.seed, snapshots=False)
        except ScenarioError as err:
            raise CLIError(f"--from {args.dump}: {err}") from None
    else:
        sim = Simulation(scenario=_load(args.scenario), seed=args.seed, snapshots=False)
    # a served cluster runs until stopped, not for the scenario's duration
    sim.scenario = attrs.evolve(sim.scenario, duration=math.inf)
    if getattr(args, "without_scheduler", False):
        if any(a.kind == "kill" for a in sim.scenario.timeline):
            raise CLIError("serve --without-scheduler: the scenario's timeline kills a scheduler replica")
        sim.scenario = attrs.evolve(sim.scenario, schedulers=())
    return sim


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the loop: answer requests, advance virtual time by ``speed`` × elapsed wall time."""
    from kschedlearn.cli import CLIError
    from kschedlearn.simulation.checks import SimulationError

    if args.serve_for is not None and not (math.isfinite(args.serve_for) and args.serve_for > 0):
        raise CLIError(f"--serve-for: must be a finite number of seconds > 0, got {args.serve_for!r}")
    sim = _simulation(args)
    if sim.import_report is not None:  # a replayed dump: what was changed, skipped and not modelled, once
        out.write(sim.import_report.summary() + "\n")
    try:
        serving = sim.serve(port=args.port, kubeconfig=args.kubeconfig)
    except (OSError, ValueError) as err:
        raise CLIError(str(err)) from None
    wake = threading.Event()
    serving.server.wake = wake.set
    out.write(f"serving {sim.scenario.name!r} on {serving.url} at {args.speed:g}x (Ctrl-C to stop)\n"
              f"  {serving.kubectl} get pods -o wide\n")
    out.flush()
    start = last = time.monotonic()
    seen = len(sim.trace)
    try:
        while args.serve_for is None or time.monotonic() - start < args.serve_for:
            wake.wait(TICK)
            wake.clear()
            now = time.monotonic()
            sim.run_for(min(now - last, MAX_CATCH_UP) * args.speed)
            last = now
            seen = report_crashes(sim, min(seen, len(sim.trace)), out)
    except KeyboardInterrupt:
        pass
    except SimulationError as err:  # e.g. the virtual clock reached the end of what it can count
        raise CLIError(f"serve: the simulation stopped at t={sim.time:.3f}s: {err}") from None
    finally:
        serving.stop()
    out.write(f"stopped at t={sim.time:.3f}s after {len(sim.trace)} events\n")
    return 0


def report_crashes(sim: Any, start: int, out: TextIO) -> int:
    """Print every simulated process that crashed at events ``start`` .. the last (a client's write
    can kill the scheduler, e.g. 1.6's "Schedulercache is corrupted"); returns the next start."""
    from kschedlearn.simulation.checks import crashes_in

    for crash in crashes_in(sim.trace, start, len(sim.trace) - 1):
        out.write(f"crash: {crash.describe()}\n")
        out.flush()
    return len(sim.trace)


__all__ = ["add_serve_parser", "cmd_serve", "report_crashes"]
