"""Our servers as the probes meet them: release binaries started on 127.0.0.1,
watched for memory from /proc, asked small questions while under attack, and
stopped by their PID.

A server whose resident memory passes the ceiling is killed at once (so that a
probe that finds a leak cannot take the machine with it) and the probe fails."""

import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop",
                                "matrix"))
# connect and read_frame are the probes' too: attacks.py and limits.py take them from here.
from kafka_codec import connect, read_frame  # noqa: E402,F401

import procs  # noqa: E402
import requests  # noqa: E402
import serving  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CEILING_MIB = 4096


def install(names=("broker", "proxy")):
    """Installs our servers where the interop suite's build puts them."""
    for name in names:
        subprocess.run(procs.cargo_install(name), cwd=procs.ROOT, check=True)


def status_kib(pid, field):
    """A /proc/PID/status figure in KiB (VmRSS, VmHWM), or None once gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def open_fds(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except FileNotFoundError:
        return None


class Server:
    """One server process. `with Server.broker(...) as s:` stops it at the end."""

    def __init__(self, name, args, log, address_space_mib=None):
        """Starts kwire-`name` with `args`; `address_space_mib` caps its address
        space (RLIMIT_AS), where an allocation past it fails at once."""
        self.name = name
        self.log = open(log, "wb")
        # Its stdout (the "listening on" line, the proxy's table at the end) to a
        # file, so that nothing it prints can fill a pipe nobody reads.
        out = log + ".out"
        with open(out, "wb") as stdout:
            cap = None
            if address_space_mib is not None:
                size = address_space_mib * 1024 * 1024
                cap = lambda: resource.setrlimit(resource.RLIMIT_AS, (size, size))  # noqa: E731
            self.proc = subprocess.Popen([procs.ours(name)] + args, stdout=stdout,
                                         stderr=self.log, start_new_session=True,
                                         preexec_fn=cap)
        self._watching = False
        try:
            port = procs.wait_listening(self.proc, out, 30)
        except RuntimeError as error:
            self.stop()
            raise RuntimeError("%s did not start: %s (log %s)" % (name, error, log))
        self.address = "127.0.0.1:%d" % port
        self.peak_kib = 0
        self.killed_for_memory = False
        self._watching = True
        self._watch = threading.Thread(target=self._watch_memory, daemon=True)
        self._watch.start()

    @classmethod
    def broker(cls, log, *extra, address_space_mib=None):
        return cls("broker", ["--listen", "127.0.0.1:0"] + list(extra), log, address_space_mib)

    @classmethod
    def proxy(cls, upstream, log, *extra):
        return cls("proxy", ["--listen", "127.0.0.1:0", "--upstream", upstream] + list(extra), log)

    def _watch_memory(self):
        while self._watching and self.proc.poll() is None:
            rss = status_kib(self.proc.pid, "VmRSS") or 0
            hwm = status_kib(self.proc.pid, "VmHWM") or 0
            self.peak_kib = max(self.peak_kib, rss, hwm)
            if rss > CEILING_MIB * 1024:
                self.killed_for_memory = True
                os.kill(self.proc.pid, signal.SIGKILL)
            time.sleep(0.02)

    @property
    def peak_mib(self):
        hwm = status_kib(self.proc.pid, "VmHWM") or 0
        return max(self.peak_kib, hwm) / 1024

    def alive(self):
        return self.proc.poll() is None

    def fds(self):
        return open_fds(self.proc.pid)

    def stop(self):
        self._watching = False
        if self.proc.poll() is None:
            # A SIGSTOPped server (upstream_timeout) cannot take SIGTERM.
            os.kill(self.proc.pid, signal.SIGCONT)
        serving.stop_pid(self.proc)
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def logged_figure(server, name):
    """A figure the server states in its log at start (`name=N`), such as the
    limits it settled on."""
    with open(server.log.name, errors="replace") as log:
        found = re.search(r"\b%s=(\d+)" % name, log.read())
    if found is None:
        raise RuntimeError("no %s in %s" % (name, server.log.name))
    return int(found.group(1))


def stop_all(started):
    """Stops every server a probe started, each by its PID."""
    for server in started:
        server.stop()


def ask(address, frame, timeout=5.0):
    """Sends one request on a fresh connection; its response payload or None."""
    try:
        with connect(address, timeout) as sock:
            sock.sendall(frame)
            return read_frame(sock)
    except OSError:
        return None


class Bystander:
    """Another client asking ApiVersions on a fresh connection every 0.25 s while
    an attack runs: how many of its questions were answered, and how slowly."""

    def __init__(self, address, timeout=5.0):
        self.address, self.timeout = address, timeout
        self.asked = self.answered = 0
        self.slowest = 0.0
        self._running = True
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        corr = 0
        while self._running:
            corr += 1
            started = time.monotonic()
            got = ask(self.address, requests.api_versions(corr), self.timeout)
            self.asked += 1
            if got is not None and got[:4] == corr.to_bytes(4, "big"):
                self.answered += 1
                self.slowest = max(self.slowest, time.monotonic() - started)
            time.sleep(0.25)

    def stop(self):
        self._running = False
        self._thread.join()
        return self

    def summary(self):
        return "%d/%d (slowest %.1f s)" % (self.answered, self.asked, self.slowest)
