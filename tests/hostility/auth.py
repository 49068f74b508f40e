"""Attacks on authentication (issue 29), as probes in the style of attacks.py
(`probe(ctx) -> Outcome`): what a client that has not logged in, or one guessing
passwords, can make a SASL listener do, and what a logged-in client suffers
meanwhile.

The servers: our broker with `--sasl-user alice:alice-secret` (SASL_PLAINTEXT),
or our proxy terminating SASL for the same user and logging in upstream as
`proxy` (`--upstream-sasl SCRAM-SHA-512:proxy:proxy-secret`) to a broker with
`--sasl-user proxy:proxy-secret`. The rules held are the servers' after the fix
of issue 29, at their defaults:

- before a connection has authenticated, a frame whose length prefix declares
  more than 524288 bytes (`--sasl-server-max-receive-size`) is refused by closing
  the connection, before its body is read; such frames never take from the shared
  request budget;
- a failed authentication is answered 100 ms after its request
  (`--connection-failed-authentication-delay-ms`), then the connection closes;
- at `--max-connections` only a connection that has not authenticated may be
  evicted for a newcomer;
- re-authentication needs `--connections-max-reauth-ms`, at most once a second,
  and nothing else is served during one (ILLEGAL_SASL_STATE, 34, otherwise);
- the proxy opens no upstream connection for a client that has neither sent
  ApiVersions nor authenticated, and logs in upstream only for an authenticated one;
- an unknown user's SCRAM server-first shows a real user's salt length and
  iteration count, and PLAIN fails as slowly for an unknown user as a known one.

Bounded: fixed counts, a timeout on every socket and a deadline on every wait,
every server stopped by its PID, every socket closed at the end."""

import base64
import os
import socket
import statistics
import string
import threading
import time

import requests
from attacks import Outcome
from limits import _close_all, _stop_bystander
from sasl_client import (ILLEGAL_SASL_STATE, LoggedIn, LoginFailed, Session,
                         authenticate_answer, handshake_answer, logged_in, percentile,
                         plain_token, scram_attributes, scram_credential)
from servers import Bystander, connect, logged_figure, read_frame, stop_all

KiB = 1024
MiB = 1024 * KiB
LIMIT_MIB = 256  # no budget at stake: attacks.py's limit
SASL_MAX_RECEIVE = 524288  # --sasl-server-max-receive-size's default
FAILED_AUTH_DELAY = 0.1  # --connection-failed-authentication-delay-ms's default, in s
ALICE = ("--sasl-user", "alice:alice-secret")
PROXY_USER = ("--sasl-user", "proxy:proxy-secret")
TERMINATING = ALICE + ("--upstream-sasl", "SCRAM-SHA-512:proxy:proxy-secret")
SCRAM_HEAD = b"n,,n=alice,r=abc"  # a client-first message, to which ",a=b" is added


def _start(ctx, proxied, flags=(), broker_flags=None, oauthbearer=False):
    """(front, started): our broker with alice (and `flags`), or our proxy
    terminating SASL for alice (with `flags`) in front of a broker that knows the
    proxy's user (with `broker_flags`, by default `flags` too)."""
    if proxied:
        behind = flags if broker_flags is None else broker_flags
        proxy, broker = ctx.proxied(*(TERMINATING + tuple(flags)),
                                    broker_flags=PROXY_USER + tuple(behind))
        return proxy, (proxy, broker)
    extra = ("--sasl-oauthbearer-unsecured",) if oauthbearer else ()
    broker = ctx.broker(*(ALICE + extra + tuple(flags)))
    return broker, (broker,)


def _merge(out, part, label):
    """Takes a finished stage's figures into the probe's outcome: the larger
    peak, and its problems named by the stage."""
    out.peak_mib = max(out.peak_mib, part.peak_mib)
    out.problems += ["%s: %s" % (label, problem) for problem in part.problems]


