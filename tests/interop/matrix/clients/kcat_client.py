#!/usr/bin/env python3
"""kcat client of the interop matrix (see ../README.md for the contract).

    kcat_client.py produce --bootstrap HOST:PORT --producer P --topic T --codec C --count N
    kcat_client.py consume --bootstrap HOST:PORT --topics T1,T2,... --mode assign --expect N
    kcat_client.py consume --bootstrap HOST:PORT --topics T1,T2,... --mode group --group G --expect N
    (every command also takes --timeout SECONDS, default 60)

A wrapper around Debian's kcat 1.7.1 run with librdkafka 2.16.0 through
../../kcat-librdkafka-2.16.sh (Debian's librdkafka 2.0.2 cannot parse tansu's
ApiVersions reply). Standard library only; run it with any Python 3.
stdout carries only the contract's JSON lines; kcat's diagnostics and ours go
to stderr. Exit codes: 0 success, 1 failure or timeout, 2 bad arguments.
Every kcat runs in its own session; when the timeout comes it is stopped
(SIGTERM, then SIGKILL) by its process group, so the wrapper exits in time.
kcat's config files are not read (-F none, no KCAT_CONFIG).

produce
    kcat -P -t T -z C -K '\\t' -H producer=P -H codec=C -X acks=all -v -v
    reads "key<TAB>value" lines from stdin, in index order; the partition
    comes from librdkafka's default partitioner (consistent_random: CRC32 of
    the key). How "acked" is established: with verbosity 3 (-v -v) kcat's
    delivery-report callback prints "Message delivered to partition ..." for
    every message librdkafka reports as delivered without error, i.e. after
    the broker's acks=all Produce response, and "Delivery failed for message"
    otherwise. acked = the number of "delivered" lines. kcat waits for every
    delivery report before it exits, and exits 1 if any delivery failed. The
    command succeeds only if kcat exits 0, no delivery failed and acked == N.
    message.timeout.ms is set to the time left, so librdkafka gives up (a
    failed delivery) rather than outliving the timeout.

consume --mode assign
    One `kcat -C -t T -o beginning -J -u` per topic, all at once. kcat -C is
    librdkafka's simple consumer: it reads the topic's partition count from
    metadata and starts every partition at the beginning itself (no group, no
    commits; kcat turns auto-commit off in this mode). The JSON lines of all
    the kcats are taken as they arrive until N messages in total (or the
    timeout); then the kcats are stopped. Lines that arrive after the N-th
    are dropped (and counted on stderr). No -e: a partition's end is not the
    end of the test, the count is.

consume --mode group
    kcat -G G T1 T2 ... -c N -J -u -d cgrp with
      -X auto.offset.reset=earliest  -X enable.auto.offset.store=true
      -X session.timeout.ms=10000
    kcat has no "commit now" command and no way to turn auto-commit off
    without losing the commit altogether, so the commit is librdkafka's own
    auto-commit (enable.auto.commit=true, its default). It comes about like
    this: each message handed to kcat by consumer_poll() has its offset + 1
    stored for its partition (auto offset store); with -c N kcat stops
    polling after the N-th message, so nothing fetched beyond it is stored
    (or printed). kcat then calls consumer_close(), which commits the stored
    offsets (last processed + 1 for each partition read from) in one
    OffsetCommit, waits for the reply, and then sends LeaveGroup. The cgrp
    debug log shows every OffsetCommit reply ("OffsetCommit for ...
    returned: Success"); the command succeeds only if kcat exits 0, N
    messages came, and at least one OffsetCommit succeeded and none failed.
    One difference to "automatic commits off": the periodic auto-commit
    (every 5 s, counted from the assignment) cannot be turned off from kcat.
    -X tries a topic property of the name first, and enable.auto.commit and
    auto.commit.interval.ms both also exist as legacy topic properties, so
    -X sets those and the global ones stay at their defaults (see -X dump).
    A periodic commit only ever commits offsets of messages kcat has already
    been handed, so it cannot commit past the N-th message; on tansu the N
    messages usually arrive well within 5 s, and then only the close commits.
    No -o: kcat would apply it to every assigned partition and so override
    the committed offsets; with none, librdkafka starts from the committed
    offset, or from the earliest if there is none. On timeout this kcat is
    killed with SIGKILL at once, so that an incomplete read commits nothing.
    session.timeout.ms is 10 s instead of librdkafka's 45 s because tansu
    0.6.0 answers the (second) JoinGroup only after about half the session
    timeout: 23 s with the default, 3 s with 6 s.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import spec  # noqa: E402  (the messages and the command line of every client)

import json  # noqa: E402
import queue  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

PROG = "kcat_client"
HERE = os.path.dirname(os.path.abspath(__file__))
KCAT = os.path.normpath(os.path.join(HERE, "..", "..", "kcat-librdkafka-2.16.sh"))
SESSION_TIMEOUT_MS = 10000
STOP_RESERVE = 1.5  # seconds kept before the timeout for stopping the kcats

STARTED = time.monotonic()


# ---------------------------------------------------------------- helpers --

def log(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr, flush=True)


def time_left(timeout):
    """Seconds until STOP_RESERVE before the timeout (never below 0)."""
    return max(0.0, STARTED + timeout - STOP_RESERVE - time.monotonic())


def kcat(args, **popen):
    """Start the kcat script in its own session (process group = its PID)."""
    env = {k: v for k, v in os.environ.items() if k not in ("KCAT_CONFIG", "KAFKACAT_CONFIG")}
    argv = [KCAT, "-F", "none"] + args
    return subprocess.Popen(argv, env=env, start_new_session=True, **popen)


def stop(procs, hard=False):
    """Stop kcats we started, each by its process group: SIGTERM (kcat then
    closes cleanly) and SIGKILL to those still running 0.5 s later; with
    hard=True SIGKILL at once. Returns within about 1 s."""
    for sig in ([] if hard else [signal.SIGTERM]) + [signal.SIGKILL]:
        running = [p for p in procs if p.poll() is None]
        for p in running:
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
        until = time.monotonic() + 0.5
        for p in running:
            try:
                p.wait(max(0.0, until - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass


def forward(lines, prefix="kcat"):
    for line in lines:
        if line.strip():
            print("%s: %s" % (prefix, line.rstrip()), file=sys.stderr, flush=True)


def contract_line(raw):
    """One kcat -J line -> the contract's JSON line (None if not a message)."""
    try:
        m = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(m, dict) or "offset" not in m:
        return None
    h = m.get("headers") or []  # kcat: a flat list, name, value, name, value, ...
    return spec.message_line(m.get("topic"), m.get("partition"), m.get("offset"),
                             m.get("key"), m.get("payload"),
                             [(h[i], h[i + 1]) for i in range(0, len(h) - 1, 2)])


