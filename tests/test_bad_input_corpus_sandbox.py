"""The adversarial corpus, part 3 (issue #26): what an attacker tries at the entry points of the
sandbox and verdict work - ``serve``'s flags, the exercise API's arguments, the notebook API from
the wrong thread, learner functions that attack their own sandbox, and scenario files with
typos deep inside their objects.

Each case asserts the exact message (or its named fragments): the object, the field and the
value; never a raw traceback, never silent acceptance. Notebook and exercise cases also check
that the session is intact (history and cursor unchanged, the simulation still steps) and that
no process a check started is left running.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.cli import main
from kschedlearn.exercises import check, get_task, hint, plug_in, plug_in_scenario
from kschedlearn.exercises.framework import ERROR, TIMEOUT, WRONG_TYPE
from kschedlearn.exercises.sandbox import fork_available
from kschedlearn.scenarios.scenario import ScenarioError, parse_scenario
from kschedlearn.simulation.checks import WrongThreadError

RAW = ("Traceback", "int_max_str_digits", "maximum recursion depth exceeded while", "too many values to unpack",
       "object has no attribute", "unsupported operand", "not subscriptable", "is not callable", "Errno 2")
SOLUTION = get_task("8.1").load_solution()
SPEED = "must be between 0.001 and 1,000 virtual seconds per wall second"


def _no_raw(text: str) -> None:
    assert not any(raw in text for raw in RAW), text


def _processes_under_me() -> set[int]:
    found, table = set(), {}
    for name in os.listdir("/proc") if Path("/proc").is_dir() else ():
        if name.isdigit():
            try:
                data = Path(f"/proc/{name}/stat").read_bytes()
            except OSError:
                continue
            fields = data[data.rindex(b")") + 2:].split()
            table[int(name)] = (int(fields[1]), fields[0])
    todo = [os.getpid()]
    while todo:
        parent = todo.pop()
        for pid, (ppid, state) in table.items():
            if ppid == parent and pid not in found and state != b"Z":
                found.add(pid)
                todo.append(pid)
    return found


# -- serve's flags (usage errors: exit 2, argparse's one-line message) ------------------------------------

SERVE_USAGE = [
    ("speed-1e308", ["--speed", "1e308"], f"argument --speed: invalid speed '1e308': {SPEED}"),
    ("speed-1001", ["--speed", "1001"], f"argument --speed: invalid speed '1001': {SPEED}"),
    ("speed-tiny", ["--speed", "1e-9"], f"argument --speed: invalid speed '1e-9': {SPEED}"),
    ("speed-inf", ["--speed", "inf"], "argument --speed: invalid speed 'inf': must be a finite number > 0"),
    ("speed-nan", ["--speed", "nan"], "argument --speed: invalid speed 'nan': must be a finite number > 0"),
    ("speed-minus", ["--speed=-1"], "argument --speed: invalid speed '-1': must be a finite number > 0"),
    ("speed-zero", ["--speed", "0"], "argument --speed: invalid speed '0': must be a finite number > 0"),
    ("speed-word", ["--speed", "fast"], "argument --speed: invalid speed 'fast': not a number"),
    ("speed-empty", ["--speed", ""], "argument --speed: invalid speed '': not a number"),
    ("speed-hex", ["--speed", "0x10"], "argument --speed: invalid speed '0x10': not a number"),
    ("port-big", ["--port", "70000"], "argument --port: invalid port '70000': must be 0 (any free port) to 65535"),
    ("port-minus", ["--port=-1"], "argument --port: invalid port '-1': must be 0 (any free port) to 65535"),
    ("port-word", ["--port", "http"], "argument --port: invalid port 'http': not an integer"),
    ("seed-float", ["--seed", "1.5"], "argument --seed: expected a whole number, got '1.5'"),
]


@pytest.mark.parametrize("flags, message", [c[1:] for c in SERVE_USAGE], ids=[c[0] for c in SERVE_USAGE])
def test_serve_flags_are_usage_errors(flags, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(["serve", "three-nodes", *flags])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(f"kschedlearn serve: error: {message}"), err
    _no_raw(err)


SERVE_ERRORS = [
    ("serve-for-nan", ["three-nodes", "--serve-for", "nan"], "--serve-for: must be a finite number of seconds > 0, got nan"),
    ("serve-for-minus", ["three-nodes", "--serve-for=-5"], "--serve-for: must be a finite number of seconds > 0, got -5.0"),
    ("serve-for-inf", ["three-nodes", "--serve-for", "inf"], "--serve-for: must be a finite number of seconds > 0, got inf"),
    ("serve-both", ["three-nodes", "--from", "dump.yaml"], "serve: give a SCENARIO or --from DUMP.yaml (one of them)"),
    ("serve-neither", [], "serve: give a SCENARIO or --from DUMP.yaml (one of them)"),
]


@pytest.mark.parametrize("argv, message", [c[1:] for c in SERVE_ERRORS], ids=[c[0] for c in SERVE_ERRORS])
def test_serve_errors_are_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["serve", *argv]) == 1
    err = capsys.readouterr().err
    assert err == f"kschedlearn: error: {message}\n", err


# -- the exercise API's arguments ----------------------------------------------------------------------

def _fn(pod, meta, node_info):
    return get_task("6.1").load_solution()(pod, meta, node_info)


EXERCISE_API = [
    ("check-time-nan", lambda: check("6.1", _fn, time_limit=float("nan")), ValueError,
     "check('6.1', fn, time_limit=...): time_limit must be a number of seconds > 0, got nan"),
    ("check-time-inf", lambda: check("6.1", _fn, time_limit=float("inf")), ValueError,
     "check('6.1', fn, time_limit=...): time_limit must be a number of seconds > 0, got inf"),
    ("check-time-bool", lambda: check("6.1", _fn, time_limit=True), ValueError,
     "check('6.1', fn, time_limit=...): time_limit must be a number of seconds > 0, got True"),
    ("check-time-text", lambda: check("6.1", _fn, time_limit="10"), ValueError,
     "check('6.1', fn, time_limit=...): time_limit must be a number of seconds > 0, got '10'"),
    ("check-unknown-task", lambda: check("6.9", _fn), KeyError, "no exercise '6.9'; the exercises are 1.1, 2.1"),
    ("check-task-int", lambda: check(61, _fn), KeyError, "no exercise 61; the exercises are"),
    ("check-not-callable", lambda: check("6.1", "pod_fits_resources"), TypeError,
     "check('6.1', fn): fn must be your function, got str"),
    ("hint-zero", lambda: hint("6.1", 0), ValueError, "hint('6.1', level): level must be 1..3, got 0"),
    ("hint-four", lambda: hint("6.1", 4), ValueError, "hint('6.1', level): level must be 1..3, got 4"),
    ("hint-text", lambda: hint("6.1", "1"), ValueError, "hint('6.1', level): level must be 1..3, got '1'"),
    ("plug-in-seconds-nan", lambda: plug_in("6.1", _fn, seconds=float("nan")), ValueError,
     "plug_in('6.1', fn, seconds=...): seconds must be a number of seconds > 0, got nan"),
    ("plug-in-seconds-minus", lambda: plug_in("6.1", _fn, seconds=-1), ValueError,
     "plug_in('6.1', fn, seconds=...): seconds must be a number of seconds > 0, got -1"),
    ("plug-in-string-simulation", lambda: plug_in("6.1", _fn, "three-nodes"), TypeError,
     "plug_in('6.1', fn, simulation): the simulation has no run() method"),
    ("plug-in-not-callable", lambda: plug_in("6.1", None), TypeError,
     "plug_in('6.1', fn): fn must be your function, got NoneType"),
    ("scenario-seed-text", lambda: plug_in_scenario("6.1", _fn, seed="1"), ValueError,
     "plug_in_scenario('6.1', fn, seed=...): seed must be a whole number that fits 64 bits, got '1'"),
    ("scenario-seed-huge", lambda: plug_in_scenario("6.1", _fn, seed=2**64), ValueError,
     "plug_in_scenario('6.1', fn, seed=...): seed must be a whole number that fits 64 bits, got 18446744073709551616"),
    ("scenario-seed-bool", lambda: plug_in_scenario("6.1", _fn, seed=True), ValueError,
     "plug_in_scenario('6.1', fn, seed=...): seed must be a whole number that fits 64 bits, got True"),
    ("scenario-int", lambda: plug_in_scenario("6.1", _fn, 3), TypeError,
     "plug_in_scenario('6.1', fn, scenario): scenario must be a scenario's name or a YAML file's path, got 3"),
    ("scenario-blank", lambda: plug_in_scenario("6.1", _fn, "  "), TypeError,
     "plug_in_scenario('6.1', fn, scenario): scenario must be a scenario's name or a YAML file's path, got '  '"),
    ("scenario-unknown", lambda: plug_in_scenario("6.1", _fn, "three-node"), ScenarioError,
     "unknown scenario 'three-node'; bundled ones:"),
    ("scenario-seconds-zero", lambda: plug_in_scenario("6.1", _fn, seconds=0), ValueError,
     "plug_in_scenario('6.1', fn, seconds=...): seconds must be a number of seconds > 0, got 0"),
]


@pytest.mark.parametrize("call, error, message", [c[1:] for c in EXERCISE_API], ids=[c[0] for c in EXERCISE_API])
def test_exercise_api_arguments(call, error, message):
    before = _processes_under_me()
    with pytest.raises(error) as info:
        call()
    text = str(info.value)
    assert message in text, text
    _no_raw(text)
    assert _processes_under_me() == before


# -- the notebook API from the wrong thread, and plug-ins a simulation cannot take ------------------------

@pytest.fixture(scope="module")
def stepped():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until("assume")
    return sim


def _from_thread(call):
    raised = []
    t = threading.Thread(target=lambda: raised.append(_catch(call)), name="attacker")
    t.start()
    t.join(60)
    return raised[0]


def _catch(call):
    try:
        call()
    except BaseException as err:  # noqa: BLE001 - handed back to the test
        return err
    return None


THREADS = [
    ("plug-in", lambda sim: plug_in("6.1", _fn, sim), "plug_in was called from thread 'attacker'"),
    ("run-for", lambda sim: sim.run_for(1), "Simulation.run_for() was called from thread 'attacker'"),
    ("serve", lambda sim: sim.serve(), "Simulation.serve() was called from thread 'attacker'"),
    ("clear-breakpoints", lambda sim: sim.clear_breakpoints(),
     "Simulation.clear_breakpoints() was called from thread 'attacker'"),
    ("inject-kill", lambda sim: sim.inject.kill_scheduler("scheduler-0"),
     "Simulation.apply_external() was called from thread 'attacker'"),
    ("inject-jump-clock", lambda sim: sim.inject.jump_clock(), "Simulation.apply_external() was called from thread"),
    ("start", lambda sim: sim.start(), "Simulation.start() was called from thread 'attacker'"),
]


@pytest.mark.parametrize("call, message", [c[1:] for c in THREADS], ids=[c[0] for c in THREADS])
def test_the_notebook_api_from_another_thread(stepped, call, message):
    history, cursor = [(e.seq, e.stage) for e in stepped.trace], stepped.cursor
    err = _from_thread(lambda: call(stepped))
    assert isinstance(err, WrongThreadError), repr(err)
    assert message in str(err) and "Nothing was changed." in str(err)
    assert [(e.seq, e.stage) for e in stepped.trace] == history and stepped.cursor == cursor
    assert stepped.serving is None


def test_the_session_steps_after_the_attacks(stepped):
    assert stepped.step() is not None


REFUSALS = [
    ("accelerated-engine", lambda: Simulation.from_scenario("three-nodes", seed=1, engine="accelerated"),
     "the simulation runs the 'accelerated' engine, which replaces parts of the mirror with faster code"),
    ("finished", lambda: _finished(), "the simulation has already run to its end (event 167)"),
]


def _finished():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    return sim


@pytest.mark.skipif(not fork_available(), reason="the rehearsal needs os.fork")
@pytest.mark.parametrize("make, message", [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS])
def test_plug_ins_a_simulation_cannot_take_are_refused_and_change_nothing(make, message):
    sim = make()
    history, cursor = [(e.seq, e.stage) for e in sim.trace], sim.cursor
    report = plug_in("6.1", _fn, sim)
    assert report.refused.startswith(message), report.refused
    assert not report.same and "patched" not in str(report)
    assert [(e.seq, e.stage) for e in sim.trace] == history and sim.cursor == cursor


# -- learner functions that attack their own sandbox -----------------------------------------------------

def _kill_parent(entry, max_duration):
    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(2)


def _kill_group(entry, max_duration):
    os.killpg(0, signal.SIGKILL)


def _alarm(entry, max_duration):
    """A learner function: it runs in the sandbox's worker, whose alarm is its own."""
    signal.alarm(1)
    time.sleep(30)


