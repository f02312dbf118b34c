"""Trace points of kube-scheduler's start-up chain, and the notebook's handles on what it builds.

Go: none — kschedlearn-only (DESIGN principle 5: ``main``, ``app.Run``, ``createScheduler`` and
``NewConfigFactory`` carry no notebook lines). Each point stands at a call the Go code makes:

- ``main`` / ``NewSchedulerServer`` — before and after ``main``'s ``options.NewSchedulerServer()``;
- ``Run`` — ``main`` calls ``app.Run(s)``;
- ``createClient``, ``createRecorder``, ``NewSharedInformerFactory``, ``createScheduler`` — before
  ``app.Run``'s calls of them; ``go startHTTP(s)`` — before the goroutine is started;
  ``informerFactory.Start`` — after it returned (naming the informers it started);
  ``Scheduler.Run`` — before ``run``'s ``sched.Run()``; ``leaderelection.start`` — before
  ``leaderelection.RunOrDie``;
- ``NewConfigFactory`` (before ``createScheduler``'s call), ``schedulercache.New`` and
  ``NewIndexerInformer`` (before ``NewConfigFactory``'s calls), ``CreateFromProvider`` /
  ``CreateFromConfig`` (before the configurator's calls), ``CreateFromKeys`` (after its first
  ``glog.V(2)`` line), ``ConfigFactory.Run`` (before ``CreateFromKeys``'s ``f.Run()``).

What those calls return fills the replica's :class:`~kschedlearn.observe.observation.ReplicaHandles`;
once ``CreateFromKeys`` has returned the scheduler's Config, ``on_config`` (the world's) attaches
the trace points of the pod's journey to it (:mod:`kschedlearn.observe.replica`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.client.leaderelection import leaderelection
from kschedlearn.client_go import informers
from kschedlearn.cmd.kube_scheduler import main_flags
from kschedlearn.cmd.kube_scheduler import scheduler as kube_scheduler
from kschedlearn.scheduler import scheduler as scheduler_module
from kschedlearn.cmd.kube_scheduler.app import configurator, server
from kschedlearn.cmd.kube_scheduler.app.options import options
from kschedlearn.observe.informers import observe_informer_factory
from kschedlearn.observe.observation import Observation
from kschedlearn.observe.points import point
from kschedlearn.observe.wrap import Call, on_method, site_of
from kschedlearn.scheduler.schedulercache import cache as schedulercache
from kschedlearn.scheduler.factory import factory
import kschedlearn.sim as sim_package
from kschedlearn.trace import register_stage
from kschedlearn.trace.stages import K8S, SCHED

_SERVER = K8S + "plugin/cmd/kube-scheduler/app/server.go"
_CONFIGURATOR = K8S + "plugin/cmd/kube-scheduler/app/configurator.go"
_F = SCHED + "factory/factory.go"
for _name, _ref, _why in [
    ("main", K8S + "plugin/cmd/kube-scheduler/scheduler.go#L30-L43",
     "main builds a SchedulerServer with the defaults, parses the flags and calls app.Run."),
    ("NewSchedulerServer", K8S + "plugin/cmd/kube-scheduler/app/options/options.go#L48-L59",
     "The defaults come from the v1alpha1 defaulting functions; leader election is forced on."),
    ("Run", _SERVER + "#L65-L140", "app.Run wires everything together in a fixed order."),
    ("createClient", _CONFIGURATOR + "#L56-L72", "One clientset for everything, rate-limited by --kube-api-qps/--kube-api-burst."),
    ("createRecorder", _CONFIGURATOR + "#L49-L54", "Events (Scheduled, FailedScheduling...) are logged and written to the API server."),
    ("NewSharedInformerFactory", K8S + "pkg/client/informers/informers_generated/externalversions/factory.go#L53-L61", "One shared informer per resource type; none runs until Start."),
    ("createScheduler", _CONFIGURATOR + "#L74-L109", "Build the ConfigFactory and let the configurator pick a policy file or the provider."),
    ("startHTTP", _SERVER + "#L142-L167", "/healthz, /metrics and /configz are served in a goroutine of their own."),
    ("informerFactory.Start", K8S + "pkg/client/informers/informers_generated/externalversions/factory.go#L63-L74",
     "The shared informer factory starts (in goroutines) every informer that was requested so "
     "far; each lists, then watches its kind."),
    ("Scheduler.Run", K8S + "plugin/pkg/scheduler/scheduler.go#L143-L146", "go wait.Until(scheduleOne, 0, stop): the scheduling loop starts."),
    ("leaderelection.start", K8S + "pkg/client/leaderelection/leaderelection.go#L155-L163", "Only the leader schedules: RunOrDie calls sched.Run once the lease is acquired."),
    ("NewConfigFactory", _F + "#L102-L167",
     "NewConfigFactory creates the pod FIFO, the scheduler cache (30 s TTL) and the assigned-pod informer."),
    ("CreateFromProvider", _F + "#L298-L307", "The predicates and priorities come from a named algorithm provider."),
    ("CreateFromConfig", _F + "#L309-L342", "The predicates and priorities come from a policy file."),
    ("CreateFromKeys", _F + "#L344-L388",
     "CreateFromKeys builds the generic scheduler, starts the pod watches (Run) and returns the scheduler Config."),
    ("ConfigFactory.Run", _F + "#L449-L455",
     "Run starts the unassigned-pod reflector (feeding podQueue) and the assigned-pod informer (feeding the cache)."),
    ("schedulercache.New", SCHED + "schedulercache/cache.go#L34-L42",
     "The scheduler cache is created and its cleanup goroutine (every 1 s) starts right away."),
    ("NewIndexerInformer", K8S + "staging/src/k8s.io/client-go/tools/cache/controller.go#L285-L349",
     "An informer = a Reflector feeding a DeltaFIFO, drained by processLoop into an Indexer and the event handlers."),
    ("main.AddFlags", K8S + "plugin/cmd/kube-scheduler/app/options/options.go#L61-L83",
     "SchedulerServer.AddFlags registers every kube-scheduler flag on pflag's CommandLine, with the defaults as values."),
    ("main.InitFlags", K8S + "staging/src/k8s.io/apiserver/pkg/util/flag/flags.go#L46-L51",
     "InitFlags turns '_' into '-' in flag names, adds Go's own flag set (glog's --v, --logtostderr ...) and parses the command line."),
    ("main.InitLogs", K8S + "staging/src/k8s.io/apiserver/pkg/util/logs/logs.go#L45-L51",
     "InitLogs sends Go's standard logger to glog and starts flushing glog every --log-flush-frequency."),
    ("main.PrintAndExitIfRequested", K8S + "pkg/version/verflag/verflag.go#L92-L102",
     "PrintAndExitIfRequested: with --version the binary prints its version and exits here; otherwise main goes on."),
    ("NewFromConfigurator", K8S + "plugin/pkg/scheduler/scheduler.go#L124-L141",
     "NewFromConfigurator asks the configurator to Create the scheduler Config, lets the modifiers adjust it (the event recorder) and wraps it in a Scheduler."),
    ("schedulerConfigurator.Create", _CONFIGURATOR + "#L119-L138",
     "schedulerConfigurator.Create: a policy file if --policy-config-file names one it can stat, else the algorithm provider."),
]:
    register_stage(_name, _ref, _why)

#: called with (the replica's handles, its scheduler.Config) once CreateFromKeys returned it
OnConfig = Callable[[Any, Any], None]


def _before(stage: str, fn: Callable[..., Any], describe: Callable[[Call], tuple[str, dict[str, Any] | None]]
            ) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        message, data = describe(call)
        point(stage, message, data, fn, "calling")

    return announce


def observe_main(observation: Observation) -> None:
    """``main`` and ``app.Run``'s own calls (see the module docstring), with the handles."""
    handles = observation.handles

    def s_of(call: Call) -> None:
        handles().s = call.args[0]

    def kubecli(call: Call) -> None:
        handles().s = call.args[0]
        handles().kubecli = call.result

    def informer_factory(call: Call) -> None:
        handles().informer_factory = call.result
        observe_informer_factory(call.result, on_start=lambda stop: setattr(handles(), "stop", stop))

    def scheduler(call: Call) -> None:
        handles().scheduler = call.result
        on_method(call.result, "run", before=_before(
            "Scheduler.Run", server.run, lambda c: ("go wait.Until(scheduleOne, 0, stop)", None)))

    def http(call: Call) -> None:
        handles().http = call.result

    def elector(call: Call) -> None:
        handles().elector = call.result

    def starting_http(call: Call) -> None:
        if call.args and call.args[0] is server.start_http:
            s = call.args[1]
            point("startHTTP", f"go startHTTP(s): /healthz, /metrics, /configz on {s.address}:{s.port}", None,
                  server.start_http, "calling")

    on = observation.on_attribute
    main = site_of(kube_scheduler.main)
    on(options, "new_scheduler_server", site=main,
       before=_before("main", options.new_scheduler_server,
                      lambda c: ("kube-scheduler " + " ".join(c.local("argv")), None)),
       after=lambda c: point("NewSchedulerServer", "defaults applied; leader-elect forced to true",
                             {"leader_elect": c.result.leader_election.leader_elect},
                             options.new_scheduler_server))
    on(server, "run", before=_before("Run", server.run, lambda c: ("app.Run(s)", None)))
    on(server, "run", before=s_of)
    on(server, "create_client", before=_before(
        "createClient", configurator.create_client,
        lambda c: (f"clientset for the API server (qps {c.args[0].kube_api_qps:g}, burst {c.args[0].kube_api_burst})",
                   {"master": c.args[0].master, "kubeconfig": c.args[0].kubeconfig})), after=kubecli)
    on(server, "create_recorder", before=_before(
        "createRecorder", configurator.create_recorder, lambda c: ("event broadcaster → API server events", None)))
    on(informers, "new_shared_informer_factory", before=_before(
        "NewSharedInformerFactory", informers.new_shared_informer_factory,
        lambda c: ("informers.NewSharedInformerFactory(kubecli, 0)", None)), after=informer_factory)
    on(server, "create_scheduler", before=_before(
        "createScheduler", configurator.create_scheduler,
        lambda c: ("NewConfigFactory, then Create via the configurator", None)), after=scheduler)
    on(sim_package, "go", site=site_of(server.run), before=starting_http)
    on(server, "HTTPEndpoints", site=site_of(server.start_http), after=http)
    on(leaderelection, "run_or_die", before=_before(
        "leaderelection.start", leaderelection.run_or_die,
        lambda c: (f"identity {c.local('hostname')}: RunOrDie on endpoints {server.LOCK_NAMESPACE}/{server.LOCK_NAME}",
                   None)))
    on(leaderelection, "new_leader_elector", site=site_of(leaderelection.run_or_die), after=elector)
    _observe_main_flags(observation, main)


