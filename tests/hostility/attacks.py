"""What clients can send to hurt a server, each as a probe against a freshly
started server: the probe attacks, a bystander client keeps asking small
questions meanwhile, and the outcome is measured (peak memory from /proc, what
was answered, what was closed) against what the server promises.

Each probe is `probe(ctx) -> Outcome`; ctx starts the servers (`ctx.broker()`,
`ctx.proxied()`), knows the log directory and the budget figures."""

import concurrent.futures as cf
import random
import socket
import struct
import threading
import time

import requests
from servers import Bystander, ask, connect, read_frame, stop_all

FETCH_MAX_BYTES = 57671680  # Kafka's fetch.max.bytes default, the broker's cap
MiB = 1024 * 1024


class Outcome:
    def __init__(self, probe, target, limit_mib):
        self.probe, self.target, self.limit_mib = probe, target, limit_mib
        self.peak_mib = 0.0
        self.closed = "-"
        self.answered = "-"
        self.problems = []

    def finish(self, server, bystander=None):
        """Takes the server's figures; a dead or too large server is a problem."""
        self.peak_mib = server.peak_mib
        if server.killed_for_memory:
            self.problems.append("killed at the %d MiB ceiling" % (server.peak_mib))
        elif not server.alive():
            self.problems.append("the %s died (exit %s)" % (server.name, server.proc.returncode))
        if self.peak_mib > self.limit_mib:
            self.problems.append("peak %.0f MiB above the %d MiB limit"
                                 % (self.peak_mib, self.limit_mib))
        if bystander is not None:
            bystander.stop()
            self.answered = bystander.summary()
            if bystander.answered < bystander.asked:
                self.problems.append("bystander answered %s" % bystander.summary())
        return self


    def check_behind(self, started, limit_mib=None):
        """The broker behind a proxy, which the row does not show: alive, and (when
        it has a limit of its own) within it."""
        for server in started[1:]:
            if server.killed_for_memory:
                self.problems.append("the broker behind was killed at the memory ceiling")
            elif not server.alive():
                self.problems.append("the broker behind died (exit %s)" % server.proc.returncode)
            if limit_mib is not None and server.peak_mib > limit_mib:
                self.problems.append("the broker behind peaked at %.0f MiB, above %d MiB"
                                     % (server.peak_mib, limit_mib))


def error_codes(payload, count_at):
    """The int16 at `count_at` (after the correlation id) of a response payload."""
    return struct.unpack(">h", payload[count_at:count_at + 2])[0]


# ------------------------------------------------------------- CreateTopics --

def _create(ctx, partitions, name):
    out = Outcome("CreateTopics %d partitions" % partitions, "broker", 256)
    with ctx.broker() as broker:
        bystander = Bystander(broker.address)
        got = ask(broker.address, requests.create_topics(1, name, partitions), timeout=30)
        if got is None:
            out.problems.append("no answer to CreateTopics")
        else:
            # v4: corr, throttle, [name, error_code, ...]: the name follows the count.
            name_len = struct.unpack(">h", got[12:14])[0]
            code = error_codes(got, 14 + name_len)
            out.closed = "answered error %d" % code
            if code == 0:
                out.problems.append("%d partitions accepted" % partitions)
        meta = ask(broker.address, requests.metadata_all(2), timeout=30)
        if meta is None:
            out.problems.append("no answer to Metadata after it")
        elif len(meta) > MiB:
            out.problems.append("Metadata answer now %.1f MiB" % (len(meta) / MiB))
        return out.finish(broker, bystander)


def create_topics_i32_max(ctx):
    return _create(ctx, 2**31 - 1, "huge")


def create_topics_million(ctx):
    return _create(ctx, 1_000_000, "million")


# -------------------------------------------------------------------- Fetch --

def _store_one_mib(address, topic):
    """Creates `topic` with one partition and stores a 1 MiB batch in it."""
    ask(address, requests.create_topics(1, topic, 1), timeout=30)
    batch = requests.record_batch([b"x" * 1024] * 1024)
    got = ask(address, requests.produce(2, topic, 0, batch), timeout=30)
    if got is None or error_codes(got, requests.produce_error_at(topic)) != 0:
        raise RuntimeError("could not store 1 MiB in %s: %r" % (topic, got))


