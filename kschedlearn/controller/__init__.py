"""The controllers of 1.6's kube-controller-manager that create, adopt, delete and count pods.

Go: pkg/controller (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/controller):
``controller_utils.go`` (pod control, expectations, sort orders), ``controller_ref_manager.go``
(adoption and release through ControllerRefs), and the packages ``replication``,
``replicaset``, ``deployment`` (+ ``util``), ``daemon`` (+ ``util``) and ``statefulset``.
The controllers run inside the simulated kube-controller-manager process
(:mod:`kschedlearn.cmd.kube_controller_manager`).
"""
