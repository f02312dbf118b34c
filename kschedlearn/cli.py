"""The ``kschedlearn`` command line: scenarios, narrated traces, rendered views, and the
kube-scheduler binary run against the embedded API server.

Go: none — kschedlearn-only, except ``kschedlearn kube-scheduler``, which behaves like the
v1.6.1 binary's ``main`` (https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go):
flags parsed by pflag (an error prints the message and the usage, exit status 2; ``--help``
prints the usage), glog lines on stderr — here stamped with the *simulated* clock.

Differs from Go: the binary's glog flags are reduced to ``--v`` (log verbosity, default 0);
``--scenario`` and ``--duration`` are kschedlearn's (which cluster to run against, for how long).

Commands::

    kschedlearn scenarios
    kschedlearn trace SCENARIO [--seed N] [--until STAGE] [--granularity stage|event|pod] [--links] [--json]
    kschedlearn render SCENARIO --view VIEW --step N -o out.svg [--renderer auto|wasm|dot|text]
    kschedlearn serve SCENARIO [--port N] [--kubeconfig PATH] [--speed X] [--from DUMP.yaml]
    kschedlearn kube-scheduler [1.6 flags] --scenario NAME [--duration 60s] [--v N] [--engine accelerated]
                               [--port N [--serve-for 30s]]

With an explicit ``--port`` the finished run's /healthz, /metrics and /configz are then served
by a real HTTP server on 127.0.0.1 (only) until Ctrl-C or for ``--serve-for``.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import warnings
from collections.abc import Sequence
from typing import Any, TextIO

import attrs

from kschedlearn.scenarios.scenario import (
    MAX_DURATION, Scenario, ScenarioError, SchedulerSpec, bundled_names, load_scenario,
)
from kschedlearn.cli_output import glog_line, json_line, narrate
from kschedlearn.scenarios.validate import suggest
from kschedlearn.trace import TraceEvent

class CLIError(Exception):
    """A user error the command reports in one line (exit status 1)."""


class UsageError(CLIError):
    """A bad command-line flag or argument, found before anything runs (exit status 2)."""


# -- commands --------------------------------------------------------------------------------

def _load(name: str) -> Scenario:
    try:
        return load_scenario(name)
    except ScenarioError as err:
        raise CLIError(str(err)) from err


def cmd_scenarios(args: argparse.Namespace, out: TextIO) -> int:
    for name in bundled_names():
        scenario = load_scenario(name)
        out.write(f"{name}\n")
        for line in textwrap.wrap(" ".join(scenario.description.split()), 88) or [""]:
            out.write(f"    {line}\n")
    return 0


def cmd_trace(args: argparse.Namespace, out: TextIO) -> int:
    from kschedlearn.simulation.simulation import GRANULARITIES, Simulation, SimulatedProcessCrashed, UnknownNameError

    scenario = _load(args.scenario)
    sim = Simulation(scenario=scenario, seed=args.seed, snapshots=False)
    if args.granularity not in GRANULARITIES:
        raise CLIError(f"--granularity: expected one of {', '.join(GRANULARITIES)}, got {args.granularity!r}")
    if args.granularity == "pod" and not sim.follow:
        raise CLIError(f"{scenario.source}: --granularity pod needs the scenario's 'follow' pod")
    if args.until is not None:
        try:
            sim.check_names(stage=args.until, where_from="--until")
        except UnknownNameError as err:
            raise CLIError(str(err)) from err
    with warnings.catch_warnings():
        # a crash is printed as its own trace line (process.crash), not as a Python warning
        warnings.simplefilter("ignore", SimulatedProcessCrashed)
        ev = sim.step(args.granularity)
        while ev is not None:
            out.write((json_line(ev) if args.json else narrate(ev, links=args.links)) + "\n")
            if args.until is not None and ev.stage == args.until:
                return 0
            ev = sim.step(args.granularity)
    if args.until is not None:
        from kschedlearn.trace.stages import CATALOGUE

        seen = {e.stage for e in sim.trace} | set(CATALOGUE)
        raise CLIError(f"stage {args.until!r} never happened in {scenario.name} (seed {args.seed})"
                       + (suggest(args.until, seen) if args.until not in seen else ""))
    return 0


def cmd_render(args: argparse.Namespace, out: TextIO) -> int:
    from kschedlearn.simulation.simulation import Simulation, SimulationError
    from kschedlearn.viz import VIEWS, RenderUnavailable

    if args.view not in VIEWS:
        raise UsageError(f"--view: unknown view {args.view!r}; choose one of {', '.join(VIEWS)}"
                         + suggest(args.view, VIEWS))
    if args.step < 0:
        raise UsageError(f"--step: event numbers start at 0, got {args.step}")
    _check_output(args.output)
    sim = Simulation(scenario=_load(args.scenario), seed=args.seed)
    try:
        ev = sim.goto(args.step)
    except SimulationError:
        ev = None
    if ev is None or ev.seq != args.step:
        raise CLIError(f"--step {args.step}: {sim.scenario.name} has only {len(sim.trace)} events (0..{len(sim.trace) - 1})")
    view = sim.show(args.view, renderer=args.renderer)
    try:
        text = view.dot() if args.output.lower().endswith(".dot") else view.svg()
    except RenderUnavailable as err:
        raise CLIError(f"--renderer {args.renderer}: {err}") from err
    if args.output == "-":
        out.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise CLIError(f"-o {args.output}: cannot write the file: {e.strerror or e}") from e
    return 0


def _check_output(path: str) -> None:
    """``-o PATH``: "-" or a file in a directory that exists (checked before the run)."""
    import os
    if path == "-":
        return
    if not path or path.endswith(("/", os.sep)):
        raise UsageError(f"-o: expected a file name, got {path!r}")
    if not os.path.isdir(folder := os.path.dirname(path) or "."):
        raise UsageError(f"-o {path}: the directory {folder!r} does not exist")
    if os.path.isdir(path):
        raise UsageError(f"-o {path}: is a directory; give a file name such as {os.path.join(path, 'view.svg')!r}")
    if (suffix := os.path.splitext(path)[1]).lower() not in ("", ".svg", ".dot"):  # .png would get SVG text
        raise UsageError(f"-o {path}: writes SVG (.svg) or Graphviz DOT (.dot), not {suffix!r}")


# -- kube-scheduler ------------------------------------------------------------------------

def _positive_duration(flag: str, text: str) -> float:
    """A Go duration flag that must be > 0 (``60s``, ``1m30s``); UsageError otherwise."""
    from kschedlearn.apis.componentconfig.duration import DurationError, parse_duration

    try:
        seconds = parse_duration(text)
    except (DurationError, ValueError, OverflowError) as e:
        raise UsageError(f"{flag}: {e}") from e
    if not seconds > 0:
        raise UsageError(f"{flag}: expected a duration > 0 such as 60s, got {text!r}")
    if flag == "--duration" and seconds > MAX_DURATION:
        raise UsageError(f"{flag}: {text!r} is more than kschedlearn simulates ({MAX_DURATION:g}s, 24h of virtual time)")
    return seconds


def _take_option(argv: list[str], names: tuple[str, ...]) -> str | None:
    """Remove ``--name VALUE`` / ``--name=VALUE`` (last one wins) from ``argv``; returns VALUE."""
    value = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        for name in names:
            if arg == name:
                if i + 1 >= len(argv):
                    raise UsageError(f"{name}: needs a value")
                value = argv[i + 1]
                del argv[i:i + 2]
                break
            if arg.startswith(name + "="):
                value = arg[len(name) + 1:]
                del argv[i]
                break
        else:
            i += 1
    return value


def cmd_kube_scheduler(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Run the kube-scheduler binary against a scenario's cluster, printing glog lines."""
    from kschedlearn.cmd.kube_scheduler import main_flags
    from kschedlearn.cmd.kube_scheduler.app.options import options
    from kschedlearn.simulation.world import build_world

    rest = list(argv)
    if any(a in ("-h", "--help") for a in rest):
        out.write(main_flags.usage() + "\n")
        return 0
    name = _take_option(rest, ("--scenario",))
    duration_text = _take_option(rest, ("--duration",)) or "60s"
    verbosity_text = _take_option(rest, ("--v", "-v")) or "0"
    seed_text = _take_option(rest, ("--seed",)) or "0"
    serve_for_text = _take_option(rest, ("--serve-for",))
    engine = _take_option(rest, ("--engine",)) or "mirrored"
    if engine not in ("mirrored", "accelerated"):
        raise CLIError(f"--engine: expected mirrored or accelerated, got {engine!r}")
    try:  # the binary's own check of its flags, before anything runs
        parsed, extra = main_flags.parse_command_line(list(rest))
    except options.FlagError as e:
        err.write(f"{e.message}\n{e.usage or main_flags.usage()}\n")
        return 2
    printed = extra.version_requested()
    if printed is not None:  # Go: verflag.PrintAndExitIfRequested
        out.write(printed + "\n")
        return 0
    if name is None:
        raise UsageError("kube-scheduler: --scenario NAME is required (see `kschedlearn scenarios`)")
    duration = _positive_duration("--duration", duration_text)
    if serve_for_text is not None:
        _positive_duration("--serve-for", serve_for_text)
    if not verbosity_text.isdigit() or len(verbosity_text) > 3:
        raise UsageError(f"--v: expected a log level (0, 1, 2, ...), got {verbosity_text!r}")
    if not seed_text.lstrip("-").isdigit() or len(seed_text) > 20:
        raise UsageError(f"--seed: expected a whole number, got {seed_text!r}")
    if not 0 <= parsed.port <= 65535:
        raise UsageError(f"--port: expected a TCP port 0..65535, got {parsed.port}")
    scenario = _load(name)
    replica = scenario.schedulers[0].name if scenario.schedulers else "scheduler-0"
    scenario = attrs.evolve(scenario, duration=duration, schedulers=(SchedulerSpec(replica, tuple(rest)),))
    world = build_world(scenario, int(seed_text), snapshots=False, log_verbosity=int(verbosity_text), engine=engine)

    def printer(ev: TraceEvent) -> None:
        if ev.stage == "log" and ev.process == replica:
            err.write(glog_line(ev) + "\n")

    world.tracer.listeners.append(printer)
    world.run(None)
    process = world.replicas[replica].process
    if not process.alive:
        err.write(f"kube-scheduler exited: {process.exit_reason}\n")
        return 255  # glog.Fatalf's exit status
    if any(a == "--port" or a.startswith("--port=") for a in rest):
        return _serve_http(world.replicas[replica].handles.http, parsed.port, serve_for_text, err)
    return 0


