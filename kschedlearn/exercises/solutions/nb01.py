"""Solutions for notebook 01: the kube-scheduler start-up chain.

Go: plugin/cmd/kube-scheduler/app/server.go (Run)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L140
"""

from __future__ import annotations


def wire_startup_chain(steps: list[str]) -> list[str]:
    """Return the eight steps of ``app.Run`` in the order kube-scheduler 1.6 runs them.

    Go: app.Run, server.go#L65-L140. ``steps`` holds them shuffled::

        "informerFactory.Start", "sched.Run", "createRecorder", "go startHTTP",
        "leaderelection", "createClient", "createScheduler", "NewSharedInformerFactory"

    ``"leaderelection"`` is the branch ``if !s.LeaderElection.LeaderElect { run(nil) }`` else
    ``leaderelection.RunOrDie(...)`` whose OnStartedLeading runs the steps that follow it.
    Return a list with each step exactly once.
    """
    return ["createClient", "createRecorder", "NewSharedInformerFactory", "createScheduler",
            "go startHTTP", "informerFactory.Start", "leaderelection", "sched.Run"]
