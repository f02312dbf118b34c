"""kube-scheduler options: SchedulerServer, its flags and a pflag-style parser.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/cmd/kube-scheduler/app/options
"""

from kschedlearn.cmd.kube_scheduler.app.options.options import (
    KNOWN_FEATURES,
    FeatureGate,
    FeatureSpec,
    SchedulerServer,
    new_flag_set,
    new_scheduler_server,
    parse_args,
    usage,
)
from kschedlearn.cmd.kube_scheduler.app.options.pflag import FlagError, FlagSet, HelpRequested

__all__ = [
    "FeatureGate", "FeatureSpec", "FlagError", "FlagSet", "HelpRequested", "KNOWN_FEATURES",
    "SchedulerServer", "new_flag_set", "new_scheduler_server", "parse_args", "usage",
]
