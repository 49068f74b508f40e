"""What our broker (kwire-broker) does beyond the matrix, checked with real clients and
hand-written Fetch requests: acks 0, 1 and -1; ListOffsets earliest, latest and
by timestamp; Fetch long polling (max_wait_ms, min_bytes, woken by a produce);
DeleteTopics.

    producers-venv/bin/python tests/interop/matrix/broker_features.py HOST:PORT

run_matrix.py runs it in the kafka-wire setup, and in the kafka setup against
Kafka 4.4.0 as the reference: Kafka passes every check, so a check our broker
fails is our broker's fault, not the check's. Each line it prints starting
with "problem:" is a failure. Uses confluent-kafka (librdkafka) from the
producers venv for producing, topics and offsets.
"""

import os
import socket
import struct
import sys
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition  # noqa: E402
from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402
from kafka_codec import array_len, i8, i16, i32, i64, nullable_string, recv_exact  # noqa: E402

problems = []


def problem(text):
    problems.append(text)
    print("problem: " + text, flush=True)


def create(admin, bootstrap, topic):
    """Creates `topic` and waits until its partition answers ListOffsets: a
    Kafka broker takes up a new partition's leadership a moment after
    CreateTopics is answered (and after Metadata names it leader), and until
    then answers a Produce or Fetch NOT_LEADER_OR_FOLLOWER at once."""
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(10)
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "features-create"})
    try:
        deadline = time.time() + 10
        while True:
            try:
                consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=5)
                return
            except KafkaException:
                if time.time() > deadline:
                    raise
            time.sleep(0.1)
    finally:
        consumer.close()


