"""The interop matrix's message spec, and what the Python clients share.

Imported by clients/kafka_python_client.py, clients/confluent_kafka_client.py
and clients/aiokafka_client.py (and usable by the driver). See README.md here
for the contract; clients/kafkajs_client.js repeats the message spec.

Message i (0 <= i < count) of producer P with codec C:

    key      "P-C-iiii"                                       (UTF-8)
    value    "value-iiii-" + "abcdefghij"[i % 10] * (i % 200)  (UTF-8, 11..210 bytes)
    headers  [("producer", P), ("codec", C)]                  (values UTF-8)

Besides the spec this module has what the three Python clients share:

- parse_args(): the common command line (produce / consume, --timeout);
- Output: the only writer of stdout. It prints the JSON lines of the contract
  under a lock, and finish() ends the process exactly once (os._exit, so that
  no library thread or atexit hook can keep it alive past the timeout);
- Deadline: time left until --timeout, and a watchdog thread that ends the
  process (exit 1, after printing what the command has to print) shortly
  before the timeout if the client is stuck, e.g. on a hung broker.

Standard library only.
"""

import argparse
import json
import os
import sys
import threading
import time

# Taken at import, which the clients do first: the timeout counts from here.
STARTED = time.monotonic()

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
FILLER = "abcdefghij"


# ------------------------------------------------------------------ spec --

def key(producer, codec, i):
    """Key of message i as text: "P-C-iiii"."""
    return "%s-%s-%04d" % (producer, codec, i)


def value(i):
    """Value of message i as text: "value-iiii-" + filler of i % 200 chars."""
    return "value-%04d-" % i + FILLER[i % 10] * (i % 200)


def headers(producer, codec):
    """Headers of every message of P/C as text, in order."""
    return [("producer", producer), ("codec", codec)]


def message(producer, codec, i):
    """(key bytes, value bytes, [(header name, header value bytes)]) of message i."""
    return (key(producer, codec, i).encode(), value(i).encode(),
            [(k, v.encode()) for k, v in headers(producer, codec)])


# ------------------------------------------------------------- arguments --

def parse_args(prog, argv=None):
    """The command line every client takes (see README.md)."""
    ap = argparse.ArgumentParser(prog=prog, description="interop matrix client: " + prog)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("produce", help="send messages 0..N-1 of the spec, acks=all")
    p.add_argument("--bootstrap", required=True, metavar="HOST:PORT")
    p.add_argument("--producer", required=True, metavar="P")
    p.add_argument("--topic", required=True, metavar="T")
    p.add_argument("--codec", required=True, choices=CODECS)
    p.add_argument("--count", required=True, type=int, metavar="N")
    c = sub.add_parser("consume", help="read N messages by assignment or in a group")
    c.add_argument("--bootstrap", required=True, metavar="HOST:PORT")
    c.add_argument("--topics", required=True, metavar="T1,T2,...")
    c.add_argument("--mode", required=True, choices=("assign", "group"))
    c.add_argument("--group", metavar="G")
    c.add_argument("--expect", required=True, type=int, metavar="N")
    for s in (p, c):
        s.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS")
    args = ap.parse_args(argv)
    if args.command == "consume":
        args.topics = [t for t in args.topics.split(",") if t]
        if not args.topics:
            ap.error("--topics names no topic")
        if args.mode == "group" and not args.group:
            ap.error("--mode group needs --group")
    if args.timeout <= 0:
        ap.error("--timeout must be positive")
    return args


# ---------------------------------------------------------------- output --

def text(b):
    """bytes -> str (UTF-8; undecodable bytes become U+FFFD); None stays None."""
    if b is None:
        return None
    if isinstance(b, str):
        return b
    return bytes(b).decode("utf-8", errors="replace")