def _observe_main_flags(observation: Observation, main: Any) -> None:
    """``main``'s flag and log set-up: AddFlags, InitFlags, InitLogs, PrintAndExitIfRequested."""
    on = observation.on_attribute
    on(options.SchedulerServer, "add_flags", site=main, before=_before(
        "main.AddFlags", options.SchedulerServer.add_flags,
        lambda c: ("s.AddFlags(pflag.CommandLine): every kube-scheduler flag, with its default", None)))
    on(main_flags, "init_flags", site=main, before=_before(
        "main.InitFlags", main_flags.init_flags,
        lambda c: (f"parse {len(c.args[2])} argument(s): " + (" ".join(c.args[2]) or "(none)"), None)))
    on(main_flags, "init_logs", site=main, before=_before(
        "main.InitLogs", main_flags.init_logs,
        lambda c: ("glog takes this process's --v / --vmodule" if c.args[0].glog_set
                   else "no glog flag given: the simulation's verbosity stays", {"glog_flags": c.args[0].glog_set})))
    on(main_flags, "print_and_exit_if_requested", site=main, before=_before(
        "main.PrintAndExitIfRequested", main_flags.print_and_exit_if_requested,
        lambda c: (f"--version={c.args[0].version.value}", {"version": c.args[0].version.value})))


