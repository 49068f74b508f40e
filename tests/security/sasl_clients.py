"""Real clients authenticating to our broker, and over TLS (`kwire-broker
--sasl-user ... --sasl-oauthbearer-unsecured --listener SSL://... --listener
SASL_SSL://...`).

For each client (kafka-python 3.0.12; confluent-kafka 2.16.1, i.e. librdkafka
2.16; Debian's kcat with librdkafka 2.16; aiokafka 0.14.0; kafkajs 2.2.4, driven by
kafkajs_sasl.js) and each mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512): the
right password produces 20 messages and consumes them back, each checked by
value; the wrong one delivers nothing and the topic stays empty (read back with
the right password). A raw connection that asks for Metadata without
authenticating is closed with no answer.

OAUTHBEARER, with Kafka's unsecured JWS (`{"alg":"none"}`, `sub`, `iat`,
`exp`, no signature): a good token produces 20 messages and consumes them back;
an expired one delivers nothing and the topic stays empty (read back with a
good token). librdkafka (confluent-kafka, kcat) builds its own unsecured token
(`enable.sasl.oauthbearer.unsecure.jwt`), which cannot be expired: the good
token only.

Over TLS, with a CA and a server certificate made for the run (the
`test_certificates` binary): each client on the SSL listener and on the SASL_SSL
one (SCRAM-SHA-512) produces 20 messages and consumes them back; trusting
another CA, it delivers nothing and the topic stays empty. These cells, and
aiokafka's, kafkajs's and the OAUTHBEARER ones, run in threads beside the
sequential SASL_PLAINTEXT cells of the first three clients (which mostly wait out
refused logins), so that they add little time.

Bounded: every wait has a timeout; the broker is stopped by its PID. Prints one
line per case; exits 1 if any fails.

    tests/security/run [--no-build]   (--no-build: the broker the interop suite installed)"""

import asyncio
import base64
import concurrent.futures
import json
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
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer  # noqa: E402
from aiokafka.abc import AbstractTokenProvider as AioTokenProvider  # noqa: E402
from aiokafka.helpers import create_ssl_context  # noqa: E402
from kafka import KafkaConsumer, KafkaProducer  # noqa: E402
from kafka.net.sasl.oauth import AbstractTokenProvider  # noqa: E402

MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
OAUTHBEARER = "OAUTHBEARER"
USER, PASSWORD = "alice", "alice-secret"
COUNT = 20
CACHE = os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "kafka-wire-interop"))
NODE_MODULES = os.path.join(CACHE, "node-producers", "node_modules")
KAFKAJS_SCRIPT = os.path.join(HERE, "kafkajs_sasl.js")


def messages(topic):
    return [("%s-%d" % (topic, i)).encode() for i in range(COUNT)]


def unsecured_jws(expired=False):
    """Kafka's unsecured JWS for USER (`header.claims.`, no signature): header
    {"alg":"none"}, claims sub, iat and exp; good for an hour, or expired a
    minute ago (issued an hour before). With OAUTHBEARER, the clients take it
    where the others take the password."""
    now = int(time.time())
    issued, expires = (now - 3600, now - 60) if expired else (now, now + 3600)

    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    return "%s.%s." % (part({"alg": "none"}), part({"sub": USER, "iat": issued, "exp": expires}))


class Token(AbstractTokenProvider):
    """kafka-python's token provider: the one token it was given."""

    def __init__(self, jws):
        super().__init__()
        self.jws = jws

    def token(self):
        return self.jws


class AioToken(AioTokenProvider):
    """aiokafka's token provider: the one token it was given."""

    def __init__(self, jws):
        self.jws = jws

    async def token(self):
        return self.jws


