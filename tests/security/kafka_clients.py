"""The clients of the Kafka suite (kafka_proxy.py) beyond sasl_clients.py's:
kcat with librdkafka 2.16, Kafka's own Java client, and our async client's
secure_client example. Each has sasl_clients.py's interface: `produce(mechanism,
password, topic)` returns how many of 20 messages were acknowledged,
`consume(mechanism, password, topic, expect)` the values read, in order, and
`expected(topic)` the values its produce sent.

kcat runs with librdkafka 2.16 (tests/interop/kcat-librdkafka-2.16.sh), not
Debian's 2.0.2: that one's SCRAM client-final message puts its own nonce in
front of the combined one, which Kafka 4.4.0 refuses as invalid credentials
(Kafka checks the whole nonce since CVE-2024-56128; kwire-net's SCRAM server,
and so kwire-broker and the proxy, still accept a nonce that ends with the
server's, as Kafka did before)."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INTEROP = os.path.join(HERE, "..", "interop")
sys.path.insert(0, os.path.join(INTEROP, "matrix"))
import spec  # noqa: E402
from sasl_clients import COUNT, OAUTHBEARER, USER, KafkaJs, Kcat, messages  # noqa: E402

KCAT_216 = os.path.join(INTEROP, "kcat-librdkafka-2.16.sh")
JAVA_CLIENT = os.path.join(INTEROP, "matrix", "clients", "java_client.py")
JAVA_TIMEOUT = 40


class Kcat216(Kcat):
    """Debian's kcat 1.7.1 with librdkafka 2.16 (the copy in the confluent-kafka
    wheel)."""
    name = "kcat"

    def _args(self, mechanism, password):
        args = super()._args(mechanism, password)
        args[0] = KCAT_216
        return args


class KafkaJsSaid(KafkaJs):
    """kafkajs 2.2.4 (kafkajs_sasl.js), keeping what its last run said on
    stderr, for a failed cell's line."""

    stderr = ""

    def _run(self, *args):
        run = super()._run(*args)
        self.stderr = run.stderr.decode(errors="replace")
        return run


class JavaClient:
    """Kafka's Java client (kafka-clients 4.4.0), by the interop matrix's
    java_client.py: an idempotent producer (acks=all) of the matrix's
    messages, a consumer group, the admin client, a transactional producer."""
    name = "java"
    expired_token = True
    # Each run's --timeout.
    timeout = JAVA_TIMEOUT
    stderr = ""

    def __init__(self, bootstrap, protocol="SASL_PLAINTEXT", ca=None):
        self.bootstrap, self.protocol, self.ca = bootstrap, protocol, ca

    def _security(self, mechanism, password):
        args = ["--security-protocol", self.protocol]
        if mechanism == OAUTHBEARER:
            args += ["--sasl-mechanism", mechanism, "--oauth-token", password]
        elif mechanism:
            args += ["--sasl-mechanism", mechanism, "--username", USER, "--password", password]
        if self.ca:
            args += ["--ca", self.ca]
        return args

    def run(self, command, mechanism, password, *args):
        """One run: (exit status, JSON lines of stdout, the tail of stderr)."""
        argv = ([sys.executable, JAVA_CLIENT, command, "--bootstrap", self.bootstrap,
                 "--timeout", str(self.timeout)] + list(args)
                + self._security(mechanism, password))
        try:
            run = subprocess.run(argv, capture_output=True, timeout=self.timeout + 20)
        except subprocess.TimeoutExpired:
            self.stderr = "killed after %d s" % (self.timeout + 20)
            return None, [], self.stderr
        lines = []
        for line in run.stdout.decode(errors="replace").splitlines():
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
        # What it said last, for a failed cell's line.
        self.stderr = run.stderr.decode(errors="replace")[-600:]
        return run.returncode, lines, self.stderr

    def produce(self, mechanism, password, topic):
        _, lines, _ = self.run("produce", mechanism, password, "--producer", self.name,
                               "--topic", topic, "--codec", "none", "--count", str(COUNT))
        return lines[-1].get("acked", 0) if lines else 0

    def consume(self, mechanism, password, topic, expect):
        _, lines, _ = self.run("consume", mechanism, password, "--topics", topic,
                               "--mode", "group", "--group", "g-" + topic,
                               "--expect", str(expect))
        return [line["value"].encode() for line in lines if "value" in line]

    def expected(self, topic):
        return [spec.value(i).encode() for i in range(COUNT)]

    def checks(self, command, mechanism, password, *args):
        """`admin` or `transactional-produce`: (whether every check held, the
        checks' lines, the tail of stderr)."""
        status, lines, stderr = self.run(command, mechanism, password, *args)
        good = status == 0 and lines and all(line.get("ok") for line in lines)
        return bool(good), lines, stderr


def expected(client, topic):
    """The values `client` sends to `topic` (sasl_clients.py's, or its own)."""
    own = getattr(client, "expected", None)
    return own(topic) if own is not None else messages(topic)


def secure_client(binary, address, ca, login, topic, timeout=60):
    """Our async client (net/examples/secure_client.rs): over TLS trusting
    `ca`, logging in with `login` (MECHANISM:USER:PASSWORD), it creates
    `topic`, produces 20 records and fetches them back, each checked; exit 0
    only then. (exit status, the tail of its output)."""
    argv = [binary, address, "--ca", ca, "--login", login, "--topic", topic,
            "--count", str(COUNT)]
    try:
        run = subprocess.run(argv, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "killed after %d s" % timeout
    return run.returncode, (run.stdout + run.stderr).decode(errors="replace")[-400:]
