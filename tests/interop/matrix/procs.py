"""Processes of the interop matrix: start, time out, stop, always by PID.

Every process the driver starts goes through a Registry. Each child runs in
its own session (so a Ctrl-C at the terminal reaches only the driver, and a
client's helpers, e.g. kcat under kcat_client.py, share the child's process
group). A child is stopped by its PID: SIGTERM to its process group, then
SIGKILL after a grace period. Registry.stop_all() stops whatever is still
running; the driver calls it in a finally block, also on SIGINT/SIGTERM.

Also here: free 127.0.0.1 ports, and waiting for a "listening on" line.

Standard library only.
"""

import os
import re
import signal
import socket
import subprocess
import threading
import time


# ------------------------------------------------------------ our binaries --

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
TARGET = os.path.abspath(os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR") or "target"))
INTEROP_BIN = os.path.join(TARGET, "interop-bin")


def ours(name):
    """Where `cargo_install(name)` puts kwire-<name> (broker, proxy)."""
    return os.path.join(INTEROP_BIN, "bin", "kwire-" + name)


def cargo_install(name):
    """The command that installs kwire-<name> from apps/<name> as a user would
    (`cargo install --path`), into target/interop-bin; run it in ROOT."""
    return ["cargo", "install", "--quiet", "--locked", "--force", "--path",
            os.path.join("apps", name), "--root", INTEROP_BIN, "--target-dir", TARGET]


class Aborted(Exception):
    """Raised in the main thread on SIGTERM/SIGHUP, and by spawn() once the
    run is being torn down."""


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


class signals_deferred:
    """Blocks SIGINT/SIGTERM/SIGHUP in this thread for the `with` body (they
    are delivered, and raise, when it ends), so that cleanup runs to the end.
    Start no long-lived child inside: children inherit the mask."""

    def __enter__(self):
        self.old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)

    def __exit__(self, *exc):
        signal.pthread_sigmask(signal.SIG_SETMASK, self.old)
        return False


def _group_alive(pid):
    """True if any process of process group `pid` is still alive (not a zombie)."""
    try:
        os.killpg(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def signal_group(pid, sig):
    """Sends `sig` to the process group led by `pid` (falls back to the PID
    alone if it has no group of its own); False if nothing was there."""
    try:
        os.killpg(pid, sig)
        return True
    except ProcessLookupError:
        pass
    except PermissionError:
        pass
    try:
        os.kill(pid, sig)
        return True
    except ProcessLookupError:
        return False


class Registry:
    """The children of this run, by PID, so that every one can be stopped."""

    def __init__(self):
        self._lock = threading.Lock()
        self._procs = {}
        self.aborting = False

    def spawn(self, argv, stdout, stderr, env=None, cwd=None):
        """Popen in a new session; stdout/stderr are open files (or DEVNULL)."""
        with self._lock:
            if self.aborting:
                raise Aborted("not starting %s: the run is being stopped" % argv[0])
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout,
                                    stderr=stderr, env=env, cwd=cwd,
                                    start_new_session=True)
            self._procs[proc.pid] = proc
        return proc

    def forget(self, proc):
        with self._lock:
            self._procs.pop(proc.pid, None)

    def stop(self, proc, grace=5.0):
        """SIGTERM to the child's group, SIGKILL after `grace` s. Returns how it
        ended: "exited" (before we signalled), "TERM" or "KILL"."""
        how = "exited"
        if proc.poll() is None:
            signal_group(proc.pid, signal.SIGTERM)
            how = "TERM"
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                signal_group(proc.pid, signal.SIGKILL)
                how = "KILL"
                proc.wait()
        # Helpers left in the group (e.g. a client's kcat) go too.
        if _group_alive(proc.pid):
            signal_group(proc.pid, signal.SIGKILL)
        self.forget(proc)
        return how

    def stop_all(self, grace=3.0):
        """Stops every child still registered; returns their PIDs."""
        with self._lock:
            self.aborting = True
            procs = list(self._procs.values())
        for p in procs:
            if p.poll() is None:
                signal_group(p.pid, signal.SIGTERM)
        deadline = time.time() + grace
        for p in procs:
            try:
                p.wait(max(0.0, deadline - time.time()))
            except subprocess.TimeoutExpired:
                pass
        for p in procs:
            self.stop(p, grace=0.1)
        return [p.pid for p in procs]


def run(registry, argv, stdout_path, stderr_path, timeout, env=None, cwd=None):
    """Runs argv to completion with output in files; kills it (group) after
    `timeout` s. Returns (returncode or None on timeout, seconds)."""
    t0 = time.time()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        proc = registry.spawn(argv, out, err, env=env, cwd=cwd)
    rc = None
    try:
        rc = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        pass
    finally:
        # Kills it if still running (timeout, Ctrl-C), reaps helpers left in
        # its group, unregisters it.
        registry.stop(proc, grace=2.0)
    return rc, time.time() - t0


# ------------------------------------------------------------------ ports --

class Ports:
    """Hands out distinct free TCP ports on 127.0.0.1, from the kernel's
    ephemeral range or from LO..HI (--ports)."""

    def __init__(self, lo=None, hi=None):
        self.lo, self.hi = lo, hi
        self.used = set()

    @staticmethod
    def _free(port):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
            return s.getsockname()[1]
        except OSError:
            return None
        finally:
            s.close()

    def take(self):
        if self.lo is None:
            for _ in range(50):
                port = self._free(0)
                if port and port not in self.used:
                    self.used.add(port)
                    return port
        else:
            for port in range(self.lo, self.hi + 1):
                if port not in self.used and self._free(port):
                    self.used.add(port)
                    return port
        raise RuntimeError("no free 127.0.0.1 port%s" % (
            "" if self.lo is None else " in %d-%d" % (self.lo, self.hi)))

    def release(self, port):
        """Makes `port` available again (its process has stopped)."""
        self.used.discard(port)


LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+)")


def wait_listening(proc, stdout_path, timeout):
    """Waits for a `listening on 127.0.0.1:PORT` line in the child's stdout
    file; returns PORT, or raises RuntimeError if it exits or times out."""
    deadline = time.time() + timeout
    while True:
        try:
            with open(stdout_path, "rb") as f:
                m = LISTENING.search(f.read(65536).decode(errors="replace"))
            if m:
                return int(m.group(1))
        except OSError:
            pass
        if proc.poll() is not None:
            raise RuntimeError("exited with status %s before printing 'listening on'"
                               % proc.returncode)
        if time.time() > deadline:
            raise RuntimeError("no 'listening on' line within %.0f s" % timeout)
        time.sleep(0.05)


def tail(path, lines=8, limit=4000):
    """The last `lines` lines of a text file ("" if missing)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - limit))
            data = f.read().decode(errors="replace")
    except OSError:
        return ""
    return "\n".join(data.splitlines()[-lines:])