class KafkaPython:
    name = "kafka-python"
    expired_token = True

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _conf(self, mechanism, password):
        conf = dict(bootstrap_servers=self.bootstrap, security_protocol=self.protocol)
        if mechanism == OAUTHBEARER:
            conf.update(sasl_mechanism=mechanism, sasl_oauth_token_provider=Token(password))
        elif mechanism:
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
    # Its OAUTHBEARER is librdkafka's own unsecured token (principal=alice, an
    # hour's life), never expired: the token given is not used.
    expired_token = False

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _conf(self, mechanism, password):
        conf = {"bootstrap.servers": self.bootstrap, "security.protocol": self.protocol,
                "error_cb": lambda error: None}
        if mechanism == OAUTHBEARER:
            conf.update({"sasl.mechanisms": mechanism,
                         "enable.sasl.oauthbearer.unsecure.jwt": True,
                         "sasl.oauthbearer.config": "principal=" + USER})
        elif mechanism:
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


KCAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop",
                    "kcat-librdkafka-2.16.sh")


class Kcat:
    """Debian's kcat 1.7.1 with librdkafka 2.16 (tests/interop/kcat-librdkafka-2.16.sh):
    Debian's librdkafka 2.0.2 repeats its nonce in front of the server's in its
    SCRAM final message, which Kafka 4.4.0 refuses, and so does our broker."""
    name = "kcat"
    expired_token = False  # librdkafka's own unsecured token, as confluent-kafka's

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _args(self, mechanism, password):
        args = [KCAT, "-b", self.bootstrap, "-X", "security.protocol=" + self.protocol]
        if mechanism == OAUTHBEARER:
            args += ["-X", "sasl.mechanisms=" + mechanism,
                     "-X", "enable.sasl.oauthbearer.unsecure.jwt=true",
                     "-X", "sasl.oauthbearer.config=principal=" + USER]
        elif mechanism:
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


class AioKafka:
    """aiokafka 0.14.0. Each call runs its own event loop (asyncio.run), so
    that it can run in any thread; every await is bounded."""
    name = "aiokafka"
    expired_token = True

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _conf(self, mechanism, password):
        conf = dict(bootstrap_servers=self.bootstrap, security_protocol=self.protocol,
                    request_timeout_ms=5000)
        if mechanism == OAUTHBEARER:
            conf.update(sasl_mechanism=mechanism, sasl_oauth_token_provider=AioToken(password))
        elif mechanism:
            conf.update(sasl_mechanism=mechanism, sasl_plain_username=USER,
                        sasl_plain_password=password)
        if self.ca:
            # aiokafka's context checks the host name (check_hostname is on).
            conf.update(ssl_context=create_ssl_context(cafile=self.ca))
        return conf

    def produce(self, mechanism, password, topic):
        return asyncio.run(self._produce(mechanism, password, topic))

    async def _produce(self, mechanism, password, topic):
        producer = AIOKafkaProducer(acks="all", **self._conf(mechanism, password))
        acked = 0
        try:
            await asyncio.wait_for(producer.start(), 10)
            futures = [await asyncio.wait_for(producer.send(topic, m), 5)
                       for m in messages(topic)]
            done, _ = await asyncio.wait(futures, timeout=10)
            acked = sum(1 for f in done if not f.cancelled() and f.exception() is None)
        except Exception:
            pass
        finally:
            try:
                await asyncio.wait_for(producer.stop(), 5)
            except Exception:
                pass
        return acked

    def consume(self, mechanism, password, topic, expect):
        return asyncio.run(self._consume(mechanism, password, topic, expect))

    async def _consume(self, mechanism, password, topic, expect):
        # No group: the consumer is given every partition of the topic.
        consumer = AIOKafkaConsumer(topic, auto_offset_reset="earliest", enable_auto_commit=False,
                                    fetch_max_wait_ms=100, **self._conf(mechanism, password))
        got = []
        try:
            # A consumer that cannot log in raises here: reading nothing
            # proves nothing then.
            await asyncio.wait_for(consumer.start(), 10)
            deadline = time.monotonic() + (15 if expect else 4)
            while (expect == 0 or len(got) < expect) and time.monotonic() < deadline:
                batches = await asyncio.wait_for(consumer.getmany(timeout_ms=300), 5)
                for records in batches.values():
                    got += [record.value for record in records]
        finally:
            await asyncio.wait_for(consumer.stop(), 5)
        return got


