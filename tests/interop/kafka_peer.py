#!/usr/bin/env python3
"""Apache Kafka 4.4.0 from Maven Central, started on 127.0.0.1 by our tests.

    kafka_peer.py install                     # resolve Kafka into the cache (once)
    kafka_peer.py classpath                   # "LIB/*" for `java -cp` (installs if needed)
    kafka_peer.py start --dir DIR [--nodes 1|3] [--timeout 120] [--set KEY=VALUE ...]
    kafka_peer.py stop --dir DIR [--grace 15] # by PID; idempotent

As a module (sys.path: tests/interop):

    import kafka_peer
    cluster = kafka_peer.start(dir, nodes=1)
    cluster.nodes[0]["SASL_SSL"]              # "127.0.0.1:PORT"
    cluster.bootstrap("PLAINTEXT")            # every node's address, comma-separated
    cluster.stop_node(2); cluster.start_node(2)   # e.g. to move leaderships
    cluster.logs_tail(); cluster.stop()
    kafka_peer.start(dir, forwarded={1: "127.0.0.1:P"})  # + a FORWARDED listener
                                              # advertising port P (a relay's, e.g. socat)

install: `mvn dependency:copy-dependencies` on a generated pom resolves
org.apache.kafka:kafka_2.13, kafka-clients and kafka-tools 4.4.0 with their
runtime dependencies, plus log4j-slf4j-impl at the log4j version Kafka
resolves (without it Kafka's slf4j logging goes nowhere, and a failed start
says nothing), into $KAFKA_WIRE_INTEROP_CACHE/kafka-4.4.0/lib (default cache
~/.cache/kafka-wire-interop). A marker written after a complete copy makes
the next install a no-op; Maven's own cache is ~/.m2.

start: every node is a combined broker+controller (KRaft; three nodes are a
three-voter quorum) with four client listeners on free 127.0.0.1 ports,
PLAINTEXT, SASL_PLAINTEXT, SSL and SASL_SSL, plus CONTROLLER; inter-broker
and controller traffic is PLAINTEXT. The SASL listeners offer PLAIN,
SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER (Kafka's unsecured validator: an
unsigned JWS with a `sub` claim, `exp` in the future); users alice and proxy
(USERS) for PLAIN (JAAS) and both SCRAMs (`StorageTool format --add-scram`).
TLS uses PEM files from tests/src/bin/test_certificates.rs: DIR/certs/ca.pem
signs the server's certificate (127.0.0.1, localhost); other-ca.pem signs
nothing. A node is ready when ApiVersions is answered on each of its four
listeners (over TLS with ca.pem on the TLS ones; a SASL listener answers
ApiVersions before a login), and, with three nodes, when every node's
Metadata lists all three brokers. start then writes DIR/cluster.json and
prints it as one JSON line. Each node logs to DIR/node-N.log; a failed start
prints their tails and stops what it started.

stop: SIGTERM to each node's PID (from DIR/node-N.pid, written as soon as the
JVM is spawned, and only if that PID still is a JVM of this DIR), SIGKILL
after the grace period. Stopping what is already gone is not an error. Nodes
keep Kafka's controlled shutdown (a stopped broker hands its leaderships
over first); stopping all three at once, the last broker may then wait for
a controller whose quorum has gone and be killed after the grace: a suite
that only ever stops the whole cluster can start it with
overrides={"controlled.shutdown.enable": "false"} (the matrix does).

Not named kafka.py: next to the scripts run from tests/interop, or with it
on sys.path, that name would hide kafka-python's `kafka` package.

Python 3 standard library only; needs java (17+) and mvn on PATH (or
$JAVA_HOME/bin/java).
"""

import argparse
import base64
import fcntl
import glob
import json
import os
import re
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import time

VERSION = "4.4.0"
SCALA = "2.13"
CACHE = os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "kafka-wire-interop"))
HOME = os.path.join(CACHE, "kafka-%s" % VERSION)
LIB = os.path.join(HOME, "lib")
MARKER = os.path.join(HOME, "installed.json")

# The artifacts the issue names; log4j-slf4j-impl is added at the log4j
# version these resolve to (see install()).
ARTIFACTS = [("org.apache.kafka", "kafka_%s" % SCALA, VERSION),
             ("org.apache.kafka", "kafka-clients", VERSION),
             ("org.apache.kafka", "kafka-tools", VERSION)]