def _ignore_term_and_loop(entry, max_duration):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        pass


_SESSION: list[int] = []


def _setsid_and_fork(entry, max_duration):
    """Leaves the process group (a daemon's double fork): found as the supervisor's orphan."""
    if not _SESSION:
        _SESSION.append(os.fork())
        if _SESSION[0] == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        os.waitpid(_SESSION[0], 0)  # the daemon's parent exits: its child is an orphan now
    return SOLUTION(entry, max_duration)


def _close_stdout(entry, max_duration):
    os.close(1)
    print("nobody hears this")
    return SOLUTION(entry, max_duration)


def _bad_repr(entry, max_duration):
    class Opaque:
        def __repr__(self):
            raise RuntimeError("no repr for you")
    return Opaque()


def _two_args_missing(entry):
    return 1.0


def _custom_base_exception(entry, max_duration):
    class Escape(BaseException):
        pass
    raise Escape("out of the sandbox")


def _recursion(entry, max_duration):
    sys.setrecursionlimit(60)
    def down(n):
        return down(n + 1)
    return down(0)


def _generator(entry, max_duration):
    yield 1.0


def _stderr_flood(entry, max_duration):
    os.write(2, b"e" * 3_000_000)
    return SOLUTION(entry, max_duration)


LEARNERS = [
    ("kills-its-parent", _kill_parent, ERROR,
     "the sandbox's supervisor process was killed by signal SIGKILL before the work ended (did your code kill "
     "its parent process, or its process group?)"),
    ("kills-its-group", _kill_group, ERROR, "the sandbox's supervisor process was killed by signal SIGKILL"),
    ("alarm", _alarm, ERROR, "the process was killed by signal SIGALRM"),
    ("ignores-sigterm", _ignore_term_and_loop, TIMEOUT, "was still running after 2 s (time limit of 2 s reached)"),
    ("setsid-and-fork", _setsid_and_fork, "pass", ""),
    ("closes-stdout", _close_stdout, ERROR, "raised OSError: [Errno 9] Bad file descriptor"),
    ("unprintable-result", _bad_repr, ERROR, "checking the result failed with RuntimeError: no repr for you"),
    ("wrong-arity", _two_args_missing, ERROR,
     "raised TypeError: _two_args_missing() takes 1 positional argument but 2 were given"),
    ("base-exception", _custom_base_exception, ERROR, "raised Escape: out of the sandbox - line"),
    ("recursion", _recursion, ERROR, "raised RecursionError: maximum recursion depth exceeded"),
    ("generator", _generator, WRONG_TYPE, "get_backoff() returned a generator"),
    ("stderr-flood", _stderr_flood, "pass", ""),
]


