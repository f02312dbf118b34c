"""A learner function that raises, returns the wrong type or never returns gets a clear message
within the time limit, and the interpreter (and the mirrored code) keep working."""

from __future__ import annotations

import time

from kschedlearn.exercises import check, get_task, plug_in
from kschedlearn.exercises.framework import ERROR, TIMEOUT, WRONG_TYPE


def test_raising_function_shows_its_own_frame_only():
    def select_host(g, priority_list):
        hosts = [hp.host for hp in priority_list]
        return hosts[99]

    report = check("7.3", select_host)
    r = report.results[0]
    assert r.status == ERROR
    assert "IndexError: list index out of range" in r.message
    assert "return hosts[99]" in r.message and "select_host()" in r.message
    assert "generic_scheduler" not in r.message and "framework.py" not in r.message


def test_wrong_type_is_named():
    report = check("7.1", lambda pod, meta, node_info: 7)
    assert {r.status for r in report.results} == {WRONG_TYPE}
    assert "returned a int (7), but it must return a HostPriority" in report.results[0].message


def test_infinite_loop_is_stopped_within_the_limit():
    def get_backoff(entry, max_duration):
        while True:
            pass

    start = time.monotonic()
    report = check("8.1", get_backoff, time_limit=0.2)
    assert time.monotonic() - start < 0.2 * len(report.results) + 1.5
    assert {r.status for r in report.results} == {TIMEOUT}
    assert "still running after 0.2 s" in report.results[0].message
    # the interpreter and the real code still work
    assert check("8.1", get_task("8.1").load_solution()).passed


def test_except_exception_cannot_swallow_the_time_limit():
    def get_backoff(entry, max_duration):
        while True:
            try:
                while True:
                    pass
            except Exception:
                continue

    report = check("8.1", get_backoff, time_limit=0.1)
    assert {r.status for r in report.results} == {TIMEOUT}


def test_plug_in_survives_a_broken_function():
    def select_host(g, priority_list):
        raise RuntimeError("boom")

    report = plug_in("7.3", select_host)
    assert report.changed and all("RuntimeError: boom" in yours for _, ref, yours in report.rows if ref != yours)
    assert plug_in("7.3", get_task("7.3").load_solution()).changed == ()


def test_text_and_html_rendering_explain_failures():
    report = check("8.1", lambda entry, max_duration: 1.0)
    text, html = str(report), report._repr_html_()
    assert "expected" in text and "got" in text
    assert "<table>" in html and "expected" in html
