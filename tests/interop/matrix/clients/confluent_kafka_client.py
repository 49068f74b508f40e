#!/usr/bin/env python3
"""confluent-kafka 2.16.1 (librdkafka 2.16.0) client of the interop matrix
(contract: ../README.md).

    confluent_kafka_client.py produce --bootstrap HOST:PORT --producer P --topic T
                                      --codec none|gzip|snappy|lz4|zstd --count N
    confluent_kafka_client.py consume --bootstrap HOST:PORT --topics T1,T2,...
                                      --mode assign --expect N
    confluent_kafka_client.py consume --bootstrap HOST:PORT --topics T1,T2,...
                                      --mode group --group G --expect N
    (each also takes --timeout SECONDS, default 60)

Run it with $CACHE/producers-venv/bin/python. stdout carries only the
contract's JSON lines; librdkafka logs to stderr.

Choices made here:
- produce: acks=all, enable.idempotence=true (InitProducerId, then sequence
  numbers the broker checks; kafka-python is the other idempotent producer of
  the matrix) and max.in.flight.requests.per.connection=1, so that a retry
  cannot reorder messages within a partition. linger.ms=10.
- consume: enable.auto.commit=false, fetch.wait.max.ms=100, session 10 s
  with a 1 s heartbeat. Consumer.consume() is asked for at most the number of
  messages still missing, so nothing beyond the N-th is handed out.
  confluent-kafka refuses a Consumer without group.id even for assign(), so
  --mode assign uses a throwaway group id; it never joins or commits.
"""

import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import spec  # noqa: E402  (imported first: starts the --timeout clock)

from confluent_kafka import (OFFSET_BEGINNING, Consumer, KafkaException,  # noqa: E402
                             Producer, TopicPartition)

PROG = "confluent-kafka"


def log(msg):
    spec.log(PROG, msg)


# --------------------------------------------------------------- produce --

def produce(args, out, deadline):
    budget = deadline.left(1.0)
    producer = Producer({
        "bootstrap.servers": args.bootstrap, "client.id": "matrix-confluent-kafka",
        "acks": "all", "enable.idempotence": True,
        "max.in.flight.requests.per.connection": 1,
        "compression.codec": args.codec, "linger.ms": 10,
        "message.timeout.ms": spec.ms(budget), "socket.timeout.ms": spec.ms(min(15, budget)),
    })
    errors = []

    def delivered(err, _msg):  # runs inside poll() / flush(), main thread
        if err is None:
            out.acked += 1
            return
        errors.append(err)
        if len(errors) <= 5:
            log("delivery failed: %s" % err)

    t0 = time.monotonic()
    for i in range(args.count):
        k, v, h = spec.message(args.producer, args.codec, i)
        while True:
            try:
                producer.produce(args.topic, key=k, value=v, headers=h, on_delivery=delivered)
                break
            except BufferError:  # local queue full: serve callbacks, retry
                producer.poll(0.1)
        producer.poll(0)
    left = producer.flush(deadline.left(0.5))
    log("%d of %d acked, %d failed, %d still queued, in %.2fs"
        % (out.acked, args.count, len(errors), left, time.monotonic() - t0))
    return out.acked == args.count


# --------------------------------------------------------------- consume --

def partitions(consumer, topic, deadline):
    """Partition ids of topic from metadata, retried for up to 10 s."""
    give_up = time.monotonic() + min(10.0, deadline.left(deadline.reserve_for_close()))
    while True:
        error = None
        try:
            md = consumer.list_topics(topic, timeout=max(0.1, give_up - time.monotonic()))
            t = md.topics.get(topic)
            if t is not None and t.error is None and t.partitions:
                return sorted(t.partitions)
            error = t.error if t is not None else "not in the reply"
        except KafkaException as e:
            error = e
        if time.monotonic() >= give_up:
            log("no partitions for topic %r: %s" % (topic, error))
            return []
        time.sleep(0.2)


def consume(args, out, deadline):
    group = args.mode == "group"
    reserve = deadline.reserve_for_close()
    consumer = Consumer({
        "bootstrap.servers": args.bootstrap, "client.id": "matrix-confluent-kafka",
        "group.id": args.group if group else "matrix-assign-%d" % os.getpid(),
        "enable.auto.commit": False, "auto.offset.reset": "earliest",
        "fetch.wait.max.ms": 100, "session.timeout.ms": 10000,
        "heartbeat.interval.ms": 1000,
    })
    t0 = time.monotonic()
    if group:
        consumer.subscribe(args.topics)
    else:
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING)
                         for topic in args.topics
                         for p in partitions(consumer, topic, deadline)])

    last = {}  # (topic, partition) -> offset of the last message processed
    errors = 0
    while out.read < args.expect:
        left = deadline.left(reserve)
        if left <= 0:
            log("timeout after %d of %d messages" % (out.read, args.expect))
            break
        for m in consumer.consume(num_messages=args.expect - out.read,
                                  timeout=min(0.5, left)):
            if m.error() is not None:
                errors += 1
                if errors <= 5:
                    log("consume error: %s" % m.error())
                continue
            if out.read >= args.expect:
                break  # beyond the N-th: dropped
            out.message(m.topic(), m.partition(), m.offset(), m.key(), m.value(), m.headers())
            last[(m.topic(), m.partition())] = m.offset()
    log("read %d of %d in %.2fs" % (out.read, args.expect, time.monotonic() - t0))

    ok = out.read == args.expect
    if group and last:
        offsets = [TopicPartition(t, p, o + 1) for (t, p), o in sorted(last.items())]
        try:
            result = consumer.commit(offsets=offsets, asynchronous=False)
            failed = [tp for tp in result or () if tp.error is not None]
            if failed:
                raise KafkaException(failed[0].error)
            log("committed %s" % ", ".join("%s/%d@%d" % (tp.topic, tp.partition, tp.offset)
                                           for tp in offsets))
        except KafkaException as e:
            log("commit failed: %s" % (e,))
            ok = False
    consumer.close()
    return ok


def main():
    spec.main(PROG, produce, consume)


if __name__ == "__main__":
    main()