def observe_config_factory(observation: Observation, on_config: OnConfig) -> None:
    """``createScheduler``'s ``NewConfigFactory`` and what happens inside it and to the factory."""
    handles = observation.handles

    def factory_created(call: Call) -> None:
        handles().config_factory = call.result
        _observe_factory_instance(observation, call.result, on_config)

    on = observation.on_attribute
    on(configurator.factory, "new_config_factory", before=_before(
        "NewConfigFactory", factory.new_config_factory, lambda c: (f"scheduler {c.args[0]!r}", None)),
       after=factory_created)
    new_config_factory = site_of(factory.new_config_factory)
    on(configurator.scheduler, "new_from_configurator", site=site_of(configurator.create_scheduler), before=_before(
        "NewFromConfigurator", scheduler_module.new_from_configurator,
        lambda c: ("Create the Config through the configurator, then apply the modifiers", None)))
    on(configurator.SchedulerConfigurator, "create", site=site_of(scheduler_module.new_from_configurator),
       before=_before("schedulerConfigurator.Create", configurator.SchedulerConfigurator.create,
                      lambda c: (f"policy file {c.receiver.policy_file!r}, algorithm provider "
                                 f"{c.receiver.algorithm_provider!r}", None)))
    on(schedulercache, "new", site=new_config_factory, before=_before(
        "schedulercache.New", schedulercache.new,
        lambda c: (f"TTL {c.args[0]:g}s, cleanupAssumedPods every 1s", None)))
    on(factory, "new_indexer_informer", site=new_config_factory, before=_before(
        "NewIndexerInformer", factory.new_indexer_informer,
        lambda c: (f"informer {c.kwargs.get('name') or ''}: Reflector → DeltaFIFO → processLoop → handlers", None)))
    create_from_keys = site_of(factory.ConfigFactory.create_from_keys)
    observation.on_log(create_from_keys, "Creating scheduler with fit predicates '%v' and priority functions '%v",
                       lambda c: point("CreateFromKeys",
                                       f"{len(c.local('predicate_keys'))} predicates, "
                                       f"{len(c.local('priority_keys'))} priorities",
                                       {"predicates": sorted(c.local("predicate_keys")),
                                        "priorities": sorted(c.local("priority_keys"))},
                                       None))


