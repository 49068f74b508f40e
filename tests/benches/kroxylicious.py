"""kroxylicious, the Kafka proxy of the JVM world, as a pass-through proxy for
the benchmarks: resolved from Maven Central, configured, started by PID.

    import kroxylicious
    lib = kroxylicious.install()                 # cached
    argv = kroxylicious.command(config_path)     # to spawn
    text = kroxylicious.config(upstream, bootstrap_port, node_port, node_id)

Maven Central serves `io.kroxylicious:kroxylicious-runtime` (the proxy: netty,
the frame codecs, virtual clusters) up to 0.12.0 here, and no version of
`kroxylicious-app` (the command line around it), so the runtime is started by
KroxyliciousLauncher.java beside this file, which does what the app's main
does. `install` resolves the runtime with its dependencies, plus slf4j-simple
(without a binding its logging goes nowhere and a failed start says nothing),
into $KAFKA_WIRE_INTEROP_CACHE/kroxylicious-VERSION/lib (default cache
~/.cache/kafka-wire-interop), under a lock, with a marker for the next time.

The configuration is a plain pass-through: one virtual cluster, no filters,
a port-per-node gateway (the bootstrap port, and one port per broker node id,
the addresses it writes into Metadata and FindCoordinator answers), no TLS.

Standard library only; needs java 17+ and mvn on PATH."""

import fcntl
import json
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
import kafka_peer  # noqa: E402  (the cache, java)

VERSION = "0.12.0"
HOME = os.path.join(kafka_peer.CACHE, "kroxylicious-%s" % VERSION)
LIB = os.path.join(HOME, "lib")
MARKER = os.path.join(HOME, "installed.json")
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "KroxyliciousLauncher.java")
RUNTIME = ("io.kroxylicious", "kroxylicious-runtime", VERSION)

# kroxylicious runs on netty's epoll transport (its default on Linux) with the
# JVM's own defaults on this machine (G1, C2) and the heap Kafka's start script
# gives a broker: what a user who starts it gets.
JAVA_OPTS = ["-Xms1g", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true"]


class KroxyliciousError(RuntimeError):
    """kroxylicious could not be installed; the message says why."""


def installed():
    return kafka_peer.installed(MARKER, LIB)


def _mvn(workdir, artifacts, goal, *props):
    try:
        kafka_peer.mvn(workdir, artifacts, goal, *props)
    except kafka_peer.KafkaError as e:
        raise KroxyliciousError(str(e)) from None


def install():
    """Resolves kroxylicious-runtime into LIB unless already there; returns LIB."""
    os.makedirs(HOME, exist_ok=True)
    with open(os.path.join(kafka_peer.CACHE, "kroxylicious-%s.lock" % VERSION), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if installed():
            return LIB
        if not shutil.which("mvn"):
            raise KroxyliciousError("mvn is not on PATH")
        t0 = time.time()
        work = tempfile.mkdtemp(prefix="resolve-", dir=HOME)
        try:
            # slf4j-simple at the slf4j-api version the runtime brings.
            listing = os.path.join(work, "dependencies.txt")
            _mvn(work, [RUNTIME], "list", "-DincludeScope=runtime", "-DoutputFile=" + listing)
            with open(listing) as f:
                found = re.search(r"org\.slf4j:slf4j-api:jar:([^:\s]+):", f.read())
            if not found:
                raise KroxyliciousError("no slf4j-api among the runtime's dependencies")
            simple = ("org.slf4j", "slf4j-simple", found.group(1))
            staged = os.path.join(work, "lib")
            _mvn(work, [RUNTIME, simple], "copy-dependencies", "-DincludeScope=runtime",
                 "-DoutputDirectory=" + staged)
            jars = sorted(os.listdir(staged))
            for _, artifact, version in (RUNTIME, simple):
                if "%s-%s.jar" % (artifact, version) not in jars:
                    raise KroxyliciousError("Maven did not copy %s %s" % (artifact, version))
            shutil.rmtree(LIB, ignore_errors=True)
            os.rename(staged, LIB)
            with open(MARKER + ".tmp", "w") as f:
                json.dump({"version": VERSION, "jars": jars}, f, indent=1)
            os.rename(MARKER + ".tmp", MARKER)
            print("kroxylicious.py: %d jars in %.1f s" % (len(jars), time.time() - t0),
                  file=sys.stderr)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return LIB


def config(upstream, bootstrap_port, node_port, node_id):
    """The YAML of a pass-through proxy in front of a one-node cluster at
    `upstream`: clients bootstrap at 127.0.0.1:`bootstrap_port`, and the node
    `node_id` is given 127.0.0.1:`node_port` (its node id range is that one id,
    so the port is the range's first)."""
    return (
        "virtualClusters:\n"
        "  - name: bench\n"
        "    targetCluster:\n"
        "      bootstrapServers: %s\n"
        "    gateways:\n"
        "      - name: default\n"
        "        portIdentifiesNode:\n"
        "          bootstrapAddress: 127.0.0.1:%d\n"
        "          advertisedBrokerAddressPattern: 127.0.0.1\n"
        "          nodeStartPort: %d\n"
        "          nodeIdRanges:\n"
        "            - name: node\n"
        "              start: %d\n"
        "              end: %d\n"
        % (upstream, bootstrap_port, node_port, node_id, node_id))


def command(config_path, java_opts=None):
    """The argv that starts kroxylicious with the configuration at `config_path`."""
    return ([kafka_peer.java()] + (java_opts or JAVA_OPTS)
            + ["-cp", os.path.join(install(), "*"), LAUNCHER, config_path])
