"""kwire-proxy in front of Apache Kafka 4.4.0 (tests/interop/kafka_peer.py),
with SASL and TLS, and real clients through it: kafka-python 3.0.12,
confluent-kafka 2.16.1, kcat (librdkafka 2.16), aiokafka 0.14.0, kafkajs 2.2.4,
Kafka's own Java client (kafka-clients 4.4.0) and our async client's
secure_client example.

Three proxies in front of each cluster, every one with `--report`:

- terminated: SASL_SSL at the proxy (`--tls-cert`, `--sasl-user
  alice:alice-at-the-proxy`); the proxy logs in to Kafka's SASL_SSL listener
  with its own credentials (`--upstream-sasl SCRAM-SHA-512:proxy:proxy-secret`
  on one node, SCRAM-SHA-256 on three; `--upstream-tls-ca`). Alice's
  password at the proxy is not Kafka's: a client gets in only if the proxy
  authenticates it and forwards none of its SASL.
- passthrough: SASL_PLAINTEXT, the clients' SASL forwarded to Kafka's
  SASL_PLAINTEXT listener.
- passthrough-tls: SASL_SSL, TLS at the proxy and to Kafka's SASL_SSL
  listener, the clients' SASL forwarded.

One node: every client with PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 and the
right password produces 20 messages and reads them back, each checked by
value (OAUTHBEARER too where SASL passes through: Kafka's unsecured tokens);
with a wrong password it gets nothing acknowledged and the topic does not
exist on Kafka. The Java client also runs its admin checks and a
transactional producer's life through each proxy; our secure_client logs in
with SCRAM-SHA-512 over TLS, produces and reads back (refused with a wrong
password, and trusting another CA). A raw Metadata before logging in is
closed unanswered; a SaslHandshake v0 login with bare tokens gets in.

Three nodes: every client, one mechanism each, right password, through each
proxy (brokers reached through the proxy's per-broker listeners); producers
outliving Kafka's SASL sessions, which end after 6 s there (sessions.py);
ApiVersions v5 with the cluster id and each node id learned through the
proxy, and with wrong ones (api_versions_v5.py); then the leadership move
(leadership.py).

At the end every proxy's report must show 0 mismatches, 0 decode failures, 0
unmatched responses and 0 frames unchecked. Prints the tables; exits 1 on any
failure.

    tests/security/kafka_run [--no-build] [--keep]
      --no-build: the proxy the interop suite installed and the secure_client
      example `cargo build` left in target/debug (CI builds both before)
      --keep: keep the logs even when everything passes"""

import concurrent.futures
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# Its clients, and the interop helpers it puts on the path (servers, procs, requests).
from sasl_clients import (COUNT, MECHANISMS, OAUTHBEARER, AioKafka,  # noqa: E402
                          KafkaPython, read_frame, requests, servers, unsecured_jws)
from proxy_clients import QuietLibrdkafka  # noqa: E402
import kafka_peer  # noqa: E402  (tests/interop, on the path since sasl_clients)
import kafka_wire  # noqa: E402
import api_versions_v5  # noqa: E402
import leadership  # noqa: E402
import sessions  # noqa: E402
from kafka_clients import (JavaClient, KafkaJsSaid, Kcat216, expected,  # noqa: E402
                           secure_client)

CLIENTS = (KafkaPython, QuietLibrdkafka, Kcat216, AioKafka, KafkaJsSaid, JavaClient)
MODES = ("terminated", "passthrough", "passthrough-tls")
PROTOCOL = {"terminated": "SASL_SSL", "passthrough": "SASL_PLAINTEXT",
            "passthrough-tls": "SASL_SSL", "plaintext": "PLAINTEXT"}
PROXY_PASSWORD = "alice-at-the-proxy"
KAFKA_PASSWORD = "alice-secret"
WRONG_MECHANISM = "SCRAM-SHA-512"
# Threads for the cells: most of a refused cell is waiting (kafka-python's
# takes 30 s), and those are submitted first.
WORKERS = 6
SECURE_CLIENT = os.path.join(servers.procs.TARGET, "debug", "examples", "secure_client")


class Cell:
    """One result: where, who, what, whether it held, and how it went."""

    def __init__(self, nodes, mode, client, what, ok, detail, seconds):
        self.nodes, self.mode, self.client, self.what = nodes, mode, client, what
        self.ok, self.detail, self.seconds = ok, detail, seconds

    def line(self):
        return ("%d node%s %-15s %-16s %-28s %s (%s) %.1f s"
                % (self.nodes, "" if self.nodes == 1 else "s", self.mode, self.client, self.what,
                   "ok" if self.ok else "FAIL", self.detail, self.seconds))


