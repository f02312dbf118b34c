"""The seed article's companion: its terms mapped to the code's, its functions as stops.

Go: none — kschedlearn-only (issue 22 item 6). The project grew from an article (in Chinese) on
kube-scheduler 1.6.1's start-up and multi-queue cache. Notebook 16 reads it section by section;
this module holds what the notebook refers to, by reference only (section titles and Go symbols;
none of the article's text):

- :data:`STOPS` — every function the article shows, in its order, with the trace stage a learner
  steps to (``run_until(stage)``) to see it run, and the article's section;
- :data:`TERMS` — the article's names for the queues and caches, Go's, and kschedlearn's (each
  Python name is a path checked against a live run by the tests);
- :func:`step_here` — go to a stop and show where the code is: the narration and the source
  pane on that function (Python beside its Go twin).
"""

from __future__ import annotations

import html
from typing import Any

import attrs

#: The article's two sections (their titles, translated; the notebook names them by number).
SECTIONS = {
    "一": "How a pod is processed in the scheduler (the multi-queue flow)",
    "二": "How the pod queues are set up during start-up",
}


@attrs.frozen
class Stop:
    """A function the article shows: its section, the Go symbol, the stage that reaches it."""

    section: str
    go_symbol: str
    stage: str
    note: str = ""


STOPS: tuple[Stop, ...] = (
    # section 二: start-up, in the article's order
    Stop("二", "main", "main"),
    Stop("二", "options.NewSchedulerServer", "NewSchedulerServer"),
    Stop("二", "(*SchedulerServer).AddFlags", "main.AddFlags"),
    Stop("二", "flag.InitFlags", "main.InitFlags"),
    Stop("二", "logs.InitLogs", "main.InitLogs"),
    Stop("二", "verflag.PrintAndExitIfRequested", "main.PrintAndExitIfRequested"),
    Stop("二", "app.Run", "Run"),
    Stop("二", "createClient", "createClient"),
    Stop("二", "createRecorder", "createRecorder"),
    Stop("二", "informers.NewSharedInformerFactory", "NewSharedInformerFactory"),
    Stop("二", "createScheduler", "createScheduler"),
    Stop("二", "factory.NewConfigFactory", "NewConfigFactory"),
    Stop("二", "schedulercache.New (newSchedulerCache)", "schedulercache.New"),
    Stop("二", "cache.NewIndexerInformer", "NewIndexerInformer",
         "creates the informer's DeltaFIFO — here, not in controller.Run"),
    Stop("二", "scheduler.NewFromConfigurator", "NewFromConfigurator"),
    Stop("二", "(*schedulerConfigurator).Create", "schedulerConfigurator.Create"),
    Stop("二", "(*ConfigFactory).CreateFromProvider", "CreateFromProvider"),
    Stop("二", "(*ConfigFactory).CreateFromKeys", "CreateFromKeys"),
    Stop("二", "(*ConfigFactory).Run", "ConfigFactory.Run"),
    Stop("二", "(*controller).Run", "controller.Run"),
    Stop("二", "cache.NewReflector", "NewReflector"),
    Stop("二", "startHTTP", "startHTTP"),
    Stop("二", "(sharedInformerFactory).Start", "informerFactory.Start"),
    Stop("二", "(*Scheduler).Run", "Scheduler.Run"),
    # section 一: a pod's way through the queues, steps (1)–(5)
    Stop("一", "(1) the watch puts the pod into the pod queue", "fifo.add"),
    Stop("一", "(2) scheduleOne takes the pod from the queue", "scheduleOne.pop"),
    Stop("一", "(3) the pod goes into assumedPods", "assume"),
    Stop("一", "(4) processLoop refreshes the pod in the cache", "controller.process_loop"),
    Stop("一", "(5) cleanupAssumedPods checks periodically", "cleanupAssumedPods"),
)


@attrs.frozen
class Term:
    """One name of the article, Go's name for it, and kschedlearn's (a path from a run's objects:
    ``factory`` is the replica's ConfigFactory, ``cache`` its scheduler cache, ``informers`` its
    shared informer factory, ``scheduler`` its Scheduler)."""

    article: str
    go: str
    python: str
    meaning: str


TERMS: tuple[Term, ...] = (
    Term("queuedPods / queuePods", "ConfigFactory.podQueue (cache.FIFO)", "factory.pod_queue",
         "the FIFO of pods waiting to be scheduled: the article's first queue"),
    Term("the Queue of the scheduler's watch object", "the assigned-pod informer's controller config.Queue (a DeltaFIFO)",
         "factory.scheduled_pod_populator.config.queue",
         "the informer's DeltaFIFO that brings bound pods back to the cache"),
    Term("ScheduleCache / 调度缓存 (scheduler cache)", "schedulerCache", "factory.scheduler_cache",
         "the cache of NodeInfos and pod states that the predicates read"),
    Term("assumedPods", "schedulerCache.assumedPods", "cache._assumed_pods",
         "the keys of pods assumed but not yet confirmed"),
    Term("podStates", "schedulerCache.podStates", "cache._pod_states", "each known pod's state and deadline"),
    Term("informerFactory", "sharedInformerFactory", "informers",
         "one shared informer per resource type, started by Start"),
    Term("startedInformers", "sharedInformerFactory.startedInformers", "informers.started_informers",
         "which informers Start has already started: why Start may be called again"),
    Term("processLoop", "(*controller).processLoop", "factory.scheduled_pod_populator._process_loop",
         "pops the DeltaFIFO and calls the handlers (addPodToCache, ...)"),
    Term("cleanupAssumedPods", "(*schedulerCache).cleanupAssumedPods", "cache._cleanup_assumed_pods",
         "the once-a-second sweep that expires unconfirmed assumed pods"),
    Term("主循环 (the main loop) / ScheduleOne", "wait.Until(s.scheduleOne, 0, stop)", "scheduler.schedule_one",
         "one pod per round, forever"),
)


