#!/usr/bin/env python3
"""Capture the record batches real producers write: tests/fixtures/records/.

    python3 tests/interop/produce_capture_all.py [--fixtures DIR] [--work DIR]
            [--no-install] [--only NAME_PREFIX] [--no-readme]

For every client x codec (none, gzip, snappy, lz4, zstd), plus one
uncompressed idempotent run per client, it starts produce_capture.py on a free
127.0.0.1 port (its own process, stopped by PID afterwards), runs the
client's script from producers/ with a timeout, and writes

  DIR/<client>-<version>-<codec>[-idempotent].hex
      the `records` bytes of partition 0 of topic "fixtures" (all Produce
      requests of the run, in order; normally one request, one batch)
  DIR/frames/<same name>-produce_request_v<N>.hex
      the whole ProduceRequest frame (length prefix included)

then checks every fixture with produce_decode.py --expect and (unless
--no-readme) rewrites DIR/README.md from what it captured.

Installs on demand, into $KAFKA_WIRE_INTEROP_CACHE (default
~/.cache/kafka-wire-interop), never into the repository:
  * producers-venv: kafka-python 3.0.12, confluent-kafka 2.16.1,
    aiokafka 0.14.0 and the codec libraries python-snappy 0.7.3,
    cramjam 2.14.0, lz4 4.4.5, zstandard 0.25.0 (pip, pinned)
  * node-producers: kafkajs 2.2.4, kafkajs-snappy 1.1.0, kafkajs-lz4 1.2.1,
    @kafkajs/zstd 0.1.1 (npm; lz4 and cppzst are built by node-gyp against
    the local node headers, cppzst with CXXFLAGS=-std=gnu++17)
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from serving import stop_pid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PRODUCERS = os.path.join(HERE, "producers")
CACHE = os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "kafka-wire-interop"))
VENV = os.path.join(CACHE, "producers-venv")
VPY = os.path.join(VENV, "bin", "python")
NODE_DIR = os.path.join(CACHE, "node-producers")
NODE_MODULES = os.path.join(NODE_DIR, "node_modules")

PIP_PINS = {
    "kafka-python": "3.0.12", "confluent-kafka": "2.16.1", "aiokafka": "0.14.0",
    "python-snappy": "0.7.3", "cramjam": "2.14.0", "lz4": "4.4.5", "zstandard": "0.25.0",
}
NPM_PINS = {"kafkajs": "2.2.4", "kafkajs-snappy": "1.1.0", "kafkajs-lz4": "1.2.1",
            "@kafkajs/zstd": "0.1.1"}
LIBRDKAFKA = "2.16.0"
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, HERE)
import produce_decode  # noqa: E402

# name, how it is run, description, deviations from producers/spec.py
CLIENTS = [
    ("kafka-python-" + PIP_PINS["kafka-python"], "python", "kafka_python_producer.py",
     "kafka-python %s (KafkaProducer)" % PIP_PINS["kafka-python"],
     "record 4's header h2 is \"\" instead of null: KafkaProducer.send() accepts "
     "only (str, bytes) header tuples and raises TypeError for a None value"),
    ("librdkafka-" + LIBRDKAFKA, "python", "confluent_kafka_producer.py",
     "librdkafka %s through confluent-kafka %s (Producer)" % (LIBRDKAFKA,
                                                              PIP_PINS["confluent-kafka"]),
     None),
    ("aiokafka-" + PIP_PINS["aiokafka"], "python", "aiokafka_producer.py",
     "aiokafka %s (AIOKafkaProducer)" % PIP_PINS["aiokafka"], None),
    ("kafkajs-" + NPM_PINS["kafkajs"], "node", "kafkajs_producer.js",
     "kafkajs %s (producer.send, one call with all 5 messages)" % NPM_PINS["kafkajs"],
     "record 4's header h2 is \"\" instead of null: kafkajs 2.2.4 throws on a null "
     "header value (record/v0 sizeOfHeaders calls Buffer.byteLength(null))"),
]


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- install --

def ensure_installed(install):
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

    def npm_version(pkg):
        p = os.path.join(NODE_MODULES, *pkg.split("/"), "package.json")
        return json.load(open(p)).get("version") if os.path.exists(p) else None

    native_ok = all(os.path.exists(os.path.join(NODE_MODULES, p)) for p in (
        "lz4/build/Release/lz4.node", "cppzst/build/Release/compressor.node"))
    if any(npm_version(p) != v for p, v in NPM_PINS.items()) or not native_ok:
        if not install or not shutil.which("npm"):
            log("WARNING: kafkajs and its codecs are not all installed")
            return False
        os.makedirs(NODE_DIR, exist_ok=True)
        env = dict(os.environ, CXXFLAGS="-std=gnu++17")
        log("npm install " + " ".join("%s@%s" % kv for kv in NPM_PINS.items()))
        subprocess.check_call(["npm", "install", "--no-audit", "--no-fund", "--prefix", NODE_DIR]
                              + ["%s@%s" % kv for kv in NPM_PINS.items()], env=env)
    return True


# ---------------------------------------------------------------- capture --



def run_one(name, argv, env, workdir):
    out = os.path.join(workdir, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    port_file = os.path.join(out, "port")
    srv = subprocess.Popen([sys.executable, os.path.join(HERE, "produce_capture.py"),
                            "--out", out, "--port-file", port_file],
                           stdout=subprocess.DEVNULL,
                           stderr=open(os.path.join(out, "server.err"), "w"))
    try:
        deadline = time.time() + 10
        while not os.path.exists(port_file):
            if time.time() > deadline or srv.poll() is not None:
                raise RuntimeError("produce_capture.py did not start")
            time.sleep(0.05)
        port = int(open(port_file).read())
        cmd = [a.replace("{BOOTSTRAP}", "127.0.0.1:%d" % port) for a in argv]
        t0 = time.time()
        try:
            res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=40)
            client_out, rc = res.stdout + res.stderr, res.returncode
        except subprocess.TimeoutExpired as e:
            client_out, rc = "TIMEOUT\n" + (e.stdout or b"").decode(errors="replace"), None
        log("== %s: client rc=%s in %.1fs" % (name, rc, time.time() - t0))
        if rc != 0:
            for line in client_out.strip().splitlines()[-8:]:
                log("   | " + line)
        time.sleep(0.2)
    finally:
        stop_pid(srv)
    entries = []
    jl = os.path.join(out, "produce.jsonl")
    if os.path.exists(jl):
        entries = [json.loads(line) for line in open(jl) if line.strip()]
    return out, entries, rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "tests", "fixtures", "records"))
    ap.add_argument("--work", help="keep the raw captures here (default: a temp dir, removed)")
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--only", help="only runs whose fixture name starts with this")
    ap.add_argument("--no-readme", action="store_true")
    args = ap.parse_args()

    have_node = ensure_installed(not args.no_install) and shutil.which("node")
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        # Decoding zstd needs zstandard: go on inside the producers venv.
        os.execv(VPY, [VPY, os.path.abspath(__file__)] + sys.argv[1:] + ["--no-install"])
    os.makedirs(os.path.join(args.fixtures, "frames"), exist_ok=True)
    workdir = args.work or tempfile.mkdtemp(prefix="kafka-produce-capture-")
    env = dict(os.environ, NODE_PATH=NODE_MODULES, PYTHONWARNINGS="ignore",
               PYTHONDONTWRITEBYTECODE="1")

    plan = []
    for client, kind, script, desc, deviation in CLIENTS:
        if kind == "node" and not have_node:
            log("skipping %s: node or kafkajs missing" % client)
            continue
        runner = [VPY] if kind == "python" else ["node"]
        rel_runner = ("$CACHE/producers-venv/bin/python" if kind == "python"
                      else "NODE_PATH=$CACHE/node-producers/node_modules node")
        for codec, idem in [(c, False) for c in CODECS] + [("none", True)]:
            name = "%s-%s%s" % (client, codec, "-idempotent" if idem else "")
            if args.only and not name.startswith(args.only):
                continue
            extra = ["--idempotent"] if idem else []
            argv = runner + [os.path.join(PRODUCERS, script), "{BOOTSTRAP}", codec] + extra
            command = " ".join([rel_runner, "tests/interop/producers/" + script,
                                "127.0.0.1:PORT", codec] + extra)
            plan.append(dict(name=name, client=client, desc=desc, codec=codec,
                             idempotent=idem, argv=argv, command=command,
                             deviation=deviation))

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    results = []
    for p in plan:
        out, entries, rc = run_one(p["name"], p["argv"], env, workdir)
        records = b""
        frames = []
        for e in entries:
            for part in e["partitions"]:
                if part["topic"] == "fixtures" and part["partition"] == 0:
                    records += bytes.fromhex(open(os.path.join(out, part["file"])).read())
            frames.append((e, open(os.path.join(out, e["frame"])).read().strip()))
        p.update(rc=rc, requests=len(entries), date=date,
                 versions=[e["api_version"] for e in entries],
                 acks=[e["acks"] for e in entries])
        if not records:
            log("   no records captured for %s" % p["name"])
            p["ok"] = False
            results.append(p)
            continue
        dest = os.path.join(args.fixtures, p["name"] + ".hex")
        with open(dest, "w") as f:
            f.write(records.hex())
        p["frames"] = []
        for i, (e, hexstr) in enumerate(frames, 1):
            fname = "%s-produce_request_v%d%s.hex" % (
                p["name"], e["api_version"], "" if len(frames) == 1 else "-%d" % i)
            with open(os.path.join(args.fixtures, "frames", fname), "w") as f:
                f.write(hexstr)
            p["frames"].append(fname)
        batches = produce_decode.parse_batches(records)
        problems, deviations = produce_decode.check_expected(batches)
        p.update(ok=not problems, problems=problems, deviations=deviations,
                 batches=batches, bytes=len(records))
        log("   %s: %d request(s) v%s, %d bytes, %d batch(es), %s%s" % (
            os.path.basename(dest), len(entries), p["versions"], len(records), len(batches),
            "expect OK" if not problems else "MISMATCH %s" % problems,
            "; " + "; ".join(deviations) if deviations else ""))
        results.append(p)

    if not args.no_readme and not args.only:
        with open(os.path.join(args.fixtures, "README.md"), "w") as f:
            f.write(readme(results))
        log("wrote %s" % os.path.join(args.fixtures, "README.md"))
    if not args.work:
        shutil.rmtree(workdir, ignore_errors=True)
    bad = [p["name"] for p in results if not p.get("ok")]
    log("%d fixture(s) written, %d failed%s" % (len(results) - len(bad), len(bad),
                                               ": %s" % bad if bad else ""))
    return 1 if bad else 0


# ----------------------------------------------------------------- README --

README_HEAD = """# Record batches written by real producers