def timed(nodes, mode, client, what, body):
    """Runs `body()` -> (ok, detail) as a Cell; an exception is a failure."""
    started = time.monotonic()
    try:
        ok, detail = body()
    except Exception as error:  # a client library's failure is the cell's
        ok, detail = False, "%s: %s" % (type(error).__name__, str(error)[:200])
    return Cell(nodes, mode, client, what, ok, detail, time.monotonic() - started)


class Proxies:
    """The proxies of `modes` in front of one cluster, each with its report."""

    def __init__(self, cluster, certs, log_dir, tag, modes=MODES,
                 upstream_mechanism="SCRAM-SHA-512"):
        node = cluster.node(1)
        tls = ["--tls-cert", os.path.join(certs, "server.pem"),
               "--tls-key", os.path.join(certs, "server.key")]
        self.ca = cluster.ca
        self.kafka_ports = leadership.kafka_ports(cluster)
        # Where the suite asks Kafka itself.
        self.kafka_plaintext = node["PLAINTEXT"]
        self.modes = modes
        self.reports = dict((mode, os.path.join(log_dir, "proxy-%s-%s.json" % (tag, mode)))
                            for mode in modes)
        self.logs = dict((mode, os.path.join(log_dir, "proxy-%s-%s.log" % (tag, mode)))
                         for mode in modes)
        arguments = {
            "terminated": (node["SASL_SSL"], tls + [
                "--sasl-user", "alice:" + PROXY_PASSWORD,
                "--upstream-sasl", "%s:proxy:%s" % (upstream_mechanism, cluster.users["proxy"]),
                "--upstream-tls-ca", cluster.ca]),
            "passthrough": (node["SASL_PLAINTEXT"], []),
            "passthrough-tls": (node["SASL_SSL"], tls + ["--upstream-tls-ca", cluster.ca]),
            "plaintext": (node["PLAINTEXT"], []),
        }
        self.servers = {}
        try:
            for mode in modes:
                upstream, extra = arguments[mode]
                self.servers[mode] = servers.Server.proxy(
                    upstream, self.logs[mode], *(extra + ["--report", self.reports[mode]]))
        except Exception:
            self.stop()
            raise

    def address(self, mode):
        return self.servers[mode].address

    def client(self, client_class, mode):
        """`client_class` pointed at the proxy of `mode`."""
        ca = self.ca if PROTOCOL[mode] == "SASL_SSL" else None
        return client_class(self.address(mode), PROTOCOL[mode], ca)

    def stop(self):
        """Stops them (each writes its report); whether all were still up."""
        alive = all(server.alive() for server in self.servers.values())
        for server in self.servers.values():
            server.stop()
        return alive


def password(mode):
    return PROXY_PASSWORD if mode == "terminated" else KAFKA_PASSWORD


def topic_name(client, mode, what):
    return "k-%s-%s-%s-%s" % (client.name, mode, what.lower(), uuid.uuid4().hex[:6])


def right_cell(proxies, nodes, mode, client_class, mechanism):
    """20 messages produced and read back, each checked by value."""
    client = proxies.client(client_class, mode)
    secret = unsecured_jws() if mechanism == OAUTHBEARER else password(mode)

    def body():
        topic = topic_name(client, mode, mechanism)
        # Made before the client runs: on a loaded machine Kafka may take
        # longer to create a topic on first use than kafkajs's few retries.
        if not kafka_wire.topic_ready(proxies.kafka_plaintext, topic):
            return False, "topic %s has no leader" % topic
        acked = client.produce(mechanism, secret, topic)
        got = client.consume(mechanism, secret, topic, COUNT)
        good = acked == COUNT and got == expected(client, topic)
        detail = "%d acked, %d read back" % (acked, len(got))
        if not good:
            detail += "; %s" % getattr(client, "stderr", "")[-400:]
        return good, detail
    return timed(nodes, mode, client.name, mechanism, body)


def wrong_cell(proxies, nodes, mode, client_class, kafka_plaintext):
    """A wrong password: nothing acknowledged, and no such topic on Kafka."""
    client = proxies.client(client_class, mode)

    def body():
        topic = topic_name(client, mode, "wrong")
        acked = client.produce(WRONG_MECHANISM, "not-" + password(mode), topic)
        absent = kafka_wire.topic_absent(kafka_plaintext, topic)
        return (acked == 0 and absent,
                "%d acked, topic %s" % (acked, "absent" if absent else "EXISTS"))
    return timed(nodes, mode, client.name, "wrong password", body)