# ---------------------------------------------------------------- produce --

def produce(a):
    lines = []
    for i in range(a.count):
        k, v = spec.key(a.producer, a.codec, i), spec.value(i)
        assert not any(c in k + v for c in "\t\n"), "key/value must not hold TAB or LF"
        lines.append("%s\t%s\n" % (k, v))
    headers = spec.headers(a.producer, a.codec)
    args = ["-P", "-b", a.bootstrap, "-t", a.topic, "-z", a.codec, "-K", "\\t",
            "-X", "acks=all",
            "-X", "message.timeout.ms=%d" % max(1000, int(time_left(a.timeout) * 1000) - 500),
            "-v", "-v"]
    for name, val in headers:
        args += ["-H", "%s=%s" % (name, val)]
    proc = kcat(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _, err = proc.communicate("".join(lines).encode(), timeout=time_left(a.timeout))
    except subprocess.TimeoutExpired:
        log("timeout after %.1f s: stopping kcat" % (time.monotonic() - STARTED))
        stop([proc])
        _, err = proc.communicate()
    err = err.decode("utf-8", "replace").splitlines()
    acked = sum(1 for l in err if l.startswith("% Message delivered to partition"))
    failures = [l for l in err if "Delivery failed for message" in l]
    failed = len(failures)
    forward([l for l in err if not l.startswith("% Message delivered to partition")
             and "Enable message offset reporting" not in l and l not in failures])
    for reason in sorted(set(failures)):  # one line per distinct reason
        forward(["%s (%d message(s))" % (reason, failures.count(reason))])
    log("kcat exit %s: %d delivered, %d failed, of %d" % (proc.returncode, acked, failed, a.count))
    print(json.dumps({"acked": acked}), flush=True)
    return 0 if proc.returncode == 0 and failed == 0 and acked == a.count else 1


# ---------------------------------------------------------------- consume --

def _pump(stream, topic, q):
    """Reader thread: every line of one kcat's stdout into q, then (topic, None)."""
    for raw in iter(stream.readline, b""):
        q.put((topic, raw.decode("utf-8", "replace")))
    q.put((topic, None))


def _stderr(stream, prefix):
    for raw in iter(stream.readline, b""):
        forward([raw.decode("utf-8", "replace")], prefix)


def consume_assign(a):
    q = queue.Queue()
    procs, threads = [], []
    for t in a.topics:
        p = kcat(["-C", "-b", a.bootstrap, "-t", t, "-o", "beginning", "-J", "-u",
                  "-m", str(max(1, int(time_left(a.timeout))))],
                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        procs.append(p)
        threads += [threading.Thread(target=_pump, args=(p.stdout, t, q), daemon=True),
                    threading.Thread(target=_stderr, args=(p.stderr, "kcat[%s]" % t), daemon=True)]
    for th in threads:
        th.start()
    read, open_streams, dropped = 0, len(procs), 0
    while read < a.expect and open_streams:
        try:
            topic, raw = q.get(timeout=time_left(a.timeout))
        except queue.Empty:
            log("timeout after %.1f s with %d/%d messages" % (time.monotonic() - STARTED,
                                                             read, a.expect))
            break
        if raw is None:
            open_streams -= 1
            continue
        line = contract_line(raw)
        if line is None:
            log("not a kcat message line from %s: %r" % (topic, raw[:200]))
            continue
        print(line, flush=True)
        read += 1
    stop(procs)
    until = time.monotonic() + 0.5  # the pipes close with the kcats
    for th in threads:
        th.join(max(0.0, until - time.monotonic()))
    while not q.empty():
        dropped += q.get_nowait()[1] is not None
    for t, p in zip(a.topics, procs):
        if p.returncode not in (0, -signal.SIGTERM):
            log("kcat for %s exited with %s" % (t, p.returncode))
    if dropped:
        log("dropped %d message line(s) that came after the %d-th" % (dropped, a.expect))
    log("read %d of %d" % (read, a.expect))
    return 0 if read == a.expect else 1


def consume_group(a):
    if a.expect == 0:  # kcat's -c 0 means "no limit"; nothing to read or commit
        return 0
    args = ["-b", a.bootstrap, "-G", a.group, "-c", str(a.expect), "-J", "-u",
            "-X", "auto.offset.reset=earliest",
            "-X", "enable.auto.offset.store=true",
            "-X", "session.timeout.ms=%d" % SESSION_TIMEOUT_MS,
            "-d", "cgrp"] + a.topics
    proc = kcat(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=time_left(a.timeout))
    except subprocess.TimeoutExpired:
        timed_out = True
        log("timeout after %.1f s: killing kcat (nothing is committed)"
            % (time.monotonic() - STARTED))
        stop([proc], hard=True)
        out, err = proc.communicate()
    read, last = 0, {}
    for raw in out.decode("utf-8", "replace").splitlines():
        line = contract_line(raw)
        if line is None:
            if raw.strip():
                log("not a kcat message line: %r" % raw[:200])
            continue
        print(line, flush=True)
        m = json.loads(line)
        last["%s[%s]" % (m["topic"], m["partition"])] = m["offset"] + 1
        read += 1
    err = err.decode("utf-8", "replace").splitlines()
    # The debug log is long; pass on kcat's own lines and the group milestones.
    forward([l for l in err if not l.startswith("%7|")
             or any("|%s|" % f in l for f in ("JOINGROUP", "COMMIT", "LEAVE"))])
    results = [l.rsplit("returned: ", 1)[1] for l in err
               if "OffsetCommit for" in l and "returned: " in l]
    ok_commit = "Success" in results and all(r == "Success" for r in results)
    log("kcat exit %s, read %d of %d; librdkafka commits the stored offsets %s: %s"
        % (proc.returncode, read, a.expect, json.dumps(last),
           ", ".join(results) if results else "no OffsetCommit reply logged"))
    ok = not timed_out and proc.returncode == 0 and read == a.expect and ok_commit
    return 0 if ok else 1


# ------------------------------------------------------------------- main --

def main():
    a = spec.parse_args(PROG)
    if a.command == "produce":
        rc = produce(a)
    elif a.mode == "assign":
        rc = consume_assign(a)
    else:
        rc = consume_group(a)
    log("%s done in %.2f s, exit %d" % (a.command, time.monotonic() - STARTED, rc))
    return rc


if __name__ == "__main__":
    sys.exit(main())
