"""A partition's leadership moves twice while clients produce to it through
kwire-proxy, in front of a three-node Kafka (kafka_proxy.py runs it).

Two topics of one partition, replicas 2, 3, 1 (leader 2), replication factor
3, min.insync.replicas 2, both produced to through the proxy at RATE a
second, COUNT numbered messages ("0" .. "COUNT-1"), acks=all and idempotent:

- `java`: Kafka's own ProducerPerformance (kafka-tools 4.4.0,
  `--payload-monotonic`), read as it is produced by the Java client in a
  consumer group (the interop matrix's java_client.py);
- `librdkafka`: confluent-kafka 2.16 (numbered.py), read as it is produced by
  confluent-kafka in a consumer group.

Each family has a proxy of its own (PLAINTEXT, in front of node 1), so that
each proxy's report says what its clients were told. While they produce:

1. about a second in, both partitions are reassigned to replicas 3, 2, 1
   (ReassignPartitionsCommand) and their preferred leader elected
   (LeaderElectionCommand): the leader moves from 2 to 3 while every broker
   runs, and node 2 answers the next Produce NOT_LEADER_OR_FOLLOWER with
   node 3's endpoint (KIP-951);
2. three seconds later node 3, the leader now, is stopped by its PID
   (SIGTERM: a controlled shutdown hands the leadership to 2 or 1).

Then each topic is read again from the beginning by the other family, by
partition assignment. Every read must hold every number exactly once (none
lost, none duplicated); each proxy must have rewritten NodeEndpoints in a
Produce response (the KIP-951 answer reached the client pointing at the
proxy) and verified every frame (0 mismatches, 0 decode failures, 0
unmatched, 0 unchecked); and no client process may have connected to a
Kafka port (connections.py samples their sockets). Node 3 stays down: the
cluster is stopped after this."""

import collections
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "interop"))
sys.path.insert(0, os.path.join(HERE, "..", "hostility"))
import kafka_peer  # noqa: E402
import servers  # noqa: E402
import kafka_wire  # noqa: E402
from connections import Connections  # noqa: E402
from kafka_clients import JAVA_CLIENT  # noqa: E402

COUNT = 2000
RATE = 200.0
TIMEOUT = 60
NUMBERED = os.path.join(HERE, "numbered.py")
FAMILIES = ("java", "librdkafka")


def kafka_ports(cluster):
    """Every port Kafka listens on: no client may be told one."""
    return set(int(node[name].rsplit(":", 1)[1]) for node in cluster.nodes
               for name in kafka_peer.LISTENERS + ("controller",))


def tool(main, *args, timeout=60):
    """One of Kafka's command-line tools (a class of kafka-tools); its stdout,
    or RuntimeError with its output."""
    argv = ([kafka_peer.java()] + kafka_peer.TOOL_OPTS + ["-cp", kafka_peer.classpath(), main]
            + list(args))
    run = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if run.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (main.rsplit(".", 1)[1], run.returncode,
                                                   (run.stdout + run.stderr)[-800:]))
    return run.stdout


def leaders(address, topics):
    """{topic: leader of partition 0}, as node `address` sees them."""
    with kafka_wire.connect(address) as sock:
        found = kafka_wire.metadata(sock, topics)["topics"]
    return dict((topic, found.get(topic, (None, {}))[1].get(0)) for topic in topics)


def await_leaders(address, topics, wanted, timeout=30):
    """Waits until every topic's leader satisfies `wanted`; the leaders."""
    deadline = time.monotonic() + timeout
    while True:
        now = leaders(address, topics)
        if all(wanted(leader) for leader in now.values()) or time.monotonic() > deadline:
            return now
        time.sleep(0.1)


def end_offsets(address, topics):
    """{topic: the end offset of partition 0} (ListOffsets v7, latest), read
    on the leader as `address` names it: one connection per leader."""
    with kafka_wire.connect(address) as sock:
        meta = kafka_wire.metadata(sock, topics)
    out = {}
    for topic in topics:
        leader = meta["topics"][topic][1].get(0)
        with kafka_wire.connect(meta["brokers"][leader]) as sock:
            out[topic] = kafka_wire.latest_offset(sock, topic)
    return out


def await_offsets(address, topics, at_least, deadline):
    """Waits until every topic holds `at_least` messages (or the deadline)."""
    while time.monotonic() < deadline:
        if all(offset >= at_least for offset in end_offsets(address, topics).values()):
            return True
        time.sleep(0.1)
    return False


def check_numbers(values):
    """(received, lost, duplicated) for values that should be "0".."COUNT-1"."""
    counts = collections.Counter(values)
    numbers = set(str(i) for i in range(COUNT))
    lost = len(numbers - set(counts))
    duplicated = sum(n - 1 for value, n in counts.items() if value in numbers)
    strangers = sum(n for value, n in counts.items() if value not in numbers)
    return len(values), lost, duplicated + strangers