def java_checks_cell(proxies, nodes, mode, command):
    """The Java client's admin checks, or a transactional producer's life."""
    client = proxies.client(JavaClient, mode)
    kafka_ports = proxies.kafka_ports

    def body():
        topic = topic_name(client, mode, command)
        args = ["--topic", topic]
        if command == "transactional-produce":
            args += ["--transactional-id", "tx-" + topic, "--group", "g-" + topic,
                     "--count", "10"]
        good, lines, stderr = client.checks(command, WRONG_MECHANISM, password(mode), *args)
        passed = sum(1 for line in lines if line.get("ok"))
        detail = "%d of %d checks" % (passed, len(lines))
        # The admin client is told the brokers: the proxy's listeners only.
        for line in lines:
            for node in line.get("nodes") or []:
                if int(node.rsplit(":", 1)[1]) in kafka_ports:
                    good, detail = False, detail + ", told Kafka's own %s" % node
        if not good:
            failed = [line for line in lines if not line.get("ok")][:1]
            detail += ": %s %s" % (json.dumps(failed)[:300], stderr[-200:] if not lines else "")
        return good, detail
    what = "admin" if command == "admin" else "transactions"
    return timed(nodes, mode, "java", what, body)


def secure_cell(proxies, mode, login, ca, want_ok, what):
    """Our async client over TLS through the proxy of `mode`."""
    def body():
        topic = "k-secure-%s-%s" % (mode, uuid.uuid4().hex[:6])
        # The example creates its topic and produces at once, on one
        # connection: Kafka may not have a leader yet (our broker has), and
        # the example does not retry. Made first, it finds it there.
        if want_ok and not kafka_wire.topic_ready(proxies.kafka_plaintext, topic):
            return False, "topic %s has no leader" % topic
        status, output = secure_client(SECURE_CLIENT, proxies.address(mode), ca, login, topic)
        good = (status == 0) == want_ok
        return good, "exit %s: %s" % (status, output.strip().splitlines()[-1][:160]
                                      if output.strip() else "")
    return timed(1, mode, "kwire secure_client", what, body)


def session_cell(proxies, mode, kafka_plaintext, log_dir):
    """A producer outliving Kafka's SASL sessions through the proxy."""
    def body():
        return sessions.cell(proxies.address(mode), proxies.ca, password(mode), mode, log_dir,
                             kafka_plaintext, proxies.logs[mode])
    return timed(3, mode, "java", "sessions of %d ms" % sessions.SESSION_MS, body)


def v0_cell(proxies, mode, mechanism):
    """SaslHandshake v0 and bare tokens (clients before KIP-152): the right
    password logs in and Metadata is served; a wrong one is closed."""
    ca = proxies.ca if PROTOCOL[mode] == "SASL_SSL" else None

    def body():
        with kafka_wire.connect(proxies.address(mode), ca) as sock:
            good = kafka_wire.sasl_v0_login(sock, mechanism, "alice", password(mode))
            served = good and bool(kafka_wire.metadata(sock)["brokers"])
        with kafka_wire.connect(proxies.address(mode), ca) as sock:
            try:
                wrong = kafka_wire.sasl_v0_login(sock, mechanism, "alice", "not-it")
            except (kafka_wire.WireError, OSError):
                wrong = False
        return (served and not wrong,
                "%s, wrong password %s" % ("served" if served else "NOT SERVED",
                                           "GOT IN" if wrong else "refused"))
    return timed(1, mode, "SaslHandshake v0", mechanism, body)


def unanswered_cell(proxies, mode):
    """Metadata before logging in: closed without an answer."""
    def body():
        host, port = proxies.address(mode).rsplit(":", 1)
        try:
            with socket.create_connection((host, int(port)), timeout=10) as raw:
                sock = raw
                if PROTOCOL[mode] == "SASL_SSL":
                    context = ssl.create_default_context(cafile=proxies.ca)
                    sock = context.wrap_socket(raw, server_hostname=host)
                sock.sendall(requests.metadata_all(7))
                answered = read_frame(sock) is not None
        except TimeoutError:
            return False, "left open"
        except (ConnectionError, OSError):
            answered = False
        return not answered, "answered" if answered else "closed, no answer"
    return timed(1, mode, "raw socket", "Metadata before login", body)


