"""Tests for kube-scheduler's options: defaults, flag parsing, pflag's error texts, --help.

Go: plugin/cmd/kube-scheduler/app/options/options.go (no Go test file in 1.6); expected values
come from spec §1.2-§1.3 and pflag/strconv/time behaviour.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.apis.componentconfig.duration import DurationError, format_duration, parse_duration
from kschedlearn.cmd.kube_scheduler.app.options import (
    FlagError,
    HelpRequested,
    new_flag_set,
    new_scheduler_server,
    parse_args,
    usage,
)

FAILURE_DOMAINS = ("kubernetes.io/hostname,failure-domain.beta.kubernetes.io/zone,"
                   "failure-domain.beta.kubernetes.io/region")

DEFAULTS = {
    "port": 10251,
    "address": "0.0.0.0",
    "algorithm_provider": "DefaultProvider",
    "policy_config_file": "",
    "enable_profiling": True,
    "enable_contention_profiling": False,
    "master": "",
    "kubeconfig": "",
    "content_type": "application/vnd.kubernetes.protobuf",
    "kube_api_qps": 50.0,
    "kube_api_burst": 100,
    "scheduler_name": "default-scheduler",
    "hard_pod_affinity_symmetric_weight": 1,
    "failure_domains": FAILURE_DOMAINS,
    "leader_election.leader_elect": True,
    "leader_election.lease_duration": 15.0,
    "leader_election.renew_deadline": 10.0,
    "leader_election.retry_period": 2.0,
}


def _get(s: Any, path: str) -> Any:
    for part in path.split("."):
        s = getattr(s, part)
    return s


@pytest.mark.parametrize("field, expected", list(DEFAULTS.items()), ids=list(DEFAULTS))
def test_defaults_after_add_flags(field: str, expected: Any) -> None:
    assert _get(parse_args([]), field) == expected


def test_new_scheduler_server_forces_leader_elect_before_flags() -> None:
    s = new_scheduler_server()
    assert s.leader_election.leader_elect is True
    assert (s.port, s.scheduler_name, s.hard_pod_affinity_symmetric_weight) == (10251, "default-scheduler", 1)
    # profiling has no struct default in 1.6: its flag's literal default sets it
    assert s.enable_profiling is False
    new_flag_set(s)
    assert s.enable_profiling is True


PARSE_CASES = [
    ("--port=1234", "port", 1234),
    ("--port=0x10", "port", 16),
    ("--address=127.0.0.1", "address", "127.0.0.1"),
    ("--algorithm-provider=ClusterAutoscalerProvider", "algorithm_provider", "ClusterAutoscalerProvider"),
    ("--policy-config-file=/etc/policy.json", "policy_config_file", "/etc/policy.json"),
    ("--profiling=false", "enable_profiling", False),
    ("--contention-profiling", "enable_contention_profiling", True),
    ("--master=http://127.0.0.1:8080", "master", "http://127.0.0.1:8080"),
    ("--kubeconfig=/k", "kubeconfig", "/k"),
    ("--kube-api-content-type=application/json", "content_type", "application/json"),
    ("--kube-api-qps=0.5", "kube_api_qps", 0.5),
    ("--kube-api-burst=7", "kube_api_burst", 7),
    ("--scheduler-name=my-scheduler", "scheduler_name", "my-scheduler"),
    ("--hard-pod-affinity-symmetric-weight=101", "hard_pod_affinity_symmetric_weight", 101),
    ("--failure-domains=a,b", "failure_domains", "a,b"),
    ("--leader-elect=false", "leader_election.leader_elect", False),
    ("--leader-elect=F", "leader_election.leader_elect", False),
    ("--leader-elect=0", "leader_election.leader_elect", False),
    ("--leader-elect", "leader_election.leader_elect", True),
    ("--leader_elect=false", "leader_election.leader_elect", False),
    ("--leader-elect-lease-duration=1m30s", "leader_election.lease_duration", 90.0),
    ("--leader-elect-renew-deadline=1.5s", "leader_election.renew_deadline", 1.5),
    ("--leader-elect-retry-period=500ms", "leader_election.retry_period", 0.5),
    ("--leader-elect-lease-duration=1h", "leader_election.lease_duration", 3600.0),
]


@pytest.mark.parametrize("arg, field, expected", PARSE_CASES, ids=[c[0] for c in PARSE_CASES])
def test_parse_flag(arg: str, field: str, expected: Any) -> None:
    assert _get(parse_args([arg]), field) == expected


def test_parse_args_into_given_server() -> None:
    s = new_scheduler_server()
    assert parse_args(["--port=5"], s) is s and s.port == 5


def test_separate_value_and_qps_is_float32() -> None:
    s = parse_args(["--port", "99", "--kube-api-qps", "0.1", "--scheduler-name", "x"])
    assert (s.port, s.scheduler_name) == (99, "x")
    assert s.kube_api_qps == pytest.approx(0.1) and s.kube_api_qps != 0.1  # float32, as Go stores it


def test_bool_flag_takes_no_separate_value() -> None:
    s = new_scheduler_server()
    fs = new_flag_set(s)
    fs.parse(["--leader-elect", "false"])
    assert s.leader_election.leader_elect is True
    assert fs.args() == ["false"]


def test_double_dash_ends_flags() -> None:
    s = new_scheduler_server()
    fs = new_flag_set(s)
    fs.parse(["--port=1", "--", "--port=2"])
    assert s.port == 1 and fs.args() == ["--port=2"]


def test_deprecated_flag_warns() -> None:
    s = new_scheduler_server()
    fs = new_flag_set(s)
    fs.parse(["--failure-domains=x"])
    assert fs.warnings == ["Flag --failure-domains has been deprecated, "
                           "Doesn't have any effect. Will be removed in future version."]


def test_feature_gates() -> None:
    s = parse_args(["--feature-gates=AffinityInAnnotations=true"])
    assert s.feature_gates.enabled("AffinityInAnnotations") is True
    assert s.feature_gates.enabled("Accelerators") is False
    s = parse_args(["--feature-gates=AllAlpha=true,Accelerators=false"])
    assert s.feature_gates.enabled("AffinityInAnnotations") is True
    assert s.feature_gates.enabled("Accelerators") is False
    assert s.feature_gates.string() == "Accelerators=false,AffinityInAnnotations=true,AllAlpha=true"


ERROR_CASES = [
    (["--leader-elect=maybe"],
     'invalid argument "maybe" for --leader-elect=maybe: strconv.ParseBool: parsing "maybe": invalid syntax'),
    (["--port=http"], 'invalid argument "http" for --port=http: strconv.ParseInt: parsing "http": invalid syntax'),
    (["--port", "http"], 'invalid argument "http" for --port: strconv.ParseInt: parsing "http": invalid syntax'),
    (["--port=99999999999"],
     'invalid argument "99999999999" for --port=99999999999: strconv.ParseInt: parsing "99999999999": value out of range'),
    (["--kube-api-qps=fast"],
     'invalid argument "fast" for --kube-api-qps=fast: strconv.ParseFloat: parsing "fast": invalid syntax'),
    (["--hard-pod-affinity-symmetric-weight=1.5"],
     'invalid argument "1.5" for --hard-pod-affinity-symmetric-weight=1.5: strconv.ParseInt: parsing "1.5": invalid syntax'),
    (["--leader-elect-lease-duration=15"],
     'invalid argument "15" for --leader-elect-lease-duration=15: time: missing unit in duration 15'),
    (["--leader-elect-lease-duration=15x"],
     'invalid argument "15x" for --leader-elect-lease-duration=15x: time: unknown unit x in duration 15x'),
    (["--leader-elect-lease-duration=soon"],
     'invalid argument "soon" for --leader-elect-lease-duration=soon: time: invalid duration soon'),
    (["--feature-gates=Bogus=true"],
     'invalid argument "Bogus=true" for --feature-gates=Bogus=true: unrecognized key: Bogus'),
    (["--feature-gates=Accelerators"],
     'invalid argument "Accelerators" for --feature-gates=Accelerators: missing bool value for Accelerators'),
    (["--foo"], "unknown flag: --foo"),
    (["--foo=1"], "unknown flag: --foo"),
    (["--port"], "flag needs an argument: --port"),
    (["---port"], "bad flag syntax: ---port"),
    (["-port"], "unknown shorthand flag: 'p' in -port"),
]


@pytest.mark.parametrize("argv, message", ERROR_CASES, ids=[" ".join(c[0]) for c in ERROR_CASES])
def test_parse_errors(argv: list[str], message: str) -> None:
    with pytest.raises(FlagError) as info:
        parse_args(argv)
    assert info.value.message == str(info.value) == message
    assert info.value.exit_code == 2
    assert info.value.usage.startswith("Usage of kube-scheduler:\n")


def test_range_of_hard_pod_affinity_weight_is_not_checked_at_parse_time() -> None:
    assert parse_args(["--hard-pod-affinity-symmetric-weight=-5"]).hard_pod_affinity_symmetric_weight == -5


@pytest.mark.parametrize("argv", [["--help"], ["-h"]], ids=["--help", "-h"])
def test_help(argv: list[str]) -> None:
    with pytest.raises(HelpRequested) as info:
        parse_args(argv)
    assert info.value.usage == usage()


FLAGS = ["address", "algorithm-provider", "contention-profiling", "feature-gates",
         "hard-pod-affinity-symmetric-weight", "kube-api-burst", "kube-api-content-type", "kube-api-qps",
         "kubeconfig", "leader-elect", "leader-elect-lease-duration", "leader-elect-renew-deadline",
         "leader-elect-retry-period", "master", "policy-config-file", "port", "profiling", "scheduler-name"]


def test_help_lists_every_flag_sorted_with_defaults() -> None:
    text = usage()
    lines = text.splitlines()
    assert lines[0] == "Usage of kube-scheduler:"
    listed = [line.split()[0][2:] for line in lines[1:] if line.startswith("      --")]
    assert listed == FLAGS  # pflag hides deprecated flags: --failure-domains is not listed
    assert "--failure-domains" not in text
    for fragment in [
        '--port int32', "(default 10251)", '(default "0.0.0.0")', '(default "DefaultProvider")',
        "ClusterAutoscalerProvider | DefaultProvider", "--kube-api-qps float32", "(default 50)",
        "(default 100)", '(default "default-scheduler")', '(default "application/vnd.kubernetes.protobuf")',
        "--leader-elect-lease-duration duration", "(default 15s)", "(default 10s)", "(default 2s)",
        "--hard-pod-affinity-symmetric-weight int ", "(default 1)", "--feature-gates mapStringBool",
        "AffinityInAnnotations=true|false (ALPHA - default=false)",
    ]:
        assert fragment in text, fragment
    profiling = next(line for line in lines if line.startswith("      --profiling "))
    assert profiling.endswith("host:port/debug/pprof/ (default true)")
    contention = next(line for line in lines if line.startswith("      --contention-profiling "))
    assert "(default" not in contention  # false is the zero value
    policy = next(line for line in lines if line.startswith("      --policy-config-file "))
    assert policy.endswith("File with scheduler policy configuration")
    # usage text starts in one column, three spaces after the longest flag
    longest = "      --hard-pod-affinity-symmetric-weight int"
    assert lines[1].index("The IP") == len(longest) + 3


@pytest.mark.parametrize("text, seconds", [
    ("0", 0.0), ("15s", 15.0), ("1m30s", 90.0), ("1.5h", 5400.0), ("300ms", 0.3), ("-2s", -2.0),
    ("+1s", 1.0), ("1h2m3s4ms", 3723.004), ("2\u00b5s", 2e-6), (".5s", 0.5),
])
def test_parse_duration(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text, message", [
    ("", "time: invalid duration "), ("s", "time: invalid duration s"), (".s", "time: invalid duration .s"),
    ("1", "time: missing unit in duration 1"), ("1d", "time: unknown unit d in duration 1d"),
    ("1s2", "time: missing unit in duration 1s2"),
])
def test_parse_duration_errors(text: str, message: str) -> None:
    with pytest.raises(DurationError) as info:
        parse_duration(text)
    assert str(info.value) == message


@pytest.mark.parametrize("seconds, text", [
    (0.0, "0s"), (15.0, "15s"), (90.0, "1m30s"), (3600.0, "1h0m0s"), (0.5, "500ms"), (1.5, "1.5s"),
    (2e-6, "2\u00b5s"), (1e-9, "1ns"), (-2.0, "-2s"),
])
def test_format_duration(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(-(10**15), 10**15))
def test_duration_text_round_trips(ns: int) -> None:
    seconds = ns / 1e9
    assert round(parse_duration(format_duration(seconds)) * 1e9) == ns


def test_configz_form_of_the_configuration() -> None:
    d = parse_args(["--leader-elect-lease-duration=1m"]).to_dict()
    assert d["port"] == 10251 and d["schedulerName"] == "default-scheduler"
    assert d["leaderElection"] == {"leaderElect": True, "leaseDuration": "1m0s", "renewDeadline": "10s",
                                   "retryPeriod": "2s"}
