"""The three broker setups of the matrix, each on fresh processes.

    kafka-wire  kwire-broker:  kwire-broker --listen 127.0.0.1:PORT
    tansu       broker.py start tansu, then our proxy in front of it:
                proxy --listen 127.0.0.1:PORT --upstream 127.0.0.1:P --report FILE
    noida-db    the same with broker.py start noida

With direct=True the clients talk to tansu / noida-db without the proxy.
Setup.start() returns the bootstrap address; Setup.stop() (idempotent, safe
after a failed start) stops the proxy and our broker with SIGTERM (SIGKILL
after a grace) and the third-party broker with `broker.py stop`, reads the
proxy's JSON report, and notes anything unclean in Setup.problems.

Standard library only.
"""

import json
import os
import subprocess
import sys

import procs

HERE = os.path.dirname(os.path.abspath(__file__))
BROKER_PY = os.path.join(HERE, "..", "broker.py")
THIRD_PARTY = {"tansu": "tansu", "noida-db": "noida"}  # setup -> broker.py kind
ALL = ["kafka-wire", "tansu", "noida-db"]


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
        self.proxy_proc = None
        self.upstream_started = False
        self.start_proc = None    # `broker.py start`, while it runs
        self.bootstrap = None
        self.problems = []        # unclean stops, proxy report trouble
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
        kind = THIRD_PARTY[self.name]
        upstream = self._port()
        self._broker_py_start(kind, upstream)
        if self.direct:
            self.description = "%s at 127.0.0.1:%d, directly (--direct: no proxy)" % (
                self.name, upstream)
            self.bootstrap = "127.0.0.1:%d" % upstream
            return self.bootstrap
        if not self.binaries.get("proxy"):
            raise RuntimeError("no kwire-proxy binary (target/interop-bin/bin/kwire-proxy); "
                               "use --direct to run without it")
        self.report_path = os.path.join(self.dir, "proxy-report.json")
        self.proxy_proc, port = self._spawn_ours("proxy", [
            self.binaries["proxy"], "--listen", "127.0.0.1:%d" % self._port(),
            "--upstream", "127.0.0.1:%d" % upstream, "--report", self.report_path])
        self.description = "our proxy at 127.0.0.1:%d in front of %s at 127.0.0.1:%d" % (
            port, self.name, upstream)
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

    def _read_report(self):
        try:
            with open(self.report_path) as f:
                self.proxy_report = json.load(f)
        except (OSError, ValueError) as e:
            self.problems.append("proxy report %s: %s" % (self.report_path, e))
            return
        rep = self.proxy_report
        if rep.get("mismatches") or rep.get("decode_failures") or rep.get("unchecked"):
            self.problems.append("proxy: %s mismatch(es), %s decode failure(s), %s frame(s) "
                                 "not checked" % (rep.get("mismatches"), rep.get("decode_failures"),
                                                  rep.get("unchecked")))


def _read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""