def report_check(path, nodes, mode):
    """A proxy's report: every frame verified, and the SASL of its mode seen.
    (Cell, the report's numbers for the table.)"""
    def body():
        with open(path) as f:
            report = json.load(f)
        by_name = dict((api["name"], api) for api in report["apis"])
        numbers = {
            "requests": sum(api["requests"] for api in report["apis"]),
            "responses": sum(api["responses"] for api in report["apis"]),
            "rewrites": sum(api["rewrites"] for api in report["apis"]),
            "sasl": (report["answered_by_proxy"] if mode == "terminated"
                     else by_name.get("SaslAuthenticate", {}).get("responses", 0)),
        }
        for key in ("mismatches", "decode_failures", "unmatched_responses", "unchecked"):
            numbers[key] = report[key]
        body.numbers = numbers
        good = (all(numbers[key] == 0 for key in ("mismatches", "decode_failures",
                                                  "unmatched_responses", "unchecked"))
                and (numbers["sasl"] > 0 or mode == "plaintext"))
        return good, ("%(requests)d requests, %(responses)d responses, %(mismatches)d "
                      "mismatches, %(decode_failures)d decode failures, %(unmatched_responses)d "
                      "unmatched, %(unchecked)d unchecked, %(rewrites)d rewritten" % numbers)
    body.numbers = None
    cell = timed(nodes, mode, "proxy", "report", body)
    return cell, body.numbers


def one_node(cluster, log_dir, pool):
    """The one-node cells; (cells, report rows)."""
    proxies = Proxies(cluster, os.path.dirname(cluster.ca), log_dir, "1")
    plaintext = cluster.node(1)["PLAINTEXT"]
    try:
        # The refusals first: they mostly wait.
        futures = [pool.submit(wrong_cell, proxies, 1, mode, client, plaintext)
                   for client in CLIENTS for mode in MODES]
        for mode in MODES:
            for client in CLIENTS:
                for mechanism in MECHANISMS + ((OAUTHBEARER,) if mode != "terminated" else ()):
                    futures.append(pool.submit(right_cell, proxies, 1, mode, client, mechanism))
            for command in ("admin", "transactional-produce"):
                futures.append(pool.submit(java_checks_cell, proxies, 1, mode, command))
        login = "SCRAM-SHA-512:alice:%s"
        for mode in ("terminated", "passthrough-tls"):
            futures.append(pool.submit(secure_cell, proxies, mode, login % password(mode),
                                       cluster.ca, True, "SCRAM-SHA-512 over TLS"))
            futures.append(pool.submit(secure_cell, proxies, mode,
                                       login % ("not-" + password(mode)), cluster.ca, False,
                                       "wrong password"))
        futures.append(pool.submit(secure_cell, proxies, "terminated",
                                   login % PROXY_PASSWORD, cluster.other_ca, False,
                                   "trusting another CA"))
        cells = [unanswered_cell(proxies, mode) for mode in MODES]
        cells += [v0_cell(proxies, mode, mechanism) for mode in MODES
                  for mechanism in MECHANISMS]
        cells += [future.result(timeout=600) for future in futures]
    finally:
        alive = proxies.stop()
    return finish(cells, proxies, 1, alive)


def finish(cells, proxies, nodes, alive):
    """Adds the proxies' report checks to `cells`; (cells, report rows)."""
    rows = []
    if not alive:
        cells.append(Cell(nodes, "all", "proxy", "alive until stopped", False, "one died", 0))
    for mode in proxies.modes:
        cell, numbers = report_check(proxies.reports[mode], nodes, mode)
        cells.append(cell)
        rows.append((nodes, mode, numbers))
    return cells, rows


