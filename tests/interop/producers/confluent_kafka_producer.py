#!/usr/bin/env python3
"""confluent-kafka (librdkafka): send the 5 records of spec.py in one batch.

    confluent_kafka_producer.py HOST:PORT CODEC [--idempotent]

CODEC is none, gzip, snappy, lz4 or zstd.
"""
import sys

import confluent_kafka
from confluent_kafka import Producer

from spec import PARTITION, RECORDS, TOPIC


def main(bootstrap, codec, idempotent):
    print("confluent-kafka", confluent_kafka.version(), "librdkafka",
          confluent_kafka.libversion()[0], codec, "idempotent" if idempotent else "", flush=True)
    conf = {
        "bootstrap.servers": bootstrap,
        "client.id": "fixtures-librdkafka",
        "compression.codec": codec,
        "enable.idempotence": idempotent,
        "acks": "all",
        "linger.ms": 1000,
        "message.timeout.ms": 10000,
        "socket.timeout.ms": 5000,
    }
    p = Producer(conf)
    delivered = []
    for k, v, h, ts in RECORDS:
        p.produce(TOPIC, value=v, key=k, partition=PARTITION, timestamp=ts, headers=h,
                  on_delivery=lambda err, msg: delivered.append((err, msg.offset(), msg.timestamp())))
    left = p.flush(15)
    for d in delivered:
        print("delivered", d, flush=True)
    print("left in queue:", left, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--idempotent" in sys.argv[3:])
