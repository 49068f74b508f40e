#!/usr/bin/env python3
"""Kafka's Java client (kafka-clients 4.4.0) against our broker, beyond the
interop matrix's produce and consume: its admin client, its transactional
producer, and each way of logging in.

    tests/interop/java/run [--no-build] [--kafka] [--timeout 60]

Starts `kwire-broker` with a PLAINTEXT, a SASL_PLAINTEXT (user alice; PLAIN,
SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER with unsecured tokens), an SSL and
a SASL_SSL listener (a certificate made for the run by the test_certificates
binary), and runs `../matrix/clients/java_client.py` (README of the matrix,
section "Kafka's Java client") against it:

- `admin` and `transactional-produce` on the PLAINTEXT listener: every check
  they print must hold;
- per login (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, an OAUTHBEARER token over
  SASL_PLAINTEXT; SSL trusting the CA; SASL_SSL with SCRAM-SHA-512): 20
  messages of the matrix's spec produced, then read back by assignment, each
  key, value and header checked;
- refused: a wrong password (PLAIN, SCRAM-SHA-512), an expired token, SSL
  trusting another CA: nothing acknowledged, and the topic holds nothing when
  read with a good login.

With --kafka the same runs against Apache Kafka 4.4.0 (`../kafka_peer.py`,
one node with the same four listeners and users), the reference: a cell that
passes there and fails here is our broker's fault. Prints one table, cells
by target, and exits 1 if any cell fails. Every client run is bounded by
--timeout; the broker and Kafka are stopped by their PIDs.

Standard library only.
"""

import argparse
import base64
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
INTEROP = os.path.dirname(HERE)
MATRIX = os.path.join(INTEROP, "matrix")
sys.path[:0] = [os.path.join(INTEROP, "..", "hostility"), MATRIX, INTEROP]
import kafka_peer  # noqa: E402
import servers  # noqa: E402
import spec  # noqa: E402

CLIENT = os.path.join(MATRIX, "clients", "java_client.py")
USER, PASSWORD = "alice", "alice-secret"
COUNT = 20


def token(expired=False):
    """Kafka's unsecured JWS for alice: good for an hour, or expired a minute ago."""
    def part(obj):
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()
    now = int(time.time())
    claims = {"sub": USER, "iat": now - 7200 if expired else now,
              "exp": now - 60 if expired else now + 3600}
    return part({"alg": "none"}) + "." + part(claims) + "."


class Target:
    """Where the cells run: the listeners' addresses and the CAs."""

    def __init__(self, name, listeners, ca, other_ca):
        self.name, self.listeners, self.ca, self.other_ca = name, listeners, ca, other_ca


def run(argv, timeout):
    """java_client.py's exit status and its stdout's JSON objects."""
    try:
        r = subprocess.run([sys.executable, CLIENT] + argv, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout + 15)
    except subprocess.TimeoutExpired:
        return None, [], "killed after %.0f s" % (timeout + 15)
    lines = []
    for line in r.stdout.decode("utf-8", errors="replace").splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            pass
    tail = r.stderr.decode("utf-8", errors="replace").strip().splitlines()[-3:]
    return r.returncode, lines, " | ".join(tail)


def checks_cell(target, command, extra, timeout):
    """admin / transactional-produce: every check printed must hold."""
    rc, lines, tail = run([command, "--bootstrap", target.listeners["PLAINTEXT"],
                           "--timeout", str(timeout)] + extra, timeout)
    checks = [line for line in lines if "check" in line]
    failed = [c["check"] for c in checks if not c.get("ok")]
    if rc == 0 and checks and not failed:
        return True, "%d checks hold" % len(checks)
    return False, "exit %s; failed: %s%s" % (rc, ", ".join(failed) or "-",
                                             "" if checks else "; " + tail)


def login_args(target, protocol, mechanism=None, password=PASSWORD, oauth=None, ca=None):
    args = ["--bootstrap", target.listeners[protocol], "--security-protocol", protocol]
    if protocol in ("SSL", "SASL_SSL"):
        args += ["--ca", ca or target.ca]
    if mechanism:
        args += ["--sasl-mechanism", mechanism]
        if oauth:
            args += ["--oauth-token", oauth]
        else:
            args += ["--username", USER, "--password", password]
    return args


