"""Ready-made clusters and workloads (YAML), and the kubelet simulation."""
