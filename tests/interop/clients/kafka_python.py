#!/usr/bin/env python3
"""kafka-python: bootstrap an admin client against BOOTSTRAP (host:port)."""
import sys
import kafka
from kafka import KafkaAdminClient

bootstrap = sys.argv[1]
print("kafka-python", kafka.__version__, flush=True)
try:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="interop-kafka-python",
                             request_timeout_ms=3000, bootstrap_timeout_ms=5000)
    print("cluster:", admin.describe_cluster(), flush=True)
    admin.close()
except Exception as e:  # the capture server is not a real broker
    print("error:", repr(e), flush=True)
