"""Fit predicates of the v1.6.1 scheduler.

Go: plugin/pkg/scheduler/algorithm/predicates
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/algorithm/predicates

Modules mirror the Go files: ``predicates`` (predicates.go), ``error`` (error.go),
``metadata`` (metadata.go), ``utils`` (utils.go).
"""