def wait_for_end(bootstrap, topic, end):
    """Waits until `topic`'s partition 0 ends at offset `end`: acks=0 messages
    are flushed when sent, not when stored, and must be stored before what
    the next producer sends."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "features-wait"})
    deadline, high = time.time() + 10, None
    while time.time() < deadline:
        _, high = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
        if high >= end:
            break
        time.sleep(0.1)
    consumer.close()
    return high


def produce(bootstrap, topic, values, acks, timestamps=None):
    """Sends values with the given acks; the delivery reports (error, offset)."""
    producer = Producer({"bootstrap.servers": bootstrap, "acks": acks, "linger.ms": 0,
                         "enable.idempotence": False, "message.timeout.ms": 10000})
    reports = []
    for n, value in enumerate(values):
        extra = {"timestamp": timestamps[n]} if timestamps else {}
        producer.produce(topic, value=value, partition=0, **extra,
                         on_delivery=lambda err, msg: reports.append((err, msg.offset())))
        producer.flush(10)  # one message per request: each acks setting on its own
    return reports


def read_all(bootstrap, topic, expect):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "features-read",
                         "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    got, deadline = [], time.time() + 10
    while len(got) < expect and time.time() < deadline:
        msg = consumer.poll(0.2)
        if msg is not None and not msg.error():
            got.append((msg.offset(), msg.value()))
    consumer.close()
    return got


def check_acks(bootstrap, admin):
    topic = "features-acks"
    create(admin, bootstrap, topic)
    sent = []
    for acks in ("0", "1", "all"):
        values = [("acks=%s #%d" % (acks, n)).encode() for n in range(5)]
        reports = produce(bootstrap, topic, values, acks)
        failed = [r for r in reports if r[0] is not None]
        if len(reports) != 5 or failed:
            problem("acks=%s: %d delivery reports, failures %s" % (acks, len(reports), failed))
        # With acks=0 the client never learns the offset (-1); otherwise the
        # offsets follow on from what is stored.
        offsets = [o for _, o in reports]
        if acks != "0" and offsets != list(range(len(sent), len(sent) + 5)):
            problem("acks=%s: offsets %s, expected %d.." % (acks, offsets, len(sent)))
        sent += values
        if acks == "0":
            end = wait_for_end(bootstrap, topic, len(sent))
            if end != len(sent):
                problem("acks=0: the partition ends at %s, expected %d" % (end, len(sent)))
    got = read_all(bootstrap, topic, len(sent))
    if [v for _, v in got] != sent or [o for o, _ in got] != list(range(len(sent))):
        problem("acks: read back %d of %d, or in the wrong order" % (len(got), len(sent)))


def check_offsets(bootstrap, admin):
    topic = "features-offsets"
    create(admin, bootstrap, topic)
    produce(bootstrap, topic, [b"a", b"b", b"c", b"d", b"e"], "all",
            timestamps=[1000, 2000, 3000, 4000, 5000])
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "features-offsets"})
    low, high = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
    if (low, high) != (0, 5):
        problem("earliest/latest: %s, expected (0, 5)" % ((low, high),))
    for ts, expected in [(0, 0), (2500, 2), (3000, 2), (5000, 4), (6000, -1)]:
        found = consumer.offsets_for_times([TopicPartition(topic, 0, ts)], timeout=10)[0]
        if found.error or found.offset != expected:
            problem("offset for timestamp %d: %s, expected %d" % (ts, found, expected))
    consumer.close()


def fetch_request(topic, offset, max_wait_ms, min_bytes, corr=1):
    """Fetch v4 (header v1): one partition of one topic."""
    body = (i32(-1) + i32(max_wait_ms) + i32(min_bytes) + i32(1 << 20) + i8(0)
            + array_len(1, False) + nullable_string(topic, False) + array_len(1, False)
            + i32(0) + i64(offset) + i32(1 << 20))
    header = i16(1) + i16(4) + i32(corr) + nullable_string("features", False)
    return i32(len(header) + len(body)) + header + body


def timed_fetch(bootstrap, topic, offset, max_wait_ms, min_bytes):
    """Seconds until the answer, and the size of the answer."""
    host, port = bootstrap.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=15) as sock:
        start = time.monotonic()
        sock.sendall(fetch_request(topic, offset, max_wait_ms, min_bytes))
        size = struct.unpack(">i", recv_exact(sock, 4))[0]
        recv_exact(sock, size)
        return time.monotonic() - start, size


def check_long_polling(bootstrap, admin):
    topic = "features-poll"
    create(admin, bootstrap, topic)
    took, _ = timed_fetch(bootstrap, topic, 0, 600, 1)
    if not 0.5 <= took < 3:
        problem("empty fetch with max_wait_ms=600 answered after %.2f s" % took)
    # A produce during the wait answers it at once, not at max_wait_ms.
    timer = threading.Timer(0.5, produce, (bootstrap, topic, [b"wake up"], "all"))
    timer.start()
    took, size = timed_fetch(bootstrap, topic, 0, 8000, 1)
    timer.join()
    if not 0.3 <= took < 6:
        problem("fetch woken by a produce answered after %.2f s (max_wait_ms 8000)" % took)
    # min_bytes larger than what is there: waits out max_wait_ms, then answers
    # with what there is.
    took, size = timed_fetch(bootstrap, topic, 0, 600, 1 << 20)
    if not 0.5 <= took < 3 or size < 60:
        problem("fetch with unmet min_bytes answered after %.2f s with %d bytes" % (took, size))


def check_delete(bootstrap, admin):
    topic = "features-delete"
    create(admin, bootstrap, topic)
    admin.delete_topics([topic])[topic].result(10)
    # Kafka answers DeleteTopics once its controller has committed the deletion;
    # the broker that answers Metadata drops the topic a moment later (CI saw it
    # still listed at once): look for a few seconds.
    deadline = time.time() + 10
    while topic in admin.list_topics(timeout=10).topics:
        if time.time() > deadline:
            problem("%s still listed 10 s after DeleteTopics" % topic)
            break
        time.sleep(0.1)


def main():
    bootstrap = sys.argv[1]
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for check in (check_acks, check_offsets, check_long_polling, check_delete):
        try:
            check(bootstrap, admin)
        except Exception as e:  # a client exception is a failed check, not a crash
            problem("%s: %r" % (check.__name__, e))
    print("%d problems" % len(problems), flush=True)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