Each `*.hex` file here is the `records` field of partition 0 of topic
`fixtures` in the ProduceRequest a real client sent to
`tests/interop/produce_capture.py` (a fake one-broker cluster on 127.0.0.1):
one or more whole record batches, lowercase hex, no spaces, no newline.
`frames/` holds the whole ProduceRequest frame of each run (length prefix
included). This README is written by `tests/interop/produce_capture_all.py`,
which regenerates everything:

    python3 tests/interop/produce_capture_all.py      # about 25 s once installed
    python3 tests/interop/produce_decode.py --expect tests/fixtures/records/*.hex

Each fixture is named `<client>-<version>-<codec>[-idempotent].hex`.
`librdkafka-2.16.0-*` were written by librdkafka 2.16.0 as bundled in the
confluent-kafka 2.16.1 wheel.

## What every client was told to send

One batch of these 5 records, in this order, to partition 0 of `fixtures`,
with acks=all and linger 1000 ms (kafkajs has no linger: one `send()` call
with all 5 messages), each with an explicit CreateTime timestamp (every client
takes one, so none was left to the client's clock):

| # | key | value | headers | timestamp |
|---|---|---|---|---|
| 1 | `"k1"` | `"v1"` | none | 1700000000000 |
| 2 | null | `"v2"` | `("h1", "x")` | 1700000000001 |
| 3 | `"k3"` | null (tombstone) | none | 1700000000002 |
| 4 | `""` | `""` | `("h2", null)`, or `("h2", "")` where the client cannot send a null header value | 1700000000003 |
| 5 | `"k5"` | 1000 bytes: `"abcdefghij"` x 100 | `("a", "1")`, `("b", "2")` | 1700000000004 |

Deviations, per client:

- kafka-python 3.0.12 and kafkajs 2.2.4 send record 4's header as `("h2", "")`:
  kafka-python's `KafkaProducer.send()` only accepts `(str, bytes)` header
  tuples (TypeError for None, although its record encoder could write a null
  value), and kafkajs 2.2.4 throws `The "string" argument must be of type
  string ... Received null` (record/v0 `sizeOfHeaders` calls
  `Buffer.byteLength(null)` before its null check).
- librdkafka 2.16.0 and aiokafka 0.14.0 send it as `("h2", null)` (header
  value length -1).

The fake broker advertises Produce v3..v8, so every request is non-flexible.
(`produce_capture.py --produce-max 11` parses flexible Produce v9+ too:
tried once by hand, kafka-python 3.0.12 then sends v9 and librdkafka 2.16.0
v10, with the same record batches; aiokafka and kafkajs stay at v7.) It
answers InitProducerId with producer id 1000, epoch 0, and every Produce
with error 0 and base offset 0 (each run has its own server). Idempotent
runs: `enable_idempotence=True` (kafka-python, aiokafka),
`enable.idempotence=true` (librdkafka), `idempotent: true,
maxInFlightRequests: 1, retry: {retries: 2}` (kafkajs, which refuses an
idempotent producer without retries); the other runs have idempotence off
(explicitly so for kafka-python 3.x, where it is on by default).

## Observations
"""

OBSERVATIONS = """Seen in the captures of 2026-11-30 (the per-file sections below
have the decoded values; the summary table is recomputed at each
regeneration):

- Every run wrote exactly one ProduceRequest holding exactly one batch with
  all 5 records: base offset 0, last offset delta 4, offset deltas 0..4,
  CreateTime, first timestamp 1700000000000, max timestamp 1700000000004,
  timestamp deltas 0..4. No client overrode the timestamps it was given.
  (aiokafka's RecordMetadata reports 1700000000000 for all five records, but
  the batch it wrote has the right per-record deltas.)
- Produce versions used against Produce v3..v8: kafka-python and librdkafka
  v8, aiokafka and kafkajs v7.
- Partition leader epoch: aiokafka writes -1; kafka-python, librdkafka and
  kafkajs write 0. The CRC does not cover this field.
- Producer fields of non-idempotent batches differ between clients:
  kafka-python and librdkafka write producer id -1, epoch -1, base
  sequence -1; aiokafka writes -1, -1, **0**; kafkajs writes -1, **0**, **0**.
- Idempotent batches: all four write producer id 1000, epoch 0, base
  sequence 0 (from the fake InitProducerId answer), attributes 0 (not
  transactional). Since the CRC starts at the attributes, equal records give
  equal CRCs: kafka-python and kafkajs (both with h2 = "") have 0x64265dc9,
  librdkafka and aiokafka (both with h2 = null) have 0xa9e47d14.
- Null header value: only librdkafka and aiokafka can send one (header value
  length varint -1); kafka-python and kafkajs send "" (see above).
- snappy: kafka-python and aiokafka use the **xerial framing** (magic
  `82 53 4e 41 50 50 59 00`, version 1, compatible 1, then one big-endian
  length-prefixed block); **librdkafka and kafkajs write one raw snappy
  block, no framing**. A decoder has to accept both.
- lz4: all four write an LZ4 frame (magic `04 22 4d 18`) with independent
  blocks, one compressed block, and a correct header checksum (not the
  pre-KIP-57 one computed over the magic), but the frame flags differ:
  kafka-python FLG=0x68 (content size present), aiokafka FLG=0x70 (block
  checksums), librdkafka FLG=0x60 (nothing optional), kafkajs FLG=0x64
  (content checksum) with BD=0x70 (4 MB blocks; the others 0x40, 64 KB).
- zstd: kafka-python and aiokafka write a single-segment frame with the
  content size (FHD=0x60); librdkafka and kafkajs write no content size and
  a window descriptor (FHD=0x00). None has a content checksum.
- gzip: kafka-python and aiokafka use Python's gzip module (mtime = the
  current time, OS=255), so their gzip fixtures change at every
  regeneration; librdkafka and kafkajs (zlib) write mtime 0, OS=3.
"""


def short_framing(notes):
    """A few words on the codec framing, from produce_decode's notes."""
    import re
    out = []
    for n in notes:
        if n.startswith("snappy: xerial"):
            out.append("snappy, xerial framing")
        elif n.startswith("snappy: raw"):
            out.append("snappy, raw block (no xerial framing)")
        elif n.startswith("lz4: frame"):
            m = re.search(r"FLG=(\w+).*BD=(\w+).*header checksum \w+ (\w+)", n)
            out.append("lz4 frame, FLG=0x%s BD=0x%s, header checksum %s" % m.groups())
        elif n.startswith("zstd: frame"):
            m = re.search(r"FHD=(\w+).*content size (\w+)", n)
            out.append("zstd, FHD=0x%s, content size %s" % m.groups())
        elif n.startswith("gzip: header"):
            m = re.search(r"mtime=(\d+).*OS=(\d+)", n)
            out.append("gzip, mtime %s, OS %s" % m.groups())
    return "; ".join(out)


def summary(results):
    lines = ["| file | Produce | leader epoch | producer id / epoch / base seq | crc | framing |",
             "|---|---|---|---|---|---|"]
    for p in results:
        if not p.get("ok"):
            lines.append("| `%s.hex` | FAILED | | | | |" % p["name"])
            continue
        for b in p["batches"]:
            framing = short_framing(b["notes"])
            lines.append("| `%s.hex` | v%s | %d | %d / %d / %d | 0x%08x | %s |" % (
                p["name"], ",".join(str(v) for v in p["versions"]),
                b["partition_leader_epoch"], b["producer_id"], b["producer_epoch"],
                b["base_sequence"], b["crc"], framing or "-"))
    return "\n".join(lines)


def readme(results):
    lines = [README_HEAD, OBSERVATIONS, "## Summary\n", summary(results), "\n## Files\n",
             "| file | client | codec | idempotent | Produce version | batches | bytes | check |",
             "|---|---|---|---|---|---|---|---|"]
    for p in results:
        lines.append("| `%s.hex` | %s | %s | %s | %s | %s | %s | %s |" % (
            p["name"], p["client"], p["codec"], "yes" if p["idempotent"] else "no",
            ", ".join("v%d" % v for v in p["versions"]) or "-",
            len(p.get("batches", [])), p.get("bytes", "-"),
            "5 records OK" if p.get("ok") else "FAILED"))
    lines.append("")
    for p in results:
        lines.append("### `%s.hex`\n" % p["name"])
        lines.append("- client: %s" % p["desc"])
        lines.append("- codec: %s; idempotent: %s" % (p["codec"],
                                                      "yes" if p["idempotent"] else "no"))
        lines.append("- command: `%s`, against `python3 tests/interop/produce_capture.py "
                     "--out DIR --port-file FILE` (run by `produce_capture_all.py`; "
                     "`$CACHE` = `~/.cache/kafka-wire-interop`)" % p["command"])
        lines.append("- captured: %s" % p["date"])
        lines.append("- records sent: the 5 above%s" % (
            "; deviation: " + p["deviation"] if p["deviation"] else ", no deviation"))
        lines.append("- ProduceRequest: %s, acks %s; frame: %s" % (
            ", ".join("v%d" % v for v in p["versions"]) or "none",
            ", ".join(str(a) for a in p["acks"]) or "-",
            ", ".join("`frames/%s`" % f for f in p.get("frames", [])) or "none"))
        if not p.get("ok"):
            lines.append("- **check failed**: %s" % (p.get("problems") or "no records captured"))
            lines.append("")
            continue
        lines.append("- `produce_decode.py --expect`: the 5 records, in order%s" % (
            " (" + "; ".join(p["deviations"]) + ")" if p["deviations"] else ""))
        lines.append("")
        lines.append(produce_decode.markdown(p["batches"]))
        notes = [n for b in p["batches"] for n in b["notes"]]
        if notes:
            lines.append("")
            lines.extend("- " + n for n in notes)
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
