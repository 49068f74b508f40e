#!/usr/bin/env python3
"""kafka-python 3.0.12 client of the interop matrix (contract: ../README.md).

    kafka_python_client.py produce --bootstrap HOST:PORT --producer P --topic T
                                   --codec none|gzip|snappy|lz4|zstd --count N
    kafka_python_client.py consume --bootstrap HOST:PORT --topics T1,T2,...
                                   --mode assign --expect N
    kafka_python_client.py consume --bootstrap HOST:PORT --topics T1,T2,...
                                   --mode group --group G --expect N
    (each also takes --timeout SECONDS, default 60)

Run it with $CACHE/producers-venv/bin/python (kafka-python, python-snappy,
lz4, zstandard). stdout carries only the contract's JSON lines; kafka-python's
logging (WARNING and up) goes to stderr.

Choices made here:
- produce: acks=all, idempotent (kafka-python 3.x's default: InitProducerId,
  then sequence numbers the broker checks), and
  max_in_flight_requests_per_connection=1, so that a retry cannot reorder
  messages within a partition. linger_ms=10.
- consume: auto commit off, fetch_max_wait_ms=100, session 10 s with a 1 s
  heartbeat, allow_auto_create_topics=False (a consumer must not create a
  missing topic). poll() is asked for at most the number of messages still
  missing, so nothing beyond the N-th is ever handed out.
"""

import logging
import os
import sys
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import spec  # noqa: E402  (imported first: starts the --timeout clock)

from kafka import KafkaConsumer, KafkaProducer  # noqa: E402
from kafka.structs import OffsetAndMetadata, TopicPartition  # noqa: E402

PROG = "kafka-python"


def log(msg):
    spec.log(PROG, msg)


# --------------------------------------------------------------- produce --

def produce(args, out, deadline):
    budget = deadline.left(1.0)
    producer = KafkaProducer(
        bootstrap_servers=args.bootstrap, client_id="matrix-kafka-python",
        acks="all", enable_idempotence=True, max_in_flight_requests_per_connection=1,
        compression_type=None if args.codec == "none" else args.codec,
        linger_ms=10, request_timeout_ms=spec.ms(min(15, budget / 2)),
        delivery_timeout_ms=spec.ms(budget), max_block_ms=spec.ms(budget),
        bootstrap_timeout_ms=spec.ms(budget))
    errors = []
    lock = threading.Lock()  # callbacks run on kafka-python's IO thread,
    # or at once in this thread if the future is already done

    def acked(_metadata):
        with lock:
            out.acked += 1

    def failed(exc):
        errors.append(exc)
        if len(errors) <= 5:
            log("send failed: %r" % (exc,))

    t0 = time.monotonic()
    for i in range(args.count):
        k, v, h = spec.message(args.producer, args.codec, i)
        producer.send(args.topic, key=k, value=v, headers=h).add_callback(acked) \
            .add_errback(failed)
    try:
        producer.flush(timeout=deadline.left(1.0))
    except Exception as e:  # KafkaTimeoutError
        log("flush: %r" % (e,))
    log("%d of %d acked, %d failed, in %.2fs"
        % (out.acked, args.count, len(errors), time.monotonic() - t0))
    producer.close(timeout=deadline.left(0.5))
    return out.acked == args.count


# --------------------------------------------------------------- consume --

def partitions(consumer, topic, deadline):
    """Partition ids of topic from metadata, retried for up to 10 s."""
    give_up = time.monotonic() + min(10.0, deadline.left(deadline.reserve_for_close()))
    while True:
        ids = consumer.partitions_for_topic(topic)
        if ids or time.monotonic() >= give_up:
            return sorted(ids or ())
        time.sleep(0.2)


def consume(args, out, deadline):
    group = args.mode == "group"
    reserve = deadline.reserve_for_close()
    budget = deadline.left(reserve)
    consumer = KafkaConsumer(
        bootstrap_servers=args.bootstrap, client_id="matrix-kafka-python",
        group_id=args.group if group else None,
        auto_offset_reset="earliest", enable_auto_commit=False,
        allow_auto_create_topics=False, fetch_max_wait_ms=100,
        session_timeout_ms=10000, heartbeat_interval_ms=1000,
        request_timeout_ms=spec.ms(max(1, min(15, budget))), bootstrap_timeout_ms=spec.ms(budget))
    t0 = time.monotonic()
    if group:
        consumer.subscribe(topics=args.topics)
    else:
        tps = []
        for topic in args.topics:
            ids = partitions(consumer, topic, deadline)
            if not ids:
                log("no partitions known for topic %r" % topic)
            tps += [TopicPartition(topic, p) for p in ids]
        consumer.assign(tps)
        consumer.seek_to_beginning()

    last = {}  # TopicPartition -> offset of the last message processed
    while out.read < args.expect:
        left = deadline.left(reserve)
        if left <= 0:
            log("timeout after %d of %d messages" % (out.read, args.expect))
            break
        batches = consumer.poll(timeout_ms=spec.ms(min(0.5, left)),
                                max_records=args.expect - out.read)
        out.batches(batches, args.expect, last)
    log("read %d of %d in %.2fs" % (out.read, args.expect, time.monotonic() - t0))

    ok = out.read == args.expect
    if group and last:
        offsets = {tp: OffsetAndMetadata(o + 1, "", -1) for tp, o in last.items()}
        try:
            consumer.commit(offsets, timeout_ms=spec.ms(deadline.left(0.5) / 2))
            log("committed %s" % ", ".join("%s/%d@%d" % (tp.topic, tp.partition, om.offset)
                                           for tp, om in sorted(offsets.items())))
        except Exception as e:
            log("commit failed: %r" % (e,))
            ok = False
    consumer.close(autocommit=False, timeout_ms=spec.ms(deadline.left(0.5)))
    return ok


def main():
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format=PROG + ": %(name)s %(levelname)s %(message)s")
    spec.main(PROG, produce, consume)


if __name__ == "__main__":
    main()
