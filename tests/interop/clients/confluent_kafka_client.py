#!/usr/bin/env python3
"""confluent-kafka (librdkafka): AdminClient.list_topics against BOOTSTRAP."""
import sys
import confluent_kafka
from confluent_kafka.admin import AdminClient

bootstrap = sys.argv[1]
print("confluent-kafka", confluent_kafka.version(), "librdkafka", confluent_kafka.libversion(), flush=True)
admin = AdminClient({"bootstrap.servers": bootstrap, "client.id": "interop-confluent"})
try:
    md = admin.list_topics(timeout=3)
    print("brokers:", md.brokers, "topics:", list(md.topics), flush=True)
except Exception as e:
    print("error:", repr(e), flush=True)
