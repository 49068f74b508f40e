"""How much the verifying proxy costs a fast client: librdkafka 2.16 (kcat through
tests/interop/kcat-librdkafka-2.16.sh) produces and then consumes 200 MB of
1 KiB messages against our broker directly, through our proxy, through socat
(a plain forwarder: what one more hop costs here, the floor under any proxy) and
through tansu's proxy (`tansu proxy --origin-url ...`), each on 127.0.0.1.

    python3 tests/benches/proxy_throughput.py [--mb 200] [--runs 7] [--no-build]
        [--setups 'direct,kwire-proxy,socat,tansu proxy']

A benchmark, not a test: every setup runs at once, each on its own broker, and
the runs are interleaved; it prints the seconds of each run and the median per
setup, and each forwarder's median as a percentage over direct. Needs kcat and
socat (apt-get install kcat socat) and the interop clients' virtualenv (the kcat
wrapper makes it); tansu from tests/interop/broker.py's virtualenv. Every process started is
stopped by its PID."""

import argparse
import os
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
import broker as interop_broker  # noqa: E402  (tansu's binary)
import procs  # noqa: E402
import requests  # noqa: E402
import servers  # noqa: E402

KCAT = os.path.join(ROOT, "tests", "interop", "kcat-librdkafka-2.16.sh")


PROCESSES = procs.Registry()
PORTS = procs.Ports()


class Forwarder:
    """Another program listening on `port` and forwarding to a broker; stopped
    with its process group (socat forks one process per connection)."""

    def __init__(self, argv, port, log):
        with open(log, "wb") as out:
            self.proc = PROCESSES.spawn(argv, out, out)
        self.address = "127.0.0.1:%d" % port
        deadline = time.monotonic() + 30
        while not interop_broker.port_open(port, timeout=0.2):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("%s not listening on %d (log %s)" % (argv[0], port, log))
            time.sleep(0.05)

    def stop(self):
        PROCESSES.stop(self.proc)


def tansu_proxy(origin, log):
    port = PORTS.take()
    url = "tcp://127.0.0.1:%d" % port
    binary = interop_broker.ensure_installed("tansu")
    return Forwarder([binary, "proxy", "--listener-url", url, "--advertised-listener-url", url,
                      "--origin-url", "tcp://%s" % origin], port, log)


def socat(port, upstream, log):
    """A plain TCP forwarder (1 MiB buffers), verifying and rewriting nothing: what
    one more hop costs on this machine, the floor under any proxy. Its broker
    must advertise socat's port, so that the client's data goes through it too."""
    return Forwarder(["socat", "-b", "1048576",
                      "TCP-LISTEN:%d,bind=127.0.0.1,fork,reuseaddr" % port,
                      "TCP:%s" % upstream], port, log)


def kcat(args, timeout):
    """Runs kcat; its wall-clock seconds, or raises with its stderr."""
    started = time.monotonic()
    r = subprocess.run([KCAT, "-F", "none"] + args, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout, start_new_session=True)
    seconds = time.monotonic() - started
    if r.returncode != 0:
        raise RuntimeError("kcat %s: exit %d: %s" % (args[0], r.returncode,
                                                     r.stderr.decode(errors="replace")[-500:]))
    return seconds


def one_run(address, topic, data, count):
    servers.ask(address, requests.create_topics(1, topic, 1), timeout=30)
    produced = kcat(["-P", "-b", address, "-t", topic, "-l", "-X", "message.timeout.ms=50000",
                     data], timeout=60)
    consumed = kcat(["-C", "-b", address, "-t", topic, "-o", "beginning", "-e", "-q",
                     "-c", str(count)], timeout=60)
    return produced, consumed


SETUPS = ("direct", "kwire-proxy", "socat", "tansu proxy")


def start(setup, work):
    """The servers of one setup (each its own broker), and the address to use."""
    log = os.path.join(work, setup.replace(" ", "-") + "-broker.log")
    socat_port = PORTS.take() if setup == "socat" else None
    if socat_port:
        broker = servers.Server.broker(log, "--advertise", "127.0.0.1:%d" % socat_port)
    else:
        broker = servers.Server.broker(log)
    started = [broker]
    try:
        if socat_port:
            started.append(socat(socat_port, broker.address, os.path.join(work, "socat.log")))
        elif setup == "kwire-proxy":
            started.append(servers.Server.proxy(broker.address, os.path.join(work, "proxy.log")))
        elif setup == "tansu proxy":
            started.append(tansu_proxy(broker.address, os.path.join(work, "tansu-proxy.log")))
    except Exception:
        servers.stop_all(started)
        raise
    return started, started[-1].address


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--setups", default=",".join(SETUPS),
                    help="comma-separated, of: " + ", ".join(SETUPS))
    args = ap.parse_args()
    setups = [s for s in args.setups.split(",") if s]
    if not args.no_build:
        servers.install()
    work = tempfile.mkdtemp(prefix="proxy-bench-")
    count = args.mb * 1000 * 1000 // 1024
    data = os.path.join(work, "messages.txt")
    with open(data, "wb") as f:
        line = b"m" * 1023 + b"\n"
        f.write(line * count)
    started, addresses = [], {}
    results = {setup: [] for setup in setups}
    failed = set()
    try:
        for setup in setups:
            processes, addresses[setup] = start(setup, work)
            started.extend(processes)
        # Interleaved, each run in a rotated order: a machine whose speed drifts
        # (a VM's neighbours) then weighs on every setup alike.
        for n in range(args.runs):
            for i in range(len(setups)):
                setup = setups[(n + i) % len(setups)]
                if setup in failed:
                    continue
                try:
                    produced, consumed = one_run(addresses[setup], "bench-%d" % n, data, count)
                except (RuntimeError, subprocess.TimeoutExpired) as error:
                    print("%-12s run %d failed: %s" % (setup, n, str(error).strip()[-300:]))
                    failed.add(setup)
                    continue
                results[setup].append((produced, consumed))
                print("%-12s produce %.2f s  consume %.2f s" % (setup, produced, consumed),
                      flush=True)
    finally:
        servers.stop_all(reversed(started))
    print("\n%d MB of 1 KiB messages (%d), librdkafka 2.16, medians of %d interleaved runs:"
          % (args.mb, count, args.runs))
    direct = results.get("direct") or []
    for setup, runs in results.items():
        if not runs:
            print("%-12s no complete run" % setup)
            continue
        p = statistics.median(r[0] for r in runs)
        c = statistics.median(r[1] for r in runs)
        extra = ""
        if direct and setup != "direct":
            dp = statistics.median(r[0] for r in direct)
            dc = statistics.median(r[1] for r in direct)
            extra = "  (%+.0f %% / %+.0f %% against direct)" % (100 * (p / dp - 1),
                                                                  100 * (c / dc - 1))
        print("%-12s produce %.2f s  consume %.2f s%s" % (setup, p, c, extra))
    os.remove(data)


if __name__ == "__main__":
    main()
