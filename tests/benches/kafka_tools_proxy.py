"""What a forwarder costs Kafka's own tools: ProducerPerformance and
ConsumerPerformance (kafka-tools 4.4.0) produce N GiB of 1 KiB records
(acks=1) to a single-node Kafka 4.4.0 (PLAINTEXT, from tests/interop/kafka_peer.py)
and consume them back, directly and through each forwarder:

- kwire-proxy: our verifying proxy (release build, default options);
- kroxylicious: a pass-through virtual cluster, no filters (kroxylicious.py);
- socat: a plain TCP relay that reads and rewrites nothing, the floor under any
  forwarder (Kafka advertises socat's port on a listener of its own, so that
  clients bootstrapped through socat stay on it).

    python3 tests/benches/kafka_tools_proxy.py [--gib 1] [--rounds 5] [--no-build]
        [--setups direct,kwire-proxy,kroxylicious,socat] [--record-size 1024] [--perf-stat]

A benchmark, not a test (CI does not run it). All setups share one Kafka;
each round runs every setup once, in a rotated order, each on a fresh topic
(one partition) deleted afterwards; a warm-up round of a tenth of the size
comes first and is not counted (Kafka's and kroxylicious's JIT). Per run it
records each tool's wall time and rate, and the forwarder's CPU seconds
(utime + stime from /proc/PID/stat, its live descendants and its reaped
children included: socat forks per connection) over the produce and over the
consume. It prints medians: produce and consume MiB/s as the tools report
them, wall time against direct, the forwarder's CPU seconds per GiB moved,
and our proxy's CPU per GiB against kroxylicious's (the goal: at most 0.5x).
CPU seconds are what to read on a loaded machine; wall time moves with load.
--perf-stat runs each forwarder under `perf stat` and adds its system calls
(receives, sends, waits) and context switches per GiB moved: where the CPU
goes, without a profiler's overhead in the figures that matter (counting
costs some CPU itself, so take CPU seconds from a run without it).

Needs java 17+, mvn and socat (apt-get install socat). Every process it starts
is stopped by its PID; everything listens on 127.0.0.1."""

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "hostility"))
sys.path.insert(0, os.path.join(ROOT, "tests", "interop"))
sys.path.insert(0, os.path.join(ROOT, "tests", "interop", "matrix"))
import kafka_codec as wire  # noqa: E402
import kafka_peer  # noqa: E402
import kroxylicious  # noqa: E402
import procs  # noqa: E402
import servers  # noqa: E402

SETUPS = ("direct", "kwire-proxy", "kroxylicious", "socat")
BASELINE = "kwire-baseline"  # --baseline-proxy's setup
GIB = 1 << 30
CLK_TCK = os.sysconf("SC_CLK_TCK")

# The JVM options Kafka's own scripts give: kafka-server-start.sh's heap and
# kafka-run-class.sh's collector settings for the broker; the perf-test
# scripts' 512 MiB heap for the tools. Not kafka_peer.py's small test node
# (C1 only): the broker here is what a user runs.
JVM_PERFORMANCE = ["-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
                   "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent",
                   "-Djava.awt.headless=true"]
BROKER_OPTS = ["-Xmx1G", "-Xms1G"] + JVM_PERFORMANCE + ["-XX:+ExitOnOutOfMemoryError"]
TOOL_OPTS = ["-Xmx512M"] + JVM_PERFORMANCE

TOOLS_LOG4J2 = """\
status = warn
appender.err.type = Console
appender.err.name = STDERR
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.err.ref = STDERR
"""

PROCESSES = procs.Registry()


class BenchError(RuntimeError):
    """A setup did not start, or a tool failed; the message says where to look."""


# ------------------------------------------------------------------ CPU time --

