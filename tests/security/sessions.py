"""Sessions that end (KIP-368) through kwire-proxy: Kafka gives a SASL
session a lifetime (`connections.max.reauth.ms`, here SESSION_MS for
SCRAM-SHA-512 on its SASL_SSL listener) and closes a connection used past it
without a login again.

One long-lived producer (Kafka's ProducerPerformance, COUNT messages at RATE
a second, idempotent, acks=all, SCRAM-SHA-512 over TLS) through a proxy:

- terminated: the session is the proxy's own upstream; the proxy must log in
  again before it ends ("logged in upstream again" in its log, at debug for
  `kwire_proxy::login`), between the client's requests;
- passthrough-tls: the session is the client's; Kafka's Java client logs in
  again through the proxy (its `successful-reauthentication-total`, from
  `--print-metrics`, at least 1, and no failed one).

Either way every message must be acknowledged and stored once: the
partition's end offset, asked of Kafka directly, is COUNT."""

import os
import re
import subprocess
import uuid

import kafka_peer
import leadership

SESSION_MS = 3000
# The override kafka_peer.start takes: SCRAM-SHA-512 on SASL_SSL only, so
# that clients of other mechanisms and listeners are not asked to log in again.
OVERRIDE = {"listener.name.sasl_ssl.scram-sha-512.connections.max.reauth.ms": str(SESSION_MS)}
# What the proxies log: the relogin line is at debug.
RUST_LOG = "info,kwire_proxy::login=debug"
COUNT = 1500
RATE = 150


def metric(text, name):
    """A producer metric's value in ProducerPerformance's --print-metrics."""
    found = re.search(r"producer-metrics:%s:\{[^}]*\}\s*:\s*([0-9.]+)" % re.escape(name), text)
    return float(found.group(1)) if found else None


def cell(address, ca, password, mode, log_dir, kafka_plaintext, proxy_log):
    """(ok, detail) for the producer through the proxy at `address` of `mode`."""
    topic = "session-%s-%s" % (mode, uuid.uuid4().hex[:6])
    config = os.path.join(log_dir, "%s.properties" % topic)
    with open(config, "w") as f:
        f.write("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
                "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule "
                'required username="alice" password="%s";\n'
                "ssl.truststore.type=PEM\nssl.truststore.location=%s\n" % (password, ca))
    argv = ([kafka_peer.java()] + kafka_peer.TOOL_OPTS
            + ["-cp", kafka_peer.classpath(), "org.apache.kafka.tools.ProducerPerformance",
               "--topic", topic, "--num-records", str(COUNT), "--throughput", str(RATE),
               "--payload-monotonic", "--print-metrics", "--producer.config", config,
               "--producer-props", "bootstrap.servers=" + address, "acks=all",
               "enable.idempotence=true"])
    run = subprocess.run(argv, capture_output=True, text=True, timeout=90)
    sent = re.findall(r"^(\d+) records sent, .* 50th", run.stdout, re.M)
    stored = leadership.end_offsets(kafka_plaintext, [topic])[topic]
    good = run.returncode == 0 and sent == [str(COUNT)] and stored == COUNT
    detail = "%s sent, %d stored" % (sent[0] if sent else "none", stored)
    if mode == "terminated":
        with open(proxy_log, errors="replace") as f:
            again = f.read().count("logged in upstream again")
        good = good and again >= 1
        detail += ", the proxy logged in again %d times" % again
    else:
        done = metric(run.stdout, "successful-reauthentication-total")
        failed = metric(run.stdout, "failed-reauthentication-total")
        good = good and (done or 0) >= 1 and failed == 0
        detail += ", the client logged in again %s times (%s failed)" % (
            "?" if done is None else int(done), "?" if failed is None else int(failed))
    return good, detail
