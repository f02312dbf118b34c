"""Go-style formatting and the glog shim."""

from __future__ import annotations

import pytest

from kschedlearn import sim, trace
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf


@pytest.mark.parametrize(
    ("fmt", "args", "expected"),
    [
        ("pod %v state wasn't initial but get assumed", ("default/p",), "pod default/p state wasn't initial but get assumed"),
        ("pod %v is already assigned to node %q", ("p", "n1"), 'pod p is already assigned to node "n1"'),
        ("%d%%", (50,), "50%"),
        ("%v %v %v", (None, True, [1, 2]), "<nil> true [1 2]"),
        ("%s/%s", ("a",), "a/%!s(MISSING)"),
        ("%5d|%-4s|", (42, "ab"), "   42|ab  |"),
        ("%.2f", (1.005,), "1.00"),
    ],
)
def test_sprintf(fmt: str, args: tuple[object, ...], expected: str) -> None:
    assert sprintf(fmt, *args) == expected


def test_glog_records_events_up_to_the_verbosity() -> None:
    rt = sim.Runtime()
    rt.tracer = trace.Tracer(log_verbosity=3)

    def body() -> bool:
        glog.v(2).infof("shown %d", 2)
        glog.v(4).infof("hidden %d", 4)
        glog.errorf("bad: %v", "x")
        return bool(glog.v(3)), bool(glog.v(5))

    assert rt.run_fn(body) == (True, False)
    logs = [(e.data["level"], e.message) for e in rt.tracer.events if e.stage == "log"]
    assert logs == [("INFO", "shown 2"), ("ERROR", "bad: x")]


def test_glog_outside_a_runtime_uses_python_logging(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("DEBUG", logger="kschedlearn.glog"):
        glog.warningf("careful %s", "now")
    assert "careful now" in caplog.text
    with pytest.raises(glog.FatalError, match="corrupted"):
        glog.fatalf("Schedulercache is corrupted")


class _Counted:
    """An argument that counts how often it is formatted (``%v`` calls ``str``)."""

    def __init__(self) -> None:
        self.formatted = 0

    def __str__(self) -> str:
        self.formatted += 1
        return "counted"


def test_a_disabled_v_line_is_not_formatted() -> None:
    # Go: Verbose.Infof on a false V returns before fmt runs (glog.go#L1043-L1047)
    rt = sim.Runtime(seed=1)
    rt.tracer = trace.Tracer(log_verbosity=3)
    hidden, shown = _Counted(), _Counted()

    def body() -> None:
        glog.v(5).infof("hidden %v", hidden)
        glog.v(2).infof("shown %v", shown)

    rt.run_fn(body)
    assert (hidden.formatted, shown.formatted) == (0, 1)
    assert [e.message for e in rt.tracer.events if e.stage == "log"] == ["shown counted"]


def test_outside_a_runtime_a_disabled_python_level_is_not_formatted(caplog: pytest.LogCaptureFixture) -> None:
    arg = _Counted()
    with caplog.at_level("INFO", logger="kschedlearn.glog"):
        glog.v(4).infof("debug-level %v", arg)  # INFO lines go to logging.DEBUG
        glog.warningf("kept %v", arg)
    assert arg.formatted == 1
    assert "kept counted" in caplog.text and "debug-level" not in caplog.text
