"""Builds a scheduler Config from a provider name or a Policy.

Go: plugin/pkg/scheduler/factory (factory.go: ConfigFactory; plugins.go: the algorithm registry)
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/factory

Import the modules directly: ``kschedlearn.scheduler.factory.plugins`` (registry) and
``kschedlearn.scheduler.factory.factory`` (ConfigFactory).
"""
