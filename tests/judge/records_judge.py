#!/usr/bin/env python3
"""Record batches judged by Kafka's own code (issue 31, point 4), run by
./records_run:

    records_run [--seed N] [--random N]      (defaults: seed 1, 200 random batches each way)

Compiles RecordsJudge.java (once, cached by the hash of its source and of
Kafka's classpath, in $KAFKA_WIRE_INTEROP_CACHE/records-judge/<hash>/, the way
../interop/matrix/clients/java_client.py compiles JavaClient.java, whose
helpers it uses), builds the records_judge binary and runs it with the java
command line: one JVM for the whole run. Prints the batches per kind each way,
every difference, and the wall time; exits with the binary's status (0: no
difference, 1: differences, 2: the judge could not run).

Kafka 4.4.0 comes from Maven Central through ../interop/kafka_peer.py (the
first run installs it). Standard library only.
"""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.append(os.path.join(ROOT, "tests", "interop", "matrix", "clients"))
import java_client  # noqa: E402  (tool, classpath, compile_cached)

SOURCE = os.path.join(HERE, "RecordsJudge.java")
CACHE = os.path.join(os.path.dirname(java_client.CACHE), "records-judge")
TARGET = os.path.abspath(os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR") or "target"))
# One JVM reading and writing a few hundred batches: small heap, C1 only (the
# run is seconds long, so the C2 compiler's time would not pay back).
JVM_OPTIONS = ["-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData"]


def log(msg):
    print("records_run: %s" % msg, file=sys.stderr, flush=True)


def java_command():
    """Compiles RecordsJudge.java unless cached; the java command line."""
    cp = java_client.classpath()
    classes = java_client.compile_cached(SOURCE, cp, CACHE)
    return [java_client.tool("java")] + JVM_OPTIONS + [
        "-cp", classes + os.pathsep + cp, "RecordsJudge"]


def binary():
    r = subprocess.run(["cargo", "build", "--quiet", "--locked", "-p", "kwire-tests", "--bin",
                        "records_judge", "--target-dir", TARGET], cwd=ROOT)
    if r.returncode != 0:
        raise java_client.BuildError("cargo build of records_judge failed (exit %s)" % r.returncode)
    return os.path.join(TARGET, "debug", "records_judge")


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    try:
        java = java_command()
        judge = binary()
    except (java_client.BuildError, OSError, subprocess.SubprocessError) as e:
        log("cannot build the judge: %s" % e)
        return 2
    t0 = time.monotonic()
    # A bound for a judge that hangs (a JVM that never answers): the run takes
    # seconds.
    try:
        rc = subprocess.run([judge] + argv + ["--"] + java, timeout=600).returncode
    except subprocess.TimeoutExpired:
        log("the judge did not finish in 600 s")
        return 2
    print("records_run: %.1f s (Kafka's batches -> us and ours -> Kafka, one JVM)"
          % (time.monotonic() - t0))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
