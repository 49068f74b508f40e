"""The broker setups of the matrix, each on fresh processes.

    kafka-wire      kwire-broker:  kwire-broker --listen 127.0.0.1:PORT
    tansu           broker.py start tansu, then our proxy in front of it:
                    proxy --listen 127.0.0.1:PORT --upstream 127.0.0.1:P --report FILE
    noida-db        the same with broker.py start noida
    kafka           Apache Kafka 4.4.0, one node (../kafka_peer.py), its
                    PLAINTEXT listener directly
    kafka-proxied   our proxy in front of that node's PLAINTEXT listener
    kafka3-proxied  our proxy in front of a three-node Kafka (node 1's
                    PLAINTEXT listener as --upstream; the proxy opens a
                    listener for each other broker it learns of); topics
                    replicated 3 times

With direct=True the clients talk to tansu / noida-db / Kafka without the
proxy. Setup.start() returns the bootstrap address; Setup.stop() (idempotent,
safe after a failed start) stops the proxy and our broker with SIGTERM
(SIGKILL after a grace), the third-party broker with `broker.py stop` and
Kafka with `kafka_peer.stop` (by PID), reads the proxy's JSON report, and
notes anything unclean in Setup.problems. Behind our proxy, Kafka's own
listeners are watched (bypass.py) for any client reaching them directly,
and with three nodes the proxy must have opened a listener for each broker.

Standard library only.
"""

import json
import os
import re
import subprocess
import sys

import bypass
import kafka_peer
import procs

HERE = os.path.dirname(os.path.abspath(__file__))
BROKER_PY = os.path.join(HERE, "..", "broker.py")
THIRD_PARTY = {"tansu": "tansu", "noida-db": "noida"}  # setup -> broker.py kind
# setup -> (Kafka nodes, behind our proxy)
KAFKA = {"kafka": (1, False), "kafka-proxied": (1, True), "kafka3-proxied": (3, True)}
ALL = ["kafka-wire", "tansu", "noida-db"] + list(KAFKA)
# Every node gets SIGTERM at once at the end of a setup, and the data goes
# with them, so no controlled shutdown: with it, a three-node Kafka's last
# broker can wait for a controller that has already gone (its quorum left
# with the other two nodes) and need SIGKILL (seen: 30 s, then killed).
# Without it a node stops in about a second; a three-node cluster in about
# 6 s, as the last quorum leader waits out Kafka's 5 s for followers that
# are gone. More than KAFKA_GRACE is a hang.
KAFKA_OVERRIDES = {"controlled.shutdown.enable": "false"}
KAFKA_GRACE = 30.0


def proxied(name, direct=False):
    """True if the clients of setup `name` talk to our proxy."""
    if direct or name == "kafka-wire":
        return False
    return KAFKA[name][1] if name in KAFKA else True


def replication_factor(name):
    """The matrix's topics are replicated to every Kafka node."""
    return KAFKA[name][0] if name in KAFKA else 1