@pytest.mark.skipif(not fork_available() or not Path("/proc").is_dir(), reason="the sandbox needs os.fork")
@pytest.mark.parametrize("fn, status, message", [c[1:] for c in LEARNERS], ids=[c[0] for c in LEARNERS])
def test_learner_functions_that_attack_the_sandbox(fn, status, message, capfd):
    before = _processes_under_me()
    report = check("8.1", fn, time_limit=2)
    first = report.results[0]
    assert first.status == status, str(report)
    assert message in first.message, first.message
    _no_raw(first.message)
    assert _processes_under_me() == before  # nothing the check started outlived it
    assert check("8.1", SOLUTION).passed  # and this process still checks
    if fn is _setsid_and_fork:
        assert "Your function left 1 process running; it was stopped." in report.notes, report.notes
    if fn is _stderr_flood:
        assert len(capfd.readouterr().err) < 25_000 and "Your code printed" in report.notes[0]


# -- reports stay readable whatever the learner's function hands back --------------------------------

def _huge_exception(pod, meta, node_info):
    raise ValueError("x" * 10_000_000)


def _huge_value(pod, meta, node_info):
    return "y" * 10_000_000, []


HUGE = [
    ("check-huge-exception", lambda: check("6.1", _huge_exception), "raised ValueError: xxxx"),
    ("check-huge-value", lambda: check("6.1", _huge_value), "yyyy"),
    ("plug-in-huge-value", lambda: plug_in("6.1", _huge_value), ""),  # a truthy "fit": no text of it shown
    ("plug-in-huge-exception", lambda: plug_in("6.1", _huge_exception), "ValueError: xxxx"),
]


