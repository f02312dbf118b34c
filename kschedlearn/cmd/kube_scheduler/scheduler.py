"""``main`` of kube-scheduler: defaults, flags, logs, ``--version``, then ``app.Run``.

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

from collections.abc import Sequence
from typing import Any

from kschedlearn.cmd.kube_scheduler import main_flags
from kschedlearn.cmd.kube_scheduler.app import server as app
from kschedlearn.cmd.kube_scheduler.app.options import options
from kschedlearn.trace import glog


def main(argv: Sequence[str], *, server: Any, hostname: str = "scheduler-0", registry: Any = None) -> None:
    """Go: func main
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go#L30-L43

    Differs from Go: glog's, logs' and verflag's package variables are one ``MainFlags`` and
    ``pflag.CommandLine`` one flag set per command line; ``registry`` is the plugin registry of
    this replica (None: the default one).
    """
    s = options.new_scheduler_server()
    mf = main_flags.MainFlags()
    command_line = main_flags.new_command_line(mf)
    s.add_flags(command_line)

    main_flags.init_flags(command_line, mf, argv)
    main_flags.init_logs(mf)

    main_flags.print_and_exit_if_requested(mf)

    try:
        app.run(s, server, hostname=hostname, registry=registry)
    except app.ConfigError as err:
        glog.fatalf("scheduler app failed to run: %v", err)