def message_line(topic, partition, offset, key_bytes, value_bytes, header_list):
    """The contract's JSON line for one consumed message."""
    return json.dumps({
        "topic": topic, "partition": partition, "offset": offset,
        "key": text(key_bytes), "value": text(value_bytes),
        "headers": [[k, text(v)] for k, v in (header_list or ())],
    })


def log(prog, msg):
    """One diagnostic line on stderr."""
    print("%s: %s" % (prog, msg), file=sys.stderr, flush=True)


def ms(seconds):
    """Seconds as the whole milliseconds client settings take (at least 1)."""
    return max(1, int(seconds * 1000))


def main(prog, produce, consume, run=lambda outcome: outcome):
    """A client's whole run: the command line, then produce or consume (each
    called as f(args, out, deadline); `run` turns its result into True/False,
    e.g. asyncio.run for coroutines), then the contract's exit status. An
    exception is a failed run, logged."""
    args = parse_args(prog)
    out = Output(args.command)
    deadline = Deadline(args.timeout, out, prog)
    try:
        ok = run((produce if args.command == "produce" else consume)(args, out, deadline))
    except Exception as e:
        log(prog, "error: %r" % (e,))
        ok = False
    out.finish(ok)


class Output:
    """stdout of one command; thread-safe; finish() ends the process once.

    For produce, `acked` counts acknowledgements (incremented by the client)
    and finish() prints {"acked": K}. For consume, message() prints each
    message as it is delivered and counts it in `read`.
    """

    def __init__(self, command):
        self.command = command
        self.acked = 0
        self.read = 0
        self._lock = threading.Lock()
        self._done = False

    def message(self, topic, partition, offset, key_bytes, value_bytes, header_list):
        line = message_line(topic, partition, offset, key_bytes, value_bytes, header_list)
        with self._lock:
            if self._done:
                return
            sys.stdout.write(line + "\n")
            self.read += 1

    def batches(self, batches, expect, last):
        """Prints the records of one poll ({partition: [records]}, as kafka-python
        and aiokafka return them) up to the expect-th message in all; the rest
        are dropped unprocessed. Records in `last` (partition -> offset of the
        last record printed), the offsets a group commit is made from."""
        for tp, records in batches.items():
            for r in records:
                if self.read >= expect:
                    return  # beyond the N-th: dropped
                self.message(r.topic, r.partition, r.offset, r.key, r.value, r.headers)
                last[tp] = r.offset

    def finish(self, ok):
        """Print the final line (produce), flush, and _exit: 0 if ok, else 1."""
        # The watchdog may call this while the main thread is stuck holding
        # the lock in a write; don't wait for it forever.
        locked = self._lock.acquire(timeout=1.0)
        try:
            if self._done:
                return
            self._done = True
            if self.command == "produce":
                sys.stdout.write(json.dumps({"acked": self.acked}) + "\n")
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):
                ok = False
        finally:
            if locked:
                self._lock.release()
        os._exit(0 if ok else 1)


class Deadline:
    """Time left until --timeout (counted from STARTED), plus a watchdog.

    The watchdog thread calls out.finish(False) `grace` seconds before the
    timeout, whatever the main thread is doing.
    """

    def __init__(self, timeout, out, prog, grace=0.5):
        self.end = STARTED + timeout
        grace = min(grace, timeout / 10)
        t = threading.Thread(target=self._watch, args=(out, prog, self.end - grace),
                             name="watchdog", daemon=True)
        t.start()

    @staticmethod
    def _watch(out, prog, at):
        while True:
            left = at - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(left, 1.0))
        log(prog, "timeout: giving up (watchdog)")
        out.finish(False)

    def left(self, reserve=0.0):
        """Seconds left before the timeout minus `reserve` (never below 0)."""
        return max(0.0, self.end - reserve - time.monotonic())

    def reserve_for_close(self):
        """Seconds to keep for commit and close after reading: a fifth of the
        whole timeout, between 1 and 5 s."""
        return min(5.0, max(1.0, (self.end - STARTED) / 5))
