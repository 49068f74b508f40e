"""Real clients through the verifying proxy (kwire-proxy) in front of
`kwire-broker --sasl-user alice:alice-secret`.

Two proxies, each client (kafka-python 3.0.12; confluent-kafka 2.16.1, i.e.
librdkafka 2.16) on each, SCRAM-SHA-512:

- terminating: the proxy speaks SASL_SSL to its clients (`--tls-cert`,
  `--tls-key`), authenticates them itself (`--sasl-user alice:alice-at-the-proxy`)
  and logs in upstream with its own credentials (`--upstream-sasl
  SCRAM-SHA-512:alice:alice-secret`). Alice's password at the proxy is not the
  broker's, so a client gets in only if the proxy authenticates it and does not
  forward its SASL.
- pass-through: no SASL options; the clients' SASL_PLAINTEXT login goes to the
  broker unchanged.

On each, the right password produces 20 messages and consumes them back, each
checked by value; a wrong one delivers nothing and the topic stays empty (read
back with the right password). A raw connection (over TLS to the terminating
proxy) asking Metadata without authenticating is closed with no answer. At the
end each proxy's report must show no mismatch and no decode failure, the
terminating one SASL answered by itself, the pass-through one SaslAuthenticate
forwarded.

The cells run in threads (they mostly wait out refused clients). Bounded: every
wait has a timeout; the servers are stopped by their PIDs. Prints one line per
case; exits 1 if any fails.

    tests/security/proxy_run [--no-build]   (--no-build: the binaries the interop suite installed)"""

import concurrent.futures
import json
import os
import socket
import ssl
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# Its clients, certificates and the interop helpers it puts on the path.
import sasl_clients  # noqa: E402
from sasl_clients import (COUNT, PASSWORD, USER, KafkaPython, Librdkafka, certificates,  # noqa: E402
                          messages, read_frame, requests, servers,
                          unauthenticated_gets_nothing)

MECHANISM = "SCRAM-SHA-512"
PROXY_PASSWORD = "alice-at-the-proxy"


class QuietLibrdkafka(Librdkafka):
    """confluent-kafka, without librdkafka's log line for each refused login
    (it retries for seconds, and the refusals are the point here)."""

    def _conf(self, mechanism, password):
        return dict(super()._conf(mechanism, password), log_level=0)


CLIENTS = (KafkaPython, QuietLibrdkafka)


def cell(client_class, setup, address, protocol, ca, password, right):
    """One client through one proxy: with the right password, 20 messages
    acknowledged and read back; with a wrong one, none acknowledged and none
    stored. The line to print and whether it failed."""
    client = client_class(address, protocol, ca)
    topic = "p-%s-%s-%s" % (client.name, setup, uuid.uuid4().hex[:6])
    started = time.monotonic()
    label = "%-16s %-12s %-14s %s" % (client.name, setup, protocol, MECHANISM)
    if right:
        acked = client.produce(MECHANISM, password, topic)
        got = client.consume(MECHANISM, password, topic, COUNT)
        good = acked == COUNT and got == messages(topic)
        return ("%s right password: %s (%d acked, %d read back) %.1f s"
                % (label, "ok" if good else "FAIL", acked, len(got),
                   time.monotonic() - started), not good)
    acked = client.produce(MECHANISM, "not-" + password, topic)
    stored = client.consume(MECHANISM, password, topic, 0)
    refused = acked == 0 and not stored
    return ("%s wrong password: %s (%d acked, %d stored) %.1f s"
            % (label, "refused" if refused else "FAIL", acked, len(stored),
               time.monotonic() - started), not refused)


def unauthenticated_over_tls(address, ca):
    """Metadata over TLS before authenticating: closed without an answer (a
    connection left open and silent is a failure too)."""
    host, port = address.rsplit(":", 1)
    context = ssl.create_default_context(cafile=ca)
    try:
        with socket.create_connection((host, int(port)), timeout=5.0) as raw, \
                context.wrap_socket(raw, server_hostname=host) as sock:
            sock.sendall(requests.metadata_all(7))
            return read_frame(sock) is None
    except TimeoutError:
        return False
    except (ConnectionError, OSError):
        return True