def objects(sim: Any, replica: str = "scheduler-0") -> dict[str, Any]:
    """The objects a :class:`Term`'s Python path starts from, taken from ``sim``'s replica."""
    h = sim.world.replicas[replica].handles
    factory = h.config_factory
    return {"factory": factory, "cache": getattr(factory, "scheduler_cache", None),
            "informers": h.informer_factory, "scheduler": h.scheduler}


def resolve(sim: Any, path: str) -> Any:
    """Follow a :class:`Term`'s Python path (``"factory.pod_queue"``) on ``sim``'s objects."""
    root, *rest = path.split(".")
    value = objects(sim)[root]
    for name in rest:
        value = getattr(value, name)
    return value


@attrs.frozen
class StopView:
    """Where a stop is: the event, its narration and the source pane on the running function."""

    stage: str
    event: Any
    location: Any
    note: str = ""

    def _repr_html_(self) -> str:
        from kschedlearn.widgets._html import narration
        from kschedlearn.widgets._source import source_pane

        note = f'<div style="color:#8a4b00"><b>Note:</b> {html.escape(self.note)}</div>' if self.note else ""
        return (f'<div class="kschedlearn-stop" style="border-left:3px solid #1976d2;padding:2px 8px">'
                f"{narration(self.event)}{note}{source_pane(self.location)}</div>")

    def __str__(self) -> str:
        loc = self.location
        where = f"{loc.python_function} (line {loc.python_line}), Go: {loc.go_url}" if loc is not None else "-"
        return f"#{self.event.seq} {self.stage}: {self.event.message}\n    {where}"


@attrs.frozen
class TermsTable:
    """:data:`TERMS` as a table (Jupyter shows HTML), each Python path checked on ``sim``."""

    rows: tuple[tuple[Term, str], ...]

    def _repr_html_(self) -> str:
        from kschedlearn.curriculum.markdown import inline

        body = "".join(f"<tr><td>{html.escape(t.article)}</td><td><code>{html.escape(t.go)}</code></td>"
                       f"<td><code>{html.escape(t.python)}</code></td><td>{html.escape(kind)}</td>"
                       f'<td style="text-align:left">{inline(t.meaning)}</td></tr>' for t, kind in self.rows)
        return ("<table><tr><th>the article</th><th>Go (v1.6.1)</th><th>kschedlearn</th><th>in this run</th>"
                f"<th>what it is</th></tr>{body}</table>")

    def __str__(self) -> str:
        return "\n".join(f"{t.article:45s} {t.go:45s} {t.python}  ({kind})" for t, kind in self.rows)


def terms_table(sim: Any) -> TermsTable:
    """The article's terms beside Go's and kschedlearn's, each resolved on ``sim``'s objects."""
    return TermsTable(tuple((t, _kind(resolve(sim, t.python))) for t in TERMS))


def _kind(value: Any) -> str:
    for cls in type(value).__mro__:  # a traced subclass stands for its mirrored class
        if cls.__module__.startswith("kschedlearn.") and "Traced" not in cls.__name__ and "Instrumented" not in cls.__name__:
            return cls.__name__
    return type(value).__name__


def step_through(sim: Any, stages: list[str] | tuple[str, ...]) -> StopsView:
    """:func:`step_here` for several stops in a row (one view each)."""
    return StopsView(tuple(step_here(sim, stage) for stage in stages))


@attrs.frozen
class StopsView:
    """Several stops, one after the other."""

    stops: tuple[StopView, ...]

    def _repr_html_(self) -> str:
        return "".join(v._repr_html_() for v in self.stops)

    def __str__(self) -> str:
        return "\n".join(str(v) for v in self.stops)


def step_here(sim: Any, stage: str) -> StopView:
    """Go to the first event of ``stage`` (running on if it has not happened yet) and show it."""
    found = next((e for e in sim.trace if e.stage == stage), None)
    event = sim.goto(found.seq) if found is not None else sim.run_until(stage)
    note = next((s.note for s in STOPS if s.stage == stage), "")
    return StopView(stage, event, sim.where(), note)


__all__ = ["SECTIONS", "STOPS", "Stop", "StopView", "StopsView", "TERMS", "Term", "TermsTable", "objects", "resolve",
           "step_here", "step_through", "terms_table"]
