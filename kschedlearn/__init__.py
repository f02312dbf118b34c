"""kschedlearn: run the Kubernetes v1.6.1 scheduler step by step."""