def _cpu_seconds(pid):
    """User and system CPU time a process has used, from /proc/PID/stat."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ms(seconds):
    return "%.1f ms" % (seconds * 1000)


# ------------------------------------------------------------ huge tokens --

def _stream(sock, head, filler, size, tail=b""):
    """Sends `head`, then `filler` repeated, then `tail`, `size` bytes in all, a
    MiB at a time: (bytes sent, None), or (bytes sent, the OSError) where the
    socket failed (reset, broken pipe, timeout)."""
    sent = 0
    chunk = memoryview(filler * max(1, MiB // len(filler)))
    left = size - len(head) - len(tail)
    try:
        sock.sendall(head)
        sent = len(head)
        while left > 0:
            n = min(left, len(chunk))
            sock.sendall(chunk[:n])
            sent, left = sent + n, left - n
        sock.sendall(tail)
        return sent + len(tail), None
    except OSError as error:
        return sent, error


def _timed_out(error):
    return isinstance(error, (socket.timeout, TimeoutError))


def _huge(address, mechanism, head, filler, size, tail=b"", answer_wait=20.0):
    """One attacker: SaslHandshake `mechanism`, then a SaslAuthenticate whose token
    is `head`, `filler` repeated and `tail`, `size` bytes, sent in pieces.
    (end, token bytes sent): end "closed" (reset, broken pipe or EOF, before an
    answer), "answered ..." or what else happened."""
    try:
        sock = connect(address, 10)
    except OSError as error:
        return "could not connect (%s)" % error, 0
    sent = 0
    with sock:
        try:
            sock.sendall(requests.sasl_handshake(1, mechanism))
            got = read_frame(sock)
        except OSError as error:
            return "no SaslHandshake answer (%s)" % error, 0
        if got is None:
            return "closed at SaslHandshake", 0
        code, _ = handshake_answer(got)
        if code != 0:
            return "SaslHandshake %s refused (%d)" % (mechanism, code), 0
        sent, error = _stream(sock, requests.sasl_authenticate_head(2, size) + head, filler,
                              size + len(requests.sasl_authenticate_head(2, size)), tail)
        if _timed_out(error):
            return "stalled after %.1f MiB sent: neither read nor closed" % (sent / MiB), sent
        if error is not None:
            return "closed", sent
        sock.settimeout(answer_wait)
        try:
            got = read_frame(sock)
        except (socket.timeout, TimeoutError):
            return "no answer nor close in %.0f s" % answer_wait, sent
        except OSError:
            return "closed", sent
        if got is None:
            return "closed", sent
        try:
            answer = authenticate_answer(got)
        except Exception:  # an answer we cannot read is still an answer
            return "answered (%d bytes)" % len(got), sent
        return "answered, error %d, %d bytes back" % (answer.code, len(answer.auth_bytes)), sent


def _fitting(frame_max, head, unit):
    """The largest token size whose SaslAuthenticate v1 frame fits `frame_max`
    (the length prefix's value) and which is `head` plus whole `unit`s."""
    lead = len(requests.sasl_authenticate_head(2, 0)) - 4
    return len(head) + (frame_max - lead - len(head)) // unit * unit


def _judge_huge(out, what, end, sent, size, closed_early):
    """A huge token's attacker must be closed without an answer; with
    `closed_early`, also before the token was all sent (refused at its prefix)."""
    if end != "closed":
        out.problems.append("%s: %s, not closed" % (what, end))
    elif closed_early and sent >= size:
        out.problems.append("%s: closed only after all %.0f MiB were sent (the body was read)"
                            % (what, size / MiB))


def _long_nonce(address, size=400 * KiB):
    """A SCRAM client-first with a `size`-byte nonce, within the pre-login cap
    (SASL_MAX_RECEIVE): (what happened, problem or None). Refused (error answer or
    close), never echoed."""
    assert size + KiB < SASL_MAX_RECEIVE
    nonce = (string.ascii_letters * (size // 52 + 1))[:size].encode()
    try:
        with Session(address, 15) as session:
            shake = session.handshake("SCRAM-SHA-512")
            if shake is None or shake[0] != 0:
                return "SaslHandshake answered %r" % (shake,), "SaslHandshake refused"
            answer = session.authenticate(b"n,,n=alice,r=" + nonce)
    except OSError as error:
        return "no answer (%s)" % error, "neither answered nor closed: %s" % error
    if answer is None:
        return "closed", None
    if nonce in answer.auth_bytes:
        return ("echoed in a %d KiB server-first" % (len(answer.auth_bytes) // KiB),
                "a %d KiB nonce echoed back" % (size // KiB))
    if answer.code == 0:
        return "accepted", "a %d KiB nonce accepted" % (size // KiB)
    return "refused, error %d" % answer.code, None


def sasl_huge_token(ctx, proxied=False):
    """Tokens no login needs, before logging in: a 100 MiB SCRAM client-first
    (",a=b" repeated), 100 MiB of NULs for PLAIN and (broker) 16 MiB of "." as an
    OAUTHBEARER token, each closed at its prefix without an answer; a 400 KiB
    SCRAM nonce (within the cap) refused and not echoed. Then, with
    --socket-request-max-bytes 1 MiB and --queued-max-request-bytes 16 MiB, 60
    connections at once each sending a 1 MiB client-first: all closed. Peak
    memory within 256 MiB, a logged-in bystander answered throughout."""
    target = "proxy" if proxied else "broker"
    out = Outcome("huge SASL tokens before login", target, LIMIT_MIB)
    ends = []
    # Stage 1: the defaults (100 MiB frames allowed once logged in).
    front, started = _start(ctx, proxied, oauthbearer=not proxied)
    bystander = None
    try:
        bystander = LoggedIn(front.address)
        bystander.wait_ready()
        stage = Outcome(out.probe, target, LIMIT_MIB)
        what, problem = _long_nonce(front.address)
        ends.append("400 KiB nonce %s" % what)
        if problem:
            stage.problems.append(problem)
        frame_max = 100 * MiB - KiB  # socket.request.max.bytes is 100 MiB
        size = _fitting(frame_max, SCRAM_HEAD, 4)
        attacks = [("SCRAM 100 MiB", "SCRAM-SHA-512", SCRAM_HEAD, b",a=b", size, b"")]
        size = _fitting(frame_max, b"", 1)
        attacks.append(("PLAIN 100 MiB of NULs", "PLAIN", b"", b"\0", size, b""))
        if not proxied:
            attacks.append(("OAUTHBEARER 16 MiB of '.'", "OAUTHBEARER", b"n,,\x01auth=Bearer ",
                            b".", 16 * MiB, b"\x01\x01"))
        for what, mechanism, head, filler, size, tail in attacks:
            end, sent = _huge(front.address, mechanism, head, filler, size, tail)
            ends.append("%s %s" % (what, end))
            _judge_huge(stage, what, end, sent, size, closed_early=True)
        stage.check_behind(started, LIMIT_MIB)
        stage.finish(front, bystander)
        ends.append("peak %.0f MiB" % stage.peak_mib)
        _merge(out, stage, "at the defaults")
        answered = ["defaults: " + stage.answered]
    finally:
        _stop_bystander(bystander)
        stop_all(started)
    # Stage 2: 60 x 1 MiB against a 16 MiB budget.
    flags = ("--socket-request-max-bytes", str(MiB), "--queued-max-request-bytes", str(16 * MiB))
    front, started = _start(ctx, proxied, flags)
    bystander = None
    try:
        bystander = LoggedIn(front.address)
        bystander.wait_ready()
        stage = Outcome(out.probe, target, LIMIT_MIB)
        size = _fitting(MiB, SCRAM_HEAD, 4)
        results = [None] * 60

        def attack(i):
            results[i] = _huge(front.address, "SCRAM-SHA-512", SCRAM_HEAD, b",a=b", size)

        threads = [threading.Thread(target=attack, args=(i,), daemon=True) for i in range(60)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        closed = sum(1 for r in results if r is not None and r[0] == "closed")
        others = sorted(set(r[0] if r else "still running after 60 s" for r in results) -
                        {"closed"})
        ends.append("60 x 1 MiB: %d closed" % closed)
        if closed < 60:
            stage.problems.append("60 x 1 MiB client-first: %d not closed (%s)"
                                  % (60 - closed, "; ".join(others)[:200]))
        stage.check_behind(started, LIMIT_MIB)
        stage.finish(front, bystander)
        ends.append("peak %.0f MiB" % stage.peak_mib)
        _merge(out, stage, "at 1 MiB")
        answered.append("at 1 MiB: " + stage.answered)
    finally:
        _stop_bystander(bystander)
        stop_all(started)
    out.closed = "; ".join(ends)
    out.answered = "; ".join(answered)
    return out


def sasl_huge_token_proxied(ctx):
    return sasl_huge_token(ctx, proxied=True)


# ------------------------------------------------------------ prefix hold --

def prefix_hold(ctx, proxied=False, holders=6, wait=10.0):
    """Six connections each send a length prefix declaring 100 MiB and 6 bytes of
    a header, then nothing; a logged-in client's ~200 kB Produce (acks=1) is then
    answered within 1 s: frames before login take nothing from the request budget
    (and are closed at the prefix)."""
    front, started = _start(ctx, proxied)
    out = Outcome("%d x 100 MiB prefixes, held" % holders, front.name, LIMIT_MIB)
    bystander, socks = None, []
    try:
        bystander = Bystander(front.address)
        producer = logged_in(front.address, timeout=wait)
        with producer:
            producer.create_topic("held")
            batch = requests.record_batch([b"x" * 1000] * 200)
            started_at = time.monotonic()
            code = producer.produce("held", batch, acks=1)
            before = time.monotonic() - started_at
            if code != 0:
                raise RuntimeError("the Produce before the attack answered %r" % code)
            head = requests.i32(100 * MiB) + requests.i16(36) + requests.i16(1) + b"\0\0"
            for _ in range(holders):
                sock = connect(front.address, 5)
                sock.sendall(head)
                socks.append(sock)
            time.sleep(1.0)
            started_at = time.monotonic()
            try:
                code = producer.produce("held", batch, acks=1)
            except OSError:
                code = "no answer"
            took = time.monotonic() - started_at
        closed = 0
        for sock in socks:
            sock.setblocking(False)
            try:
                closed += sock.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        out.closed = "Produce %d kB answered in %s (%s before); %d/%d holders closed" % (
            len(batch) // 1000, _ms(took), _ms(before), closed, holders)
        if code == "no answer":
            out.closed = "Produce %d kB not answered in %.0f s (%s before); %d/%d closed" % (
                len(batch) // 1000, wait, _ms(before), closed, holders)
            out.problems.append("a logged-in Produce of %d kB not answered in %.0f s behind %d "
                                "unauthenticated 100 MiB prefixes" % (len(batch) // 1000, wait,
                                                                      holders))
        elif code is None:
            out.problems.append("the logged-in producer was closed")
        elif took > 1.0:
            out.problems.append("a logged-in Produce of %d kB took %.1f s behind %d "
                                "unauthenticated 100 MiB prefixes (1 s allowed)"
                                % (len(batch) // 1000, took, holders))
        elif code != 0:
            out.problems.append("the Produce answered error %s" % code)
        out.check_behind(started, LIMIT_MIB)
        return out.finish(front, bystander)
    finally:
        _stop_bystander(bystander)
        _close_all(socks)
        stop_all(started)


def prefix_hold_proxied(ctx):
    return prefix_hold(ctx, proxied=True)


# ------------------------------------------------------ strangers at limit --

def _tally(socks):
    """(answered, closed) among sockets that each sent a request: answered if any
    byte came back, closed if the server closed or reset it."""
    answered = closed = 0
    for sock in socks:
        sock.setblocking(False)
        got = False
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    closed += 1
                    break
                got = True
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        answered += got
    return answered, closed


def _open(address, count, frame=None):
    """`count` connections to `address`, each sending `frame` if given, opened one
    after the other; (sockets, how many could not be opened)."""
    socks, failed = [], 0
    for i in range(count):
        try:
            sock = connect(address, 2)
            if frame is not None:
                sock.sendall(frame(i))
            socks.append(sock)
        except OSError:
            failed += 1
    return socks, failed


def _judge_logged_in(out, clients, who):
    """Every logged-in client logged in, never closed, every question answered."""
    asked = sum(c.asked for c in clients)
    answered = sum(c.answered for c in clients)
    closed = sum(1 for c in clients if c.closed)
    unanswered = sum(1 for c in clients if c.answered < c.asked)
    if closed:
        out.problems.append("%d of %d %s closed" % (closed, len(clients), who))
    elif unanswered:
        out.problems.append("%d of %d %s not answered every time" % (unanswered, len(clients),
                                                                    who))
    return "%d %s: %d/%d answered, %d closed" % (len(clients), who, answered, asked, closed)


def strangers_at_limit(ctx, logged=20, strangers=200, rounds=6):
    """--max-connections 100: 20 logged-in clients each ask Metadata every 2 s on
    their own connection (about 12 s); a second after they start, 200 strangers
    each send one ApiVersions and stay open. No logged-in client closed or left
    unanswered: only connections that have not authenticated are evicted."""
    broker = ctx.broker(*(ALICE + ("--max-connections", "100")))
    out = Outcome("%d strangers at --max-connections 100" % strangers, "broker", LIMIT_MIB)
    clients, socks = [], []
    try:
        clients = [LoggedIn(broker.address, period=2.0, rounds=rounds) for _ in range(logged)]
        if sum(c.wait_ready() for c in clients) < logged:
            raise RuntimeError("the logged-in clients could not all log in")
        time.sleep(1.0)  # their first Metadata answered: all idle now
        socks, failed = _open(broker.address, strangers, requests.api_versions)
        deadline = time.monotonic() + 2.0 * rounds + 10
        for client in clients:
            client.join(max(0.0, deadline - time.monotonic()))
        answered, closed = _tally(socks)
        out.closed = "%d strangers: %d answered, %d closed, %d not opened" % (
            strangers, answered, closed, failed)
        out.answered = _judge_logged_in(out, clients, "logged-in clients")
        return _finish_logged_in(out, broker)
    finally:
        for client in clients:
            client.stop()
        _close_all(socks)
        broker.stop()


def _finish_logged_in(out, server):
    """Outcome.finish without a bystander, keeping `answered` as set."""
    answered = out.answered
    out.finish(server)
    out.answered = answered
    return out


def strangers_at_limit_proxied(ctx, direct=10, silent=60, rounds=5):
    """A terminating proxy (--upstream-sasl) in front of a broker with
    --max-connections 50 and 10 logged-in clients of its own, each asking Metadata
    every 2 s; 60 silent TCP connections to the proxy. None of the 10 closed, and
    the broker opens no connection for the silent ones (its descriptors, counted
    in /proc, before and after)."""
    proxy, broker = ctx.proxied(*TERMINATING, broker_flags=PROXY_USER + ALICE + (
        "--max-connections", "50"))
    started = (proxy, broker)
    out = Outcome("%d silent to a proxy, broker at 50" % silent, "proxy", LIMIT_MIB)
    clients, socks, bystander = [], [], None
    try:
        bystander = LoggedIn(proxy.address, period=0.25)
        clients = [LoggedIn(broker.address, period=2.0, rounds=rounds) for _ in range(direct)]
        if sum(c.wait_ready() for c in clients) < direct or not bystander.wait_ready():
            raise RuntimeError("the logged-in clients could not all log in")
        time.sleep(0.5)
        before = broker.fds()
        socks, failed = _open(proxy.address, silent)
        time.sleep(2.0)
        after = broker.fds()
        deadline = time.monotonic() + 2.0 * rounds + 10
        for client in clients:
            client.join(max(0.0, deadline - time.monotonic()))
        _, closed = _tally(socks)
        out.closed = "%s; broker fds %s -> %s with %d silent (%d not opened, %d closed)" % (
            _judge_logged_in(out, clients, "direct clients"), before, after, silent - failed,
            failed, closed)
        if after is None or before is None or after - before > 2:
            out.problems.append("the broker's descriptors went %s -> %s for %d silent clients "
                                "of the proxy" % (before, after, silent))
        out.check_behind(started, LIMIT_MIB)
        return out.finish(proxy, bystander)
    finally:
        _stop_bystander(bystander)
        for client in clients:
            client.stop()
        _close_all(socks)
        stop_all(started)


# ---------------------------------------------------------- plain guessing --

class _Guesses:
    """Threads each guessing alice's PLAIN password, a new connection per guess,
    until a deadline: how long each failure took to be answered (or closed)."""

    def __init__(self, address, threads, seconds):
        self.address, self.deadline = address, time.monotonic() + seconds
        self.took = []  # seconds from SaslAuthenticate sent to its answer or close
        self.unanswered = self.accepted = self.errors = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._guess, args=(i,), daemon=True)
                        for i in range(threads)]
        self.started = time.monotonic()
        for thread in self.threads:
            thread.start()

    def _guess(self, index):
        n = 0
        while time.monotonic() < self.deadline:
            n += 1
            try:
                with Session(self.address, 5) as session:
                    shake = session.handshake("PLAIN")
                    if shake is None or shake[0] != 0:
                        raise ConnectionError("SaslHandshake answered %r" % (shake,))
                    sent = time.monotonic()
                    answer = session.authenticate(plain_token("alice", "guess-%d-%d" % (index, n)))
                    took = time.monotonic() - sent
                with self.lock:
                    self.took.append(took)
                    if answer is None:
                        self.unanswered += 1
                    elif answer.code == 0:
                        self.accepted += 1
            except OSError:
                with self.lock:
                    self.errors += 1
                time.sleep(0.05)

    def join(self):
        for thread in self.threads:
            thread.join(max(0.0, self.deadline - time.monotonic()) + 6)
        self.elapsed = time.monotonic() - self.started
        return self


def _reauth_loop(address, seconds=2.0):
    """On one logged-in PLAIN connection, re-authentications back to back for up
    to `seconds`: (when each went through, how the loop ended, seconds run)."""
    through, end = [], "time up"
    with logged_in(address, "PLAIN") as session:
        started = time.monotonic()
        try:
            while time.monotonic() - started < seconds:
                shake = session.handshake("PLAIN")
                if shake is None or shake[0] != 0:
                    end = "SaslHandshake %s" % ("closed" if shake is None else
                                                "error %d" % shake[0])
                    break
                answer = session.authenticate(plain_token("alice", "alice-secret"))
                if answer is None or answer.code != 0:
                    end = "SaslAuthenticate %s" % ("closed" if answer is None else
                                                   "error %d" % answer.code)
                    break
                through.append(time.monotonic())
        except OSError as error:
            end = "no answer (%s)" % error
        return through, end, time.monotonic() - started


def _reauth_unconfigured(address):
    """A logged-in PLAIN connection's SaslHandshake without
    --connections-max-reauth-ms: (what happened, problem or None); refused with
    ILLEGAL_SASL_STATE and closed."""
    with logged_in(address, "PLAIN") as session:
        try:
            shake = session.handshake("PLAIN")
        except OSError as error:
            return "no answer", "a re-authentication neither answered nor closed (%s)" % error
        if shake is None:
            return "closed", None
        if shake[0] == 0:
            answer = session.authenticate(plain_token("alice", "alice-secret"))
            went = answer is not None and answer.code == 0
            return ("re-authenticated" if went else "handshake accepted",
                    "a re-authentication %s without --connections-max-reauth-ms"
                    % ("went through" if went else "accepted at SaslHandshake"))
        if shake[0] != ILLEGAL_SASL_STATE:
            return "refused %d" % shake[0], ("a re-authentication refused with %d, not "
                                             "ILLEGAL_SASL_STATE (34)" % shake[0])
        try:
            after = session.sock.recv(1)
        except (socket.timeout, TimeoutError):
            return "refused 34, left open", "a refused re-authentication left open"
        except OSError:
            after = b""
        if after:
            return "refused 34, then sent more", "bytes after the refusal"
        return "refused 34, closed", None


def _request_during_reauth(address):
    """Metadata after a re-authentication's SaslHandshake (1.5 s after login,
    --connections-max-reauth-ms set): (what happened, problem or None); the
    connection is closed, the Metadata not answered."""
    with logged_in(address, "PLAIN") as session:
        time.sleep(1.5)
        shake = session.handshake("PLAIN")
        if shake is None or shake[0] != 0:
            return ("re-authentication refused", "a re-authentication 1.5 s after login "
                    "refused (%r) with --connections-max-reauth-ms set" % (shake,))
        try:
            got = session.call(requests.metadata_all(session.next_corr()))
        except OSError:
            return "Metadata neither answered nor closed", ("a Metadata during a "
                                                            "re-authentication left waiting")
        if got is not None:
            return "Metadata answered", "a Metadata during a re-authentication answered"
        return "closed", None


def plain_guessing(ctx, proxied=False, guessers=4, seconds=5.0):
    """For 5 s, four connections at a time guess alice's PLAIN password, a new
    connection per guess: every failure answered at least 90 ms after its
    SaslAuthenticate (the failed-authentication delay); guesses a second, and a
    logged-in bystander's Metadata p50/p95 before and during, reported. On the
    broker also: re-authentication refused (34) without
    --connections-max-reauth-ms; with it, at most one a second on a connection
    re-authenticating back to back, and a Metadata after a re-authentication's
    SaslHandshake closes the connection."""
    front, started = _start(ctx, proxied)
    out = Outcome("PLAIN guessing" + ("" if proxied else ", re-authentication"), front.name,
                  LIMIT_MIB)
    bystander = None
    try:
        bystander = LoggedIn(front.address, period=0.1)
        if not bystander.wait_ready():
            raise RuntimeError("the bystander could not log in")
        time.sleep(2.0)
        attack_from = time.monotonic()
        guesses = _Guesses(front.address, guessers, seconds).join()
        attack_to = time.monotonic()
        took = guesses.took
        rate = len(took) / guesses.elapsed
        fast = [t for t in took if t < FAILED_AUTH_DELAY * 0.9]
        figures = ["%d guesses, %.0f/s, answered after %s-%s" % (
            len(took), rate, _ms(min(took, default=0)), _ms(max(took, default=0)))]
        if fast:
            out.problems.append("%d of %d failed logins answered within 90 ms (fastest %s)"
                                % (len(fast), len(took), _ms(min(fast))))
        if guesses.unanswered:
            out.problems.append("%d failed logins closed without an answer" % guesses.unanswered)
        if guesses.accepted:
            out.problems.append("%d wrong passwords accepted" % guesses.accepted)
        if not took:
            out.problems.append("no guess answered (%d connection errors)" % guesses.errors)
        if not proxied:
            _many_guessers(front, out, figures)
            what, problem = _reauth_unconfigured(front.address)
            figures.append("re-auth unset: %s" % what)
            if problem:
                out.problems.append(problem)
            _reauth_probes(ctx, out, figures)
        out.closed = "; ".join(figures)
        out.check_behind(started, LIMIT_MIB)
        out.finish(front, bystander)
        before = bystander.latencies(until=attack_from)
        during = bystander.latencies(attack_from, attack_to)
        out.answered += "; p50/p95 %s/%s before, %s/%s during" % (
            _ms(percentile(before, 0.5)), _ms(percentile(before, 0.95)),
            _ms(percentile(during, 0.5)), _ms(percentile(during, 0.95)))
        return out
    finally:
        _stop_bystander(bystander)
        stop_all(started)


def _many_guessers(broker, out, figures, guessers=48, seconds=4.0, slack=0.5):
    """`guessers` connections at a time guessing PLAIN for `seconds`: the broker
    spends at most its authentication threads (as it states them at start) and
    `slack` of a core on them, since every key derivation runs in that bounded
    pool (on the runtime's threads, they took every core: 1.85 of 2)."""
    threads = logged_figure(broker, "sasl_server_authentication_threads")
    cpu_before, started = _cpu_seconds(broker.proc.pid), time.monotonic()
    guesses = _Guesses(broker.address, guessers, seconds).join()
    cores = (_cpu_seconds(broker.proc.pid) - cpu_before) / (time.monotonic() - started)
    figures.append("%d at a time: %.0f/s, %.2f cores (%d authentication threads)" % (
        guessers, len(guesses.took) / guesses.elapsed, cores, threads))
    if cores > threads + slack:
        out.problems.append("%d guessers took %.2f cores of the broker, past its %d "
                            "authentication threads" % (guessers, cores, threads))


def _reauth_probes(ctx, out, figures):
    """With --connections-max-reauth-ms 60000: re-authentications back to back
    (at most one a second through), and a request during one (closed)."""
    broker = ctx.broker(*(ALICE + ("--connections-max-reauth-ms", "60000")))
    try:
        through, end, ran = _reauth_loop(broker.address)
        gaps = [b - a for a, b in zip(through, through[1:])]
        figures.append("back to back: %d re-auths in %.1f s, then %s" % (len(through), ran, end))
        if len(through) > ran + 1 or any(gap < 0.9 for gap in gaps):
            out.problems.append("%d re-authentications in %.1f s on one connection (at most "
                                "one a second)" % (len(through), ran))
        what, problem = _request_during_reauth(broker.address)
        figures.append("Metadata mid-re-auth: %s" % what)
        if problem:
            out.problems.append(problem)
        if not broker.alive():
            out.problems.append("the broker with --connections-max-reauth-ms died")
    finally:
        broker.stop()


def plain_guessing_proxied(ctx):
    """The guessing part against the proxy (which serves no re-authentication)."""
    return plain_guessing(ctx, proxied=True)


# ------------------------------------------------------ proxy before login --

def proxy_before_login(ctx, silent=300, declared=60 * MiB):
    """300 silent connects to a terminating proxy with --upstream-sasl: the
    broker behind sees no new connection (its descriptors) and the proxy spends
    under 0.2 s of CPU on them (no login upstream for clients not logged in).
    Then an unauthenticated ApiVersions declaring 60 MiB: closed at its prefix,
    nothing of it reaching the broker (whose peak memory stays put)."""
    proxy, broker = ctx.proxied(*TERMINATING, broker_flags=PROXY_USER)
    started = (proxy, broker)
    out = Outcome("%d silent connects, a 60 MiB frame" % silent, "proxy", LIMIT_MIB)
    socks, bystander = [], None
    try:
        bystander = LoggedIn(proxy.address, period=0.25)
        if not bystander.wait_ready():
            raise RuntimeError("the bystander could not log in")
        time.sleep(0.5)
        fds_before, cpu_before = broker.fds(), _cpu_seconds(proxy.proc.pid)
        socks, failed = _open(proxy.address, silent)
        time.sleep(2.0)
        fds_after, cpu_after = broker.fds(), _cpu_seconds(proxy.proc.pid)
        _close_all(socks)
        cpu = cpu_after - cpu_before
        figures = ["broker fds %s -> %s, proxy CPU %.2f s for %d connects" % (
            fds_before, fds_after, cpu, silent - failed)]
        if fds_before is None or fds_after is None or fds_after - fds_before > 2:
            out.problems.append("the broker's descriptors went %s -> %s for %d silent clients"
                                % (fds_before, fds_after, silent))
        if cpu >= 0.2:
            out.problems.append("the proxy spent %.2f s of CPU on %d silent connects"
                                % (cpu, silent))
        time.sleep(0.5)
        peak_before = broker.peak_mib
        whole = requests.api_versions(1)
        head = requests.declaring(whole, declared - (len(whole) - 4))
        end, sent = "closed", 0
        try:
            sock = connect(proxy.address, 10)
        except OSError as error:
            sock, end = None, "could not connect (%s)" % error
        if sock is not None:
            with sock:
                sent, error = _stream(sock, head, b"\0", declared + 4)
                if error is None:
                    try:
                        got = read_frame(sock)
                        end = "closed" if got is None else "answered"
                    except OSError as failed:
                        error = failed
                if _timed_out(error):
                    end = "neither read nor answered nor closed (%.1f MiB sent)" % (sent / MiB)
        time.sleep(0.5)
        peak_after = broker.peak_mib
        figures.append("60 MiB ApiVersions %s after %.1f MiB sent; broker peak %.0f -> %.0f MiB"
                       % (end, sent / MiB, peak_before, peak_after))
        if end != "closed":
            out.problems.append("an unauthenticated 60 MiB ApiVersions %s" % end)
        elif sent >= declared + 4:
            out.problems.append("the unauthenticated 60 MiB frame was read whole before the "
                                "close")
        if peak_after - peak_before > 16:
            out.problems.append("the broker's peak rose %.0f MiB: the frame went upstream"
                                % (peak_after - peak_before))
        out.closed = "; ".join(figures)
        out.check_behind(started, LIMIT_MIB)
        return out.finish(proxy, bystander)
    finally:
        _stop_bystander(bystander)
        _close_all(socks)
        stop_all(started)


# -------------------------------------------------------- user enumeration --

def _server_first(address, name):
    """(salt bytes, iterations) of the SCRAM-SHA-512 server-first for `name`, or
    None if not answered."""
    with Session(address, 5) as session:
        shake = session.handshake("SCRAM-SHA-512")
        if shake is None or shake[0] != 0:
            return None
        answer = session.authenticate(("n,,n=%s,r=enumeration" % name).encode())
        if answer is None or answer.code != 0:
            return None
        attrs = scram_attributes(answer.auth_bytes)
        return len(base64.b64decode(attrs.get("s", ""))), attrs.get("i")


def _plain_failure(address, user, password):
    """Seconds from a PLAIN SaslAuthenticate sent to its answer (or close)."""
    with Session(address, 5) as session:
        shake = session.handshake("PLAIN")
        if shake is None or shake[0] != 0:
            raise LoginFailed("SaslHandshake PLAIN answered %r" % (shake,))
        sent = time.monotonic()
        answer = session.authenticate(plain_token(user, password))
        took = time.monotonic() - sent
    if answer is not None and answer.code == 0:
        raise LoginFailed("%s logged in with a wrong password" % user)
    return took


def user_enumeration(ctx, unknown=("carol", "dave", "erin", "mallory", "trent"), tries=15):
    """A users file with bob alone (SCRAM-SHA-512, 8192 iterations, a 16-byte
    salt): the server-first for 5 unknown names shows bob's salt length and
    iteration count; PLAIN failures for bob (wrong password) and for an unknown
    name, 15 each, interleaved, have medians within a factor 1.5. The failure
    delay is off here, so that the key derivation alone is timed (the 100 ms
    delay, the same for both, would hide a difference of milliseconds)."""
    path = os.path.join(ctx.logs, "user_enumeration-users.txt")
    with open(path, "w") as f:
        f.write("# bob alone, made by tests/hostility/auth.py\nbob SCRAM-SHA-512 %s\n"
                % scram_credential("SCRAM-SHA-512", "bob-secret", os.urandom(16), 8192))
    broker = ctx.broker("--sasl-users-file", path,
                        "--connection-failed-authentication-delay-ms", "0")
    out = Outcome("SCRAM server-first, PLAIN timing", "broker", LIMIT_MIB)
    bystander = None
    try:
        bystander = Bystander(broker.address)
        bob = _server_first(broker.address, "bob")
        others = {name: _server_first(broker.address, name) for name in unknown}
        if bob != (16, "8192"):
            out.problems.append("bob's server-first shows %r, not a 16-byte salt and i=8192"
                                % (bob,))
        differing = {name: got for name, got in others.items() if got != bob}
        if differing:
            shown = sorted(set(differing.values()), key=repr)
            out.problems.append("unknown names answered %s (salt bytes, i), bob %r"
                                % (", ".join(map(repr, shown)), bob))
        known, stranger = [], []
        for n in range(tries):
            known.append(_plain_failure(broker.address, "bob", "wrong-%d" % n))
            stranger.append(_plain_failure(broker.address, "nobody", "wrong-%d" % n))
        known_median, unknown_median = statistics.median(known), statistics.median(stranger)
        ratio = max(known_median, unknown_median) / max(min(known_median, unknown_median), 1e-6)
        out.closed = ("server-first salt/i: bob %s, unknown %s; PLAIN failure medians: bob "
                      "%s, unknown %s (x%.2f)" % (
                          "%s/%s" % bob if bob else "-",
                          "/".join(sorted(set("%s/%s" % g if g else "-" for g in
                                              others.values()))),
                          _ms(known_median), _ms(unknown_median), ratio))
        if ratio > 1.5:
            out.problems.append("PLAIN failures take %s for bob, %s for an unknown name "
                                "(x%.1f, 1.5 allowed)" % (_ms(known_median),
                                                          _ms(unknown_median), ratio))
        return out.finish(broker, bystander)
    finally:
        _stop_bystander(bystander)
        broker.stop()


PROBES = [sasl_huge_token, sasl_huge_token_proxied, prefix_hold, prefix_hold_proxied,
          strangers_at_limit, strangers_at_limit_proxied, plain_guessing, plain_guessing_proxied,
          proxy_before_login, user_enumeration]
