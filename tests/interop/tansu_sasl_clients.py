#!/usr/bin/env python3
"""Real clients against a SASL broker: produce 10 messages and read them back.

    $CACHE/producers-venv/bin/python tests/interop/tansu_sasl_clients.py \\
        --port P --user alice --password alice-secret [--mechanism SCRAM-SHA-512]
        [--client kafka-python|confluent-kafka|both] [--expect ok|auth-error|refused]
        [--security-protocol SASL_PLAINTEXT] [--ca FILE]

Needs kafka-python 3.0.12 and/or confluent-kafka 2.16.1 (the producers-venv
of tests/interop/producers has both). --user - means "no SASL at all"
(PLAINTEXT). Each client creates a fresh topic with its admin client
(CreateTopics over the same SASL login: tansu's sqlite:// storage does not
auto-create topics), produces 10 messages to partition 0 with acks=all, then a
consumer assigned to partition 0 (no group) reads them from the beginning. Prints one line per
client and exits 0 when every outcome is the expected one:
  ok          all 10 produced and all 10 consumed
  auth-error  the client reports an authentication failure
  refused     nothing gets through (no SASL against a broker that requires it)
Every wait is bounded (--timeout, default 15 s per step). 127.0.0.1 only.
"""

import argparse
import logging
import sys
import time


def kafka_python(args, topic):
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.errors import KafkaError
    # kafka-python logs an authentication failure and retries until the
    # bootstrap timeout; keep what it logged to say why it gave up.
    seen = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())

    log = logging.getLogger("kafka")
    log.propagate = False
    log.addHandler(Keep(logging.WARNING))
    ms = int(args.timeout * 1000)
    kw = dict(bootstrap_servers="127.0.0.1:%d" % args.port, request_timeout_ms=ms,
              bootstrap_timeout_ms=ms)
    if args.user != "-":
        kw.update(security_protocol=args.security_protocol, sasl_mechanism=args.mechanism,
                  sasl_plain_username=args.user, sasl_plain_password=args.password)
        if args.ca:
            kw["ssl_cafile"] = args.ca
    try:
        from kafka.admin import KafkaAdminClient, NewTopic
        admin = KafkaAdminClient(**kw)
        admin.create_topics([NewTopic(topic, 1, 1)], timeout_ms=ms)
        admin.close()
        p = KafkaProducer(acks="all", max_block_ms=ms, **kw)
        for i in range(10):
            p.send(topic, b"m%d" % i, partition=0).get(timeout=args.timeout)
        p.close(timeout=args.timeout)
        c = KafkaConsumer(auto_offset_reset="earliest", group_id=None,
                          consumer_timeout_ms=ms, **kw)
        c.assign([TopicPartition(topic, 0)])
        got = []
        for m in c:
            got.append(m.value)
            if len(got) == 10:
                break
        c.close()
    except (KafkaError, OSError, ValueError) as e:
        why = [m for m in seen if auth_hint(m)]
        return classify("%s: %s%s" % (type(e).__name__, e, "; " + why[-1] if why else ""))
    return outcome(got)


def confluent(args, topic):
    from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition
    conf = {"bootstrap.servers": "127.0.0.1:%d" % args.port, "log_level": 0}
    if args.user == "-":
        conf["security.protocol"] = "PLAINTEXT"
    else:
        conf.update({"security.protocol": args.security_protocol,
                     "sasl.mechanisms": args.mechanism,
                     "sasl.username": args.user, "sasl.password": args.password})
        if args.ca:
            conf["ssl.ca.location"] = args.ca
    errors = []
    conf["error_cb"] = lambda e: errors.append(str(e))
    from confluent_kafka.admin import AdminClient, NewTopic
    admin = AdminClient(conf)  # keep it referenced until the futures are done
    try:
        for f in admin.create_topics([NewTopic(topic, 1, 1)],
                                     request_timeout=args.timeout).values():
            f.result(timeout=args.timeout + 5)
    except Exception as e:  # KafkaException, or the future's timeout
        admin.poll(1)  # error_cb runs only from poll()
        why = [m for m in errors if auth_hint(m)] or errors
        return classify("create_topics: %s; %s" % (e, "; ".join(sorted(set(why))[:2])))
    p = Producer(dict(conf, **{"acks": "all", "message.timeout.ms": int(args.timeout * 1000)}))
    results = []
    for i in range(10):
        p.produce(topic, b"m%d" % i, partition=0, on_delivery=lambda e, m: results.append(e))
    left = p.flush(args.timeout + 5)
    if left or any(e is not None for e in results) or len(results) != 10:
        detail = "; ".join(sorted(set(errors))[:2]) or "; ".join(
            sorted(set(str(e) for e in results if e is not None))[:2]) or "%d undelivered" % left
        return classify(detail)
    c = Consumer(dict(conf, **{"group.id": "g-" + topic, "enable.auto.commit": False}))
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    got, deadline = [], time.time() + args.timeout
    while len(got) < 10 and time.time() < deadline:
        m = c.poll(0.5)
        if m is not None and not m.error():
            got.append(m.value())
    c.close()
    return outcome(got)


def outcome(got):
    want = [b"m%d" % i for i in range(10)]
    if got == want:
        return "ok", "produced 10, consumed 10 in order"
    return "other", "produced 10, consumed %d: %r" % (len(got), got[:3])


def auth_hint(text):
    """True if a client's message says the SASL login failed. kafka-python
    3.0.12 does not read a SCRAM server-final "e=..." (tansu sends e=unknown-user
    with error_code 0): it fails with KeyError 'v', logged as "Connection lost:
    'v'", and retries until its bootstrap timeout."""
    low = text.lower()
    return any(w in low for w in ("authentication", "unknown-user", "invalid-proof",
                                  "connection lost: 'v'"))


def classify(detail):
    if auth_hint(detail):
        return "auth-error", detail
    low = detail.lower()
    if any(w in low for w in ("timed out", "timeout", "brokers are down", "bootstrap",
                              "connection", "disconnected")):
        return "refused", detail
    return "other", detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--user", required=True, help="'-' for no SASL")
    ap.add_argument("--password", default="")
    ap.add_argument("--mechanism", default="SCRAM-SHA-512")
    ap.add_argument("--security-protocol", default="SASL_PLAINTEXT")
    ap.add_argument("--ca")
    ap.add_argument("--client", default="both",
                    choices=["kafka-python", "confluent-kafka", "both"])
    ap.add_argument("--expect", default="ok", choices=["ok", "auth-error", "refused"])
    ap.add_argument("--timeout", type=float, default=15)
    args = ap.parse_args()
    clients = {"kafka-python": kafka_python, "confluent-kafka": confluent}
    names = list(clients) if args.client == "both" else [args.client]
    bad = 0
    for name in names:
        topic = "sasl-%s-%d" % (name, int(time.time() * 1000))
        t0 = time.time()
        got, detail = clients[name](args, topic)
        print("%s %s %s: %s (%s) in %.1fs, expected %s"
              % (name, args.mechanism if args.user != "-" else "no-SASL", args.user, got,
                 detail[:300], time.time() - t0, args.expect), flush=True)
        bad += got != args.expect
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
