#!/usr/bin/env python3
"""aiokafka 0.14.0 client of the interop matrix (contract: ../README.md).

    aiokafka_client.py produce --bootstrap HOST:PORT --producer P --topic T
                               --codec none|gzip|snappy|lz4|zstd --count N
    aiokafka_client.py consume --bootstrap HOST:PORT --topics T1,T2,...
                               --mode assign --expect N
    aiokafka_client.py consume --bootstrap HOST:PORT --topics T1,T2,...
                               --mode group --group G --expect N
    (each also takes --timeout SECONDS, default 60)

Run it with $CACHE/producers-venv/bin/python (aiokafka, cramjam for
snappy/lz4/zstd). stdout carries only the contract's JSON lines; aiokafka's
logging (WARNING and up) goes to stderr.

Choices made here:
- produce: acks=all, idempotence off (aiokafka's default, said explicitly),
  linger_ms=10. aiokafka keeps at most one batch per partition in flight,
  so a retry cannot reorder messages within a partition.
- consume: auto commit off, fetch_max_wait_ms=100, session 10 s with a 1 s
  heartbeat. getmany() is asked for at most the number of messages still
  missing, so nothing beyond the N-th is handed out. (aiokafka always sends
  Metadata with allow_auto_topic_creation=true; it has no setting for it.)
- Every await on the network is bounded by the time left (asyncio.wait_for);
  spec.Deadline's watchdog ends the process if even that does not help.
"""

import asyncio
import logging
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import spec  # noqa: E402  (imported first: starts the --timeout clock)

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition  # noqa: E402

PROG = "aiokafka"


def log(msg):
    spec.log(PROG, msg)


# --------------------------------------------------------------- produce --

async def produce(args, out, deadline):
    budget = deadline.left(1.0)
    producer = AIOKafkaProducer(
        bootstrap_servers=args.bootstrap, client_id="matrix-aiokafka",
        acks="all", enable_idempotence=False,
        compression_type=None if args.codec == "none" else args.codec,
        linger_ms=10, request_timeout_ms=spec.ms(min(15, budget)))
    await asyncio.wait_for(producer.start(), deadline.left(1.0))
    errors = []

    def done(fut):
        if fut.cancelled():
            return
        if fut.exception() is None:
            out.acked += 1
            return
        errors.append(fut.exception())
        if len(errors) <= 5:
            log("send failed: %r" % (fut.exception(),))

    t0 = time.monotonic()
    try:
        futures = []
        for i in range(args.count):
            k, v, h = spec.message(args.producer, args.codec, i)
            # send() returns once the message is in a batch; the future
            # completes when the broker has acknowledged it.
            fut = await asyncio.wait_for(
                producer.send(args.topic, key=k, value=v, headers=h), deadline.left(1.0))
            fut.add_done_callback(done)
            futures.append(fut)
        if futures:
            await asyncio.wait(futures, timeout=deadline.left(1.0))
        await asyncio.sleep(0)  # let the last done-callbacks run
    finally:
        log("%d of %d acked, %d failed, in %.2fs"
            % (out.acked, args.count, len(errors), time.monotonic() - t0))
        await asyncio.wait_for(producer.stop(), deadline.left(0.5))
    return out.acked == args.count


# --------------------------------------------------------------- consume --

async def partitions(consumer, topic, deadline):
    """Partition ids of topic from the consumer's metadata, retried for up to 10 s.

    The consumer's own metadata covers only the topics it tracks (consumer.topics()
    fills a separate ClusterMetadata), so the caller first assigns partition 0 of
    every topic: aiokafka then tracks those topics and fetches their metadata.
    """
    give_up = time.monotonic() + min(10.0, deadline.left(deadline.reserve_for_close()))
    while True:
        ids = consumer.partitions_for_topic(topic)
        if ids or time.monotonic() >= give_up:
            return sorted(ids or ())
        await asyncio.sleep(0.1)


async def consume(args, out, deadline):
    group = args.mode == "group"
    reserve = deadline.reserve_for_close()
    budget = deadline.left(reserve)
    consumer = AIOKafkaConsumer(
        bootstrap_servers=args.bootstrap, client_id="matrix-aiokafka",
        group_id=args.group if group else None,
        auto_offset_reset="earliest", enable_auto_commit=False,
        fetch_max_wait_ms=100, session_timeout_ms=10000, heartbeat_interval_ms=1000,
        request_timeout_ms=spec.ms(max(1, min(15, budget))))
    await asyncio.wait_for(consumer.start(), budget)
    ok = False
    try:
        t0 = time.monotonic()
        if group:
            consumer.subscribe(topics=args.topics)
        else:
            # Partition 0 always exists; assigning it makes the client track the
            # topic, and its metadata then gives the partition count.
            consumer.assign([TopicPartition(topic, 0) for topic in args.topics])
            tps = []
            for topic in args.topics:
                ids = await partitions(consumer, topic, deadline)
                if not ids:
                    log("no partitions known for topic %r" % topic)
                tps += [TopicPartition(topic, p) for p in ids]
            consumer.assign(tps)
            await asyncio.wait_for(consumer.seek_to_beginning(), deadline.left(reserve))

        last = {}  # TopicPartition -> offset of the last message processed
        while out.read < args.expect:
            left = deadline.left(reserve)
            if left <= 0:
                log("timeout after %d of %d messages" % (out.read, args.expect))
                break
            batches = await consumer.getmany(timeout_ms=spec.ms(min(0.5, left)),
                                             max_records=args.expect - out.read)
            out.batches(batches, args.expect, last)
        log("read %d of %d in %.2fs" % (out.read, args.expect, time.monotonic() - t0))

        ok = out.read == args.expect
        if group and last:
            offsets = {tp: o + 1 for tp, o in last.items()}
            try:
                await asyncio.wait_for(consumer.commit(offsets), deadline.left(0.5) / 2)
                log("committed %s" % ", ".join("%s/%d@%d" % (tp.topic, tp.partition, o)
                                               for tp, o in sorted(offsets.items())))
            except Exception as e:
                log("commit failed: %r" % (e,))
                ok = False
    finally:
        await asyncio.wait_for(consumer.stop(), deadline.left(0.5))
    return ok


def main():
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format=PROG + ": %(name)s %(levelname)s %(message)s")
    spec.main(PROG, produce, consume, run=asyncio.run)


if __name__ == "__main__":
    main()