def _serve_http(endpoints: Any, port: int, serve_for_text: str | None, err: TextIO) -> int:
    """With an explicit ``--port``: serve /healthz, /metrics and /configz of the finished run on
    a real HTTP server bound to 127.0.0.1 (never 0.0.0.0), until Ctrl-C or ``--serve-for``."""
    import time

    from kschedlearn.apis.componentconfig.duration import DurationError, parse_duration
    from kschedlearn.cmd.kube_scheduler.app.server import serve_real_http

    try:
        limit = parse_duration(serve_for_text) if serve_for_text is not None else None
    except (DurationError, ValueError) as e:
        raise CLIError(f"--serve-for: {e}") from e
    try:
        httpd = serve_real_http(endpoints, port)
    except OSError as e:
        raise CLIError(f"--port={port}: cannot listen on 127.0.0.1:{port}: {e}") from e
    host, bound = httpd.server_address[:2]
    err.write(f"serving http://{host}:{bound}/healthz, /metrics, /configz (Ctrl-C to stop)\n")
    err.flush()
    try:
        if limit is None:
            while True:
                time.sleep(3600)
        else:
            time.sleep(limit)
    except KeyboardInterrupt:
        pass
    finally:
        httpd.shutdown()
    return 0


# -- entry point ---------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    from kschedlearn.serve_cli import seed_arg

    parser = argparse.ArgumentParser(prog="kschedlearn", description="Learn the Kubernetes v1.6.1 scheduler by running it.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("scenarios", help="list the bundled scenarios with their descriptions")

    trace = sub.add_parser("trace", help="print a scenario's narrated trace")
    trace.add_argument("scenario", help="a bundled scenario's name or a scenario YAML file")
    trace.add_argument("--seed", type=seed_arg, default=0)
    trace.add_argument("--until", metavar="STAGE", help="stop after the first event of this stage")
    trace.add_argument("--granularity", default="stage", choices=("stage", "event", "pod"))
    trace.add_argument("--links", action="store_true", help="end each line with the Go source link of the code running")
    trace.add_argument("--json", action="store_true", help="one JSON object per line")

    render = sub.add_parser("render", help="draw a view of a scenario at an event number")
    render.add_argument("scenario")
    render.add_argument("--seed", type=seed_arg, default=0)
    render.add_argument("--view", required=True, help="pipeline, startup, cache, decision, pod_states, leader_election")
    render.add_argument("--step", type=int, required=True, help="the event number (sequence) to draw")
    render.add_argument("-o", "--output", required=True, help="the SVG file to write (.dot writes DOT; - for stdout)")
    render.add_argument("--renderer", default="auto", choices=("auto", "wasm", "dot", "text"))

    from kschedlearn.serve_cli import add_serve_parser

    add_serve_parser(sub)
    sub.add_parser("kube-scheduler", add_help=False,
                   help="run kube-scheduler (1.6 flags) against a scenario: --scenario NAME --duration 60s")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``kschedlearn`` console script; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    out, err = sys.stdout, sys.stderr
    try:
        if args_list and args_list[0] == "kube-scheduler":
            return cmd_kube_scheduler(args_list[1:], out, err)
        args = build_parser().parse_args(args_list)
        from kschedlearn.serve_cli import cmd_serve

        command: Any = {"scenarios": cmd_scenarios, "trace": cmd_trace, "render": cmd_render,
                        "serve": cmd_serve}[args.command]
        return int(command(args, out))
    except UsageError as e:
        err.write(f"kschedlearn: error: {e}\n")
        return 2
    except CLIError as e:
        err.write(f"kschedlearn: error: {e}\n")
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
