"""Real clients authenticating to our broker, and over TLS (`kwire-broker
--sasl-user ... --listener SSL://... --listener SASL_SSL://...`).

For each client (kafka-python 3.0.12; confluent-kafka 2.16.1, i.e. librdkafka
2.16; Debian's kcat, librdkafka 2.0.2)
and each mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512): the right password
produces 20 messages and consumes them back, each checked by value; the wrong
one delivers nothing and the topic stays empty (read back with the right
password). A raw connection that asks for Metadata without authenticating is
closed with no answer.

Over TLS, with a CA and a server certificate made for the run (the
`test_certificates` binary): each client on the SSL listener and on the SASL_SSL
one (SCRAM-SHA-512) produces 20 messages and consumes them back; trusting
another CA, it delivers nothing and the topic stays empty. These cells run in
threads beside the SASL_PLAINTEXT ones, so that they add little time.

Bounded: every wait has a timeout; the broker is stopped by its PID. Prints one
line per case; exits 1 if any fails.

    tests/security/run [--no-build]   (--no-build: the broker the interop suite installed)"""

import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "hostility"))
sys.path.insert(0, os.path.join(HERE, "..", "interop"))
import servers  # noqa: E402  (it puts interop/matrix on the path, for procs)
import procs  # noqa: E402
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

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _conf(self, mechanism, password):
        conf = dict(bootstrap_servers=self.bootstrap, security_protocol=self.protocol)
        if mechanism:
            conf.update(sasl_mechanism=mechanism, sasl_plain_username=USER,
                        sasl_plain_password=password)
        if self.ca:
            # The host name is checked too (kafka-python's default).
            conf.update(ssl_cafile=self.ca, ssl_check_hostname=True)
        return conf

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

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _conf(self, mechanism, password):
        conf = {"bootstrap.servers": self.bootstrap, "security.protocol": self.protocol,
                "error_cb": lambda error: None}
        if mechanism:
            conf.update({"sasl.mechanisms": mechanism, "sasl.username": USER,
                         "sasl.password": password})
        if self.ca:
            conf.update({"ssl.ca.location": self.ca,
                         "ssl.endpoint.identification.algorithm": "https"})
        return conf

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

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _args(self, mechanism, password):
        args = ["kcat", "-b", self.bootstrap, "-X", "security.protocol=" + self.protocol]
        if mechanism:
            args += ["-X", "sasl.mechanisms=" + mechanism, "-X", "sasl.username=" + USER,
                     "-X", "sasl.password=" + password]
        if self.ca:
            args += ["-X", "ssl.ca.location=" + self.ca,
                     "-X", "ssl.endpoint.identification.algorithm=https"]
        return args

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


CLIENTS = (KafkaPython, Librdkafka, Kcat)
TLS_MECHANISM = "SCRAM-SHA-512"
CERTIFICATES_SOURCE = os.path.join(procs.ROOT, "tests", "src", "bin", "test_certificates.rs")


def certificates(folder):
    """ca.pem, server.pem, server.key (127.0.0.1 and localhost) and other-ca.pem
    into `folder`, by the `test_certificates` binary. The one `cargo test
    --workspace` built is used when it is newer than its source (as in CI, where
    building it here with this package's features alone would recompile its
    dependencies for minutes); otherwise it is built."""
    binary = os.path.join(procs.TARGET, "debug", "test_certificates")
    try:
        fresh = os.path.getmtime(binary) >= os.path.getmtime(CERTIFICATES_SOURCE)
    except OSError:
        fresh = False
    if not fresh:
        subprocess.run(["cargo", "build", "--quiet", "--locked", "-p", "kwire-tests", "--bin",
                        "test_certificates", "--target-dir", procs.TARGET],
                       cwd=procs.ROOT, check=True)
    subprocess.run([binary, folder], check=True, timeout=60)


def tls_listeners(out_path, timeout=10):
    """{protocol: address} of the listeners the broker printed after its first
    (`listening on 127.0.0.1:PORT (PROTOCOL)`)."""
    deadline = time.monotonic() + timeout
    while True:
        with open(out_path, "rb") as f:
            text = f.read().decode(errors="replace")
        found = dict((protocol, "127.0.0.1:" + port) for port, protocol in
                     re.findall(r"listening on 127\.0\.0\.1:(\d+) \((\w+)\)", text))
        if "SSL" in found and "SASL_SSL" in found:
            return found
        if time.monotonic() > deadline:
            raise RuntimeError("no SSL and SASL_SSL listening lines in %s" % out_path)
        time.sleep(0.05)


def tls_cell(client_class, protocol, address, ca, trusted_ca):
    """One client over TLS: with `ca` == `trusted_ca`, 20 messages acknowledged
    and read back; otherwise none acknowledged and none stored. The line to
    print and whether it failed."""
    mechanism = TLS_MECHANISM if protocol == "SASL_SSL" else None
    client = client_class(address, protocol, ca)
    topic = "t-%s-%s-%s" % (client.name, protocol.lower(), uuid.uuid4().hex[:6])
    started = time.monotonic()
    acked = client.produce(mechanism, PASSWORD, topic)
    label = "%s%s" % (protocol, " " + mechanism if mechanism else "")
    if ca == trusted_ca:
        got = client.consume(mechanism, PASSWORD, topic, COUNT)
        good = acked == COUNT and got == messages(topic)
        return ("%-16s %-23s trusted CA: %s (%d acked, %d read back) %.1f s"
                % (client.name, label, "ok" if good else "FAIL", acked, len(got),
                   time.monotonic() - started), not good)
    stored = client_class(address, protocol, trusted_ca).consume(mechanism, PASSWORD, topic, 0)
    refused = acked == 0 and not stored
    return ("%-16s %-23s other CA: %s (%d acked, %d stored) %.1f s"
            % (client.name, label, "refused" if refused else "FAIL", acked, len(stored),
               time.monotonic() - started), not refused)


def main():
    if "--no-build" not in sys.argv[1:]:
        servers.install(("broker",))
    failures = 0
    log = os.path.join(os.environ.get("TMPDIR", "/tmp"), "kwire-security-broker.log")
    folder = tempfile.mkdtemp(prefix="kwire-security-certs-")
    certificates(folder)
    ca, other_ca = os.path.join(folder, "ca.pem"), os.path.join(folder, "other-ca.pem")
    with servers.Server.broker(log, "--sasl-user", "%s:%s" % (USER, PASSWORD),
                               "--listener", "SSL://127.0.0.1:0",
                               "--listener", "SASL_SSL://127.0.0.1:0",
                               "--tls-cert", os.path.join(folder, "server.pem"),
                               "--tls-key", os.path.join(folder, "server.key")) as broker, \
            concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        listeners = tls_listeners(log + ".out")
        tls_cells = [pool.submit(tls_cell, client, protocol, listeners[protocol], which, ca)
                     for which in (ca, other_ca)
                     for protocol in ("SSL", "SASL_SSL")
                     for client in CLIENTS
                     # A CA not trusted is refused before SASL: SSL alone shows it.
                     if which == ca or protocol == "SSL"]
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
        for cell in tls_cells:
            line, failed = cell.result()
            failures += failed
            print(line, flush=True)
        # The refusals were TLS's: the broker saw the clients' alerts.
        with open(log, "rb") as f:
            alerts = f.read().count(b"TLS handshake failed")
        seen = alerts >= len(CLIENTS)
        failures += not seen
        print("%-16s %-23s %s (%d handshakes refused)"
              % ("broker", "SSL", "ok" if seen else "FAIL", alerts), flush=True)
        if not broker.alive():
            print("the broker died")
            failures += 1
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    os.rmdir(folder)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
