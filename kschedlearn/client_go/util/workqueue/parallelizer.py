"""``workqueue.Parallelize``: run ``do_work_piece(i)`` for every piece.

Go: staging/src/k8s.io/client-go/util/workqueue/parallelizer.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/workqueue/parallelizer.go#L25-L52

Differs from Go: Go feeds the piece indexes into a channel drained by ``min(workers, pieces)``
goroutines and waits for all of them; here the pieces run one after another, in index order, in
the calling goroutine. Each piece does no blocking work in the code that uses this (the
predicate and priority checks), so the results are those of one possible Go schedule — the
deterministic one — and a learner stepping through sees nodes checked in list order: the one
worker goroutine, which, like each of Go's, defers ``HandleCrash`` once around its whole loop. A
panic in a piece propagates, as Go's ``HandleCrash`` re-raises it.
"""

from __future__ import annotations

from collections.abc import Callable

from kschedlearn.apimachinery.util.runtime import handle_crash


def parallelize(workers: int, pieces: int, do_work_piece: Callable[[int], None]) -> None:
    """Go: workqueue.Parallelize(workers, pieces, doWorkPiece).

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/workqueue/parallelizer.go#L27-L52
    """
    del workers  # kept for the Go signature; see the module docstring
    with handle_crash():  # each Go worker goroutine defers utilruntime.HandleCrash() once
        for piece in range(pieces):  # the worker's loop over the pieces it receives
            do_work_piece(piece)
