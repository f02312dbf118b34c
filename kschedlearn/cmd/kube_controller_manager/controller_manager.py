"""``main`` of kube-controller-manager: defaults, flags, then ``app.Run``.

Go: cmd/kube-controller-manager/controller-manager.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/controller-manager.go#L44-L58

Differs from Go: ``main`` takes its arguments and the embedded API server as parameters and
runs inside a goroutine of the process the simulation made for it. The command line carries
the CM's own flags (those of the mirrored controllers, :mod:`.app.options.options`), glog's,
``--log-flush-frequency`` and ``--version`` (the same flag plumbing as kube-scheduler's
:mod:`kschedlearn.cmd.kube_scheduler.main_flags`). A flag error raises
:class:`~kschedlearn.cmd.kube_scheduler.app.options.pflag.FlagError`; an error of ``app.Run``
ends the process with exit status 1, its message as Go prints it to stderr.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.cmd.kube_controller_manager.app import controllermanager as app
from kschedlearn.cmd.kube_controller_manager.app.options import options
from kschedlearn.cmd.kube_scheduler.app.options.pflag import FlagSet
from kschedlearn.cmd.kube_scheduler.main_flags import MainFlags
from kschedlearn.sim.runtime import Process, current_goroutine
from kschedlearn.trace.glog_flags import go_flag_values
from kschedlearn.trace.gofmt import sprintf


def command_line(s: options.CMServer, mf: MainFlags, name: str = "kube-controller-manager") -> FlagSet:
    """Every flag of the binary: the logs and verflag package flags, the CM's
    (``s.AddFlags(pflag.CommandLine, KnownControllers(), ControllersDisabledByDefault.List())``),
    then glog's as ``flag.InitFlags`` adds them. Go: controller-manager.go#L47-L49."""
    fs = FlagSet(name=name)
    fs.var(mf.log_flush_frequency, "log-flush-frequency", "Maximum number of seconds between log flushes")
    fs.var(mf.version, "version", "Print version information and quit")
    fs.lookup("version").no_opt_def_val = "true"
    s.add_flags(fs, app.known_controllers(), sorted(app.CONTROLLERS_DISABLED_BY_DEFAULT))
    mf.logging.to_stderr = True
    for go_name, value, usage in go_flag_values(mf.logging):
        fs.add_go_flag(go_name, value, usage)
    return fs


def parse_command_line(argv: Sequence[str]) -> tuple[options.CMServer, MainFlags]:
    """``NewCMServer``, ``AddFlags``, ``flag.InitFlags``: (the settings, main's own flags).

    Go: the first statements of ``main`` — controller-manager.go#L44-L58."""
    s = options.new_cm_server()
    mf = MainFlags()
    fs = command_line(s, mf)
    fs.parse(list(argv))
    glog_names = {fs.lookup(go_name).name for go_name, _, _ in go_flag_values(mf.logging)}
    mf.glog_set = any(fs.formal[n].changed for n in glog_names)
    return s, mf


def main(argv: Sequence[str], *, server: Any, hostname: str = "kube-controller-manager") -> None:
    """Go: ``main`` — controller-manager.go#L44-L58."""
    s, mf = parse_command_line(argv)
    if mf.glog_set:
        _own_process().glog = mf.logging  # logs.InitLogs: glog now answers for this process
    printed = mf.version_requested()
    if printed is not None:
        _exit(0, stdout=printed + "\n")
        return
    try:
        app.run(s, server, hostname=hostname)
    except PANICS:
        raise
    except Exception as err:  # noqa: BLE001 - Go: if err := app.Run(s); err != nil
        _exit(1, stderr=sprintf("%v\n", err))


def _own_process() -> Process:
    g = current_goroutine()
    assert g is not None, "main runs in a goroutine of its process"
    return g.process


def _exit(code: int, *, stdout: str = "", stderr: str = "") -> None:
    """Go: ``os.Exit(code)`` after printing: the process ends (its output kept as the reason)."""
    proc = _own_process()
    proc.runtime.kill_process(proc, f"exit status {code}" + (f": {stderr.strip()}" if stderr else "")
                              + (f" ({stdout.strip()})" if stdout else ""))


__all__ = ["command_line", "main", "parse_command_line"]