def _observe_factory_instance(observation: Observation, cf: Any, on_config: OnConfig) -> None:
    from kschedlearn.observe.informers import observe_controller

    handles = observation.handles
    observe_controller(cf.scheduled_pod_populator)  # the assigned-pod informer NewConfigFactory built
    create = site_of(configurator.SchedulerConfigurator.create)

    def provider_message(call: Call) -> tuple[str, dict[str, Any]]:
        configurator_ = call.local("self")
        message = f"algorithm provider {configurator_.algorithm_provider!r}"
        if configurator_.policy_file:
            # 1.6 quirk: a --policy-config-file that cannot be stat-ed is not an error
            message = (f"policy file {configurator_.policy_file} cannot be stat-ed: "
                       f"1.6 silently falls back to the {message}")
        return message, {"policy_file": configurator_.policy_file}

    def config_created(call: Call) -> None:
        on_config(handles(), call.result)

    on_method(cf, "create_from_provider", site=create,
              before=_before("CreateFromProvider", factory.ConfigFactory.create_from_provider, provider_message))
    on_method(cf, "create_from_config", site=create, before=_before(
        "CreateFromConfig", factory.ConfigFactory.create_from_config,
        lambda c: (f"policy file {c.local('self').policy_file}", None)))
    on_method(cf, "run", site=site_of(factory.ConfigFactory.create_from_keys), before=_before(
        "ConfigFactory.Run", factory.ConfigFactory.run,
        lambda c: ("reflector(unassigned pods) → podQueue; go scheduledPodPopulator.Run", None)))
    on_method(cf, "create_from_keys", after=config_created)


__all__ = ["OnConfig", "observe_config_factory", "observe_main"]