def _fetch(address, corr, topic, repeats):
    """One Fetch repeating a partition; the response's size or None."""
    try:
        with connect(address, timeout=60) as sock:
            sock.sendall(requests.fetch(corr, topic, 0, repeats, 2**31 - 1, 2**31 - 1))
            got = read_frame(sock)
            return None if got is None else len(got)
    except OSError:
        return None


def fetch_amplification(ctx, proxied=False):
    """The same partition 500 times with max_bytes 2^31-1 over 1 MiB stored, then
    five connections at once asking it 1,000 times."""
    out = Outcome("Fetch 1 MiB x 500, then 5 x 1000", "proxy" if proxied else "broker", 1024)
    front, started = ctx.start(proxied)
    try:
        _store_one_mib(front.address, "amplified")
        bystander = Bystander(front.address)
        size = _fetch(front.address, 2, "amplified", 500)
        if size is None:
            out.problems.append("no answer to the Fetch")
        elif size > FETCH_MAX_BYTES:
            out.problems.append("a %.0f MiB answer (fetch.max.bytes is 55 MiB)" % (size / MiB))
        with cf.ThreadPoolExecutor(5) as pool:
            sizes = list(pool.map(lambda i: _fetch(front.address, 10 + i, "amplified", 1000),
                                  range(5)))
        out.closed = "answers %s MiB" % "/".join("%.1f" % (s / MiB) if s else "-" for s in sizes)
        out.check_behind(started)
        return out.finish(front, bystander)
    finally:
        stop_all(started)


def fetch_amplification_proxied(ctx):
    return fetch_amplification(ctx, proxied=True)


def slow_readers(ctx, connections=200):
    """200 connections each ask a Fetch of 4 MiB held in 64 batches (so the answer
    is a copy and a frame) and never read it: the answers wait for the response
    budget (--queued-max-response-bytes 32 MiB) instead of all being built; small
    requests from others are still answered."""
    out = Outcome("%d Fetches never read" % connections, "broker", 256)
    flags = ("--queued-max-response-bytes", str(32 * MiB), "--fetch-max-bytes", str(4 * MiB),
             "--socket-request-max-bytes", str(8 * MiB))
    with ctx.broker(*flags) as broker:
        ask(broker.address, requests.create_topics(1, "unread", 1), timeout=30)
        batch = requests.record_batch([b"x" * 1024] * 64)
        for n in range(64):
            ask(broker.address, requests.produce(2 + n, "unread", 0, batch), timeout=30)
        bystander = Bystander(broker.address)
        socks = []
        try:
            for i in range(connections):
                sock = connect(broker.address, timeout=10)
                # A small receive buffer, never read: the answer stays in the broker.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.sendall(requests.fetch(100 + i, "unread", 0, 1, 4 * MiB, 4 * MiB))
                socks.append(sock)
            time.sleep(3)
            out.closed = "%d connections waiting, none read" % len(socks)
        finally:
            for sock in socks:
                sock.close()
        return out.finish(broker, bystander)


def produce_flood(ctx, cap_mib=8, batches=16):
    """16 MiB produced, a MiB at a time, into a broker whose logs may hold 8: the
    first eight stored, the rest answered KAFKA_STORAGE_ERROR (56), as a Kafka
    broker with a full disk answers; memory stays flat."""
    out = Outcome("Produce 16 MiB into 8 MiB of logs", "broker", 256)
    with ctx.broker("--log-max-bytes", str(cap_mib * MiB)) as broker:
        bystander = Bystander(broker.address)
        ask(broker.address, requests.create_topics(1, "flood", 1), timeout=30)
        batch = requests.record_batch([b"x" * 1024] * 1000)  # about 1 MiB
        fits = cap_mib * MiB // len(batch)
        codes = []
        for n in range(batches):
            got = ask(broker.address, requests.produce(2 + n, "flood", 0, batch), timeout=30)
            at = requests.produce_error_at("flood")
            codes.append(None if got is None else error_codes(got, at))
        stored = codes.count(0)
        out.closed = "%d stored, %d refused with %s" % (
            stored, batches - stored, sorted(set(c for c in codes if c != 0)))
        if codes != [0] * fits + [56] * (batches - fits):
            out.problems.append("answers %s; expected %d stored, then 56" % (codes, fits))
        return out.finish(broker, bystander)