def three_nodes(cluster, log_dir, pool):
    """The three-node cells and the ApiVersions v5 rows; (cells, report rows,
    v5 rows)."""
    # The terminated proxy logs in with SCRAM-SHA-256 here, whose sessions
    # end (and with SCRAM-SHA-512 on one node).
    proxies = Proxies(cluster, os.path.dirname(cluster.ca), log_dir, "3",
                      MODES + ("plaintext",), sessions.UPSTREAM_MECHANISM)
    v5_rows = []
    try:
        # The sessions first: they take 10 s, mostly waiting.
        futures = [pool.submit(session_cell, proxies, mode, cluster.node(1)["PLAINTEXT"],
                               log_dir)
                   for mode in ("terminated", "passthrough")]
        for mode in MODES:
            # Not the mechanism whose sessions end where SASL passes through:
            # that one is the session cells' (sessions.py).
            limited = sessions.LIMITED.get(PROTOCOL[mode]) if mode != "terminated" else None
            mechanisms = [m for m in MECHANISMS if m != limited]
            futures += [pool.submit(right_cell, proxies, 3, mode, client,
                                    mechanisms[index % len(mechanisms)])
                        for index, client in enumerate(CLIENTS)]
        cells = []
        alice = ("alice", KAFKA_PASSWORD)
        # Each proxy, its login, the Kafka listener it forwards to, and the
        # login there.
        for mode, login, listener, direct_login in (
                ("plaintext", None, "PLAINTEXT", None),
                ("passthrough", alice, "SASL_PLAINTEXT", alice),
                ("terminated", ("alice", PROXY_PASSWORD), "SASL_SSL", alice)):
            ca = proxies.ca if PROTOCOL[mode] == "SASL_SSL" else None
            direct = dict((node["id"], node[listener]) for node in cluster.nodes)
            started = time.monotonic()
            try:
                rows, failed = api_versions_v5.check(mode, proxies.address(mode), ca, login,
                                                     direct, direct_login)
                detail = "%d cases" % len(rows)
            except Exception as error:
                rows, failed, detail = [], 1, "%s: %s" % (type(error).__name__, error)
            v5_rows += rows
            cells.append(Cell(3, mode, "raw socket", "ApiVersions v5", not failed, detail,
                              time.monotonic() - started))
        cells += [future.result(timeout=600) for future in futures]
    finally:
        alive = proxies.stop()
    cells, report_rows = finish(cells, proxies, 3, alive)
    return cells, report_rows, v5_rows


def client_table(cells):
    """Clients × (nodes, mode): what passed of what ran there."""
    columns = [(nodes, mode) for nodes in (1, 3) for mode in MODES]
    names = []
    for cell in cells:
        # The proxies' reports, the raw probes and the leadership move have
        # tables of their own.
        if cell.client not in names and cell.client not in ("proxy", "raw socket") \
                and cell.mode in MODES:
            names.append(cell.client)
    out = ["%-20s" % "client" + "".join("%-24s" % ("%d node%s %s" % (n, "s" * (n > 1), m))
                                         for n, m in columns)]
    for name in names:
        row = "%-20s" % name
        for nodes, mode in columns:
            mine = [c for c in cells if c.client == name and c.nodes == nodes and c.mode == mode]
            if not mine:
                row += "%-24s" % "-"
                continue
            good = sum(c.ok for c in mine)
            text = "%d/%d ok" % (good, len(mine))
            if good < len(mine):
                text += " FAIL"
            row += "%-24s" % text
        out.append(row)
    return out


def what_ran(cells):
    """Per client, the cases of its cells (the table's legend)."""
    seen = {}
    for cell in cells:
        if cell.client in ("proxy", "raw socket") or cell.mode not in MODES:
            continue
        seen.setdefault(cell.client, [])
        if cell.what not in seen[cell.client]:
            seen[cell.client].append(cell.what)
    return ["  %-18s %s" % (client, ", ".join(whats)) for client, whats in seen.items()]


def report_table(rows):
    out = ["%-8s %-16s %9s %9s %10s %14s %9s %9s %9s %6s"
           % ("cluster", "proxy", "requests", "responses", "mismatches", "decode failures",
              "unmatched", "unchecked", "rewrites", "SASL")]
    for nodes, mode, numbers in rows:
        if numbers is None:
            out.append("%-8s %-16s report missing" % ("%d node%s" % (nodes, "s" * (nodes > 1)),
                                                      mode))
            continue
        out.append("%-8s %-16s %9d %9d %10d %14d %9d %9d %9d %6d"
                   % (("%d node%s" % (nodes, "s" * (nodes > 1)), mode, numbers["requests"],
                       numbers["responses"], numbers["mismatches"], numbers["decode_failures"],
                       numbers["unmatched_responses"], numbers["unchecked"],
                       numbers["rewrites"], numbers["sasl"])))
    return out


def build(no_build):
    """The proxy (release, as the interop suite installs it) and our client's
    secure_client example (debug, as tests/client/run builds it)."""
    if no_build:
        return
    servers.install(("proxy",))
    subprocess.run(["cargo", "build", "-q", "-p", "kwire-net", "--features", "client,tls",
                    "--example", "secure_client", "--target-dir", servers.procs.TARGET],
                   cwd=servers.procs.ROOT, check=True)


