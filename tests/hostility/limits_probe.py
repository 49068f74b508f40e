#!/usr/bin/env python3
"""Measures that kwire-broker and kwire-proxy stay within their configured limits.

Standard library only; every server it starts is on 127.0.0.1 and is killed by
PID at the end; every loop is bounded in count and time.

    python3 tests/hostility/limits_probe.py --bin-dir /path/to/target/release [PHASE...]

Phases (default all): memory-broker, memory-proxy, idle-broker, idle-proxy,
connections-proxy, upstream-timeout. Each prints one line of figures and
PASS or FAIL; the exit status is 1 if any failed.

- memory-*: 85 connections each send a 100 MiB ApiVersions frame (a tiny request
  padded with bytes the server ignores), first holding back its last byte, so
  that the budget is held by stalled frames, then completing it. Meanwhile another
  client's ApiVersions must be answered, both servers must stay alive, and peak
  RSS (VmHWM) must stay within the request budget (+ the response budget for the
  proxy) plus OVERHEAD_MIB.
- idle-*: 1000 connections each send one byte of a frame per second; with
  --connections-max-idle-ms 5000 every one must be closed by the server within
  5 s (+ slack) of connecting, although none is ever silent for 5 s.
- connections-proxy: 10,100 silent connections to a proxy whose descriptor limit
  allows 9,968 clients; a new client must still be answered (the connections idle
  longest are evicted to admit it).
- upstream-timeout: the broker is SIGSTOPped; a client with a request in flight
  through a proxy with --request-timeout-ms 3000 must be closed within 3 s (+ slack).
"""

import argparse
import os
import resource
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

MIB = 1 << 20
FRAME = 100 * MIB  # socket.request.max.bytes's default
ATTACKERS = 85
BUDGET = 512 * MIB  # queued.max.request.bytes's default in both servers
RESPONSE_BUDGET = 512 * MIB  # the proxy's queued-max-response-bytes default
OVERHEAD_MIB = 160  # runtime, buffers of idle sockets, allocator slack
PROCS = []


