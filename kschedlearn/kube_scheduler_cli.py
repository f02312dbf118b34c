"""``kschedlearn kube-scheduler``: the v1.6.1 binary's ``main`` against a scenario's cluster.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go —
flags parsed by pflag (an error prints the message and the usage, exit status 2; ``--help``
prints the usage), glog lines on stderr stamped with the *simulated* clock. Kept apart from
``cli.py`` so that ``kschedlearn --help`` imports none of it (see ``cli.py``'s docstring for the
kschedlearn-only flags ``--scenario``, ``--duration``, ``--engine``, ``--serve-for``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

import attrs

from kschedlearn.cli import CLIError, UsageError, _load
from kschedlearn.cli_output import glog_line

if TYPE_CHECKING:
    from kschedlearn.trace import TraceEvent


def _positive_duration(flag: str, text: str) -> float:
    """A Go duration flag that must be > 0 (``60s``, ``1m30s``); UsageError otherwise."""
    from kschedlearn.apis.componentconfig.duration import DurationError, parse_duration

    try:
        seconds = parse_duration(text)
    except (DurationError, ValueError, OverflowError) as e:
        raise UsageError(f"{flag}: {e}") from e
    if not seconds > 0:
        raise UsageError(f"{flag}: expected a duration > 0 such as 60s, got {text!r}")
    from kschedlearn.scenarios.scenario import MAX_DURATION

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
    from kschedlearn.scenarios.scenario import SchedulerSpec
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


__all__ = ["cmd_kube_scheduler"]
