"""The units of the course, in order, with their objectives and the activities that check them.

Go: none — kschedlearn-only (data for :mod:`kschedlearn.curriculum.catalog`). Each objective
names the activities (predict cells, ``ask`` and ``check`` keys) of its own notebook that
exercise it; ``tests/curriculum`` proves each key is a cell of that notebook.
"""

from __future__ import annotations

from kschedlearn.curriculum.catalog import Unit, _o

UNITS: tuple[Unit, ...] = (
    Unit("00", "00-start-here", "Start here: one pod, from creation to its node", (
        _o("00.1", "Run a scenario and move through its recorded history with `start`, `step`, `run_until`, "
                   "`back` and `goto`.", "00/pod-events", "00/next-stage"),
        _o("00.2", "Say which queue or cache holds a pod at any moment of its journey.",
           "00/pod-location", "00/pod-location-bind-failure"),
        _o("00.3", "Predict which node `selectHost` picks, and read why from the decision table.",
           "00/winner", "00/bigger-node"),
    )),
    Unit("00b", "00b-start-here-the-way-back", "Start here, part 2: the confirmation, time travel, the explorer", (
        _o("00b.1", "Trace the confirmation: the assigned-pod watch, the informer's DeltaFIFO, `processLoop`, "
                    "`addPodToCache`.", "00b/unassigned-sees", "00b/next-stage"),
        _o("00b.2", "Find the moment a pod's state changes by rewinding and jumping through the history.",
           "00b/confirmed-at"),
        _o("00b.3", "Find which predicate rejects a node from a `schedule.predicate_node` event.",
           "00b/three-cpus"),
    ), prerequisites=("00",)),
    Unit("01", "01-startup-chain", "The start-up chain: from `main` to `scheduleOne`", (
        _o("01.1", "Put kube-scheduler's start-up chain in Go's order, from `main` to `Scheduler.Run`.",
           "01/next-startup", "01/startup-events"),
        _o("01.2", "Tell what `NewConfigFactory` creates and which goroutines run at that point.",
           "01/goroutines-at-factory"),
        _o("01.3", "Say which predicates and priorities a scheduler runs, and what its flag parser refuses.",
           "01/registered", "01/bad-qps"),
    ), prerequisites=("00b",), exercises=("1.1",)),
    Unit("02", "02-api-objects-store-indexer", "API objects, the Store and the Indexer", (
        _o("02.1", "Predict what a label or field selector matches, and what the field-selector parser refuses.",
           "02/selector", "02/field-in"),
        _o("02.2", "Index objects with an `Indexer` and predict what an index lookup returns.",
           "02/index", "02/app-index"),
        _o("02.3", "Explain what the scheduler's two pod watches deliver when a pod is bound or finishes.",
           "02/succeeded-watch"),
    ), prerequisites=("01",), exercises=("2.1",)),
    Unit("03", "03-fifo-and-deltafifo", "FIFO and DeltaFIFO", (
        _o("03.1", "Predict what a FIFO's `Pop` returns after adds, updates and deletes (ghost keys included), "
                   "and what a closed FIFO does.", "03/fifo-pop", "03/closed-pop"),
        _o("03.2", "Predict the Deltas a DeltaFIFO hands over, with `Replace`, `Sync` and tombstones.",
           "03/delta-fifo", "03/sync-after-delete"),
        _o("03.3", "Follow podQueue through a real run, event by event.", "03/fifo-events"),
    ), prerequisites=("02",), exercises=("3.1", "3.2")),
    Unit("04", "04-reflector-controller-informers", "Reflector, Controller and informers", (
        _o("04.1", "Tell when a reflector re-watches and when it relists.", "04/node-rewatch", "04/pod-location"),
        _o("04.2", "Count what an informer's `processLoop` hands its handlers.", "04/handler-counts",
           "04/next-stage"),
        _o("04.3", "Predict how a stalled watch delays scheduling.", "04/stalled-time"),
    ), prerequisites=("03",), exercises=("4.1", "4.2")),
    Unit("05", "05-scheduler-cache", "The scheduler cache: assume, confirm, expire, forget", (
        _o("05.1", "Say what the cache holds for a pod after assume, FinishBinding and the confirmation.",
           "05/cache-state"),
        _o("05.2", "Predict when an assumed pod expires, and what a late confirmation does.",
           "05/cache-state-expiry", "05/expire-time", "05/deadline"),
        _o("05.3", "Explain what a refused binding does to the cache (ForgetPod), and how often the pod is assumed.",
           "05/cache-state-bind-failure", "05/assumed-twice"),
    ), prerequisites=("04",), exercises=("5.1", "5.2", "5.3")),
    Unit("06", "06-predicates", "Predicates: which nodes *can* take the pod?", (
        _o("06.1", "Name the predicate and the failure reason that reject a node in a run.",
           "06/failing-predicate", "06/failing-predicate-big"),
        _o("06.2", "Run GeneralPredicates by hand and read every reason it collects.", "06/first-reason"),
        _o("06.3", "Decide by hand whether a pod fits a node's resources (a strict `<`) and its host ports.",
           "06/crowd50", "06/udp-port"),
    ), prerequisites=("05",), exercises=("6.1", "6.2")),
    Unit("07", "07-priorities-and-selecthost", "Priorities and selectHost: which node is *best*?", (
        _o("07.1", "Compute priority scores, weights and totals, and say which priority decides.",
           "07/taint-score"),
        _o("07.2", "Explain selectHost's round robin among equal totals, and its empty-list error.",
           "07/counter-matters", "07/empty-select"),
        _o("07.3", "Predict the node selectHost picks for a pod.", "07/winner-spread", "07/winner-ha"),
    ), prerequisites=("06",), exercises=("7.1", "7.2", "7.3", "7.4")),
    Unit("08", "08-scheduleone-binding-errors-backoff", "scheduleOne: the happy path and the back-off", (
        _o("08.1", "Walk through scheduleOne's happy path: pop, schedule, assume, bind.", "08/next-stage"),
        _o("08.2", "Predict a failing pod's back-off times and when it is retried.", "08/backoff", "08/late-node"),
        _o("08.3", "Tell which goroutine does what: the scheduling loop, the binding goroutine, the informer.",
           "08/bind-goroutine"),
    ), prerequisites=("07",), exercises=("8.1", "8.2a", "8.2", "8.2b")),
    Unit("08b", "08b-failed-bindings-and-the-api-client", "scheduleOne, part 2: failed bindings, deletions, the API client", (
        _o("08b.1", "Explain what a refused binding does: ForgetPod, the error function, the re-queue.",
           "08b/pod-location", "08b/two-fails"),
        _o("08b.2", "Predict the event a refused binding records.", "08b/conflict-event"),
        _o("08b.3", "Tell how a deleted pod and the client's rate limit change what scheduleOne does.",
           "08b/deleting-pod", "08b/qps"),
    ), prerequisites=("08",)),
    Unit("09", "09-leader-election-and-ha", "Leader election and HA", (
        _o("09.1", "Explain how the lock is taken, renewed and retried with jitter.", "09/seed2-takeover"),
        _o("09.2", "Predict which replica the lock names as leader after the leader is killed.",
           "09/leader-kill", "09/leader"),
        _o("09.3", "Predict who binds a pod, and when, after a replica is killed.", "09/binder", "09/kill-follower"),
    ), prerequisites=("08b",), exercises=("9.1",)),
    Unit("10", "10-policy-files-and-custom-algorithms", "Policy files and custom algorithms", (
        _o("10.1", "Say which predicates and priorities a policy file configures.", "10/registered"),
        _o("10.2", "Predict placements and rejections under a policy file.", "10/winner", "10/failing-predicate"),
        _o("10.3", "Predict what your own predicate, or a policy without priorities, does.",
           "10/always-false", "10/equal-priority"),
    ), prerequisites=("09",), exercises=("10.1",)),
    Unit("11", "11-quirks-of-1.6", "The quirks of 1.6, and how later versions changed them", (
        _o("11.1", "Recognise what a 1.6 quirk does in a run, and which later version changed it.",
           "11/winner-spread", "11/spread-web-2"),
        _o("11.2", "Tell a ForgetPod that crashes 1.6 from one that does not.", "11/forget-assumed"),
        _o("11.3", "Say where an assumed pod is around its expiry and late confirmation.", "11/pod-location"),
    ), prerequisites=("10",), exercises=("11.1",)),
    Unit("12", "12-beyond-the-happy-path", "Beyond the happy path: several schedulers, node conditions, why assume", (
        _o("12.1", "Predict which of several schedulers binds a pod.", "12/scheduler-name"),
        _o("12.2", "Tell which nodes the node-condition filter hides from the predicates.", "12/node-condition"),
        _o("12.3", "Explain what assuming buys, by comparing a run with it and without it.",
           "12/assume-1", "12/assume-2"),
    ), prerequisites=("11",)),
    Unit("12b", "12b-deletions-extenders-and-fencing", "Beyond the happy path, part 2: deletions in flight, extenders, fencing", (
        _o("12b.1", "Predict what happens to a pod deleted while its binding is in flight.",
           "12b/deleted-1", "12b/deleted-2"),
        _o("12b.2", "Add an HTTP extender's score to a node's total.", "12b/extender"),
        _o("12b.3", "Explain why 1.6's unfenced leader election can briefly give two leaders, and what stops a "
                    "double bind.", "12b/leaders-at", "12b/double-bind"),
    ), prerequisites=("12",)),
    Unit("13", "13-kubectl-and-your-own-cluster", "kubectl, and a real cluster replayed on 1.6", (
        _o("13.1", "Drive the live simulation with kubectl and predict what the scheduler does.", "13/kubectl-apply"),
        _o("13.2", "Predict where 1.6 places a real cluster's pending pod.", "13/replay-2"),
        _o("13.3", "Read from the decision view why 1.6 chose that node.", "13/replay-3"),
    ), prerequisites=("12b",)),
    Unit("14", "14-why-1.6-slows-down-at-scale", "Why 1.6 slows down as the cluster grows", (
        _o("14.1", "Tell which stage's cost grows with pods and which with nodes.", "14/spread-walk", "14/relabelled"),
        _o("14.2", "Measure which predicate costs the most per pod.", "14/costliest-predicate"),
        _o("14.3", "Explain how the equivalence cache and the accelerated engine save work without changing "
                   "placements.", "14/equivalence"),
    ), prerequisites=("13",)),
    Unit("15", "15-who-creates-the-pods", "Who creates the pods? kube-controller-manager and the scheduler", (
        _o("15.1", "Predict how a controller's replicas spread over equal nodes — the work of SelectorSpreadPriority, "
                   "not of the controller.", "15/spread"),
        _o("15.2", "Predict how many pod creations one `manageReplicas` sync starts after a scale-up (no slow start "
                   "in 1.6).", "15/burst"),
        _o("15.3", "Predict the size a rolling update's new ReplicaSet starts with, from `maxSurge` and "
                   "`maxUnavailable`.", "15/surge"),
        _o("15.4", "Tell why a 1.6 DaemonSet's pods never reach kube-scheduler's podQueue.", "15/daemonset"),
    ), prerequisites=("14",), exercises=("15.1",)),
    Unit("16", "16-reading-the-seed-article", "Companion: reading the seed article with the simulator", (
        _o("16.1", "Map the article's terms to the code's, in Go and in Python.", "16/terms"),
        _o("16.2", "Step to each function the article shows and read it in the source pane.", "16/step-order"),
        _o("16.3", "Say where the article is wrong about 1.6, and show it in the trace.", "16/queue-created"),
    ), prerequisites=("05",), note="A companion: read it any time after 05, with the article beside it."),
    Unit("17", "17-mastery-check", "Mastery check: an unseen cluster", (
        _o("17.1", "Predict the start-up, the queues and the placements in a cluster you have not seen.",
           "17/mastery"),
        _o("17.2", "Predict its failures: rejected nodes, back-off, refused bindings, expiry, a quirk.", "17/mastery"),
        _o("17.3", "Predict its leader election after a kill — and score at least 80 % in all.", "17/mastery"),
    ), prerequisites=("14",)),
)
