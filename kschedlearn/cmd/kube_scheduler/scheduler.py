"""``main`` of kube-scheduler: defaults, flags, then ``app.Run``.

Go: plugin/cmd/kube-scheduler/scheduler.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go#L30-L43

Differs from Go: ``main`` takes its arguments and the embedded API server as parameters (a
simulation runs several replicas side by side) and runs inside a goroutine of the replica's
process. A flag error raises :class:`FlagError` (the command line prints it and exits 2, as
pflag does); an error of ``app.Run`` ends the process through ``glog.fatalf`` with 1.6's
``scheduler app failed to run: %v``.

The command line takes every flag the 1.6 binary takes, glog's (``--v``, ``-v``, ``--vmodule``,
``--logtostderr``, ...), ``--log-flush-frequency`` and ``--version`` included
(:mod:`kschedlearn.cmd.kube_scheduler.main_flags`). Differs from Go: a replica whose command
line sets no glog flag records ``V(n)`` lines up to the simulation's ``log_verbosity`` (4 by
default, for teaching) instead of Go's default ``--v=0``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kschedlearn.cmd.kube_scheduler.app import server as app
from kschedlearn.cmd.kube_scheduler import main_flags
from kschedlearn.cmd.kube_scheduler.app.options import options
from kschedlearn.sim.runtime import Process, current_goroutine
from kschedlearn.trace import emit, glog


def main(
    argv: Sequence[str],
    *,
    server: Any,
    hostname: str = "scheduler-0",
    handles: app.RunningScheduler | None = None,
    on_created: Callable[[app.RunningScheduler], None] | None = None,
    registry: Any = None,
) -> None:
    """Go: main() — ``NewSchedulerServer``, ``AddFlags`` + parse, ``app.Run(s)``."""
    emit("main", "kube-scheduler " + " ".join(argv))
    s = options.new_scheduler_server()
    emit("NewSchedulerServer", "defaults applied; leader-elect forced to true",
         data={"leader_elect": s.leader_election.leader_elect})
    s, mf = main_flags.parse_command_line(list(argv), s)
    if mf.glog_set:
        _own_process().glog = mf.logging  # logs.InitLogs: glog now answers for this process
    printed = mf.version_requested()
    if printed is not None:
        _print_and_exit(printed)
        return
    if handles is not None:
        handles.s = s
    try:
        app.run(s, server, hostname=hostname, handles=handles, on_created=on_created, registry=registry)
    except app.ConfigError as err:
        glog.fatalf("scheduler app failed to run: %v", err)


def _own_process() -> Process:
    g = current_goroutine()
    assert g is not None, "main runs in a goroutine of its replica's process"
    return g.process


def _print_and_exit(line: str) -> None:
    """Go: verflag.PrintAndExitIfRequested -- print the version to stdout and ``os.Exit(0)``."""
    proc = _own_process()
    emit("process.exit", line, data={"stdout": line + "\n", "exit_code": 0})
    proc.runtime.kill_process(proc, "exit status 0")