@pytest.mark.skipif(not fork_available(), reason="the sandbox needs os.fork")
@pytest.mark.parametrize("call, fragment", [c[1:] for c in HUGE], ids=[c[0] for c in HUGE])
def test_a_ten_megabyte_value_or_exception_is_clipped_in_the_report(call, fragment):
    """An exception carrying 10 MB once made an 11-case report 110 MB long."""
    report = call()
    text, page = str(report), report._repr_html_()
    if fragment:
        assert fragment in text and "more characters]" in text
    assert len(text) < 60_000 and len(page) < 70_000, (len(text), len(page))


# -- scenario files: unknown fields at every depth -------------------------------------------------------

_HEAD = "schedulers: [{name: s, flags: ['--leader-elect=false']}]\nobjects:\n"
_NODE = ("  - kind: Node\n    apiVersion: v1\n    metadata: {name: n1, labels: {a: b}}\n"
         "    status: {capacity: {cpu: '4'}, allocatable: {cpu: '4'}}\n")
_POD = ("  - kind: Pod\n    apiVersion: v1\n    metadata: {name: p, namespace: default}\n"
        "    spec:\n      containers:\n        - name: c\n          image: nginx\n")
SCENARIO_FILES = [
    ("node-status-alocatable",
     _HEAD + "  - kind: Node\n    metadata: {name: n1}\n    status: {capacity: {cpu: '4'}, alocatable: {cpu: '4'}}\n",
     "t.yaml: objects[0].status.alocatable: unknown field (expected one of addresses, allocatable, capacity, "
     "conditions, images, nodeInfo, phase); did you mean 'allocatable'?"),
    ("node-spec-unschedulabel",
     _HEAD + "  - kind: Node\n    metadata: {name: n1}\n    spec: {unschedulabel: true}\n",
     "t.yaml: objects[0].spec.unschedulabel: unknown field (expected one of "),
    ("node-metadata-lables",
     _HEAD + "  - kind: Node\n    metadata: {name: n1, lables: {a: b}}\n",
     "t.yaml: objects[0].metadata.lables: unknown field"),
    ("pod-container-resource",
     _HEAD + _NODE + _POD + "          resource: {requests: {cpu: 1}}\n",
     "t.yaml: objects[1].spec.containers[0].resource: unknown field"),
    ("pod-requests-typo",
     _HEAD + _NODE + _POD + "          resources: {request: {cpu: 1}}\n",
     "t.yaml: objects[1].spec.containers[0].resources.request: unknown field (expected one of limits, requests); "
     "did you mean 'requests'?"),
    ("pod-hostport-case",
     _HEAD + _NODE + _POD + "          ports: [{containerPort: 80, hostport: 8080}]\n",
     "t.yaml: objects[1].spec.containers[0].ports[0].hostport: unknown field"),
    ("pod-node-selecter",
     _HEAD + _NODE + _POD + "      nodeSelecter: {a: b}\n",
     "t.yaml: objects[1].spec.nodeSelecter: unknown field"),
    ("pod-toleration-efect",
     _HEAD + _NODE + _POD + "      tolerations: [{key: k, operator: Exists, efect: NoSchedule}]\n",
     "t.yaml: objects[1].spec.tolerations[0].efect: unknown field"),
    ("pod-affinity-typo",
     _HEAD + _NODE + _POD + "      affinity: {nodeAffinity: {requiredDuringScheduling: {}}}\n",
     "t.yaml: objects[1].spec.affinity.nodeAffinity.requiredDuringScheduling: unknown field"),
    ("pod-volume-host-path",
     _HEAD + _NODE + _POD + "      volumes: [{name: v, hostPath: {pth: /tmp}}]\n",
     "t.yaml: objects[1].spec.volumes[0].hostPath.pth: unknown field (expected one of path); did you mean 'path'?"),
    ("pod-status-phse",
     _HEAD + _NODE + _POD + "    status: {phse: Running}\n",
     "t.yaml: objects[1].status.phse: unknown field"),
    ("service-selectr",
     _HEAD + _NODE + "  - kind: Service\n    metadata: {name: s, namespace: default}\n    spec: {selectr: {a: b}}\n",
     "t.yaml: objects[1].spec.selectr: unknown field"),
    ("capital-kind-key",
     _HEAD + "  - kind: Node\n    Kind: Node\n    metadata: {name: n1}\n",
     "t.yaml: objects[0].Kind: unknown field"),
    ("timeline-create-typo",
     _HEAD + _NODE + "timeline:\n  - at: 1\n    create: {kind: Pod, metadata: {name: late, namespace: default}, "
     "spec: {containers: [{name: c, imag: nginx}]}}\n",
     "t.yaml: timeline[0].create.spec.containers[0].imag: unknown field"),
]


@pytest.mark.parametrize("text, message", [c[1:] for c in SCENARIO_FILES], ids=[c[0] for c in SCENARIO_FILES])
def test_scenario_files_are_strict_at_every_depth(text, message):
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source="t.yaml")
    assert str(info.value).startswith(message), str(info.value)
    _no_raw(str(info.value))


def test_the_objects_a_client_sends_stay_lenient_as_in_1_6():
    """The HTTP face decodes as 1.6's API server did: an unknown key is ignored, not an error."""
    from kschedlearn.api.v1.yaml_load import decode_manifest

    node = decode_manifest({"kind": "Node", "metadata": {"name": "n"}, "status": {"alocatable": {"cpu": "1"}}})
    assert node.status.allocatable == {}


def test_the_corpus_is_large():
    total = (len(SERVE_USAGE) + len(SERVE_ERRORS) + len(EXERCISE_API) + len(THREADS) + 1 + len(REFUSALS)
             + len(LEARNERS) + len(HUGE) + len(SCENARIO_FILES) + 1)
    assert total >= 60, total
