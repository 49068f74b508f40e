"""Real clients authenticating to our broker (`kwire-broker --sasl-user ...`).

For each client (kafka-python 3.0.12; confluent-kafka 2.16.1, i.e. librdkafka
2.16; Debian's kcat, librdkafka 2.0.2)
and each mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512): the right password
produces 20 messages and consumes them back, each checked by value; the wrong
one delivers nothing and the topic stays empty (read back with the right
password). A raw connection that asks for Metadata without authenticating is
closed with no answer. Bounded: every wait has a timeout; the broker is
stopped by its PID. Prints one line per case; exits 1 if any fails.

    tests/security/run [--no-build]   (--no-build: the broker the interop suite installed)"""

import os
import subprocess
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "hostility"))
sys.path.insert(0, os.path.join(HERE, "..", "interop"))
import servers  # noqa: E402
import requests  # noqa: E402
from kafka_codec import connect, read_frame  # noqa: E402

import confluent_kafka  # noqa: E402
from kafka import KafkaConsumer, KafkaProducer  # noqa: E402

MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
USER, PASSWORD = "alice", "alice-secret"
COUNT = 20


def messages(topic):
    return [("%s-%d" % (topic, i)).encode() for i in range(COUNT)]


class KafkaPython:
    name = "kafka-python"

    def __init__(self, bootstrap):
        self.bootstrap = bootstrap

    def _conf(self, mechanism, password):
        return dict(bootstrap_servers=self.bootstrap, security_protocol="SASL_PLAINTEXT",
                    sasl_mechanism=mechanism, sasl_plain_username=USER,
                    sasl_plain_password=password)

    def produce(self, mechanism, password, topic):
        """How many messages were acknowledged."""
        try:
            producer = KafkaProducer(request_timeout_ms=5000, max_block_ms=5000,
                                     **self._conf(mechanism, password))
        except Exception:
            return 0
        acked = 0
        try:
            futures = [producer.send(topic, m) for m in messages(topic)]
            producer.flush(10)
            for future in futures:
                try:
                    future.get(timeout=1)
                    acked += 1
                except Exception:
                    pass
        except Exception:
            pass
        finally:
            producer.close(timeout=5)
        return acked

    def consume(self, mechanism, password, topic, expect):
        consumer = KafkaConsumer(topic, auto_offset_reset="earliest", consumer_timeout_ms=4000,
                                 **self._conf(mechanism, password))
        got = []
        for message in consumer:
            got.append(message.value)
            if len(got) >= expect:
                break
        consumer.close()
        return got


class Librdkafka:
    name = "confluent-kafka"

    def __init__(self, bootstrap):
        self.bootstrap = bootstrap

    def _conf(self, mechanism, password):
        return {"bootstrap.servers": self.bootstrap, "security.protocol": "SASL_PLAINTEXT",
                "sasl.mechanisms": mechanism, "sasl.username": USER, "sasl.password": password,
                "error_cb": lambda error: None}

    def produce(self, mechanism, password, topic):
        producer = confluent_kafka.Producer(dict(self._conf(mechanism, password),
                                                 **{"message.timeout.ms": 5000}))
        results = []
        for m in messages(topic):
            producer.produce(topic, m, on_delivery=lambda error, _m: results.append(error))
        producer.flush(10)
        return sum(1 for error in results if error is None)

    def consume(self, mechanism, password, topic, expect):
        consumer = confluent_kafka.Consumer(dict(self._conf(mechanism, password),
                                                 **{"group.id": "g-" + topic,
                                                    "auto.offset.reset": "earliest"}))
        consumer.subscribe([topic])
        got, deadline = [], time.monotonic() + (15 if expect else 4)
        while len(got) < expect or (expect == 0 and time.monotonic() < deadline):
            if time.monotonic() > deadline:
                break
            message = consumer.poll(0.3)
            if message is not None and message.error() is None:
                got.append(message.value())
        consumer.close()
        return got


class Kcat:
    """Debian's kcat, librdkafka 2.0.2 (the interop suite installs it)."""
    name = "kcat"

    def __init__(self, bootstrap):
        self.bootstrap = bootstrap

    def _args(self, mechanism, password):
        return ["kcat", "-b", self.bootstrap, "-X", "security.protocol=SASL_PLAINTEXT",
                "-X", "sasl.mechanisms=" + mechanism, "-X", "sasl.username=" + USER,
                "-X", "sasl.password=" + password]

    def produce(self, mechanism, password, topic):
        data = b"".join(m + b"\n" for m in messages(topic))
        try:
            run = subprocess.run(self._args(mechanism, password)
                                 + ["-P", "-t", topic, "-X", "message.timeout.ms=5000"],
                                 input=data, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            return 0
        # kcat -P reports each undelivered message; none reported and exit 0: all acked.
        return COUNT if run.returncode == 0 and b"Delivery failed" not in run.stderr else 0

    def consume(self, mechanism, password, topic, expect):
        args = self._args(mechanism, password) + ["-C", "-t", topic, "-o", "beginning", "-e",
                                                  "-q", "-f", "%s\n"]
        if expect:
            args += ["-c", str(expect)]
        try:
            run = subprocess.run(args, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            return []
        return run.stdout.splitlines()


def unauthenticated_gets_nothing(address):
    """Metadata before authenticating: the broker closes without an answer."""
    with connect(address, 5.0) as sock:
        sock.sendall(requests.metadata_all(7))
        try:
            return read_frame(sock) is None
        except (ConnectionError, OSError):
            return True


def main():
    if "--no-build" not in sys.argv[1:]:
        servers.install(("broker",))
    failures = 0
    log = os.path.join(os.environ.get("TMPDIR", "/tmp"), "kwire-security-broker.log")
    with servers.Server.broker(log, "--sasl-user", "%s:%s" % (USER, PASSWORD)) as broker:
        ok = unauthenticated_gets_nothing(broker.address)
        failures += not ok
        print("%-16s %-14s %s" % ("raw socket", "none", "closed, no answer" if ok else "ANSWERED"))
        for client in (KafkaPython(broker.address), Librdkafka(broker.address),
                       Kcat(broker.address)):
            for mechanism in MECHANISMS:
                topic = "s-%s-%s-%s" % (client.name, mechanism.lower(), uuid.uuid4().hex[:6])
                acked = client.produce(mechanism, PASSWORD, topic)
                got = client.consume(mechanism, PASSWORD, topic, COUNT)
                good = acked == COUNT and got == messages(topic)
                wrong_topic = topic + "-wrong"
                wrong_acked = client.produce(mechanism, "not-" + PASSWORD, wrong_topic)
                leaked = client.consume(mechanism, PASSWORD, wrong_topic, 0)
                refused = wrong_acked == 0 and not leaked
                failures += (not good) + (not refused)
                print("%-16s %-14s right password: %s (%d acked, %d read back); "
                      "wrong password: %s (%d acked, %d stored)"
                      % (client.name, mechanism, "ok" if good else "FAIL", acked, len(got),
                         "refused" if refused else "FAIL", wrong_acked, len(leaked)), flush=True)
        if not broker.alive():
            print("the broker died")
            failures += 1
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