def phase(nodes, log_dir, pool, results, timings):
    """Starts Kafka with `nodes` nodes, runs that phase's cells into
    `results`, stops Kafka. A phase that raises is a failed cell, with
    Kafka's logs printed."""
    started = time.monotonic()
    folder = os.path.join(log_dir, "kafka-%d" % nodes)
    cluster = None
    try:
        # Three nodes: SASL sessions of 6 s (sessions.py).
        overrides = sessions.OVERRIDE if nodes == 3 else None
        cluster = kafka_peer.start(folder, nodes=nodes, overrides=overrides)
        timings.append("Kafka, %d node%s: started in %.1f s (RSS %s MiB)"
                       % (nodes, "s" * (nodes > 1), cluster.startup_seconds, cluster.rss_mib))
        if nodes == 1:
            got, rows = one_node(cluster, log_dir, pool)
        else:
            got, rows, results["v5"] = three_nodes(cluster, log_dir, pool)
            move_started = time.monotonic()
            try:
                results["moves"], results["lines"], failed = leadership.move(cluster, log_dir)
            except Exception as error:
                results["lines"] = ["leadership: FAIL, %s: %s" % (type(error).__name__, error)]
                failed = 1
            got.append(Cell(3, "leadership", "java, librdkafka", "numbered, leader moved",
                            not failed, "%d failure(s)" % failed,
                            time.monotonic() - move_started))
        results["cells"] += got
        results["reports"] += rows
    except Exception as error:
        results["cells"].append(Cell(nodes, "all", "suite", "phase", False, "%s: %s"
                                     % (type(error).__name__, str(error)[:2000]), 0))
        if cluster is not None:
            print(cluster.logs_tail(), file=sys.stderr)
    finally:
        if cluster is not None:
            cluster.stop()
    timings.append("%d node%s: %.1f s" % (nodes, "s" * (nodes > 1), time.monotonic() - started))


def main(argv):
    started = time.monotonic()
    # Every proxy started from here logs its relogins upstream (sessions.py).
    os.environ.setdefault("RUST_LOG", sessions.RUST_LOG)
    build("--no-build" in argv)
    log_dir = tempfile.mkdtemp(prefix="kwire-kafka-suite-")
    results = {"cells": [], "reports": [], "v5": [], "moves": [], "lines": []}
    timings = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for nodes in (1, 3):
            phase(nodes, log_dir, pool, results, timings)
    cells, report_rows, v5_rows = results["cells"], results["reports"], results["v5"]
    moves, lines = results["moves"], results["lines"]
    for cell in cells:
        print(cell.line())
    print()
    print("\n".join(lines))
    print("\nClients through the proxy in front of Kafka 4.4.0 (cells passed of cells run; "
          "each right-password cell: 20 messages produced, read back and checked by value):")
    print("\n".join(client_table(cells)))
    print("cases:")
    print("\n".join(what_ran(cells)))
    print("\nThe proxies' reports (every frame decoded, re-encoded and compared):")
    print("\n".join(report_table(report_rows)))
    print("\nApiVersions v5 (KIP-1242) through the proxy, and Kafka's own answer directly:")
    print("(on a SASL listener: the answer before the login, then after it)")
    print("%-12s %-20s %-36s %-26s %-22s %s" % ("proxy", "listener", "named", "through the proxy",
                                               "directly", ""))
    for row in v5_rows:
        print("%-12s %-20s %-36s %-26s %-22s %s" % row)
    print("\nThe leadership move (%d numbered messages a topic, %d a second):"
          % (leadership.COUNT, leadership.RATE))
    print("%-12s %-26s %6s %9s %5s %11s %17s %15s"
          % ("producer", "reader", "sent", "received", "lost", "duplicated",
             "Produce rewrites", "Fetch rewrites"))
    for row in moves:
        print("%-12s %-26s %6s %9s %5s %11s %17s %15s %s" % row)
    failures = sum(not cell.ok for cell in cells)
    print("\n" + "; ".join(timings))
    print("%d cells, %d failure(s) in %.1f s" % (len(cells), failures,
                                                 time.monotonic() - started))
    if failures or "--keep" in argv:
        print("logs kept in %s" % log_dir)
    else:
        shutil.rmtree(log_dir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
