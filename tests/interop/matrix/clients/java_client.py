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

The classpath: `../../kafka.py classpath` (Kafka 4.4.0 from Maven Central,
which that script resolves and caches) when it is there; until then this
script resolves kafka-clients 4.4.0 with log4j's slf4j binding itself, with
`mvn dependency:copy-dependencies`, into the same cache.
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
KAFKA_PY = os.path.join(INTEROP, "kafka.py")
CACHE = os.path.join(os.environ.get("KAFKA_WIRE_INTEROP_CACHE",
                                    os.path.expanduser("~/.cache/kafka-wire-interop")),
                     "java-client")
KAFKA_VERSION = "4.4.0"
LOG4J_VERSION = "2.25.5"  # what kafka_2.13 4.4.0 resolves; its slf4j binding
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
    """Kafka's classpath ("DIR/*"), resolved (and cached) on first use."""
    if os.path.exists(KAFKA_PY):
        r = subprocess.run([sys.executable, KAFKA_PY, "install"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            raise BuildError("kafka.py install failed:\n" + r.stdout[-2000:])
        r = subprocess.run([sys.executable, KAFKA_PY, "classpath"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or not r.stdout.strip():
            raise BuildError("kafka.py classpath failed:\n" + r.stderr[-2000:])
        return r.stdout.strip()
    return _own_classpath()


def _own_classpath():
    """kafka-clients and log4j-slf4j-impl with their runtime dependencies, by mvn."""
    lib = os.path.join(CACHE, "lib-kafka-clients-%s" % KAFKA_VERSION)
    done = os.path.join(lib, ".complete")
    if not os.path.exists(done):
        with _locked(os.path.join(CACHE, ".lock")):
            if not os.path.exists(done):
                _resolve(lib)
    return os.path.join(lib, "*")


def _resolve(lib):
    mvn = shutil.which("mvn")
    if not mvn:
        raise BuildError("mvn not found: it resolves kafka-clients from Maven Central")
    pom = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kwire</groupId><artifactId>java-client-deps</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-clients</artifactId>
      <version>%s</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId>
      <version>%s</version></dependency>
  </dependencies>
</project>
""" % (KAFKA_VERSION, LOG4J_VERSION)
    shutil.rmtree(lib, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="java-client-deps-") as tmp:
        with open(os.path.join(tmp, "pom.xml"), "w") as f:
            f.write(pom)
        log("resolving kafka-clients %s with mvn into %s" % (KAFKA_VERSION, lib))
        r = subprocess.run([mvn, "-q", "-B", "dependency:copy-dependencies",
                            "-DoutputDirectory=" + lib, "-DincludeScope=runtime"],
                           cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=600)
        if r.returncode != 0:
            raise BuildError("mvn dependency:copy-dependencies failed:\n" + r.stdout[-3000:])
    open(os.path.join(lib, ".complete"), "w").close()


def build():
    """Compiles JavaClient.java if its cached classes are missing; returns the
    java command line (without the program's arguments)."""
    cp = classpath()
    with open(SOURCE, "rb") as f:
        source = f.read()
    key = hashlib.sha256(source + b"\0" + cp.encode()).hexdigest()[:20]
    out = os.path.join(CACHE, key)
    if not os.path.isdir(os.path.join(out, "classes")):
        with _locked(os.path.join(CACHE, ".lock")):
            if not os.path.isdir(os.path.join(out, "classes")):
                _compile(source, cp, out)
    return [tool("java")] + JVM_OPTIONS + ["-cp", os.path.join(out, "classes") + os.pathsep + cp,
                                           "JavaClient"]


def _compile(source, cp, out):
    os.makedirs(CACHE, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".build-", dir=CACHE)
    try:
        classes = os.path.join(tmp, "classes")
        os.makedirs(classes)
        # The compiled source beside its classes, to tell what a cache entry is.
        with open(os.path.join(tmp, "JavaClient.java"), "wb") as f:
            f.write(source)
        r = subprocess.run([tool("javac"), "--release", "17", "-Xlint:all", "-Werror",
                            "-encoding", "UTF-8", "-d", classes, "-cp", cp,
                            os.path.join(tmp, "JavaClient.java")],
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