def read_back(login, topic, expect, timeout):
    """What consume --mode assign reads of `topic` (at most `expect`)."""
    _, lines, _ = run(["consume", "--topics", topic, "--mode", "assign", "--expect",
                       str(expect), "--timeout", str(timeout)] + login, timeout)
    return [m for m in lines if "offset" in m]


def wrong_messages(messages, producer, codec):
    """The first way `messages` differ from messages 0..COUNT-1 of the spec."""
    by_index = {}
    for m in messages:
        found = re.fullmatch(r"%s-%s-(\d{4})" % (re.escape(producer), codec), m.get("key") or "")
        if not found:
            return "unexpected key %r" % m.get("key")
        i = int(found.group(1))
        if i in by_index:
            return "message %d twice" % i
        by_index[i] = m
        if m.get("value") != spec.value(i):
            return "message %d: value %r" % (i, m.get("value"))
        if [tuple(h) for h in m.get("headers") or []] != spec.headers(producer, codec):
            return "message %d: headers %r" % (i, m.get("headers"))
    if sorted(by_index) != list(range(COUNT)):
        return "%d of %d messages" % (len(by_index), COUNT)
    return None


def login_cell(target, label, login, timeout):
    """20 messages produced with `login`, read back with it, each checked."""
    topic = "j-%s" % re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
    rc, lines, tail = run(["produce", "--producer", "java", "--topic", topic, "--codec", "none",
                           "--count", str(COUNT), "--timeout", str(timeout)] + login, timeout)
    acked = next((line["acked"] for line in lines if "acked" in line), None)
    if rc != 0 or acked != COUNT:
        return False, "produce exit %s, acked %s: %s" % (rc, acked, tail)
    wrong = wrong_messages(read_back(login, topic, COUNT, timeout), "java", "none")
    if wrong:
        return False, "read back: " + wrong
    return True, "%d acked, read back" % COUNT


def refused_cell(target, label, login, good_login, timeout):
    """Nothing acknowledged with `login`, nothing stored (read with `good_login`)."""
    topic = "j-%s" % re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
    t0 = time.monotonic()
    rc, lines, tail = run(["produce", "--producer", "java", "--topic", topic, "--codec", "none",
                           "--count", str(COUNT), "--timeout", str(timeout)] + login, timeout)
    acked = next((line["acked"] for line in lines if "acked" in line), None)
    refused_in = time.monotonic() - t0
    # Short: an empty (or missing) topic reads nothing until the timeout.
    stored = read_back(good_login, topic, 1, min(timeout, 8))
    if rc != 0 and acked == 0 and not stored:
        return True, "refused in %.1f s, nothing stored" % refused_in
    return False, "exit %s, acked %s, %d stored: %s" % (rc, acked, len(stored), tail)


def cells(target, timeout, run_id):
    """[(label, callable)] of every cell against `target`."""
    sasl = "SASL_PLAINTEXT"
    good = login_args(target, sasl, "SCRAM-SHA-512")
    out = [
        ("admin", lambda: checks_cell(target, "admin", ["--topic", "adm-%s" % run_id],
                                      timeout)),
        ("transactional-produce",
         lambda: checks_cell(target, "transactional-produce",
                             ["--topic", "txn-%s" % run_id, "--transactional-id",
                              "txn-%s" % run_id, "--group", "txn-%s" % run_id,
                              "--count", "100"], timeout)),
    ]
    for mechanism in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"):
        out.append(("%s %s" % (sasl, mechanism), lambda m=mechanism: login_cell(
            target, "%s-%s" % (m, run_id), login_args(target, sasl, m), timeout)))
    out.append(("%s OAUTHBEARER" % sasl, lambda: login_cell(
        target, "oauth-%s" % run_id, login_args(target, sasl, "OAUTHBEARER", oauth=token()),
        timeout)))
    out.append(("SSL", lambda: login_cell(target, "ssl-%s" % run_id,
                                          login_args(target, "SSL"), timeout)))
    out.append(("SASL_SSL SCRAM-SHA-512", lambda: login_cell(
        target, "sasl-ssl-%s" % run_id, login_args(target, "SASL_SSL", "SCRAM-SHA-512"),
        timeout)))
    for mechanism in ("PLAIN", "SCRAM-SHA-512"):
        out.append(("%s %s wrong password" % (sasl, mechanism), lambda m=mechanism: refused_cell(
            target, "wrong-%s-%s" % (m, run_id),
            login_args(target, sasl, m, password="not-" + PASSWORD), good, timeout)))
    out.append(("%s OAUTHBEARER expired token" % sasl, lambda: refused_cell(
        target, "expired-%s" % run_id,
        login_args(target, sasl, "OAUTHBEARER", oauth=token(expired=True)), good, timeout)))
    out.append(("SSL trusting another CA", lambda: refused_cell(
        target, "other-ca-%s" % run_id, login_args(target, "SSL", ca=target.other_ca),
        login_args(target, "SSL"), timeout)))
    return out


