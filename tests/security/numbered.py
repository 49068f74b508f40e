"""Numbered messages with confluent-kafka (librdkafka 2.16), for the
leadership move (leadership.py runs it with the producers venv's python, one
process per role, so that its sockets can be watched by PID):

    numbered.py produce --bootstrap B --topic T --count N --rate R
        values "0" .. "N-1" (ASCII), R a second, idempotent (acks=all);
        prints {"acked": K, "failed": F, "errors": [...]} once every
        delivery is reported
    numbered.py consume --bootstrap B --topic T --count N [--group G]
        partition 0 of T from the beginning (in group G if given, else
        assigned) until N messages or the timeout; prints {"values": [...]}

Both take --timeout SECONDS (default 60); exit 0 only if K == N, or N read."""

import argparse
import json
import sys
import time

import confluent_kafka


def produce(args):
    failed, errors = [], []

    def delivered(error, message):
        if error is not None:
            failed.append(message.value())
            if len(errors) < 5:
                errors.append(str(error))
    producer = confluent_kafka.Producer({
        "bootstrap.servers": args.bootstrap,
        "enable.idempotence": True,
        "acks": "all",
        "linger.ms": 5,
        # Every message is retried until this passes: a leadership move takes
        # seconds, the whole run is bounded by --timeout.
        "message.timeout.ms": int(args.timeout * 1000),
        "error_cb": lambda error: None,
    })
    started = time.monotonic()
    for i in range(args.count):
        # Paced: message i leaves at i / rate seconds.
        wait = started + i / args.rate - time.monotonic()
        if wait > 0:
            producer.poll(wait)
        producer.produce(args.topic, str(i).encode(), on_delivery=delivered)
        producer.poll(0)
    left = producer.flush(max(1.0, args.timeout - (time.monotonic() - started)))
    acked = args.count - left - len(failed)
    print(json.dumps({"acked": acked, "failed": len(failed) + left, "errors": errors}))
    return 0 if acked == args.count else 1


def consume(args):
    conf = {"bootstrap.servers": args.bootstrap, "enable.auto.commit": False,
            "auto.offset.reset": "earliest", "group.id": args.group or "numbered-assign",
            "error_cb": lambda error: None}
    consumer = confluent_kafka.Consumer(conf)
    if args.group:
        consumer.subscribe([args.topic])
    else:
        consumer.assign([confluent_kafka.TopicPartition(args.topic, 0,
                                                        confluent_kafka.OFFSET_BEGINNING)])
    values, deadline = [], time.monotonic() + args.timeout
    while len(values) < args.count and time.monotonic() < deadline:
        message = consumer.poll(0.2)
        if message is not None and message.error() is None:
            values.append(message.value().decode())
    consumer.close()
    print(json.dumps({"values": values}))
    return 0 if len(values) == args.count else 1


def main(argv):
    parser = argparse.ArgumentParser(prog="numbered.py")
    parser.add_argument("command", choices=("produce", "consume"))
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--group")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    return produce(args) if args.command == "produce" else consume(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
