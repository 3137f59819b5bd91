"""One service of one process or several: the cluster (local or over Redis), the bus and its messages."""