def our_broker(folder, log):
    """kwire-broker with the four listeners; returns (Server, Target)."""
    server = servers.Server.broker(
        log, "--listener", "PLAINTEXT://127.0.0.1:0", "--listener", "SSL://127.0.0.1:0",
        "--listener", "SASL_SSL://127.0.0.1:0", "--sasl-user", "%s:%s" % (USER, PASSWORD),
        "--sasl-oauthbearer-unsecured", "--tls-cert", os.path.join(folder, "server.pem"),
        "--tls-key", os.path.join(folder, "server.key"))
    listeners = {"SASL_PLAINTEXT": server.address}
    deadline = time.monotonic() + 10
    while len(listeners) < 4:
        with open(log + ".out", errors="replace") as f:
            listeners.update((p, "127.0.0.1:" + port) for port, p in
                             re.findall(r"listening on 127\.0\.0\.1:(\d+) \((\w+)\)", f.read()))
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError("the broker did not print its listeners (%s)" % log)
        time.sleep(0.05)
    return server, Target("our broker", listeners, os.path.join(folder, "ca.pem"),
                          os.path.join(folder, "other-ca.pem"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-build", action="store_true",
                    help="use the kwire-broker installed in target/interop-bin")
    ap.add_argument("--kafka", action="store_true", help="also against Kafka 4.4.0")
    ap.add_argument("--timeout", type=float, default=60.0, help="each client run's (60 s)")
    args = ap.parse_args()
    t_all = time.monotonic()
    if not args.no_build:
        servers.install(("broker",))
    build = subprocess.run([sys.executable, CLIENT, "build"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    if build.returncode != 0:
        print("the Java client did not build:\n" + build.stdout)
        return 1
    print("java client: " + build.stdout.strip())
    work = tempfile.mkdtemp(prefix="kwire-java-checks-")
    folder = os.path.join(work, "certs")
    os.makedirs(folder)
    kafka_peer.certificates(folder)
    run_id = "%x" % int(time.time())
    results = {}  # label -> {target: (ok, text)}
    targets = []
    server = cluster = None
    try:
        server, ours = our_broker(folder, os.path.join(work, "broker.log"))
        targets.append(ours)
        if args.kafka:
            cluster = kafka_peer.start(os.path.join(work, "kafka"), nodes=1)
            node = cluster.nodes[0]
            targets.append(Target("Kafka 4.4.0", {p: node[p] for p in
                                                  ("PLAINTEXT", "SASL_PLAINTEXT", "SSL",
                                                   "SASL_SSL")},
                                  cluster.ca, cluster.other_ca))
        plan = [(t, label, cell) for t in targets for label, cell in cells(t, args.timeout,
                                                                          run_id)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
            futures = [(t, label, pool.submit(cell)) for t, label, cell in plan]
            for t, label, future in futures:
                try:
                    outcome = future.result(timeout=4 * args.timeout + 60)
                except Exception as e:  # a bug here, or a hang past every bound
                    outcome = (False, "error: %r" % (e,))
                results.setdefault(label, {})[t.name] = outcome
        if not server.alive():
            results.setdefault("broker", {})[ours.name] = (False, "died (log %s)" % server.log.name)
    finally:
        if server is not None:
            server.stop()
        if cluster is not None:
            cluster.stop()
    names = [t.name for t in targets]
    width = max(len(label) for label in results)
    print("\n%-*s  %s" % (width, "Kafka's Java client", "  ".join("%-40s" % n for n in names)))
    failures = 0
    for label, by_target in results.items():
        row = []
        for n in names:
            ok, text = by_target.get(n, (True, "-"))
            failures += not ok
            row.append("%-40s" % (("pass: " if ok else "FAIL: ") + text))
        print("%-*s  %s" % (width, label, "  ".join(row)))
    print("\n%d failure(s) in %.1f s" % (failures, time.monotonic() - t_all))
    if failures:
        print("logs kept in %s" % work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