# --------------------------------------------------------------- connections --

def pipelining(ctx, proxied=False, count=100_000):
    """100,000 ApiVersions requests written back to back on one connection while
    the answers are read: all answered, in order, in bounded memory."""
    out = Outcome("%d pipelined requests" % count, "proxy" if proxied else "broker", 256)
    front, started = ctx.start(proxied)
    try:
        with connect(front.address, timeout=30) as sock:
            def write():
                chunk = b"".join(requests.api_versions(i) for i in range(count))
                sock.sendall(chunk)
            writer = threading.Thread(target=write, daemon=True)
            writer.start()
            answered = 0
            for i in range(count):
                got = read_frame(sock)
                if got is None or got[:4] != i.to_bytes(4, "big"):
                    out.problems.append("answer %d is %r" % (i, got and got[:4]))
                    break
                answered += 1
            writer.join(30)
        out.answered = "%d/%d in order" % (answered, count)
        return out.finish(front)
    finally:
        stop_all(started)


def pipelining_proxied(ctx):
    return pipelining(ctx, proxied=True)


def connection_flood(ctx, count=3000):
    """3,000 short connections, 200 at a time, each asking ApiVersions: all
    answered, and the descriptors given back."""
    out = Outcome("%d short connections" % count, "broker", 256)
    with ctx.broker() as broker:
        before = broker.fds()
        with cf.ThreadPoolExecutor(200) as pool:
            got = list(pool.map(lambda i: ask(broker.address, requests.api_versions(i), 30),
                                range(count)))
        answered = sum(1 for g in got if g is not None)
        out.answered = "%d/%d" % (answered, count)
        if answered < count:
            out.problems.append("%d connections not answered" % (count - answered))
        deadline = time.monotonic() + 10
        while broker.fds() != before and time.monotonic() < deadline:
            time.sleep(0.1)
        out.closed = "fds %s -> %s" % (before, broker.fds())
        if broker.fds() != before:
            out.problems.append("descriptors not given back: %s -> %s" % (before, broker.fds()))
        return out.finish(broker)


# ---------------------------------------------------------------- malformed --

def served_apis(address):
    """(api key, min, max) of every API the server names in ApiVersions v0."""
    got = ask(address, requests.api_versions(1))
    count = struct.unpack(">i", got[6:10])[0]
    return [struct.unpack(">hhh", got[10 + 6 * i:16 + 6 * i]) for i in range(count)]


def malformed_frames(ctx, proxied=False, per_version=20):
    """For every API the server names, at each end of its versions: random bodies
    after a valid header, and the same truncated and with lengths that lie. Each
    bad frame may close its own connection; the server lives and answers."""
    out = Outcome("malformed frames, every API", "proxy" if proxied else "broker", 256)
    front, started = ctx.start(proxied)
    try:
        bystander = Bystander(front.address)
        rng = random.Random(18)
        frames = 0
        for key, low, high in served_apis(front.address):
            for version in sorted({low, high}):
                for n in range(per_version):
                    body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 64)))
                    frame = requests.frame(key, version, n, body)
                    if n % 4 == 1:
                        frame = frame[:rng.randrange(4, len(frame))]  # cut short, then closed
                    elif n % 4 == 2:
                        frame = struct.pack(">i", len(frame) + rng.randrange(1, 1000)) + frame[4:]
                    try:
                        with connect(front.address, timeout=2) as sock:
                            sock.sendall(frame)
                            sock.shutdown(socket.SHUT_WR)
                            read_frame(sock)
                    except OSError:
                        pass
                    frames += 1
        out.closed = "%d frames sent" % frames
        return out.finish(front, bystander)
    finally:
        stop_all(started)


def malformed_frames_proxied(ctx):
    return malformed_frames(ctx, proxied=True)


PROBES = [create_topics_i32_max, create_topics_million, fetch_amplification,
          fetch_amplification_proxied, slow_readers, produce_flood, pipelining, pipelining_proxied,
          connection_flood, malformed_frames, malformed_frames_proxied]
