#!/usr/bin/env python3
"""Kafka's own Java client (kafka-clients 4.4.0) as a client of the interop
matrix (contract: ../README.md), run from ../../java/JavaClient.java.

    java_client.py produce --bootstrap HOST:PORT --producer P --topic T
                           --codec none|gzip|snappy|lz4|zstd --count N
    java_client.py consume --bootstrap HOST:PORT --topics T1,T2,...
                           --mode assign|group [--group G] --expect N
    java_client.py admin --bootstrap HOST:PORT --topic T
    java_client.py transactional-produce --bootstrap HOST:PORT --topic T
                           --transactional-id X --group G --count N
    (each also takes --timeout SECONDS, default 60, and the security options
     --security-protocol PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL
     --sasl-mechanism PLAIN|SCRAM-SHA-256|SCRAM-SHA-512|OAUTHBEARER
     --username U --password P --ca PEM-FILE --oauth-token TOKEN)
    java_client.py build        # compile (cached) and print the java command line

Standard library only; any python 3 runs it. The first run compiles the
program with `javac --release 17` against Kafka's classpath into
$KAFKA_WIRE_INTEROP_CACHE/java-client/<hash>/ (hash of the source and the
classpath), under a lock, so that parallel runs compile once; later runs
start `java` at once (os.execv: the driver's timeout and kill reach the JVM
itself). What the program does, and what each command checks: the program's
header and ../README.md.

The classpath is Kafka 4.4.0's, as ../../kafka_peer.py resolves it from
Maven Central (kafka-clients 4.4.0 and log4j's slf4j binding among it) and
caches it; the first run installs it if needed.
"""

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INTEROP = os.path.dirname(os.path.dirname(HERE))
SOURCE = os.path.join(INTEROP, "java", "JavaClient.java")
CACHE = os.path.join(os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                                    os.path.expanduser("~/.cache/kafka-wire-interop")),
                     "java-client")
# Small and quick to start: a client run is seconds long and three run at
# once on two cores. C1 only (TieredStopAtLevel=1) starts fastest; the
# serial collector has no GC threads to spare. log4j's default configuration
# logs WARN and up to the console, which JavaClient points at stderr.
JVM_OPTIONS = ["-Xmx256m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
               "-XX:-UsePerfData", "-Dlog4j2.level=" + os.environ.get("JAVA_CLIENT_LOG_LEVEL",
                                                                     "WARN")]


class BuildError(RuntimeError):
    pass


def log(msg):
    print("java_client: %s" % msg, file=sys.stderr, flush=True)


def tool(name):
    """java or javac: $JAVA_HOME/bin first, then PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and os.access(os.path.join(home, "bin", name), os.X_OK):
        return os.path.join(home, "bin", name)
    found = shutil.which(name)
    if not found:
        raise BuildError("%s not found (install a JDK 17 or newer, or set JAVA_HOME)" % name)
    return found


def _locked(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    f = open(path, "w")
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def classpath():
    """Kafka's classpath ("LIB/*"), as ../../kafka_peer.py resolves and caches it."""
    if INTEROP not in sys.path:
        sys.path.append(INTEROP)  # appended: nothing there may hide an installed package
    import kafka_peer
    try:
        return kafka_peer.classpath()
    except kafka_peer.KafkaError as e:
        raise BuildError("kafka_peer.py could not install Kafka: %s" % e)


def build():
    """Compiles JavaClient.java if its cached classes are missing; returns the
    java command line (without the program's arguments)."""
    cp = classpath()
    classes = compile_cached(SOURCE, cp, CACHE)
    return [tool("java")] + JVM_OPTIONS + ["-cp", classes + os.pathsep + cp, "JavaClient"]


def compile_cached(source_path, cp, cache):
    """Compiles the one-file program at `source_path` against the class path
    `cp` into cache/<hash>/classes (hash of the source and the class path)
    unless it is there, under a lock; returns that folder. The test suites'
    other Java programs (tests/judge) are compiled by this too."""
    with open(source_path, "rb") as f:
        source = f.read()
    key = hashlib.sha256(source + b"\0" + cp.encode()).hexdigest()[:20]
    out = os.path.join(cache, key)
    if not os.path.isdir(os.path.join(out, "classes")):
        with _locked(os.path.join(cache, ".lock")):
            if not os.path.isdir(os.path.join(out, "classes")):
                _compile(source, os.path.basename(source_path), cp, cache, out)
    return os.path.join(out, "classes")


def _compile(source, name, cp, cache, out):
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".build-", dir=cache)
    try:
        classes = os.path.join(tmp, "classes")
        os.makedirs(classes)
        # The compiled source beside its classes, to tell what a cache entry is.
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(source)
        r = subprocess.run([tool("javac"), "--release", "17", "-Xlint:all", "-Werror",
                            "-encoding", "UTF-8", "-d", classes, "-cp", cp,
                            os.path.join(tmp, name)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            raise BuildError("javac failed:\n" + r.stdout[-4000:])
        shutil.rmtree(out, ignore_errors=True)
        os.rename(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    try:
        cmd = build()
    except (BuildError, OSError, subprocess.SubprocessError) as e:
        log("cannot build the Java client: %s" % e)
        return 2
    if argv[:1] == ["build"]:
        print(" ".join(cmd))
        return 0
    sys.stdout.flush()
    os.execv(cmd[0], cmd + argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