class Setup:
    def __init__(self, name, registry, ports, workdir, binaries, direct=False,
                 pidfile_prefix=None, grace=10.0):
        self.name = name
        self.registry = registry
        self.ports = ports
        self.dir = os.path.join(workdir, name)
        os.makedirs(self.dir, exist_ok=True)
        self.binaries = binaries  # {"broker": path or None, "proxy": path or None}
        self.direct = direct
        self.grace = grace
        prefix = pidfile_prefix or os.path.join(self.dir, "")
        self.pidfile = prefix + THIRD_PARTY.get(name, name) + ".pid"
        self.broker_proc = None   # our broker (kafka-wire)
        self.kafka = None         # kafka_peer.Cluster, once ready
        self.kafka_dir = os.path.join(self.dir, "kafka")
        self.kafka_started = False
        self.kafka_rss_end = None
        self.watch = None         # bypass.Watch on Kafka's listeners, behind the proxy
        self.proxy_proc = None
        self.upstream_started = False
        self.start_proc = None    # `broker.py start`, while it runs
        self.bootstrap = None
        self.problems = []        # unclean stops, proxy report trouble
        self.checks = []          # what was checked beyond the cells, when it held
        self.proxy_report = None
        self.proxy_table = ""
        self.description = ""
        self._stopped = False
        self._taken = []

    # ------------------------------------------------------------- start --

    def start(self):
        if self.name == "kafka-wire":
            if not self.binaries.get("broker"):
                raise RuntimeError("no kwire-broker binary (target/interop-bin/bin/kwire-broker)")
            self.broker_proc, port = self._spawn_ours("broker", [
                self.binaries["broker"], "--listen", "127.0.0.1:%d" % self._port()])
            self.description = "kwire-broker at 127.0.0.1:%d" % port
            self.bootstrap = "127.0.0.1:%d" % port
            return self.bootstrap
        if self.name in KAFKA:
            return self._start_kafka()
        kind = THIRD_PARTY[self.name]
        upstream = self._port()
        self._broker_py_start(kind, upstream)
        if self.direct:
            self.description = "%s at 127.0.0.1:%d, directly (--direct: no proxy)" % (
                self.name, upstream)
            self.bootstrap = "127.0.0.1:%d" % upstream
            return self.bootstrap
        port = self._start_proxy("127.0.0.1:%d" % upstream)
        self.description = "our proxy at 127.0.0.1:%d in front of %s at 127.0.0.1:%d" % (
            port, self.name, upstream)
        self.bootstrap = "127.0.0.1:%d" % port
        return self.bootstrap

    def _start_proxy(self, upstream):
        """Our proxy in front of `upstream`; returns its port."""
        if not self.binaries.get("proxy"):
            raise RuntimeError("no kwire-proxy binary (target/interop-bin/bin/kwire-proxy); "
                               "use --direct to run without it")
        self.report_path = os.path.join(self.dir, "proxy-report.json")
        self.proxy_proc, port = self._spawn_ours("proxy", [
            self.binaries["proxy"], "--listen", "127.0.0.1:%d" % self._port(),
            "--upstream", upstream, "--report", self.report_path])
        return port

    def _start_kafka(self):
        nodes, behind_proxy = KAFKA[self.name]
        self.kafka_started = True  # from here on, stop() calls kafka_peer.stop
        self.kafka = kafka_peer.start(self.kafka_dir, nodes=nodes, overrides=KAFKA_OVERRIDES)
        what = "Kafka %s, %d node%s at %s (ready in %.1f s, RSS %s MiB)" % (
            kafka_peer.VERSION, nodes, "s" if nodes > 1 else "", self.kafka.bootstrap(),
            self.kafka.startup_seconds, "/".join("%.0f" % r for r in self.kafka.rss_mib))
        if not behind_proxy or self.direct:
            self.description = what + (" directly (--direct: no proxy)" if behind_proxy else "")
            self.bootstrap = self.kafka.bootstrap()
            return self.bootstrap
        port = self._start_proxy(self.kafka.nodes[0]["PLAINTEXT"])
        own_ports = [int(n[listener].rsplit(":", 1)[1]) for n in self.kafka.nodes
                     for listener in kafka_peer.LISTENERS]
        self.watch = bypass.Watch(own_ports, self.kafka.pids() + [self.proxy_proc.pid]).start()
        self.description = "our proxy at 127.0.0.1:%d in front of %s" % (port, what)
        self.bootstrap = "127.0.0.1:%d" % port
        return self.bootstrap

    def _port(self):
        port = self.ports.take()
        self._taken.append(port)
        return port

    def _spawn_ours(self, what, argv):
        out = os.path.join(self.dir, what + ".stdout")
        err = os.path.join(self.dir, what + ".stderr")
        with open(out, "wb") as o, open(err, "wb") as e:
            proc = self.registry.spawn(argv, o, e)
        try:
            port = procs.wait_listening(proc, out, 30)
        except RuntimeError as ex:
            raise RuntimeError("%s: %s; stderr:\n%s" % (what, ex, procs.tail(err)))
        return proc, port

    def _broker_py_start(self, kind, port):
        out = os.path.join(self.dir, "broker-start.out")
        argv = [sys.executable, BROKER_PY, "start", kind, "--port", str(port),
                "--pidfile", self.pidfile, "--log", os.path.join(self.dir, kind + ".log"),
                "--timeout", "60"]
        if kind == "noida":
            argv += ["--data-dir", os.path.join(self.dir, "noida-data")]
        with open(out, "wb") as o:
            self.start_proc = self.registry.spawn(argv, o, subprocess.STDOUT)
        self.upstream_started = True  # from here on, stop() calls broker.py stop
        try:
            rc = self.start_proc.wait(90)
        finally:
            self._finish_start()
        if rc != 0:
            raise RuntimeError("broker.py start %s failed (%s):\n%s" % (kind, rc, procs.tail(out)))

    def _finish_start(self):
        """Lets a running `broker.py start` finish (even on Ctrl-C), so that
        its broker's PID is in the pidfile for `broker.py stop`."""
        p, self.start_proc = self.start_proc, None
        if p is None:
            return
        try:
            p.wait(90)
        except subprocess.TimeoutExpired:
            pass
        self.registry.stop(p, grace=75)

    # -------------------------------------------------------------- stop --

    def stop(self):
        if self._stopped:
            return
        self._stopped = True
        self._finish_start()
        if self.proxy_proc is not None:
            how = self.registry.stop(self.proxy_proc, grace=self.grace)
            rc = self.proxy_proc.returncode
            if how != "TERM" or rc != 0:
                self.problems.append("proxy: %s, exit status %s (want: stops on SIGTERM, 0)"
                                     % ("already exited" if how == "exited" else
                                        "needed SIGKILL" if how == "KILL" else "SIGTERM", rc))
            self.proxy_table = _read(os.path.join(self.dir, "proxy.stdout"))
            self._read_report()
        if self.watch is not None:
            self.watch.stop()
            bypassed = self.watch.problems()
            self.problems += bypassed
            if not bypassed:
                self.checks.append(
                    "no client reached Kafka's own listeners: only the proxy and the nodes "
                    "were connected to them in %d samples of /proc/net/tcp"
                    % self.watch.samples)
            self._check_broker_listeners()
        if self.kafka_started:
            self._stop_kafka()
        if self.upstream_started:
            r = subprocess.run([sys.executable, BROKER_PY, "stop", "--pidfile", self.pidfile],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=30)
            with open(os.path.join(self.dir, "broker-stop.out"), "w") as f:
                f.write(r.stdout)
            if r.returncode != 0:
                self.problems.append("broker.py stop: %s" % r.stdout.strip())
        if self.broker_proc is not None:
            how = self.registry.stop(self.broker_proc, grace=self.grace)
            rc = self.broker_proc.returncode
            if how != "TERM" or rc not in (0, -15):
                self.problems.append("broker: %s, exit status %s (want: stops on SIGTERM)"
                                     % ("already exited" if how == "exited" else
                                        "needed SIGKILL" if how == "KILL" else "SIGTERM", rc))
        for port in self._taken:
            self.ports.release(port)

    def _stop_kafka(self):
        if self.kafka is not None:
            self.kafka_rss_end = self.kafka.rss()
        gone = [n["id"] for n in (self.kafka.nodes if self.kafka else [])
                if not kafka_peer.pid_alive(n["pid"])]
        how = kafka_peer.stop(self.kafka_dir, grace=KAFKA_GRACE)
        if gone:
            self.problems.append("Kafka node(s) %s exited during the run; logs in %s"
                                 % (gone, self.kafka_dir))
        killed = [pid for pid, h in how.items() if h == "KILL"]
        if killed:
            self.problems.append("Kafka node PID(s) %s needed SIGKILL after %.0f s"
                                 % (killed, KAFKA_GRACE))

    def _check_broker_listeners(self):
        """Every Kafka node must have been reached through a listener of the
        proxy: --listen for the bootstrap node, a "new broker" listener (its
        stderr) for each other."""
        if self.kafka is None or len(self.kafka.nodes) < 2:
            return
        text = _read(os.path.join(self.dir, "proxy.stderr"))
        opened = set(re.findall(r"new broker: listening for it.*?upstream=(\S+)", text))
        opened.add(self.kafka.nodes[0]["PLAINTEXT"])
        missing = [n["id"] for n in self.kafka.nodes if n["PLAINTEXT"] not in opened]
        if missing:
            self.problems.append("proxy: no listener for Kafka node(s) %s (it logged %s)"
                                 % (missing, sorted(opened)))
        else:
            self.checks.append("the proxy listened for every Kafka node: node 1 on --listen, "
                               "%d more on the ports it opened" % (len(opened) - 1))

    def _read_report(self):
        try:
            with open(self.report_path) as f:
                self.proxy_report = json.load(f)
        except (OSError, ValueError) as e:
            self.problems.append("proxy report %s: %s" % (self.report_path, e))
            return
        rep = self.proxy_report
        if (rep.get("mismatches") or rep.get("decode_failures") or rep.get("unchecked")
                or rep.get("unmatched_responses")):
            self.problems.append("proxy: %s mismatch(es), %s decode failure(s), %s frame(s) "
                                 "not checked, %s response(s) matching no request"
                                 % (rep.get("mismatches"), rep.get("decode_failures"),
                                    rep.get("unchecked"), rep.get("unmatched_responses")))


def _read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""
