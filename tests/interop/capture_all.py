#!/usr/bin/env python3
"""Run every client in clients/ against capture.py and write the fixtures.

    python3 tests/interop/capture_all.py [--fixtures DIR] [--work DIR] [--no-install]

For each client it starts capture.py on a free 127.0.0.1 port (in its own
process, stopped by PID afterwards), runs the client script with a timeout,
then copies the chosen frames to the fixtures folder as
<client>-<version>-<what>.hex and prints a decoded header for each.

Clients are installed on demand (idempotent; quick when already there):
  * kafka-python 3.0.12, confluent-kafka 2.16.1, aiokafka 0.14.0 into the
    virtualenv $KAFKA_WIRE_INTEROP_CACHE/clients-venv
  * kafkajs 2.2.4 into $KAFKA_WIRE_INTEROP_CACHE/node/node_modules
  * kcat from Debian (apt-get; only when running as root)
KAFKA_WIRE_INTEROP_CACHE defaults to ~/.cache/kafka-wire-interop.
README.md in the fixtures folder is written by hand and is not touched.
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from serving import stop_pid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
CLIENTS = os.path.join(HERE, "clients")
CACHE = os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "kafka-wire-interop"))
VENV = os.path.join(CACHE, "clients-venv")
VPY = os.path.join(VENV, "bin", "python")
NODE_DIR = os.path.join(CACHE, "node")
NODE_MODULES = os.path.join(NODE_DIR, "node_modules")

PIP_PINS = {"kafka-python": "3.0.12", "confluent-kafka": "2.16.1", "aiokafka": "0.14.0"}
KAFKAJS = "2.2.4"

# The frame quoted in issue 9 (librdkafka 2.16.0, Metadata v12 + 3 bytes).
QUOTED_TRAILING = ("000000230003000c000000030011696e7465726f702d636f6e666c75656e74"
                   "0000000000010000")

API_NAMES = {18: "api_versions", 3: "metadata", 60: "describe_cluster"}


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- install --

def ensure_clients(install):
    ok = True
    if not os.path.exists(VPY):
        if not install:
            sys.exit("missing %s (run without --no-install)" % VENV)
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    have = subprocess.run([VPY, "-m", "pip", "list", "--format=freeze"],
                          capture_output=True, text=True).stdout.lower()
    missing = ["%s==%s" % (n, v) for n, v in PIP_PINS.items()
               if "%s==%s" % (n, v) not in have]
    if missing:
        if not install:
            sys.exit("missing in %s: %s" % (VENV, missing))
        log("pip install " + " ".join(missing))
        subprocess.check_call([VPY, "-m", "pip", "install", "-q"] + missing)

    pkg = os.path.join(NODE_MODULES, "kafkajs", "package.json")
    cur = None
    if os.path.exists(pkg):
        import json
        cur = json.load(open(pkg)).get("version")
    if cur != KAFKAJS:
        if not install or not shutil.which("npm"):
            log("WARNING: kafkajs %s not available, skipping it" % KAFKAJS)
            ok = False
        else:
            os.makedirs(NODE_DIR, exist_ok=True)
            log("npm install kafkajs@" + KAFKAJS)
            subprocess.check_call(["npm", "install", "--no-audit", "--no-fund",
                                   "--prefix", NODE_DIR, "kafkajs@" + KAFKAJS])

    if not shutil.which("kcat") and install and os.geteuid() == 0 and shutil.which("apt-get"):
        log("apt-get install kcat")
        subprocess.call(["apt-get", "update", "-qq"])
        subprocess.call(["apt-get", "install", "-y", "-qq", "kcat"])
    return ok


def kcat_versions():
    out = subprocess.run(["kcat", "-V"], capture_output=True, text=True).stdout
    kv = lv = "unknown"
    for word, nxt in zip(out.split(), out.split()[1:]):
        if word == "Version":
            kv = nxt
        if word == "librdkafka":
            lv = nxt
    return kv, lv


# ---------------------------------------------------------------- capture --



def run_one(name, argv, env, workdir):
    out = os.path.join(workdir, name)
    os.makedirs(out, exist_ok=True)
    port_file = os.path.join(out, "port")
    # sys.executable, not a shim: the PID we hold is the server itself.
    srv = subprocess.Popen([sys.executable, os.path.join(HERE, "capture.py"),
                            "--out", out, "--port-file", port_file],
                           stdout=subprocess.DEVNULL, stderr=open(os.path.join(out, "server.err"), "w"))
    try:
        deadline = time.time() + 10
        while not os.path.exists(port_file):
            if time.time() > deadline or srv.poll() is not None:
                raise RuntimeError("capture server did not start")
            time.sleep(0.05)
        port = int(open(port_file).read())
        bootstrap = "127.0.0.1:%d" % port
        cmd = [a.replace("{BOOTSTRAP}", bootstrap) for a in argv]
        log("== %s: %s" % (name, " ".join(cmd)))
        t0 = time.time()
        try:
            res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=40)
            client_out = res.stdout + res.stderr
        except subprocess.TimeoutExpired as e:
            client_out = "TIMEOUT\n" + (e.stdout or b"").decode(errors="replace")
        log("   client finished in %.1fs" % (time.time() - t0))
        for line in client_out.strip().splitlines()[:6]:
            log("   | " + line)
        time.sleep(0.3)
    finally:
        stop_pid(srv)
    frames = sorted((f for f in os.listdir(out) if f.endswith(".hex")),
                    key=lambda f: [int(x[1:]) for x in f[:-4].split("-")[:2]])
    return out, frames


def decode(hexstr):
    b = bytes.fromhex(hexstr)
    n, key, ver, corr = struct.unpack(">ihhi", b[:12])
    (clen,) = struct.unpack(">h", b[12:14])
    cid = None if clen < 0 else b[14:14 + clen].decode(errors="replace")
    return dict(length=n, api_key=key, api_version=ver, correlation_id=corr, client_id=cid,
                total=len(b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "tests", "fixtures", "captured"))
    ap.add_argument("--work", help="keep raw captures here (default: a temp dir, removed)")
    ap.add_argument("--no-install", action="store_true")
    args = ap.parse_args()

    have_kafkajs = ensure_clients(not args.no_install)
    os.makedirs(args.fixtures, exist_ok=True)
    workdir = args.work or tempfile.mkdtemp(prefix="kafka-capture-")
    os.makedirs(workdir, exist_ok=True)

    env = dict(os.environ)
    env["NODE_PATH"] = NODE_MODULES
    env["PYTHONWARNINGS"] = "ignore"

    kv, klv = kcat_versions() if shutil.which("kcat") else (None, None)

    # name prefix, argv, frames to keep: list of (conn, frame, suffix or None=auto)
    plan = [
        ("kafka-python-" + PIP_PINS["kafka-python"],
         [VPY, os.path.join(CLIENTS, "kafka_python.py"), "{BOOTSTRAP}"]),
        ("librdkafka-2.16.0",
         [VPY, os.path.join(CLIENTS, "confluent_kafka_client.py"), "{BOOTSTRAP}"]),
        ("aiokafka-" + PIP_PINS["aiokafka"],
         [VPY, os.path.join(CLIENTS, "aiokafka_client.py"), "{BOOTSTRAP}"]),
    ]
    if have_kafkajs and shutil.which("node"):
        plan.append(("kafkajs-" + KAFKAJS,
                     ["node", os.path.join(CLIENTS, "kafkajs_client.js"), "{BOOTSTRAP}"]))
    if kv:
        plan.append(("kcat-%s-librdkafka-%s" % (kv, klv),
                     ["sh", os.path.join(CLIENTS, "kcat.sh"), "{BOOTSTRAP}"]))

    written = []
    for prefix, argv in plan:
        out, frames = run_one(prefix, argv, env, workdir)
        seen = set()
        for f in frames:
            hexstr = open(os.path.join(out, f)).read().strip()
            d = decode(hexstr)
            api = API_NAMES.get(d["api_key"], "api%d" % d["api_key"])
            if api == "api_versions":
                what = "api_versions_request"
            else:
                what = "%s_request_v%d" % (api, d["api_version"])
            if what in seen:
                # A later frame of a kind already saved: keep only librdkafka's
                # second Metadata v12 (the one with trailing bytes), once.
                if (prefix.startswith("librdkafka-2.16.0") and what == "metadata_request_v12"
                        and "metadata_request_v12_trailing" not in seen
                        and "metadata_request_v12_recaptured" not in seen):
                    what = "metadata_request_v12_trailing"
                    if hexstr != QUOTED_TRAILING:
                        log("   WARNING: second Metadata v12 frame differs from the one quoted "
                            "in issue 9; saved as *_recaptured, quoted frame kept")
                        what = "metadata_request_v12_recaptured"
                else:
                    continue
            seen.add(what)
            dest = os.path.join(args.fixtures, "%s-%s.hex" % (prefix, what))
            with open(dest, "w") as fh:
                fh.write(hexstr)
            written.append(dest)
            log("   %s  len=%d api_key=%d v%d corr=%d client_id=%r (%d bytes)" % (
                os.path.basename(dest), d["length"], d["api_key"], d["api_version"],
                d["correlation_id"], d["client_id"], d["total"]))

    trailing = os.path.join(args.fixtures, "librdkafka-2.16.0-metadata_request_v12_trailing.hex")
    if not os.path.exists(trailing):
        with open(trailing, "w") as fh:
            fh.write(QUOTED_TRAILING)
        log("wrote the issue-9 quoted frame (not reproduced this run): " + trailing)

    if not args.work:
        shutil.rmtree(workdir, ignore_errors=True)
    log("%d fixtures written to %s" % (len(written), args.fixtures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