class KafkaJs:
    """kafkajs 2.2.4, by kafkajs_sasl.js (one node process per call)."""
    name = "kafkajs"
    expired_token = True

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _run(self, command, mechanism, password, topic, *extra):
        # The script makes the connection TLS when given --ca and logs in when
        # given --mechanism: the protocol follows.
        assert bool(self.ca) == self.protocol.endswith("SSL")
        assert bool(mechanism) == self.protocol.startswith("SASL")
        args = ["node", KAFKAJS_SCRIPT, command, "--bootstrap", self.bootstrap, "--topic", topic,
                "--timeout", "20"] + list(extra)
        if mechanism == OAUTHBEARER:
            args += ["--mechanism", mechanism, "--token", password]
        elif mechanism:
            args += ["--mechanism", mechanism, "--username", USER, "--password", password]
        if self.ca:
            args += ["--ca", self.ca]
        env = dict(os.environ, NODE_PATH=NODE_MODULES)
        # The script ends itself after 20 s; this is the bound if it does not.
        return subprocess.run(args, capture_output=True, timeout=30, env=env)

    def produce(self, mechanism, password, topic):
        try:
            run = self._run("produce", mechanism, password, topic, "--count", str(COUNT))
        except subprocess.TimeoutExpired:
            return 0
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        return lines[-1]["acked"] if lines else 0

    def consume(self, mechanism, password, topic, expect):
        run = self._run("consume", mechanism, password, topic, "--expect", str(expect))
        # With --expect 0, exit 0 means it joined its group (so logged in) and
        # read nothing: otherwise reading nothing proves nothing.
        if expect == 0 and run.returncode != 0:
            raise RuntimeError("kafkajs could not read %s: %s"
                               % (topic, run.stderr.decode(errors="replace")[-300:]))
        return [json.loads(line)["value"].encode() for line in run.stdout.splitlines()]


def unauthenticated_gets_nothing(address):
    """Metadata before authenticating: the broker closes without an answer."""
    with connect(address, 5.0) as sock:
        sock.sendall(requests.metadata_all(7))
        try:
            return read_frame(sock) is None
        except (ConnectionError, OSError):
            return True


# The first three run their SASL_PLAINTEXT cells one after the other; every
# other cell runs in a thread.
SEQUENTIAL = (KafkaPython, Librdkafka, Kcat)
CLIENTS = SEQUENTIAL + (AioKafka, KafkaJs)
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


def guarded(label, cell, *args):
    """`cell(*args)`'s line and failure count, or a FAIL line if it raised."""
    try:
        return cell(*args)
    except Exception as error:
        return "%-16s FAIL: %s: %s" % (label, type(error).__name__, error), 1


def sasl_cell(client, mechanism):
    """One client and mechanism on SASL_PLAINTEXT: the right password produces
    and reads back 20 messages, the wrong one stores nothing. The line to print
    and the number of failures."""
    topic = "s-%s-%s-%s" % (client.name, mechanism.lower(), uuid.uuid4().hex[:6])
    acked = client.produce(mechanism, PASSWORD, topic)
    got = client.consume(mechanism, PASSWORD, topic, COUNT)
    good = acked == COUNT and got == messages(topic)
    wrong_topic = topic + "-wrong"
    wrong_acked = client.produce(mechanism, "not-" + PASSWORD, wrong_topic)
    leaked = client.consume(mechanism, PASSWORD, wrong_topic, 0)
    refused = wrong_acked == 0 and not leaked
    return ("%-16s %-14s right password: %s (%d acked, %d read back); "
            "wrong password: %s (%d acked, %d stored)"
            % (client.name, mechanism, "ok" if good else "FAIL", acked, len(got),
               "refused" if refused else "FAIL", wrong_acked, len(leaked)),
            (not good) + (not refused))