class Run:
    """A client process: its Popen, and its output once done."""

    def __init__(self, name, argv, log_dir):
        self.name = name
        self.err = open(os.path.join(log_dir, name + ".err"), "wb")
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.err,
                                     start_new_session=True)
        self.out = None

    def wait(self, timeout):
        try:
            self.out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.out, _ = self.proc.communicate()
        self.err.close()
        return self.proc.returncode

    def json_lines(self):
        lines = []
        for line in (self.out or b"").decode(errors="replace").splitlines():
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
        return lines


def java_consume(bootstrap, topic, mode, log_dir, name):
    argv = [sys.executable, JAVA_CLIENT, "consume", "--bootstrap", bootstrap, "--topics", topic,
            "--mode", mode, "--expect", str(COUNT), "--timeout", str(TIMEOUT)]
    if mode == "group":
        argv += ["--group", "g-" + topic]
    return Run(name, argv, log_dir)


def numbered(command, bootstrap, topic, log_dir, name, *extra):
    # sys.executable: the producers venv's python, which has confluent-kafka.
    argv = [sys.executable, NUMBERED, command, "--bootstrap", bootstrap, "--topic", topic,
            "--count", str(COUNT), "--timeout", str(TIMEOUT)] + list(extra)
    return Run(name, argv, log_dir)


def values_of(run, family):
    """The values a reader printed."""
    if family == "java":
        return [line["value"] for line in run.json_lines() if "value" in line]
    lines = run.json_lines()
    return lines[-1].get("values", []) if lines else []


