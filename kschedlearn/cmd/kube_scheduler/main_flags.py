"""The flags kube-scheduler's ``main`` adds to the scheduler's own: glog's, ``--log-flush-frequency``
and ``--version``.

Go: ``main`` calls ``s.AddFlags(pflag.CommandLine)`` and then ``flag.InitFlags()``, which sets the
``_``→``-`` normalisation, copies Go's flag set (glog's flags) onto pflag's and parses
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/util/flag/flags.go#L46-L51
Two more flags exist before ``main`` runs, registered by package variables: the logs package's
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/util/logs/logs.go#L29-L29
(whose ``init`` also turns ``logtostderr`` on) and verflag's
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/version/verflag/verflag.go#L88-L90

kschedlearn-only module (Go spreads this over three packages; only their flags matter here).
Differs from Go: the flags live on one flag set per command line, not on the process-global
``pflag.CommandLine``, because several replicas run in one Python process.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from kschedlearn.apis.componentconfig.duration import format_duration
from kschedlearn.cmd.kube_scheduler.app.options import options
from kschedlearn.cmd.kube_scheduler.app.options.pflag import FlagSet, _duration, parse_bool
from kschedlearn.sim.runtime import current_goroutine, exit_process
from kschedlearn.trace.glog_flags import Logging, go_flag_values

#: What ``kube-scheduler --version`` prints (Go: ``fmt.Printf("Kubernetes %s\n", version.Get())``).
VERSION_LINE = "Kubernetes v1.6.1"
#: ``--version=raw`` (Go: ``fmt.Printf("%#v\n", version.Get())`` of the v1.6.1 release build).
VERSION_RAW = (
    'version.Info{Major:"1", Minor:"6", GitVersion:"v1.6.1", '
    'GitCommit:"b0b7a323cc5a4a2019b2e9520c21c7830b7f708e", GitTreeState:"clean", '
    'BuildDate:"2017-04-03T20:33:27Z", GoVersion:"go1.7.5", Compiler:"gc", Platform:"linux/amd64"}'
)


@attrs.define(eq=False)
class VersionValue:
    """Go: verflag's ``versionValue`` -- ``false``, ``true`` or ``raw``.

    Go: (*versionValue).Set
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/version/verflag/verflag.go#L49-L61
    """

    value: str = "false"

    def set(self, s: str) -> None:
        """``raw``, or a bool as ``strconv.ParseBool`` reads it."""
        if s == "raw":
            self.value = "raw"
            return
        try:
            self.value = "true" if parse_bool(s) else "false"
        except ValueError:
            self.value = "false"  # Go stores false before it returns ParseBool's error
            raise

    def string(self) -> str:
        return self.value

    def type(self) -> str:
        return "version"


@attrs.define(eq=False)
class _FlushFrequency:
    """``--log-flush-frequency`` (a pflag duration; glog's flush period, nothing to flush here)."""

    seconds: float = 5.0

    def set(self, s: str) -> None:
        self.seconds = _duration(s)

    def string(self) -> str:
        return format_duration(self.seconds)

    def type(self) -> str:
        return "duration"


@attrs.define(eq=False)
class MainFlags:
    """What ``main``'s extra flags hold once parsed.

    kschedlearn-only: in Go these are package variables of glog, logs and verflag.
    """

    logging: Logging = attrs.field(factory=Logging)
    version: VersionValue = attrs.field(factory=VersionValue)
    log_flush_frequency: _FlushFrequency = attrs.field(factory=_FlushFrequency)
    #: True when the command line set any glog flag (then it governs the process's V(n) lines).
    glog_set: bool = False

    def version_requested(self) -> str | None:
        """Go: verflag.PrintAndExitIfRequested -- the line to print, or None to go on."""
        if self.version.value == "raw":
            return VERSION_RAW
        if self.version.value == "true":
            return VERSION_LINE
        return None


def new_command_line(mf: MainFlags, name: str = "kube-scheduler") -> FlagSet:
    """``pflag.CommandLine`` as it stands when ``main`` starts: the flags the logs and verflag
    packages register from their package variables (and the logs package's ``init``, which turns
    glog's ``logtostderr`` on).

    Go: logs.go's ``logFlushFreq`` and verflag.go's ``versionFlag`` package variables
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/version/verflag/verflag.go#L88-L90

    Differs from Go: one flag set per command line instead of the process-global
    ``pflag.CommandLine`` (several replicas run in one Python process).
    """
    fs = FlagSet(name=name)
    fs.var(mf.log_flush_frequency, "log-flush-frequency", "Maximum number of seconds between log flushes")
    fs.var(mf.version, "version", "Print version information and quit")
    fs.lookup("version").no_opt_def_val = "true"  # Go: VersionVar
    mf.logging.to_stderr = True  # Go: the logs package's init, before AddGoFlagSet reads defaults
    return fs


def init_flags(fs: FlagSet, mf: MainFlags, argv: Sequence[str]) -> None:
    """Normalise ``_`` to ``-``, add Go's flag set (glog's flags) and parse the command line.

    Go: func InitFlags
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/util/flag/flags.go#L46-L51

    Raises :class:`~kschedlearn.cmd.kube_scheduler.app.options.pflag.FlagError` with pflag's
    message (Go's ``pflag.CommandLine`` is ``ExitOnError``: the binary prints it and exits 2).
    """
    for go_name, value, usage_text in go_flag_values(mf.logging):
        fs.add_go_flag(go_name, value, usage_text)
    fs.parse(list(argv))
    glog_names = {fs.lookup(go_name).name for go_name, _, _ in go_flag_values(mf.logging)}
    mf.glog_set = any(fs.formal[n].changed for n in glog_names)


def init_logs(mf: MainFlags) -> None:
    """glog now answers to the command line's flags — in this process.

    Go: func InitLogs
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/util/logs/logs.go#L45-L51

    Differs from Go: Go points the standard logger at glog and starts the flush daemon; here
    the simulated process's glog settings become the parsed ones when the command line gave a
    glog flag (a replica with none records ``V(n)`` lines up to the simulation's verbosity).
    """
    if mf.glog_set:
        current_goroutine().process.glog = mf.logging  # type: ignore[union-attr]


def print_and_exit_if_requested(mf: MainFlags) -> None:
    """``--version``: print the version and exit 0; ``--version=raw``: the raw struct.

    Go: func PrintAndExitIfRequested
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/version/verflag/verflag.go#L92-L102
    """
    if mf.version.value == "raw":
        exit_process(0, VERSION_RAW + "\n")
    elif mf.version.value == "true":
        exit_process(0, VERSION_LINE + "\n")


def command_line(s: options.SchedulerServer, mf: MainFlags, name: str = "kube-scheduler") -> FlagSet:
    """Every flag of the binary on one set (for ``--help``): the logs and verflag package flags,
    the scheduler's (``s.AddFlags``), then Go's flag set (glog) as ``InitFlags`` adds it.

    kschedlearn-only: ``main``'s first steps in one call, for the command line's ``--help``.
    """
    fs = new_command_line(mf, name)
    s.add_flags(fs)
    for go_name, value, usage_text in go_flag_values(mf.logging):
        fs.add_go_flag(go_name, value, usage_text)
    return fs


def parse_command_line(argv: Sequence[str], s: options.SchedulerServer | None = None, *,
                       name: str = "kube-scheduler") -> tuple[options.SchedulerServer, MainFlags]:
    """``main``'s flag handling up to ``InitFlags``: ``(scheduler settings, main's own flags)``
    (the command line's ``kube-scheduler``, which runs outside any simulated process).

    kschedlearn-only: ``NewSchedulerServer``, ``AddFlags`` and ``InitFlags`` in one call.

    Raises :class:`~kschedlearn.cmd.kube_scheduler.app.options.pflag.FlagError` with pflag's
    message, as ``options.parse_args`` does.
    """
    s = options.new_scheduler_server() if s is None else s
    mf = MainFlags()
    fs = new_command_line(mf, name)
    s.add_flags(fs)
    init_flags(fs, mf, argv)
    return s, mf


def usage(name: str = "kube-scheduler") -> str:
    """The binary's ``--help``: ``Usage of kube-scheduler:`` and all of its flags."""
    return command_line(options.new_scheduler_server(), MainFlags(), name).usage_text()


__all__ = ["MainFlags", "VERSION_LINE", "VERSION_RAW", "VersionValue", "command_line", "init_flags", "init_logs",
           "new_command_line", "parse_command_line", "print_and_exit_if_requested", "usage"]