def oauthbearer_cell(client):
    """OAUTHBEARER on SASL_PLAINTEXT: a good token produces and reads back 20
    messages; an expired one (where the client can send one) stores nothing."""
    topic = "o-%s-%s" % (client.name, uuid.uuid4().hex[:6])
    started = time.monotonic()
    acked = client.produce(OAUTHBEARER, unsecured_jws(), topic)
    got = client.consume(OAUTHBEARER, unsecured_jws(), topic, COUNT)
    good = acked == COUNT and got == messages(topic)
    line = ("%-16s %-14s good token: %s (%d acked, %d read back); "
            % (client.name, OAUTHBEARER, "ok" if good else "FAIL", acked, len(got)))
    if not client.expired_token:
        return (line + "expired token: not made by librdkafka's unsecured token builder %.1f s"
                % (time.monotonic() - started), int(not good))
    expired_topic = topic + "-expired"
    expired_acked = client.produce(OAUTHBEARER, unsecured_jws(expired=True), expired_topic)
    leaked = client.consume(OAUTHBEARER, unsecured_jws(), expired_topic, 0)
    refused = expired_acked == 0 and not leaked
    return (line + "expired token: %s (%d acked, %d stored) %.1f s"
            % ("refused" if refused else "FAIL", expired_acked, len(leaked),
               time.monotonic() - started), (not good) + (not refused))


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
                   time.monotonic() - started), int(not good))
    stored = client_class(address, protocol, trusted_ca).consume(mechanism, PASSWORD, topic, 0)
    refused = acked == 0 and not stored
    return ("%-16s %-23s other CA: %s (%d acked, %d stored) %.1f s"
            % (client.name, label, "refused" if refused else "FAIL", acked, len(stored),
               time.monotonic() - started), int(not refused))


def main():
    if "--no-build" not in sys.argv[1:]:
        servers.install(("broker",))
    failures = 0
    log = os.path.join(os.environ.get("TMPDIR", "/tmp"), "kwire-security-broker.log")
    folder = tempfile.mkdtemp(prefix="kwire-security-certs-")
    certificates(folder)
    ca, other_ca = os.path.join(folder, "ca.pem"), os.path.join(folder, "other-ca.pem")
    with servers.Server.broker(log, "--sasl-user", "%s:%s" % (USER, PASSWORD),
                               "--sasl-oauthbearer-unsecured",
                               "--listener", "SSL://127.0.0.1:0",
                               "--listener", "SASL_SSL://127.0.0.1:0",
                               "--tls-cert", os.path.join(folder, "server.pem"),
                               "--tls-key", os.path.join(folder, "server.key")) as broker, \
            concurrent.futures.ThreadPoolExecutor(max_workers=3) as tls_pool, \
            concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        listeners = tls_listeners(log + ".out")
        tls_cells = [tls_pool.submit(guarded, "%s %s" % (client.name, protocol), tls_cell,
                                     client, protocol, listeners[protocol], which, ca)
                     for which in (ca, other_ca)
                     for protocol in ("SSL", "SASL_SSL")
                     for client in CLIENTS
                     # A CA not trusted is refused before SASL: SSL alone shows it.
                     if which == ca or protocol == "SSL"]
        threaded = [pool.submit(guarded, "%s %s" % (client.name, mechanism), sasl_cell,
                                client(broker.address), mechanism)
                    for client in CLIENTS if client not in SEQUENTIAL
                    for mechanism in MECHANISMS]
        threaded += [pool.submit(guarded, "%s %s" % (client.name, OAUTHBEARER), oauthbearer_cell,
                                 client(broker.address))
                     for client in CLIENTS]
        ok = unauthenticated_gets_nothing(broker.address)
        failures += not ok
        print("%-16s %-14s %s" % ("raw socket", "none", "closed, no answer" if ok else "ANSWERED"))
        for client in SEQUENTIAL:
            for mechanism in MECHANISMS:
                line, failed = guarded("%s %s" % (client.name, mechanism), sasl_cell,
                                       client(broker.address), mechanism)
                failures += failed
                print(line, flush=True)
        for cell in threaded + tls_cells:
            # Each cell bounds its own waits; this bounds the lot.
            line, failed = cell.result(timeout=300)
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