# Pinned, so that what is copied does not depend on the Maven version's
# default plugin (2.8 is Maven 3.8's default: cached wherever Maven ran).
DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:2.8"

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TARGET = os.path.abspath(os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR") or "target"))
CERTIFICATES_SOURCE = os.path.join(ROOT, "tests", "src", "bin", "test_certificates.rs")

LISTENERS = ("PLAINTEXT", "SASL_PLAINTEXT", "SSL", "SASL_SSL")
MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
USERS = {"alice": "alice-secret", "proxy": "proxy-secret"}

# A small heap, the serial collector and the C1 compiler only: a test node
# holds little data, and on 2 shared cores G1's threads and C2's compiling
# cost CPU the tests need. Measured (1 node, start then 50,000 messages of
# 200 B produced and consumed, at load 7 on 2 cores): RSS 313-328 MiB and
# 3.8-4.2 CPU s, against 350 MiB and 6.5-7.7 CPU s with C2 and 430-441 MiB
# with Kafka's own -Xmx1G G1. Exit on OOM rather than limp on. The
# benchmark passes its own options (start(java_opts=...)).
JAVA_OPTS = ["-Xms32m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
             "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true"]
# The formatting tool is a short-lived JVM: the same, with a smaller heap.
TOOL_OPTS = ["-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]

LOG4J2 = """\
# Kafka's log4j 2 output, all to stdout (the node's log file).
status = warn
appender.out.type = Console
appender.out.name = STDOUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = STDOUT
"""


def say(msg):
    print("kafka_peer.py: " + msg, file=sys.stderr, flush=True)


class KafkaError(RuntimeError):
    """Kafka could not be installed, started or stopped; the message says why
    (with the tail of the logs for a failed start)."""


# ---------------------------------------------------------------- install --

def installed(marker=None, lib=None):
    """True if the marker exists and every jar it lists is still there
    (Kafka's by default; kroxylicious.py asks the same of its own)."""
    marker, lib = marker or MARKER, lib or LIB
    try:
        with open(marker) as f:
            jars = json.load(f)["jars"]
    except (OSError, ValueError, KeyError):
        return False
    return bool(jars) and all(os.path.isfile(os.path.join(lib, j)) for j in jars)


def _pom(artifacts):
    deps = "".join(
        "    <dependency><groupId>%s</groupId><artifactId>%s</artifactId>"
        "<version>%s</version></dependency>\n" % a for a in artifacts)
    return ("<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
            "  <modelVersion>4.0.0</modelVersion>\n"
            "  <groupId>kwire.tests</groupId><artifactId>resolve</artifactId>"
            "<version>1</version><packaging>pom</packaging>\n"
            "  <dependencies>\n%s  </dependencies>\n</project>\n" % deps)


def mvn(workdir, artifacts, goal, *props):
    """Runs the dependency plugin's `goal` on a pom of `artifacts` ((group,
    artifact, version) triples) in `workdir`, its output in workdir/mvn.log;
    raises KafkaError with the log's tail if Maven fails."""
    with open(os.path.join(workdir, "pom.xml"), "w") as f:
        f.write(_pom(artifacts))
    log = os.path.join(workdir, "mvn.log")
    argv = ["mvn", "-B", "-q", "-f", os.path.join(workdir, "pom.xml"),
            "%s:%s" % (DEPENDENCY_PLUGIN, goal)] + list(props)
    with open(log, "ab") as out:
        out.write(("$ %s\n" % " ".join(argv)).encode())
        out.flush()
        rc = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, cwd=workdir,
                            stdin=subprocess.DEVNULL, timeout=900).returncode
    if rc != 0:
        raise KafkaError("mvn %s failed (exit %s); %s:\n%s" % (goal, rc, log, tail(log, 30)))


def install():
    """Resolves Kafka into LIB unless the marker says it is there; returns LIB.
    Under a lock, as several suites may start at once on a fresh machine."""
    os.makedirs(HOME, exist_ok=True)
    with open(os.path.join(CACHE, "kafka-%s.lock" % VERSION), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if installed():
            return LIB
        if not shutil.which("mvn"):
            raise KafkaError("mvn is not on PATH (Maven resolves Kafka from Maven Central)")
        t0 = time.time()
        say("resolving Kafka %s from Maven Central into %s" % (VERSION, LIB))
        work = tempfile.mkdtemp(prefix="resolve-", dir=HOME)
        try:
            # First the log4j version Kafka brings, then everything with
            # log4j-slf4j-impl at that version (a different one would mix
            # log4j releases on the class path).
            listing = os.path.join(work, "dependencies.txt")
            mvn(work, ARTIFACTS, "list", "-DincludeScope=runtime",
                 "-DoutputFile=" + listing)
            with open(listing) as f:
                found = dict(re.findall(r"org\.apache\.logging\.log4j:(log4j-core|log4j-api)"
                                        r":jar:([^:\s]+):", f.read()))
            log4j = found.get("log4j-core") or found.get("log4j-api")
            if not log4j:
                raise KafkaError("no log4j in Kafka's dependencies (%s)" % listing)
            staged = os.path.join(work, "lib")
            mvn(work, ARTIFACTS + [("org.apache.logging.log4j", "log4j-slf4j-impl", log4j)],
                 "copy-dependencies", "-DincludeScope=runtime", "-DoutputDirectory=" + staged)
            jars = sorted(os.listdir(staged))
            want = ["%s-%s.jar" % (a, v) for _, a, v in ARTIFACTS] + [
                "log4j-slf4j-impl-%s.jar" % log4j]
            missing = [j for j in want if j not in jars]
            if missing:
                raise KafkaError("Maven copied %d jars but not %s" % (len(jars), missing))
            shutil.rmtree(LIB, ignore_errors=True)
            os.rename(staged, LIB)
            with open(MARKER + ".tmp", "w") as f:
                json.dump({"version": VERSION, "log4j": log4j, "jars": jars}, f, indent=1)
            os.rename(MARKER + ".tmp", MARKER)
            say("%d jars (log4j %s) in %.1f s" % (len(jars), log4j, time.time() - t0))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return LIB


def classpath():
    """The class path of the installed Kafka (installs it if needed)."""
    return os.path.join(install(), "*")


def java():
    home = os.environ.get("JAVA_HOME")
    if home and os.access(os.path.join(home, "bin", "java"), os.X_OK):
        return os.path.join(home, "bin", "java")
    found = shutil.which("java")
    if not found:
        raise KafkaError("java is not on PATH (Kafka 4.4 needs Java 17 or newer)")
    return found


# ----------------------------------------------------------- certificates --

def certificates_tool():
    """The test_certificates binary: the one `cargo test --workspace` built
    when it is newer than its source, else built here (the same build
    tests/security makes)."""
    binary = os.path.join(TARGET, "debug", "test_certificates")
    try:
        fresh = os.path.getmtime(binary) >= os.path.getmtime(CERTIFICATES_SOURCE)
    except OSError:
        fresh = False
    if not fresh:
        r = subprocess.run(["cargo", "build", "--quiet", "--locked", "-p", "kwire-tests", "--bin",
                            "test_certificates", "--target-dir", TARGET], cwd=ROOT)
        if r.returncode != 0:
            raise KafkaError("cargo build of test_certificates failed (exit %s)" % r.returncode)
    return binary


def certificates(folder):
    """ca.pem, server.pem, server.key (PKCS#8; 127.0.0.1 and localhost) and
    other-ca.pem into `folder`, made afresh by test_certificates."""
    r = subprocess.run([certificates_tool(), folder], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    if r.returncode != 0:
        raise KafkaError("test_certificates %s failed: %s" % (folder, r.stdout.decode(
            errors="replace").strip()))


# ------------------------------------------------------------------ ports --

def free_ports(count):
    """`count` distinct free 127.0.0.1 ports, chosen by binding port 0 (all
    held until all are chosen, so none repeats). Another process may take one
    before Kafka binds it: start() then retries with new ports."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(s)
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


# ------------------------------------------------------- the wire, by hand --

def _frame(api_key, version, correlation, body):
    client = b"kafka_peer.py"
    header = struct.pack(">hhih", api_key, version, correlation, len(client)) + client
    return struct.pack(">i", len(header) + len(body)) + header + body


def _read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed after %d of %d bytes" % (len(data), n))
        data += chunk
    return data


def _round_trip(address, request, correlation, context=None, timeout=3.0):
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as raw:
        sock = context.wrap_socket(raw, server_hostname=host) if context else raw
        sock.sendall(request)
        size, = struct.unpack(">i", _read_exact(sock, 4))
        if not 4 <= size <= 1 << 20:
            raise ValueError("response size %d" % size)
        body = _read_exact(sock, size)
        got, = struct.unpack(">i", body[:4])
        if got != correlation:
            raise ValueError("correlation id %d, sent %d" % (got, correlation))
        return body[4:]


def api_versions_ok(address, context=None):
    """ApiVersions v0 answered with error code 0."""
    body = _round_trip(address, _frame(18, 0, 7, b""), 7, context)
    error, = struct.unpack(">h", body[:2])
    if error != 0:
        raise ValueError("ApiVersions error code %d" % error)
    return True


def metadata_brokers(address):
    """The broker ids in a Metadata v4 answer (no topics asked for)."""
    body = _round_trip(address, _frame(3, 4, 8, struct.pack(">ib", 0, 0)), 8)
    pos = 4  # throttle_time_ms
    count, = struct.unpack(">i", body[pos:pos + 4])
    pos += 4
    ids = []
    for _ in range(count):
        node, hlen = struct.unpack(">ih", body[pos:pos + 6])
        pos += 6 + hlen + 4
        rlen, = struct.unpack(">h", body[pos:pos + 2])
        pos += 2 + max(rlen, 0)
        ids.append(node)
    return sorted(ids)


def tls_context(ca):
    context = ssl.create_default_context(cafile=ca)
    return context


# ---------------------------------------------------------------- configs --

def _jaas(module, options=""):
    return "%s required%s;" % (module, options and " " + options)


def server_properties(dir, node_id, ports, voters, nodes, certs, overrides=None,
                      forwarded=None):
    """The server.properties of one node, as a dict (insertion order kept).
    `forwarded` ("HOST:PORT"): one more PLAINTEXT listener, FORWARDED, bound
    on ports["FORWARDED"] but advertised at that address (see start())."""
    client = ["%s://127.0.0.1:%d" % (name, ports[name]) for name in LISTENERS]
    advertised = list(client)
    protocols = ["%s:%s" % (name, name) for name in LISTENERS]
    if forwarded:
        client.append("FORWARDED://127.0.0.1:%d" % ports["FORWARDED"])
        advertised.append("FORWARDED://" + forwarded)
        protocols.append("FORWARDED:PLAINTEXT")
    props = {
        "process.roles": "broker,controller",
        "node.id": str(node_id),
        "controller.quorum.voters": voters,
        "controller.listener.names": "CONTROLLER",
        "listeners": ",".join(client + ["CONTROLLER://127.0.0.1:%d" % ports["CONTROLLER"]]),
        "advertised.listeners": ",".join(advertised),
        "listener.security.protocol.map": ",".join(protocols + ["CONTROLLER:PLAINTEXT"]),
        "inter.broker.listener.name": "PLAINTEXT",
        "log.dirs": os.path.join(dir, "node-%d" % node_id, "data"),
        "num.partitions": "1",
        "default.replication.factor": str(nodes),
        "offsets.topic.replication.factor": str(nodes),
        "transaction.state.log.replication.factor": str(nodes),
        "transaction.state.log.min.isr": str(min(nodes, 2)),
        "share.coordinator.state.topic.replication.factor": str(nodes),
        "share.coordinator.state.topic.min.isr": str(min(nodes, 2)),
        # Tests join groups right away; Kafka's 3 s default only waits.
        "group.initial.rebalance.delay.ms": "0",
        "sasl.enabled.mechanisms": ",".join(MECHANISMS),
        "ssl.keystore.type": "PEM",
        "ssl.keystore.location": os.path.join(certs, "server-keystore.pem"),
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": os.path.join(certs, "ca.pem"),
    }
    plain_users = " ".join('user_%s="%s"' % kv for kv in USERS.items())
    for listener in ("sasl_plaintext", "sasl_ssl"):
        prefix = "listener.name.%s." % listener
        props[prefix + "plain.sasl.jaas.config"] = _jaas(
            "org.apache.kafka.common.security.plain.PlainLoginModule", plain_users)
        for scram in ("scram-sha-256", "scram-sha-512"):
            props[prefix + scram + ".sasl.jaas.config"] = _jaas(
                "org.apache.kafka.common.security.scram.ScramLoginModule")
        # The broker's own (unused) token is unsecured too; the server side
        # validates with OAuthBearerUnsecuredValidatorCallbackHandler, Kafka's
        # default when no sasl.server.callback.handler.class is set.
        props[prefix + "oauthbearer.sasl.jaas.config"] = _jaas(
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule",
            'unsecuredLoginStringClaim_sub="kafka-broker-%d"' % node_id)
    props.update(overrides or {})
    return props


def _write_properties(path, props):
    def escape(value):
        return value.replace("\\", "\\\\").replace("\n", "\\n")
    with open(path, "w") as f:
        for key, value in props.items():
            f.write("%s=%s\n" % (key, escape(value)))


# ---------------------------------------------------------------- processes --

def pid_alive(pid):
    """True if `pid` runs and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _is_our_jvm(pid, dir):
    """True if `pid` is a kafka.Kafka JVM whose server.properties is in `dir`
    (a PID from a pidfile may since have been reused)."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv = f.read().decode(errors="replace").split("\0")
    except OSError:
        return False
    return "kafka.Kafka" in argv and any(a.startswith(os.path.join(dir, "")) for a in argv)


def _rss_mib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024.0, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _signal(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def stop_pids(pids, grace=15.0, procs=None):
    """SIGTERM to every PID at once, SIGKILL to those left after `grace` s.
    Returns {pid: "exited" | "TERM" | "KILL"}. `procs` ({pid: Popen}) reaps
    our own children."""
    procs = procs or {}
    how = {}
    for pid in pids:
        if pid_alive(pid):
            _signal(pid, signal.SIGTERM)
            how[pid] = "TERM"
        else:
            how[pid] = "exited"
    deadline = time.time() + grace
    while any(pid_alive(p) for p in pids) and time.time() < deadline:
        for p in pids:
            if p in procs:
                procs[p].poll()
        time.sleep(0.1)
    for pid in pids:
        if pid_alive(pid):
            _signal(pid, signal.SIGKILL)
            how[pid] = "KILL"
    for pid in pids:
        if pid in procs:
            try:
                procs[pid].wait(10)
            except subprocess.TimeoutExpired:
                pass
    return how


def tail(path, lines=40, limit=16000):
    """The last `lines` lines of a text file ("" if missing)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - limit))
            data = f.read().decode(errors="replace")
    except OSError:
        return ""
    return "\n".join(data.splitlines()[-lines:])


ERROR_LINE = re.compile(r"^(\[[^]]*\] (ERROR|FATAL) |Exception|Caused by|\S+(Exception|Error): "
                        r"|\S+: error: )")


def excerpt(path, lines=40):
    """What a failed start's log shows first: its first error lines (a stack
    trace's message is above the trace), then its last `lines` lines."""
    try:
        with open(path, errors="replace") as f:
            errors = [line.rstrip()[:500] for line in f if ERROR_LINE.match(line)][:10]
    except OSError:
        return "(no log at %s)" % path
    head = ("first errors:\n%s\nlast lines:\n" % "\n".join(errors)) if errors else ""
    return head + tail(path, lines)


# ------------------------------------------------------------------ cluster --

class Cluster:
    """A running Kafka: `nodes` (one dict per node: id, pid, the four
    listeners' addresses, log), `ca`, `other_ca`, `users`, `startup_seconds`,
    `rss_mib`. stop() stops every node (idempotent)."""

    def __init__(self, dir, info, procs=None, java_opts=None):
        self.dir = dir
        self.java_opts = java_opts or JAVA_OPTS
        self.info = info
        self.nodes = info["nodes"]
        self.ca = info["ca"]
        self.other_ca = info["other_ca"]
        self.users = info["users"]
        self.startup_seconds = info.get("startup_seconds")
        self.format_seconds = info.get("format_seconds")
        self.rss_mib = info.get("rss_mib")
        self._procs = procs or {}

    def bootstrap(self, listener="PLAINTEXT"):
        """Every node's address on `listener`, comma-separated."""
        return ",".join(n[listener] for n in self.nodes)

    def node(self, node_id):
        return next(n for n in self.nodes if n["id"] == node_id)

    def pids(self):
        return [n["pid"] for n in self.nodes]

    def rss(self):
        """The nodes' resident memory now, MiB."""
        return [_rss_mib(p) for p in self.pids()]

    def stop_node(self, node_id, grace=15.0):
        """Stops one node by its PID (SIGTERM: with Kafka's controlled
        shutdown, its leaderships move first; SIGKILL after `grace`, as a
        crash); returns "exited", "TERM" or "KILL"."""
        pid = self.node(node_id)["pid"]
        how = stop_pids([pid], grace, self._procs)[pid]
        try:
            os.unlink(os.path.join(self.dir, "node-%d.pid" % node_id))
        except OSError:
            pass
        return how

    def start_node(self, node_id, timeout=120.0):
        """Starts a stopped node again, on its ports and data, and returns once
        it answers on every listener (and its Metadata lists every broker);
        its new PID is in `nodes` and DIR/cluster.json."""
        node = self.node(node_id)
        if pid_alive(node["pid"]):
            raise KafkaError("node %d (PID %d) is running" % (node_id, node["pid"]))
        proc, _ = _spawn(self.dir, node_id, os.path.dirname(node["properties"]),
                         self.java_opts)
        self._procs[proc.pid] = proc
        node["pid"] = proc.pid
        try:
            _wait_ready([node], self._procs, self.ca, timeout,
                        want=[n["id"] for n in self.nodes])
        except BaseException:
            self.stop_node(node_id, 5.0)
            raise
        _write_info(self.dir, self.info)

    def stop(self, grace=15.0):
        """Stops every node of this DIR by PID; returns {pid: how}."""
        return stop(self.dir, grace, self._procs)

    def logs_tail(self, lines=40):
        return "\n".join("--- %s\n%s" % (n["log"], excerpt(n["log"], lines))
                          for n in self.nodes)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def load(dir):
    """The Cluster a `start` left in DIR (its cluster.json)."""
    dir = os.path.abspath(dir)
    with open(os.path.join(dir, "cluster.json")) as f:
        return Cluster(dir, json.load(f))


def _pidfiles(dir):
    return sorted(glob.glob(os.path.join(dir, "node-*.pid")))


def _running(dir):
    """{pidfile: PID} for DIR's pidfiles whose PID is still a JVM of DIR
    (None for the others)."""
    found = {}
    for path in _pidfiles(dir):
        try:
            with open(path) as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            pid = None
        found[path] = pid if pid and pid_alive(pid) and _is_our_jvm(pid, dir) else None
    return found


def stop(dir, grace=15.0, procs=None):
    """Stops every node started in DIR (its node-N.pid files) by PID, if it is
    still a JVM of DIR; removes the pidfiles. Returns {pid: how}."""
    dir = os.path.abspath(dir)
    running = _running(dir)
    pids = [pid for pid in running.values() if pid]
    how = stop_pids(pids, grace, procs)
    for path in running:
        try:
            os.unlink(path)
        except OSError:
            pass
    return how


def _format(dir, node_dirs, cluster_id, timeout):
    """StorageTool format for every node at once, with the SCRAM users."""
    scram = []
    for mechanism in ("SCRAM-SHA-256", "SCRAM-SHA-512"):
        for user, password in USERS.items():
            scram += ["--add-scram", "%s=[name=%s,password=%s]" % (mechanism, user, password)]
    running = []
    for node_dir in node_dirs:
        log = os.path.join(node_dir, "format.log")
        with open(log, "wb") as out:
            p = subprocess.Popen([java()] + TOOL_OPTS + [
                "-Dlog4j2.configurationFile=" + os.path.join(dir, "log4j2.properties"),
                "-cp", os.path.join(LIB, "*"), "kafka.tools.StorageTool", "format",
                "--cluster-id", cluster_id, "--config",
                os.path.join(node_dir, "server.properties")] + scram,
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        running.append((p, log))
    failed = []
    for p, log in running:
        try:
            rc = p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            rc = "timeout"
        if rc != 0:
            failed.append("%s (exit %s):\n%s" % (log, rc, excerpt(log, 20)))
    if failed:
        raise KafkaError("StorageTool format failed: " + "\n".join(failed))


def _spawn(dir, node_id, node_dir, java_opts):
    """Starts one node's JVM, logging to (the end of) DIR/node-N.log."""
    log = os.path.join(dir, "node-%d.log" % node_id)
    with open(log, "ab") as out:
        p = subprocess.Popen([java()] + java_opts + [
            "-Dlog4j2.configurationFile=" + os.path.join(dir, "log4j2.properties"),
            "-cp", os.path.join(LIB, "*"), "kafka.Kafka",
            os.path.join(node_dir, "server.properties")],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
    # At once, so that `stop --dir` finds it even if this start is killed.
    with open(os.path.join(dir, "node-%d.pid" % node_id), "w") as f:
        f.write("%d\n" % p.pid)
    return p, log


def _wait_ready(nodes, procs, ca, timeout, want=None):
    """Waits until every node answers ApiVersions on every listener and, in a
    cluster of several nodes (`want`, their ids; default: `nodes`), each
    lists them all in Metadata. Raises KafkaError (with what was still
    missing) if a node exits or the time runs out."""
    context = tls_context(ca)
    want = sorted(want or [n["id"] for n in nodes])
    pending = [(n, name) for n in nodes for name in LISTENERS + ("FORWARDED",) if name in n]
    pending += [(n, "metadata") for n in nodes] if len(want) > 1 else []
    deadline = time.time() + timeout
    last = {}
    while pending:
        for n in nodes:
            if procs[n["pid"]].poll() is not None:
                raise KafkaError("node %d exited with status %s before it was ready"
                                 % (n["id"], procs[n["pid"]].returncode))
        still = []
        for n, what in pending:
            try:
                if what == "metadata":
                    got = metadata_brokers(n["PLAINTEXT"])
                    if got != want:
                        raise ValueError("Metadata lists brokers %s" % got)
                else:
                    api_versions_ok(n[what], context if "SSL" in what else None)
            except (OSError, ValueError, ssl.SSLError, struct.error) as e:
                last[(n["id"], what)] = "%s: %s" % (type(e).__name__, e)
                still.append((n, what))
        pending = still
        if pending and time.time() > deadline:
            raise KafkaError("not ready within %.0f s: %s" % (timeout, "; ".join(
                "node %d %s: %s" % (n["id"], w, last.get((n["id"], w))) for n, w in pending)))
        if pending:
            time.sleep(0.2)


def new_cluster_id():
    """A random Kafka Uuid in its base64 form. Like Kafka's Uuid.randomUuid,
    never one starting with '-', which StorageTool would read as an option
    (1 in 64 does: seen as "argument --cluster-id/-t: expected one argument")."""
    while True:
        text = base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()
        if not text.startswith("-"):
            return text


def _bind_failed(logs):
    return any("Address already in use" in tail(log, 200, 60000) for log in logs)


def start(dir, nodes=1, timeout=120.0, java_opts=None, overrides=None, attempts=3,
          forwarded=None):
    """Formats and starts a KRaft cluster of `nodes` (1 or 3) combined nodes in
    DIR; returns the Cluster once it is ready. On failure stops what it
    started and raises KafkaError with the logs' tails.

    `forwarded` ({node id: "HOST:PORT"}, every node): each node gets one more
    PLAINTEXT listener, FORWARDED, on a free port (node["FORWARDED"]) that
    advertises the given address instead of its own: the port of a plain
    forwarder (socat) that relays to it, so that clients bootstrapped through
    the forwarder stay on it. Ready when it answers ApiVersions on its own port."""
    if nodes not in (1, 3):
        raise KafkaError("nodes must be 1 or 3, not %r" % nodes)
    if forwarded is not None and sorted(forwarded) != list(range(1, nodes + 1)):
        raise KafkaError("forwarded names nodes %s, not 1..%d" % (sorted(forwarded), nodes))
    dir = os.path.abspath(dir)
    os.makedirs(dir, exist_ok=True)
    if any(_running(dir).values()):
        raise KafkaError("%s already has running nodes: `kafka_peer.py stop --dir %s` first"
                         % (dir, dir))
    install()
    certs = os.path.join(dir, "certs")
    certificates(certs)
    with open(os.path.join(certs, "server-keystore.pem"), "w") as out:
        # Kafka's PEM keystore file: the private key, then the chain.
        for name in ("server.key", "server.pem"):
            with open(os.path.join(certs, name)) as f:
                out.write(f.read())
    with open(os.path.join(dir, "log4j2.properties"), "w") as f:
        f.write(LOG4J2)
    for attempt in range(1, attempts + 1):
        try:
            return _start_once(dir, nodes, timeout, java_opts or JAVA_OPTS, overrides, certs,
                               forwarded or {})
        except KafkaError as e:
            logs = [os.path.join(dir, "node-%d.log" % i) for i in range(1, nodes + 1)]
            if attempt < attempts and _bind_failed(logs):
                say("a port was taken before Kafka bound it; again with new ports")
                continue
            raise


def _start_once(dir, nodes, timeout, java_opts, overrides, certs, forwarded):
    t0 = time.time()
    ids = list(range(1, nodes + 1))
    names = list(LISTENERS) + ["CONTROLLER"] + (["FORWARDED"] if forwarded else [])
    chosen = free_ports(len(names) * nodes)
    ports = {i: dict(zip(names, chosen[(i - 1) * len(names):i * len(names)])) for i in ids}
    voters = ",".join("%d@127.0.0.1:%d" % (i, ports[i]["CONTROLLER"]) for i in ids)
    cluster_id = new_cluster_id()
    node_dirs = {}
    for i in ids:
        node_dir = os.path.join(dir, "node-%d" % i)
        shutil.rmtree(node_dir, ignore_errors=True)
        os.makedirs(node_dir)
        _write_properties(os.path.join(node_dir, "server.properties"),
                          server_properties(dir, i, ports[i], voters, nodes, certs, overrides,
                                            forwarded.get(i)))
        node_dirs[i] = node_dir
        log = os.path.join(dir, "node-%d.log" % i)
        if os.path.exists(log):
            os.replace(log, log + ".previous")
    _format(dir, list(node_dirs.values()), cluster_id, timeout)
    t_format = time.time() - t0
    procs, info_nodes = {}, []
    try:
        for i in ids:
            p, log = _spawn(dir, i, node_dirs[i], java_opts)
            procs[p.pid] = p
            node = {"id": i, "pid": p.pid}
            node.update({name: "127.0.0.1:%d" % ports[i][name] for name in LISTENERS})
            if forwarded:
                node["FORWARDED"] = "127.0.0.1:%d" % ports[i]["FORWARDED"]
                node["FORWARDED_ADVERTISED"] = forwarded[i]
            node.update({"controller": "127.0.0.1:%d" % ports[i]["CONTROLLER"], "log": log,
                         "properties": os.path.join(node_dirs[i], "server.properties")})
            info_nodes.append(node)
        _wait_ready(info_nodes, procs, os.path.join(certs, "ca.pem"), timeout)
    except BaseException as e:
        stop_pids(list(procs), 5.0, procs)
        for f in _pidfiles(dir):
            os.unlink(f)
        if isinstance(e, KafkaError):
            raise KafkaError("%s\n%s" % (e, "\n".join(
                "--- %s\n%s" % (n["log"], excerpt(n["log"])) for n in info_nodes)))
        raise
    info = {"nodes": info_nodes, "ca": os.path.join(certs, "ca.pem"),
            "other_ca": os.path.join(certs, "other-ca.pem"), "users": dict(USERS),
            "mechanisms": list(MECHANISMS), "cluster_id": cluster_id, "version": VERSION,
            "startup_seconds": round(time.time() - t0, 2), "format_seconds": round(t_format, 2),
            "rss_mib": [_rss_mib(n["pid"]) for n in info_nodes]}
    _write_info(dir, info)
    return Cluster(dir, info, procs, java_opts)


def _write_info(dir, info):
    with open(os.path.join(dir, "cluster.json.tmp"), "w") as f:
        json.dump(info, f, indent=1)
    os.replace(os.path.join(dir, "cluster.json.tmp"), os.path.join(dir, "cluster.json"))


# --------------------------------------------------------------------- main --

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("install", help="resolve Kafka %s into %s" % (VERSION, LIB))
    sub.add_parser("classpath", help="print the class path (installs first if needed)")
    st = sub.add_parser("start", help="format and start a cluster in DIR")
    st.add_argument("--dir", required=True)
    st.add_argument("--nodes", type=int, choices=(1, 3), default=1)
    st.add_argument("--timeout", type=float, default=120.0,
                    help="seconds until every listener answers (120)")
    def key_value(text):
        key, eq, value = text.partition("=")
        if not key or not eq:
            raise argparse.ArgumentTypeError("want KEY=VALUE, got %r" % text)
        return key, value
    st.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", type=key_value,
                    help="an extra server property for every node (repeatable)")
    sp = sub.add_parser("stop", help="stop the nodes started in DIR")
    sp.add_argument("--dir", required=True)
    sp.add_argument("--grace", type=float, default=15.0, help="seconds before SIGKILL (15)")
    args = ap.parse_args(argv)
    try:
        if args.command == "install":
            print(install())
        elif args.command == "classpath":
            print(classpath())
        elif args.command == "start":
            overrides = dict(args.set)
            cluster = start(args.dir, args.nodes, args.timeout, overrides=overrides)
            print(json.dumps(cluster.info), flush=True)
        elif args.command == "stop":
            how = stop(args.dir, args.grace)
            for pid, what in sorted(how.items()):
                say("node PID %d: %s" % (pid, {"exited": "already gone", "TERM": "stopped",
                                              "KILL": "killed after the grace"}[what]))
    except KafkaError as e:
        say(str(e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