def report_check(path, setup):
    """The proxy's report: no mismatch, no decode failure, and the SASL of its
    setup seen. The line to print and whether it failed."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        return "%-16s %-12s report: FAIL (%s)" % ("proxy", setup, error), True
    by_name = dict((api["name"], api) for api in report["apis"])
    if setup == "terminating":
        sasl = report["answered_by_proxy"]
        what = "%d SASL answers of its own" % sasl
    else:
        sasl = by_name.get("SaslAuthenticate", {}).get("responses", 0)
        what = "%d SaslAuthenticate forwarded" % sasl
    good = report["mismatches"] == 0 and report["decode_failures"] == 0 and sasl > 0
    return ("%-16s %-12s report: %s (%d mismatches, %d decode failures, %s)"
            % ("proxy", setup, "ok" if good else "FAIL", report["mismatches"],
               report["decode_failures"], what), not good)


def main():
    started = time.monotonic()
    if "--no-build" not in sys.argv[1:]:
        servers.install(("broker", "proxy"))
    failures = 0
    tmp = os.environ.get("TMPDIR", "/tmp")
    log = lambda name: os.path.join(tmp, "kwire-security-proxy-%s.log" % name)  # noqa: E731
    reports = dict((setup, log(setup) + ".json") for setup in ("terminating", "passthrough"))
    folder = tempfile.mkdtemp(prefix="kwire-security-proxy-certs-")
    certificates(folder)
    ca = os.path.join(folder, "ca.pem")
    tls = ["--tls-cert", os.path.join(folder, "server.pem"),
           "--tls-key", os.path.join(folder, "server.key")]
    with servers.Server.broker(log("broker"), "--sasl-user", "%s:%s" % (USER, PASSWORD)) as broker:
        with servers.Server.proxy(broker.address, log("terminating"), *tls,
                                  "--sasl-user", "%s:%s" % (USER, PROXY_PASSWORD),
                                  "--upstream-sasl", "%s:%s:%s" % (MECHANISM, USER, PASSWORD),
                                  "--report", reports["terminating"]) as terminating, \
                servers.Server.proxy(broker.address, log("passthrough"),
                                     "--report", reports["passthrough"]) as passthrough, \
                concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            setups = (("terminating", terminating.address, "SASL_SSL", ca, PROXY_PASSWORD),
                      ("passthrough", passthrough.address, "SASL_PLAINTEXT", None, PASSWORD))
            cells = [pool.submit(cell, client, setup, address, protocol, trusted, password, right)
                     for right in (False, True)
                     for setup, address, protocol, trusted, password in setups
                     for client in CLIENTS]
            for label, ok in (("terminating", unauthenticated_over_tls(terminating.address, ca)),
                              ("passthrough", unauthenticated_gets_nothing(passthrough.address))):
                failures += not ok
                print("%-16s %-12s %s" % ("raw socket", label,
                                          "closed, no answer" if ok else "ANSWERED OR LEFT OPEN"),
                      flush=True)
            for future in cells:
                line, failed = future.result()
                failures += failed
                print(line, flush=True)
            for proxy in (terminating, passthrough):
                if not proxy.alive():
                    print("a proxy died (log %s)" % proxy.log.name)
                    failures += 1
        # Out of their `with`: both proxies are stopped, and have written their reports.
        for setup, path in reports.items():
            line, failed = report_check(path, setup)
            failures += failed
            print(line, flush=True)
            if os.path.exists(path):
                os.remove(path)
        if not broker.alive():
            print("the broker died")
            failures += 1
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    os.rmdir(folder)
    print("%d failure(s) in %.1f s" % (failures, time.monotonic() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