def _stat(pid):
    """(ppid, utime+stime, cutime+cstime) in clock ticks, or None once gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command's ")": state ppid ... utime(14) stime cutime cstime, 1-based
    # in proc(5), so 11..14 here.
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def cpu_seconds(root):
    """CPU seconds of `root` and its descendants: their own time while they
    live, and the reaped children's time that the kernel adds to their
    parent's cutime/cstime. A child that runs across two samples is counted
    live at the first and reaped at the second: differences stay exact."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found:
                stats[int(entry)] = found
    if root not in stats:
        raise BenchError("process %d is gone" % root)
    children = {}
    for pid, (ppid, _, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        _, own, reaped = stats[pid]
        total += own + reaped
        todo.extend(children.get(pid, ()))
    return total / CLK_TCK


# ---------------------------------------------------------------- forwarders --

def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(proc, port, what, log, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise BenchError("%s not listening on %d (%s):\n%s"
                             % (what, port, "exited %s" % proc.returncode
                                if proc.poll() is not None else "timed out",
                                kafka_peer.tail(log, 20)))
        time.sleep(0.1)


# Counted by --perf-stat (perf stat on the forwarder, its threads and children):
# context switches and system calls, grouped as below.
PERF_GROUPS = {
    "receive": ("read", "readv", "recvfrom", "recvmsg"),
    "send": ("write", "writev", "sendto", "sendmsg", "splice"),
    "wait": ("epoll_wait", "epoll_pwait", "poll", "ppoll", "select", "pselect6", "futex"),
}
PERF_EVENTS = ",".join(["context-switches", "raw_syscalls:sys_enter"] + [
    "syscalls:sys_enter_" + call for group in PERF_GROUPS.values() for call in group])


class Forwarder:
    """A process in front of Kafka, started from `argv`: `address` is where
    clients bootstrap, `pid` the process whose CPU time is measured (under
    --perf-stat, perf's child), `stop()` stops it by PID. `ready(proc, log)`
    returns the port clients bootstrap at once it listens."""

    def __init__(self, name, argv, log, ready, perf_out=None):
        self.name, self.log, self.perf_out = name, log, perf_out
        if perf_out:
            argv = ["perf", "stat", "-x", ",", "-o", perf_out, "-e", PERF_EVENTS, "--"] + argv
        with open(log, "wb") as out:
            self.proc = PROCESSES.spawn(argv, out, out)
        try:
            self.pid = self._measured() if perf_out else self.proc.pid
            self.address = "127.0.0.1:%d" % ready(self.proc, log)
        except BaseException:
            self.stop()
            raise

    def _measured(self):
        """perf's child, once it has started it."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with open("/proc/%d/task/%d/children" % (self.proc.pid, self.proc.pid)) as f:
                    children = f.read().split()
            except OSError:
                children = []
            if children:
                return int(children[0])
            time.sleep(0.05)
        raise BenchError("perf stat started no %s (%s):\n%s"
                         % (self.name, self.log, kafka_peer.tail(self.log, 20)))

    def stop(self, grace=15.0):
        """SIGTERM to the forwarder itself (perf then writes its counts and
        exits), then its process group by the registry (socat's children)."""
        pid = getattr(self, "pid", None)
        if pid and self.proc.poll() is None:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        PROCESSES.stop(self.proc)

    def counts(self):
        """perf stat's totals by group (None without --perf-stat or output)."""
        if not self.perf_out:
            return None
        totals = {}
        try:
            with open(self.perf_out) as f:
                for line in f:
                    fields = line.strip().split(",")
                    if len(fields) < 3 or not fields[0].replace(".", "").isdigit():
                        continue
                    event = fields[2]
                    call = event.split("sys_enter_")[-1] if "sys_enter_" in event else None
                    for group, calls in PERF_GROUPS.items():
                        if call in calls:
                            totals[group] = totals.get(group, 0) + int(float(fields[0]))
                    if event == "context-switches":
                        totals["context switches"] = int(float(fields[0]))
                    elif event == "raw_syscalls:sys_enter":
                        totals["system calls"] = int(float(fields[0]))
        except OSError:
            return None
        return totals or None


def listening_line(proc, log):
    """kwire-proxy prints `listening on 127.0.0.1:PORT` on stdout (here the log)."""
    return procs.wait_listening(proc, log, 30)


def port_open(port, what):
    def ready(proc, log):
        wait_port(proc, port, what, log)
        return port
    return ready


def start_kwire_proxy(upstream, work, perf, name="kwire-proxy", binary=None):
    report = os.path.join(work, "%s-report.json" % name)
    forwarder = Forwarder(name, [binary or procs.ours("proxy"), "--listen", "127.0.0.1:0",
                                 "--upstream", upstream, "--report", report],
                          os.path.join(work, "%s.log" % name), listening_line,
                          perf and os.path.join(work, "%s.perf" % name))
    forwarder.report = report
    return forwarder


def start_kroxylicious(upstream, work, perf):
    bootstrap, node = free_port(), free_port()
    path = os.path.join(work, "kroxylicious.yaml")
    with open(path, "w") as f:
        f.write(kroxylicious.config(upstream, bootstrap, node, node_id=1))

    def ready(proc, log):
        wait_port(proc, bootstrap, "kroxylicious", log)
        wait_port(proc, node, "kroxylicious (the node's port)", log)
        return bootstrap
    return Forwarder("kroxylicious", kroxylicious.command(path),
                     os.path.join(work, "kroxylicious.log"), ready,
                     perf and os.path.join(work, "kroxylicious.perf"))


def start_socat(port, upstream, work, perf):
    """socat on `port` (which Kafka advertises on its FORWARDED listener) to
    that listener, 1 MiB buffers as in proxy_throughput.py; a process per
    connection (fork)."""
    if not shutil.which("socat"):
        raise BenchError("socat is not installed (apt-get install socat)")
    return Forwarder("socat", ["socat", "-b", "1048576",
                               "TCP-LISTEN:%d,bind=127.0.0.1,fork,reuseaddr" % port,
                               "TCP:%s" % upstream],
                     os.path.join(work, "socat.log"), port_open(port, "socat"),
                     perf and os.path.join(work, "socat.perf"))


# ------------------------------------------------------------------- topics --

def _ask(address, frame):
    with wire.connect(address, timeout=60.0) as sock:
        sock.sendall(frame)
        payload = wire.read_frame(sock)
    if payload is None:
        raise BenchError("%s closed the connection" % address)
    return payload[4:]  # after the correlation id


def create_topic(address, topic):
    """CreateTopics v4, one partition, replication 1; raises unless created."""
    body = (wire.array_len(1, False) + wire.string(topic, False) + wire.i32(1) + wire.i16(1)
            + wire.array_len(0, False) + wire.array_len(0, False) + wire.i32(30000) + wire.i8(0))
    answer = _ask(address, wire.request(19, 4, 1, body, False, "bench"))
    # throttle, [name, error_code, error_message]: one topic.
    name_len = int.from_bytes(answer[8:10], "big")
    error = int.from_bytes(answer[10 + name_len:12 + name_len], "big", signed=True)
    if error != 0:
        raise BenchError("CreateTopics %s: error code %d" % (topic, error))


def delete_topic(address, topic):
    """DeleteTopics v3; raises unless deleted (its data is a GiB of disk)."""
    body = wire.array_len(1, False) + wire.string(topic, False) + wire.i32(30000)
    answer = _ask(address, wire.request(20, 3, 2, body, False, "bench"))
    name_len = int.from_bytes(answer[8:10], "big")
    error = int.from_bytes(answer[10 + name_len:12 + name_len], "big", signed=True)
    if error != 0:
        raise BenchError("DeleteTopics %s: error code %d" % (topic, error))


# -------------------------------------------------------------------- tools --

PRODUCED = re.compile(r"(\d+) records sent, ([\d.]+) records/sec \(([\d.]+) MB/sec\)")


def run_tool(name, argv, work, timeout):
    """Runs a Kafka tool to completion; (wall seconds, stdout). Raises on a
    non-zero exit or a timeout, with its stderr's tail."""
    out = os.path.join(work, name + ".out")
    err = os.path.join(work, name + ".err")
    rc, seconds = procs.run(PROCESSES, argv, out, err, timeout)
    if rc != 0:
        raise BenchError("%s: %s:\n%s" % (name, "timed out after %.0f s" % timeout
                                          if rc is None else "exit %d" % rc,
                                          kafka_peer.tail(err, 20) or kafka_peer.tail(out, 20)))
    with open(out, errors="replace") as f:
        return seconds, f.read()


def java_tool(main_class, args, work):
    log4j = os.path.join(work, "tools-log4j2.properties")
    if not os.path.exists(log4j):
        with open(log4j, "w") as f:
            f.write(TOOLS_LOG4J2)
    return ([kafka_peer.java()] + TOOL_OPTS + ["-Dlog4j2.configurationFile=" + log4j,
                                               "-cp", kafka_peer.classpath(), main_class]
            + args)


def produce(address, topic, records, size, work, timeout):
    """ProducerPerformance, unthrottled, acks=1; (wall s, MiB/s as reported)."""
    seconds, out = run_tool("produce", java_tool(
        "org.apache.kafka.tools.ProducerPerformance",
        ["--bootstrap-server", address, "--topic", topic, "--num-records", str(records),
         "--record-size", str(size), "--throughput", "-1", "--command-property", "acks=1"],
        work), work, timeout)
    found = PRODUCED.findall(out)
    if not found or int(found[-1][0]) != records:
        raise BenchError("ProducerPerformance did not report %d records sent:\n%s"
                         % (records, out[-1000:]))
    return seconds, float(found[-1][2])


def consume(address, topic, records, work, timeout):
    """ConsumerPerformance (a consumer group, from the earliest offset);
    (wall s, MiB/s as reported: data over the whole run, group join included)."""
    seconds, out = run_tool("consume", java_tool(
        "org.apache.kafka.tools.ConsumerPerformance",
        ["--bootstrap-server", address, "--topic", topic, "--num-records", str(records),
         "--group", "bench-" + topic, "--timeout", "30000"], work), work, timeout)
    lines = [line for line in out.splitlines() if line.strip()]
    header = next((i for i, line in enumerate(lines) if line.startswith("start.time")), None)
    if header is None or header + 1 >= len(lines):
        raise BenchError("ConsumerPerformance printed no figures:\n%s" % out[-1000:])
    names = [n.strip() for n in lines[header].split(",")]
    values = dict(zip(names, (v.strip() for v in lines[header + 1].split(","))))
    if int(values.get("data.consumed.in.nMsg", -1)) != records:
        raise BenchError("ConsumerPerformance consumed %s records, not %d"
                         % (values.get("data.consumed.in.nMsg"), records))
    return seconds, float(values["MB.sec"])


# -------------------------------------------------------------------- runs --

def one_run(setup, address, forwarder, kafka, topic, records, size, work, timeout):
    """Produce then consume `records` through `address`; the figures of the run.
    The topic is made and deleted on Kafka directly (`kafka`: its node)."""
    kafka_pid = kafka["pid"]
    create_topic(kafka["PLAINTEXT"], topic)
    try:
        cpu0 = cpu_seconds(forwarder.pid) if forwarder else 0.0
        kafka0 = cpu_seconds(kafka_pid)
        p_wall, p_rate = produce(address, topic, records, size, work, timeout)
        cpu1 = cpu_seconds(forwarder.pid) if forwarder else 0.0
        c_wall, c_rate = consume(address, topic, records, work, timeout)
        cpu2 = cpu_seconds(forwarder.pid) if forwarder else 0.0
        kafka2 = cpu_seconds(kafka_pid)
    finally:
        delete_topic(kafka["PLAINTEXT"], topic)
    gib = records * size / GIB
    return {"setup": setup, "produce_wall": p_wall, "produce_rate": p_rate,
            "consume_wall": c_wall, "consume_rate": c_rate,
            "produce_cpu_per_gib": (cpu1 - cpu0) / gib,
            "consume_cpu_per_gib": (cpu2 - cpu1) / gib,
            "cpu_per_gib": (cpu2 - cpu0) / (2 * gib),
            "kafka_cpu_per_gib": (kafka2 - kafka0) / (2 * gib)}


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def print_table(results, setups, gib, records, size, rounds):
    med = {s: {k: statistics.median(r[k] for r in results[s]) for k in results[s][0]
               if k != "setup"} for s in setups if results[s]}
    print("\n%.2f GiB (%d records of %d B, acks=1) produced and consumed per run, Kafka 4.4.0 "
          "single node, kafka-tools 4.4.0; medians of %d interleaved rounds" % (
              gib, records, size, rounds))
    print("CPU s/GiB: the forwarder's CPU seconds per GiB of records through it (produce: "
          "per GiB produced; consume: per GiB consumed; both: over the 2 GiB moved)\n")
    head = ("setup", "produce MiB/s", "consume MiB/s", "wall vs direct",
            "CPU s/GiB produce", "consume", "both", "Kafka CPU s/GiB")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    direct = med.get("direct")
    for s in setups:
        if s not in med:
            print("| %s | no complete run |" % s)
            continue
        m = med[s]
        wall = m["produce_wall"] + m["consume_wall"]
        vs = ("%.2fx" % (wall / (direct["produce_wall"] + direct["consume_wall"]))
              if direct else "-")
        cpu = (("-", "-", "-") if s == "direct" else
               ("%.2f" % m["produce_cpu_per_gib"], "%.2f" % m["consume_cpu_per_gib"],
                "%.2f" % m["cpu_per_gib"]))
        print("| %s | %.1f | %.1f | %s | %s | %s | %s | %.2f |" % (
            s, m["produce_rate"], m["consume_rate"], vs, cpu[0], cpu[1], cpu[2],
            m["kafka_cpu_per_gib"]))
    if "kwire-proxy" in med and "kroxylicious" in med:
        ours, theirs = med["kwire-proxy"], med["kroxylicious"]
        print("\nkwire-proxy CPU per GiB / kroxylicious's: produce %.2fx, consume %.2fx, "
              "both %.2fx (goal: <= 0.5x)" % tuple(
                  ours[k] / theirs[k] for k in
                  ("produce_cpu_per_gib", "consume_cpu_per_gib", "cpu_per_gib")))
    if "kwire-proxy" in med and BASELINE in med:
        print("kwire-proxy CPU per GiB / %s's: produce %.2fx, consume %.2fx, both %.2fx"
              % ((BASELINE,) + tuple(med["kwire-proxy"][k] / med[BASELINE][k] for k in
                                     ("produce_cpu_per_gib", "consume_cpu_per_gib",
                                      "cpu_per_gib"))))
    if "kwire-proxy" in med and "socat" in med:
        print("kwire-proxy CPU per GiB / socat's: both %.2fx"
              % (med["kwire-proxy"]["cpu_per_gib"] / med["socat"]["cpu_per_gib"]))


def print_counts(forwarders, moved):
    """perf stat's counts per GiB moved (both ways, warm-up included)."""
    keys = ("system calls", "receive", "send", "wait", "context switches")
    print("\nperf stat over the whole run, per GiB moved through each forwarder (both ways, "
          "warm-up included):\n")
    print("| forwarder | " + " | ".join(keys) + " |")
    print("|" + "---|" * (len(keys) + 1))
    for name, f in forwarders.items():
        counts = f.counts()
        if not counts or not moved.get(name):
            print("| %s | no counts (%s) |" % (name, f.perf_out))
            continue
        print("| %s | %s |" % (name, " | ".join(
            "{:,.0f}".format(counts.get(k, 0) / moved[name]) for k in keys)))


def proxy_report(path):
    """The proxy's own count of what it verified, from its --report JSON."""
    import json
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        return "no report (%s)" % error
    frames = sum(a["requests"] + a["responses"] for a in report["apis"])
    return ("%d frames verified, %d mismatches, %d undecodable, %d unchecked"
            % (frames, report["mismatches"], report["decode_failures"], report["unchecked"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--gib", type=float, default=1.0, help="GiB per run (1)")
    ap.add_argument("--record-size", type=int, default=1024)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-build", action="store_true", help="use the installed kwire-proxy")
    ap.add_argument("--no-warmup", action="store_true")
    ap.add_argument("--perf-stat", action="store_true",
                    help="run each forwarder under `perf stat` and print its system calls and "
                         "context switches per GiB (counting costs CPU: take CPU figures from "
                         "a run without it)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per tool run (600)")
    ap.add_argument("--setups", default=",".join(SETUPS),
                    help="comma-separated, of: " + ", ".join(SETUPS))
    ap.add_argument("--baseline-proxy", metavar="BINARY",
                    help="one more setup, kwire-baseline: this kwire-proxy binary (e.g. a "
                         "build of main, against a change's), in the same rounds")
    args = ap.parse_args()
    setups = [s for s in args.setups.split(",") if s]
    if args.baseline_proxy:
        if not os.access(args.baseline_proxy, os.X_OK):
            ap.error("--baseline-proxy %s is not an executable file" % args.baseline_proxy)
        setups.append(BASELINE)
    unknown = [s for s in setups if s not in SETUPS + (BASELINE,)]
    if unknown:
        ap.error("unknown setups %s" % unknown)
    records = int(args.gib * GIB) // args.record_size

    # SIGTERM and SIGHUP end the run through the finally below, as Ctrl-C does.
    def interrupted(signum, _frame):
        raise KeyboardInterrupt("signal %d" % signum)
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGHUP, interrupted)

    if "kwire-proxy" in setups and not args.no_build:
        servers.install(("proxy",))
    kafka_peer.install()
    if "kroxylicious" in setups:
        kroxylicious.install()
    work = tempfile.mkdtemp(prefix="kafka-tools-bench-")
    print("work folder %s; load average %s" % (work, loadavg()), flush=True)
    socat_port = free_port()
    cluster = None
    forwarders = {}
    results = {s: [] for s in setups}
    failed = set()
    moved = {}  # GiB through each setup, both ways, warm-up included (for --perf-stat)
    try:
        cluster = kafka_peer.start(os.path.join(work, "kafka"), nodes=1, java_opts=BROKER_OPTS,
                                   forwarded={1: "127.0.0.1:%d" % socat_port})
        node = cluster.nodes[0]
        upstream = node["PLAINTEXT"]
        print("Kafka %s on %s (PID %d) in %.1f s" % (kafka_peer.VERSION, upstream, node["pid"],
                                                     cluster.startup_seconds), flush=True)
        addresses = {"direct": upstream}
        for s in setups:
            if s == "kwire-proxy":
                forwarders[s] = start_kwire_proxy(upstream, work, args.perf_stat)
            elif s == BASELINE:
                forwarders[s] = start_kwire_proxy(upstream, work, args.perf_stat, BASELINE,
                                                  os.path.abspath(args.baseline_proxy))
            elif s == "kroxylicious":
                forwarders[s] = start_kroxylicious(upstream, work, args.perf_stat)
            elif s == "socat":
                forwarders[s] = start_socat(socat_port, node["FORWARDED"], work,
                                            args.perf_stat)
            if s in forwarders:
                addresses[s] = forwarders[s].address
                print("%s on %s (PID %d)" % (s, addresses[s], forwarders[s].pid), flush=True)
        schedule = [("warm-up", max(1, records // 10))] if not args.no_warmup else []
        schedule += [(n, records) for n in range(args.rounds)]
        for n, count in schedule:
            offset = 0 if n == "warm-up" else n
            for i in range(len(setups)):
                s = setups[(offset + i) % len(setups)]
                if s in failed:
                    continue
                topic = "bench-%s-%s" % (s, n)
                try:
                    r = one_run(s, addresses[s], forwarders.get(s), node, topic, count,
                                args.record_size, work, args.timeout)
                except (BenchError, OSError) as error:
                    print("%-12s round %s failed: %s" % (s, n, str(error)[-1500:]), flush=True)
                    failed.add(s)
                    continue
                moved[s] = moved.get(s, 0.0) + 2 * count * args.record_size / GIB
                if n != "warm-up":
                    results[s].append(r)
                print("round %-7s %-12s produce %6.1f s %6.1f MiB/s  consume %6.1f s %6.1f MiB/s"
                      "  forwarder CPU s/GiB %5.2f + %5.2f  Kafka CPU s/GiB %5.2f  load %s" % (
                          n, s, r["produce_wall"], r["produce_rate"], r["consume_wall"],
                          r["consume_rate"], r["produce_cpu_per_gib"], r["consume_cpu_per_gib"],
                          r["kafka_cpu_per_gib"], loadavg()), flush=True)
    finally:
        for f in reversed(list(forwarders.values())):
            f.stop()
        PROCESSES.stop_all()
        if cluster is not None:
            cluster.stop()
    print_table(results, setups, records * args.record_size / GIB, records, args.record_size,
                args.rounds)
    if args.perf_stat:
        print_counts(forwarders, moved)
    for name in ("kwire-proxy", BASELINE):
        if name in forwarders:
            print("%s's report: %s" % (name, proxy_report(forwarders[name].report)))
    print("load average at the end: %s" % loadavg())
    if failed:
        print("logs kept in %s" % work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
