"""How much the verifying proxy costs a fast client: librdkafka 2.16 (kcat through
tests/interop/kcat-librdkafka-2.16.sh) produces and then consumes 200 MB of
1 KiB messages against our broker directly, through our proxy, and through
tansu's proxy (`tansu proxy --origin-url ...`), each on 127.0.0.1.

    python3 tests/benches/proxy_throughput.py [--mb 200] [--runs 3] [--no-build]

A benchmark, not a test: it prints the seconds of each run and the median per
setup, and the proxy's median as a percentage over direct. Needs kcat (apt-get
install kcat) and the interop clients' virtualenv (the kcat wrapper makes it);
tansu from tests/interop/broker.py's virtualenv. Every process started is
stopped by its PID."""

import argparse
import os
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
import broker as interop_broker  # noqa: E402  (tansu's binary)
import requests  # noqa: E402
import servers  # noqa: E402

KCAT = os.path.join(ROOT, "tests", "interop", "kcat-librdkafka-2.16.sh")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("exited %s before listening" % proc.returncode)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("port %d not open within %d s" % (port, seconds))


class TansuProxy:
    def __init__(self, origin, log):
        self.port = free_port()
        url = "tcp://127.0.0.1:%d" % self.port
        self.log = open(log, "wb")
        binary = interop_broker.ensure_installed("tansu")
        self.proc = subprocess.Popen([binary, "proxy", "--listener-url", url,
                                      "--advertised-listener-url", url,
                                      "--origin-url", "tcp://%s" % origin],
                                     stdout=self.log, stderr=self.log, start_new_session=True)
        self.address = "127.0.0.1:%d" % self.port
        try:
            wait_port(self.port, self.proc)
        except Exception:
            self.stop()
            raise

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    if not args.no_build:
        servers.install()
    work = tempfile.mkdtemp(prefix="proxy-bench-")
    count = args.mb * 1000 * 1000 // 1024
    data = os.path.join(work, "messages.txt")
    with open(data, "wb") as f:
        line = b"m" * 1023 + b"\n"
        f.write(line * count)
    results = {}
    for setup in ("direct", "kwire-proxy", "tansu proxy"):
        broker = servers.Server.broker(os.path.join(work, setup.replace(" ", "-") + "-broker.log"))
        front = None
        try:
            if setup == "kwire-proxy":
                front = servers.Server.proxy(broker.address, os.path.join(work, "proxy.log"))
            elif setup == "tansu proxy":
                front = TansuProxy(broker.address, os.path.join(work, "tansu-proxy.log"))
            address = front.address if front else broker.address
            runs = []
            for n in range(args.runs):
                try:
                    runs.append(one_run(address, "bench-%d" % n, data, count))
                except (RuntimeError, subprocess.TimeoutExpired) as error:
                    print("%-12s run %d failed: %s" % (setup, n, str(error).strip()[-300:]))
                    break
            results[setup] = runs
            for produced, consumed in runs:
                print("%-12s produce %.2f s  consume %.2f s" % (setup, produced, consumed),
                      flush=True)
        finally:
            if front:
                front.stop()
            broker.stop()
    print("\n%d MB of 1 KiB messages (%d), librdkafka 2.16, medians of %d runs:"
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
