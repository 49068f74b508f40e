#!/usr/bin/env python3
"""Kafka's generated Java classes (kafka-clients 4.4.0) timed beside kafka-wire on
the same bytes, in one run of this script (issue 31, point 7).

    python3 tests/benches/java_speed.py [--warmup SECONDS] [--keep DIR]

1. Runs the summaries of the metadata, produce and fetch benches
   (`cargo bench -p kwire-tests --bench B -- summary-only`, release build) with
   KWIRE_BENCH_BODIES set, so each bench writes the body it times to a folder and
   prints kafka-wire's figures (median of interleaved rounds).
2. Compiles KafkaSpeed.java (javac --release 17 -Xlint:all -Werror, against Kafka's
   classpath, cached by hash: ../interop/matrix/clients/java_client.py) and runs it
   on those files: it checks Kafka reads each body and writes it back byte for byte,
   warms up, then times decode and encode in interleaved batches (medians).
3. Prints one table: operation, Java ns, kafka-wire ns, ratio (Java / ours; above 1
   means kafka-wire is faster), and the load average before and after.

Not part of `cargo test`. Standard library only. Extra cargo settings (e.g.
CARGO_TARGET_DIR) come from the environment.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.append(os.path.join(os.path.dirname(HERE), "interop", "matrix", "clients"))
import java_client  # noqa: E402  (compile_cached, classpath, tool)

CACHE = os.path.join(os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                                    os.path.expanduser("~/.cache/kafka-wire-interop")),
                     "kafka-speed")

# (bench, summary line's operation, KafkaSpeed's operation, table label)
ROWS = [
    ("metadata", "decode", "metadata_v12/decode", "MetadataResponse v12 decode"),
    ("metadata", "encode", "metadata_v12/encode", "MetadataResponse v12 encode"),
    ("produce", "decode", "produce_v9/decode", "ProduceRequest v9 decode"),
    ("produce", "encode", "produce_v9/encode", "ProduceRequest v9 encode"),
    ("fetch", "decode 1MiB", "fetch_v16_1MiB/decode", "FetchResponse v16 1 MiB decode"),
    ("fetch", "encode 1MiB", "fetch_v16_1MiB/encode", "FetchResponse v16 1 MiB encode"),
]


def ours(bench, bodies):
    """Runs the bench's summary; returns {operation: kafka-wire ns} and its output."""
    env = dict(os.environ, KWIRE_BENCH_BODIES=bodies)
    r = subprocess.run(["cargo", "bench", "-q", "-p", "kwire-tests", "--bench", bench,
                        "--", "summary-only"],
                       cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("cargo bench --bench %s failed (%d)" % (bench, r.returncode))
    found = {}
    for line in r.stdout.splitlines():
        m = re.match(r"^(\S+(?: \S+)?)\s+kafka-wire\s+([0-9.]+) ns", line)
        if m:
            found[m.group(1)] = float(m.group(2))
    return found, r.stdout


def java(bodies, warmup):
    cp = java_client.classpath()
    classes = java_client.compile_cached(os.path.join(HERE, "KafkaSpeed.java"), cp, CACHE)
    # A fixed heap (no resizing while timing); the JVM's default collector and JIT,
    # what a client or broker runs with.
    cmd = [java_client.tool("java"), "-Xms1g", "-Xmx1g", "-cp", classes + os.pathsep + cp,
           "KafkaSpeed", bodies, str(warmup)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("KafkaSpeed failed (%d)" % r.returncode)
    found = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "RESULT":
            found[parts[1]] = (float(parts[2]), int(parts[3]))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warmup", type=float, default=10.0,
                    help="seconds of JVM warm-up before timing (default 10)")
    ap.add_argument("--keep", help="write the bodies here (kept) instead of a temp folder")
    args = ap.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="kwire-bodies-") as tmp:
        bodies = os.path.abspath(args.keep) if args.keep else tmp
        os.makedirs(bodies, exist_ok=True)
        kw = {}
        for bench in ("metadata", "produce", "fetch"):
            print("kafka-wire: cargo bench --bench %s -- summary-only" % bench,
                  file=sys.stderr, flush=True)
            found, out = ours(bench, bodies)
            sys.stderr.write(out)
            for op, ns in found.items():
                kw[(bench, op)] = ns
        print("Kafka 4.4.0: KafkaSpeed (warm-up %gs)" % args.warmup, file=sys.stderr,
              flush=True)
        jv = java(bodies, args.warmup)
    load_after = os.getloadavg()

    print("%-32s %10s %14s %14s %8s" % ("operation", "bytes", "Kafka Java ns",
                                         "kafka-wire ns", "ratio"))
    for bench, op, jop, label in ROWS:
        if (bench, op) not in kw or jop not in jv:
            sys.exit("missing figure for %s (ours %s, Java %s)" % (
                label, (bench, op) in kw, jop in jv))
        j_ns, size = jv[jop]
        k_ns = kw[(bench, op)]
        print("%-32s %10d %14.1f %14.1f %7.2fx" % (label, size, j_ns, k_ns, j_ns / k_ns))
    print("ratio = Kafka's ns / kafka-wire's ns (above 1: kafka-wire faster)")
    print("load average before %.2f %.2f %.2f, after %.2f %.2f %.2f; %d CPUs" % (
        load_before + load_after + (os.cpu_count() or 0,)))


if __name__ == "__main__":
    main()