def start(binary, *args):
    proc = subprocess.Popen(
        [binary, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    PROCS.append(proc)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("listening on "):
            host, port = line.split()[-1].rsplit(":", 1)
            return proc, (host, int(port))
        if not line and proc.poll() is not None:
            break
    raise RuntimeError(f"{binary} did not start")


def stop_all():
    for proc in PROCS:
        if proc.poll() is None:
            try:
                os.kill(proc.pid, signal.SIGCONT)
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=10)
    PROCS.clear()


def hwm_mib(proc):
    with open(f"/proc/{proc.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def api_versions(correlation_id, padding=0):
    """An ApiVersions v0 request frame, padded with `padding` ignored bytes."""
    header = struct.pack(">hhih", 18, 0, correlation_id, -1)
    return struct.pack(">i", len(header) + padding) + header, padding


def ask(address, timeout=5.0):
    """Seconds an ApiVersions request took to be answered; None if it was not."""
    started = time.monotonic()
    try:
        with socket.create_connection(address, timeout=timeout) as sock:
            frame, _ = api_versions(7)
            sock.sendall(frame)
            got = b""
            while len(got) < 8:
                chunk = sock.recv(4096)
                if not chunk:
                    return None
                got += chunk
            (correlation_id,) = struct.unpack(">i", got[4:8])
            return time.monotonic() - started if correlation_id == 7 else None
    except OSError:
        return None


def memory_phase(bins, through_proxy):
    budget = ["--queued-max-request-bytes", str(BUDGET)]
    broker, broker_addr = start(bins["broker"], "--listen", "127.0.0.1:0", *budget)
    target, procs = broker_addr, [("broker", broker, BUDGET)]
    if through_proxy:
        proxy, target = start(
            bins["proxy"], "--listen", "127.0.0.1:0", "--upstream", "%s:%d" % broker_addr,
            *budget
        )
        procs.append(("proxy", proxy, BUDGET + RESPONSE_BUDGET))
    zeros = bytes(MIB)
    release = threading.Event()
    sent = [0] * ATTACKERS
    done = [False] * ATTACKERS

    def attacker(i):
        try:
            with socket.create_connection(target, timeout=120) as sock:
                frame, padding = api_versions(1000 + i, FRAME - 10)
                sock.sendall(frame)
                left = padding - 1
                while left > 0:
                    n = min(left, MIB)
                    sock.sendall(zeros[:n])
                    left -= n
                    sent[i] += n
                release.wait(60)
                sock.sendall(b"\0")
                sock.recv(64)  # its answer, or the end
                done[i] = True
        except OSError:
            pass

    threads = [threading.Thread(target=attacker, args=(i,), daemon=True) for i in range(ATTACKERS)]
    for thread in threads:
        thread.start()
    # The stalled phase: frames declared and all but one byte sent; the budget
    # is held and the other attackers wait.
    time.sleep(10)
    stalled = [ask(target) for _ in range(3)]
    held = sum(1 for n in sent if n >= FRAME - 11)
    release.set()
    during = []
    deadline = time.monotonic() + 180
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        during.append(ask(target))
        time.sleep(0.5)
    for thread in threads:
        thread.join(timeout=1)
    after = ask(target)
    alive = all(proc.poll() is None for _, proc, _ in procs)
    figures = []
    ok = alive and after is not None and None not in stalled and None not in during
    for name, proc, budget in procs:
        peak = hwm_mib(proc)
        limit = budget / MIB + OVERHEAD_MIB
        figures.append(f"{name} VmHWM {peak:.0f} MiB (limit {limit:.0f})")
        ok = ok and peak <= limit
    answered = [t for t in stalled + during if t is not None]
    print(
        f"memory-{'proxy' if through_proxy else 'broker'}: {ATTACKERS} x 100 MiB, "
        f"budget {BUDGET // MIB} MiB, "
        f"{held} frames held whole while stalled, {sum(done)} completed; "
        f"{'; '.join(figures)}; small requests answered {len(answered)}/{len(stalled + during)}, "
        f"slowest {max(answered, default=float('nan')):.3f} s; alive {alive}: "
        f"{'PASS' if ok else 'FAIL'}"
    )
    stop_all()
    return ok


def idle_phase(bins, through_proxy, count=1000, idle_ms=5000):
    broker, broker_addr = start(bins["broker"], "--listen", "127.0.0.1:0",
                                "--connections-max-idle-ms", str(idle_ms))
    target = broker_addr
    if through_proxy:
        _, target = start(bins["proxy"], "--listen", "127.0.0.1:0", "--upstream",
                          "%s:%d" % broker_addr, "--connections-max-idle-ms", str(idle_ms))
    frame, _ = api_versions(1, 1000)  # declared 1010 bytes, sent one a second
    sel = selectors.DefaultSelector()
    opened = {}
    for _ in range(count):
        sock = socket.create_connection(target, timeout=5)
        sock.setblocking(False)
        opened[sock] = time.monotonic()
        sel.register(sock, selectors.EVENT_READ)
    closed_after = []
    sent = 0
    deadline = time.monotonic() + idle_ms / 1000 + 15
    next_byte = time.monotonic()
    while opened and time.monotonic() < deadline:
        if time.monotonic() >= next_byte and sent < len(frame):
            for sock in list(opened):
                try:
                    sock.send(frame[sent:sent + 1])
                except OSError:
                    pass
            sent += 1
            next_byte += 1.0
        for key, _ in sel.select(timeout=0.1):
            sock = key.fileobj
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                closed_after.append(time.monotonic() - opened.pop(sock))
                sel.unregister(sock)
                sock.close()
    for sock in opened:
        sock.close()
    fresh = ask(target)
    slack = 2.0
    ok = (len(closed_after) == count and max(closed_after) <= idle_ms / 1000 + slack
          and min(closed_after) >= idle_ms / 1000 - 0.5 and fresh is not None)
    print(
        f"idle-{'proxy' if through_proxy else 'broker'}: {count} connections dribbling "
        f"1 byte/s ({sent} bytes each), idle timeout {idle_ms} ms: {len(closed_after)} "
        f"closed, after {min(closed_after, default=0):.2f}-{max(closed_after, default=0):.2f} s; "
        f"new client answered: {fresh is not None}: {'PASS' if ok else 'FAIL'}"
    )
    stop_all()
    return ok


def connections_phase(bins, count=10_100):
    _, broker_addr = start(bins["broker"], "--listen", "127.0.0.1:0")
    proxy, target = start(bins["proxy"], "--listen", "127.0.0.1:0", "--upstream",
                          "%s:%d" % broker_addr)
    socks, failed = [], 0
    deadline = time.monotonic() + 120
    for _ in range(count):
        if time.monotonic() > deadline:
            break
        try:
            socks.append(socket.create_connection(target, timeout=5))
        except OSError:
            failed += 1
    time.sleep(2)
    answered = [ask(target) for _ in range(3)]
    # Which of ours the proxy closed (evicted): readable with EOF.
    sel = selectors.DefaultSelector()
    for sock in socks:
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ)
    evicted = 0
    for key, _ in sel.select(timeout=1):
        try:
            if not key.fileobj.recv(1):
                evicted += 1
        except OSError:
            evicted += 1
    with open(f"/proc/{proxy.pid}/status") as status:
        threads = [line for line in status if line.startswith("Threads")]
    fds = len(os.listdir(f"/proc/{proxy.pid}/fd"))
    for sock in socks:
        sock.close()
    ok = None not in answered and proxy.poll() is None
    times = ", ".join("%.3f s" % t if t is not None else "none" for t in answered)
    print(
        f"connections-proxy: {len(socks)} silent connections open ({failed} failed to "
        f"connect), {evicted} closed by the proxy to make room; proxy descriptors {fds}; "
        f"new clients answered in {times}: {'PASS' if ok else 'FAIL'}"
    )
    stop_all()
    return ok


def upstream_timeout_phase(bins, timeout_ms=3000):
    broker, broker_addr = start(bins["broker"], "--listen", "127.0.0.1:0")
    _, target = start(bins["proxy"], "--listen", "127.0.0.1:0", "--upstream",
                      "%s:%d" % broker_addr, "--request-timeout-ms", str(timeout_ms))
    with socket.create_connection(target, timeout=30) as sock:
        frame, _ = api_versions(1)
        sock.sendall(frame)
        baseline = len(sock.recv(65536)) > 0
        os.kill(broker.pid, signal.SIGSTOP)
        started = time.monotonic()
        sock.sendall(api_versions(2)[0])
        try:
            end = sock.recv(65536)
        except OSError:
            end = b""
        waited = time.monotonic() - started
    os.kill(broker.pid, signal.SIGCONT)
    ok = baseline and end == b"" and waited <= timeout_ms / 1000 + 1.0
    print(
        f"upstream-timeout: broker SIGSTOPped, --request-timeout-ms {timeout_ms}: "
        f"client closed after {waited:.2f} s: {'PASS' if ok else 'FAIL'}"
    )
    stop_all()
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--budget-mib", type=int, default=512,
                        help="--queued-max-request-bytes for memory-*, in MiB (default 512, "
                             "the servers' default; at least 101)")
    parser.add_argument("phases", nargs="*")
    args = parser.parse_args()
    global BUDGET
    BUDGET = args.budget_mib * MIB
    bins = {name: os.path.join(args.bin_dir, f"kwire-{name}") for name in ("broker", "proxy")}
    # 10,100 sockets of our own, plus the servers inheriting the limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    phases = {
        "memory-broker": lambda: memory_phase(bins, False),
        "memory-proxy": lambda: memory_phase(bins, True),
        "idle-broker": lambda: idle_phase(bins, False),
        "idle-proxy": lambda: idle_phase(bins, True),
        "connections-proxy": lambda: connections_phase(bins),
        "upstream-timeout": lambda: upstream_timeout_phase(bins),
    }
    chosen = args.phases or list(phases)
    results = []
    try:
        for name in chosen:
            results.append(phases[name]())
    finally:
        stop_all()
    passed = sum(1 for r in results if r)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
