#!/usr/bin/env python3
"""kafka-python: send the 5 records of spec.py in one batch.

    kafka_python_producer.py HOST:PORT CODEC [--idempotent]

CODEC is none, gzip, snappy, lz4 or zstd. kafka-python 3.x turns idempotence
on by default, so it is switched off explicitly unless --idempotent is given.
Record 4's header h2 is sent as b"" and not null: KafkaProducer.send() only
takes (str, bytes) header tuples (TypeError for a None value), although its
record encoder could write a null header value.
"""
import sys

import kafka
from kafka import KafkaProducer

from spec import PARTITION, RECORDS, TOPIC


def main(bootstrap, codec, idempotent):
    print("kafka-python", kafka.__version__, codec, "idempotent" if idempotent else "", flush=True)
    p = KafkaProducer(bootstrap_servers=bootstrap, client_id="fixtures-kafka-python",
                      compression_type=None if codec == "none" else codec,
                      enable_idempotence=idempotent, acks="all", linger_ms=1000,
                      retries=0 if not idempotent else float("inf"),
                      request_timeout_ms=5000, max_block_ms=10000)
    records = [(k, v, [(hk, b"" if hv is None else hv) for hk, hv in h], ts)
               for k, v, h, ts in RECORDS]
    futures = [p.send(TOPIC, key=k, value=v, headers=h, partition=PARTITION, timestamp_ms=ts)
               for k, v, h, ts in records]
    p.flush(10)
    for f in futures:
        md = f.get(5)
        print("offset", md.offset, "timestamp", md.timestamp, flush=True)
    p.close(5)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--idempotent" in sys.argv[3:])