def move(cluster, log_dir):
    """The whole run; (table rows, lines to print, failures)."""
    bootstrap = cluster.node(1)["PLAINTEXT"]
    ports = kafka_ports(cluster)
    suffix = uuid.uuid4().hex[:6]
    topics = dict((family, "move-%s-%s" % (family, suffix)) for family in FAMILIES)
    for topic in topics.values():
        tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", bootstrap, "--create",
             "--topic", topic, "--replica-assignment", "2:3:1",
             "--config", "min.insync.replicas=2")
    lines, failures = [], 0
    start = await_leaders(bootstrap, list(topics.values()), lambda leader: leader == 2)
    if set(start.values()) != {2}:
        return [], ["leadership: leaders %s at the start, not 2" % start], 1
    # Replicas 3, 2, 1: the same replicas, so the reassignment completes at
    # once and node 2 keeps leading; 3 is the preferred leader now.
    plan = os.path.join(log_dir, "reassignment.json")
    with open(plan, "w") as f:
        json.dump({"version": 1, "partitions": [
            {"topic": topic, "partition": 0, "replicas": [3, 2, 1]}
            for topic in topics.values()]}, f)
    tool("org.apache.kafka.tools.reassign.ReassignPartitionsCommand", "--bootstrap-server",
         bootstrap, "--reassignment-json-file", plan, "--execute")
    reports = dict((family, os.path.join(log_dir, "proxy-%s.json" % family))
                   for family in FAMILIES)
    watch = Connections()
    proxies = {}
    try:
        for family in FAMILIES:
            proxies[family] = servers.Server.proxy(
                bootstrap, os.path.join(log_dir, "proxy-%s.log" % family),
                "--report", reports[family])
        java_at, rdk_at = proxies["java"].address, proxies["librdkafka"].address
        java_producer = Run("java-produce", [
            kafka_peer.java()] + kafka_peer.TOOL_OPTS + [
            "-cp", kafka_peer.classpath(), "org.apache.kafka.tools.ProducerPerformance",
            "--topic", topics["java"], "--num-records", str(COUNT),
            "--throughput", str(int(RATE)), "--payload-monotonic",
            "--producer-props", "bootstrap.servers=" + java_at, "acks=all",
            "enable.idempotence=true", "linger.ms=5",
            "delivery.timeout.ms=%d" % (TIMEOUT * 1000)], log_dir)
        rdk_producer = numbered("produce", rdk_at, topics["librdkafka"], log_dir,
                                "librdkafka-produce", "--rate", str(RATE))
        live = {"java": java_consume(java_at, topics["java"], "group", log_dir, "java-live"),
                "librdkafka": numbered("consume", rdk_at, topics["librdkafka"], log_dir,
                                       "librdkafka-live", "--group", "g-" + topics["librdkafka"])}
        for run in [java_producer, rdk_producer] + list(live.values()):
            watch.watch(run.proc.pid)
        # Both producers acknowledged from here on (the JVM's start takes a
        # second or more): the moves fall inside their runs.
        started = time.monotonic()
        await_offsets(bootstrap, list(topics.values()), RATE, started + 30)
        # Move 1: the preferred replica, 3 since the reassignment, elected.
        with kafka_wire.connect(bootstrap) as sock:
            elected = kafka_wire.elect_preferred_leaders(sock, list(topics.values()))
        if any(elected.values()):
            failures += 1
            lines.append("leadership: FAIL, ElectLeaders answered %s" % elected)
        first = await_leaders(bootstrap, list(topics.values()), lambda leader: leader == 3)
        first_at = time.monotonic() - started
        time.sleep(3.0)
        # Move 2: the leader, node 3, stopped by its PID.
        second_at = time.monotonic() - started
        stopped = cluster.stop_node(3, 20.0)
        second = await_leaders(bootstrap, list(topics.values()),
                               lambda leader: leader in (1, 2))
        lines.append("leadership: leader 2 -> %s by election at %.1f s, -> %s by stopping "
                     "node 3 (%s) at %.1f s"
                     % ("/".join(str(v) for v in sorted(set(first.values()))), first_at,
                        "/".join(str(v) for v in sorted(set(second.values()))),
                        stopped, second_at))
        if set(first.values()) != {3} or not set(second.values()) <= {1, 2}:
            failures += 1
            lines.append("leadership: FAIL, the leaders did not move as planned")
        java_producer.wait(TIMEOUT + 20)
        rdk_producer.wait(TIMEOUT + 20)
        produced_in = time.monotonic() - started
        for run in live.values():
            run.wait(TIMEOUT + 20)
        # Afterwards, each topic by the other family, from the beginning.
        after = {"java": numbered("consume", rdk_at, topics["java"], log_dir, "librdkafka-after"),
                 "librdkafka": java_consume(java_at, topics["librdkafka"], "assign", log_dir,
                                            "java-after")}
        for run in after.values():
            watch.watch(run.proc.pid)
        for run in after.values():
            run.wait(TIMEOUT + 20)
    finally:
        seen = watch.stop()
        for proxy in proxies.values():
            proxy.stop()
    leaked = sorted(seen & ports)
    sent = {"java": None, "librdkafka": None}
    text = (java_producer.out or b"").decode(errors="replace")
    for line in text.splitlines():
        if "records sent" in line and "records/sec" in line and "50th" in line:
            sent["java"] = int(line.split()[0])
    produced = rdk_producer.json_lines()
    sent["librdkafka"] = produced[-1].get("acked") if produced else None
    rows = []
    for family in FAMILIES:
        report = _report(reports[family])
        produce_rewrites = report.get("Produce", {}).get("rewrites", 0)
        fetch_rewrites = report.get("Fetch", {}).get("rewrites", 0)
        verified = (report.get("mismatches") == 0 and report.get("decode_failures") == 0
                    and report.get("unmatched_responses") == 0 and report.get("unchecked") == 0)
        for reader, run in (("%s live, group" % family, live[family]),
                            ("%s after, assign" % _other(family), after[family])):
            received, lost, duplicated = check_numbers(values_of(run, reader.split()[0]))
            good = (sent[family] == COUNT and received == COUNT and not lost and not duplicated)
            failures += not good
            rows.append((family, reader, sent[family], received, lost, duplicated,
                         produce_rewrites, fetch_rewrites, "ok" if good else "FAIL"))
        if produce_rewrites < 1 or not verified:
            failures += 1
            lines.append("leadership: FAIL, proxy %s: %d Produce NodeEndpoints rewritten, "
                         "report %s" % (family, produce_rewrites, _summary(report)))
        else:
            lines.append("leadership: proxy %s ok: %s" % (family, _summary(report)))
    if leaked:
        failures += 1
        lines.append("leadership: FAIL, clients connected to Kafka's own ports %s" % leaked)
    else:
        lines.append("leadership: no client connected to a Kafka port (%d remote ports seen, "
                     "all the proxies')" % len(seen))
    lines.append("leadership: produced in %.1f s" % produced_in)
    return rows, lines, failures


def _other(family):
    return "librdkafka" if family == "java" else "java"


def _report(path):
    """The proxy's report: its top-level numbers, and each API's counts by name."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return {}
    out = dict((key, value) for key, value in report.items() if key != "apis")
    out.update((api["name"], api) for api in report.get("apis", []))
    return out


def _summary(report):
    if not report:
        return "missing"
    return ("%s mismatches, %s decode failures, %s unmatched, %s unchecked"
            % tuple(report.get(key) for key in ("mismatches", "decode_failures",
                                                "unmatched_responses", "unchecked")))


if __name__ == "__main__":
    # By hand: `python leadership.py DIR` against a three-node cluster that
    # kafka_peer.py started in DIR.
    folder = tempfile.mkdtemp(prefix="kwire-leadership-")
    rows, printed, failed = move(kafka_peer.load(sys.argv[1]), folder)
    for row in rows:
        print(row)
    print("\n".join(printed))
    sys.exit(1 if failed else 0)
