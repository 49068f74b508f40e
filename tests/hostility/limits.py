"""The limits the servers are configured to keep, each as a probe in the style of
attacks.py (`probe(ctx) -> Outcome`, a bystander asking ApiVersions meanwhile):

- memory: 85 connections each declare a 100 MiB frame and send all but its last
  byte, so that the request budget is held by stalled frames, then complete it;
  peak memory stays within the budget (+ the response budget for a proxy) plus
  OVERHEAD_MIB, and small requests are answered throughout.
- idle: 1,000 connections each send one byte of a frame a second; with
  --connections-max-idle-ms 5000 the server closes every one 5 s (+ slack) after
  it connected, although none is ever silent for 5 s.
- connections: more silent connections than the proxy's connection limit; a new
  client is still answered, the connections idle longest evicted to admit it.
- upstream timeout: the broker behind a proxy is stopped (SIGSTOP); a client with
  a request in flight is closed within --request-timeout-ms (+ slack).
- prefixes (issue 29): 30 connections each declare a 100 MiB frame and send 10
  bytes of it; the server's memory follows the bytes, not the declared lengths,
  and its small-request reserve is at most its request budget.
- a wait for the budget (issue 29) counts toward the idle timeout: a connection
  waiting behind two that hold the budget and send nothing is closed on time.
- connection rates (issue 29): --connection-creation-rate refuses an address's
  connections past it; --max-connection-creation-rate makes accepting wait.

Bounded: fixed counts, a deadline on every wait, every socket closed at the end."""

import os
import re
import resource
import selectors
import signal
import socket
import threading
import time

import requests
from attacks import Outcome
from servers import Bystander, ask, connect, logged_figure, read_frame, stop_all

MiB = 1024 * 1024
FRAME = 100 * MiB  # socket.request.max.bytes's default: the largest frame a server takes
ATTACKERS = 85  # 8.5 GiB declared at once against a 512 MiB budget
BUDGET_MIB = 512  # queued.max.request.bytes's default in both servers
RESPONSE_BUDGET_MIB = 512  # the proxy's --queued-max-response-bytes default
OVERHEAD_MIB = 160  # runtime, buffers of idle sockets, allocator slack
BROKER_LIMIT_MIB = BUDGET_MIB + OVERHEAD_MIB
PROXY_LIMIT_MIB = BUDGET_MIB + RESPONSE_BUDGET_MIB + OVERHEAD_MIB
SMALL_LIMIT_MIB = 256  # attacks.py's limit where no budget is at stake
MAX_CLIENTS = 9968  # the proxy's own connection limit at RLIMIT_NOFILE 20,000
OVER_LIMIT = 132  # connections opened beyond the proxy's limit: 10,100 at 9,968
ZEROS = memoryview(bytes(MiB))


def _stop_bystander(bystander):
    """Stops the bystander if a probe failed before Outcome.finish did (stopping it
    twice is harmless), so that it does not ask on into the next probe."""
    if bystander is not None:
        bystander.stop()


def _close_all(socks):
    """Shuts down and closes our sockets, so that no attack outlives its probe (a
    shutdown also wakes a thread blocked sending on one; a close alone does not)."""
    for sock in list(socks):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()


# ------------------------------------------------------------------- memory --

class _Flood:
    """ATTACKERS connections, each a thread sending a FRAME-byte ApiVersions (a
    tiny request padded with bytes it ignores) but for its last byte, which it
    sends once released; what each got back is kept for the report."""

    def __init__(self, address):
        """Starts the attackers at once, against `address`."""
        self.address = address
        whole = requests.api_versions(1000)
        self.padding = FRAME - (len(whole) - 4)
        self.head = requests.declaring(whole, self.padding)
        self.released = threading.Event()
        self.sent = [0] * ATTACKERS
        self.ends = [None] * ATTACKERS  # "answered", "closed", or None: an error
        self.socks = []
        self.threads = [threading.Thread(target=self._attack, args=(i,), daemon=True)
                        for i in range(ATTACKERS)]
        for thread in self.threads:
            thread.start()

    def _attack(self, i):
        """One attacker: its frame but the last byte, the release, that byte, the end."""
        try:
            with connect(self.address, timeout=60) as sock:
                self.socks.append(sock)
                sock.sendall(self.head)
                left = self.padding - 1
                while left > 0:
                    n = min(left, MiB)
                    sock.sendall(ZEROS[:n])
                    left -= n
                    self.sent[i] += n
                self.released.wait(60)
                sock.sendall(b"\0")
                self.ends[i] = "answered" if sock.recv(64) else "closed"
        except OSError:
            pass

    def wait_stalled(self, most=10.0):
        """Waits (at most `most` s) until no attacker has moved for a second: the
        budget held, the rest blocked. How many frames are held whole, all but
        their last byte sent."""
        deadline = time.monotonic() + most
        before, still_since = -1, time.monotonic()
        while time.monotonic() < deadline:
            now = sum(self.sent)
            if now != before:
                before, still_since = now, time.monotonic()
            elif now and time.monotonic() - still_since >= 1.0:
                break
            time.sleep(0.1)
        return sum(1 for n in self.sent if n >= self.padding - 1)

    def finish(self, most=60.0):
        """Sends every last byte; True if every attacker was answered or closed
        within `most` s."""
        self.released.set()
        deadline = time.monotonic() + most
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self.threads)

    def close(self):
        """Ends every attacker still running, whatever became of the probe."""
        self.released.set()
        _close_all(self.socks)


def _memory(ctx, proxied):
    """85 x 100 MiB against the 512 MiB request budget: held while stalled, then
    completed; peak memory within the budget(s) + OVERHEAD_MIB and small requests
    answered throughout, while stalled included."""
    budget = ("--queued-max-request-bytes", str(BUDGET_MIB * MiB))
    front, servers = ctx.start(proxied, budget)
    out = Outcome("%d x 100 MiB frames, stalled" % ATTACKERS, front.name,
                  PROXY_LIMIT_MIB if proxied else BROKER_LIMIT_MIB)
    flood = bystander = None
    try:
        bystander = Bystander(front.address)
        flood = _Flood(front.address)
        held = flood.wait_stalled()
        stalled = sum(1 for _ in range(3) if ask(front.address, requests.api_versions(7)))
        finished = flood.finish()
        after = ask(front.address, requests.api_versions(8))
        answered = flood.ends.count("answered")
        out.closed = "%d held stalled, %d/%d answered, %d closed" % (
            held, answered, ATTACKERS, flood.ends.count("closed"))
        if proxied:
            out.closed += "; broker %.0f/%d MiB" % (servers[1].peak_mib, BROKER_LIMIT_MIB)
        if held == 0:
            out.problems.append("no frame held whole: the budget never stalled them")
        if stalled < 3:
            out.problems.append("%d/3 small requests answered while stalled" % stalled)
        if not finished or None in flood.ends:
            out.problems.append("%d attackers neither answered nor closed in 60 s"
                                % flood.ends.count(None))
        if after is None:
            out.problems.append("no answer after the flood")
        out.check_behind(servers, BROKER_LIMIT_MIB)
        return out.finish(front, bystander)
    finally:
        _stop_bystander(bystander)
        if flood is not None:
            flood.close()
        stop_all(servers)


def memory_budget(ctx):
    """The broker's request budget, on its own."""
    return _memory(ctx, proxied=False)


def memory_budget_proxied(ctx):
    """The proxy's budgets, and the broker's behind it (which the proxy relays to)."""
    return _memory(ctx, proxied=True)


# --------------------------------------------------------------------- idle --

def _idle(ctx, proxied, count=1000, idle_ms=5000, slack=2.0):
    """`count` connections dribbling a 1,010-byte frame a byte a second: each closed
    between idle_ms - 0.5 s and idle_ms + slack after it connected (the frame not
    done is no activity), and a new client answered after."""
    front, servers = ctx.start(proxied, ("--connections-max-idle-ms", str(idle_ms)))
    out = Outcome("%d connections, 1 byte/s" % count, front.name, SMALL_LIMIT_MIB)
    frame = requests.declaring(requests.api_versions(1), 1000)
    opened, closed_after = {}, []
    sel, bystander = selectors.DefaultSelector(), None
    try:
        bystander = Bystander(front.address)
        for _ in range(count):
            sock = connect(front.address)
            sock.setblocking(False)
            opened[sock] = time.monotonic()
            sel.register(sock, selectors.EVENT_READ)
        sent, next_byte = 0, time.monotonic()
        deadline = time.monotonic() + idle_ms / 1000 + 15
        while opened and time.monotonic() < deadline:
            if time.monotonic() >= next_byte and sent < len(frame):
                for sock in opened:
                    try:
                        sock.send(frame[sent:sent + 1])
                    except OSError:
                        pass
                sent, next_byte = sent + 1, next_byte + 1.0
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
        fresh = ask(front.address, requests.api_versions(2))
        low, high = idle_ms / 1000 - 0.5, idle_ms / 1000 + slack
        out.closed = "%d/%d after %.2f-%.2f s (%d bytes each)" % (
            len(closed_after), count, min(closed_after, default=0),
            max(closed_after, default=0), sent)
        if len(closed_after) < count:
            out.problems.append("%d connections left open" % (count - len(closed_after)))
        if closed_after and (min(closed_after) < low or max(closed_after) > high):
            out.problems.append("closed after %.2f-%.2f s, not %.1f-%.1f s" % (
                min(closed_after), max(closed_after), low, high))
        if fresh is None:
            out.problems.append("a new client not answered after")
        out.check_behind(servers)
        return out.finish(front, bystander)
    finally:
        _stop_bystander(bystander)
        sel.close()
        _close_all(opened)
        stop_all(servers)


def idle_timeout(ctx):
    """The broker's idle timeout."""
    return _idle(ctx, proxied=False)


def idle_timeout_proxied(ctx):
    """The proxy's idle timeout, its broker given the same one."""
    return _idle(ctx, proxied=True)


# -------------------------------------------------------------- connections --

def connection_limit_proxied(ctx):
    """OVER_LIMIT more silent connections than the proxy's limit (its own, from
    the descriptors it may open, or MAX_CLIENTS where that is more, so that the
    count stays bounded): a new client still answered, the proxy alive, and one
    connection evicted for each over the limit, most of them the oldest (idle
    longest)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    flags = ("--max-connections", str(MAX_CLIENTS)) if soft > 2 * MAX_CLIENTS + 64 else ()
    front, servers = ctx.start(True, flags)
    out = Outcome("connections over the limit", front.name, SMALL_LIMIT_MIB)
    socks, sel, bystander = [], selectors.DefaultSelector(), None
    try:
        limit = logged_figure(front, "max_connections")
        count = limit + OVER_LIMIT
        if count + 64 > soft:
            raise RuntimeError("%d connections need more descriptors than %d" % (count, soft))
        bystander = Bystander(front.address)
        failed, deadline = 0, time.monotonic() + 60
        while len(socks) + failed < count and time.monotonic() < deadline:
            try:
                socks.append(connect(front.address))
            except OSError:
                failed += 1
        time.sleep(2)
        answered = sum(1 for i in range(3) if ask(front.address, requests.api_versions(i)))
        # Which of ours the proxy closed to make room: readable, at their end.
        for index, sock in enumerate(socks):
            sock.setblocking(False)
            sel.register(sock, selectors.EVENT_READ, index)
        evicted = []
        for key, _ in sel.select(timeout=1):
            try:
                gone = not key.fileobj.recv(1)
            except OSError:
                gone = True
            if gone:
                evicted.append(key.data)
        fds, strays = front.fds(), _not_oldest(evicted)
        out.closed = "%d/%d opened, %d evicted (%d not oldest); limit %d, fds %s" % (
            len(socks), count, len(evicted), len(strays), limit, fds)
        if len(socks) < count:
            out.problems.append("%d of %d connections not opened" % (count - len(socks), count))
        if answered < 3:
            out.problems.append("%d/3 new clients answered at the limit" % answered)
        if len(evicted) < len(socks) - limit:
            out.problems.append("%d evicted, %d over the limit" % (len(evicted),
                                                                  len(socks) - limit))
        # Any newcomer closed instead of the oldest idle connection is a failure:
        # it is what running out of descriptors at the limit looked like.
        if strays:
            out.problems.append("evicted, though not the oldest: %s" % strays[:5])
        out.check_behind(servers)
        return out.finish(front, bystander)
    finally:
        _stop_bystander(bystander)
        sel.close()
        _close_all(socks)
        stop_all(servers)


def _not_oldest(evicted):
    """Those of the connections closed (by index, in the order opened) that are not
    among the oldest, up to slack: all silent, the oldest are the ones idle longest.
    Most must be the oldest, or the proxy refuses the new instead of evicting; a
    few may not be, as when a burst at the limit runs it out of descriptors and it
    closes a new client it cannot connect upstream (its log says so)."""
    return sorted(i for i in evicted if i >= len(evicted) + 64)


# --------------------------------------------------------- upstream timeout --

def _thread_state(pid, task):
    """A thread's state letter, the field after the parenthesised name in its stat."""
    with open("/proc/%d/task/%s/stat" % (pid, task)) as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def _wait_stopped(pid, most=5.0):
    """Returns once every thread of `pid` is stopped (state T in /proc), at most
    `most` s: kill() only queues SIGSTOP, and on a busy machine a broker thread
    still running could answer the next request (seen once: "answered while the
    broker was stopped")."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        try:
            states = [_thread_state(pid, task) for task in os.listdir("/proc/%d/task" % pid)]
        except (FileNotFoundError, ProcessLookupError):
            return
        if all(state in ("T", "t") for state in states):
            return
        time.sleep(0.01)


def upstream_timeout(ctx, timeout_ms=3000, slack=1.0):
    """The broker behind a proxy stopped (SIGSTOP) with a request in flight: the
    proxy closes the client between timeout_ms - 0.5 s and timeout_ms + slack,
    and, the broker resumed (SIGCONT), answers the bystander."""
    proxy, broker = ctx.proxied("--request-timeout-ms", str(timeout_ms))
    out = Outcome("broker stopped, request in flight", proxy.name, SMALL_LIMIT_MIB)
    bystander = None
    try:
        with connect(proxy.address, timeout=30) as sock:
            sock.sendall(requests.api_versions(1))
            if read_frame(sock) is None:
                out.problems.append("no answer before the broker was stopped")
            os.kill(broker.proc.pid, signal.SIGSTOP)
            _wait_stopped(broker.proc.pid)
            started = time.monotonic()
            sock.sendall(requests.api_versions(2))
            try:
                end = sock.recv(65536)
            except OSError:  # reset, or our own 30 s timeout: judged by the time
                end = b""
            waited = time.monotonic() - started
        os.kill(broker.proc.pid, signal.SIGCONT)
        # Another client, only once the broker is back: until then none can be answered.
        bystander = Bystander(proxy.address)
        time.sleep(1.0)
        low, high = timeout_ms / 1000 - 0.5, timeout_ms / 1000 + slack
        out.closed = ("answered after %.2f s" if end else "closed after %.2f s") % waited
        if end:
            out.problems.append("answered while the broker was stopped")
        elif not low <= waited <= high:
            out.problems.append("closed after %.2f s, not %.1f-%.1f s" % (waited, low, high))
        out.check_behind((proxy, broker))
        return out.finish(proxy, bystander)
    finally:
        _stop_bystander(bystander)
        stop_all((proxy, broker))  # continues the broker first if it is stopped


# -------------------------------------------------- prefixes and the budget --

def prefix_memory(ctx, count=30, address_space_mib=1536):
    """`count` connections each declare a 100 MiB frame (ApiVersions padded) and
    send its first 10 bytes, then nothing, with a request budget that covers them
    all (4 GiB) and the broker's address space capped at 1.5 GiB: it stays alive,
    answers, and within SMALL_LIMIT_MIB, since a buffer grows with the bytes that
    arrive, not with the length declared (a 100 MiB buffer for each prefix, 3 GiB
    of address space, aborted it: Rust aborts when an allocation fails)."""
    front = ctx.broker("--queued-max-request-bytes", str(4096 * MiB),
                       address_space_mib=address_space_mib)
    servers = (front,)
    out = Outcome("%d x 100 MiB prefixes, 10 bytes, %d MiB of address space"
                  % (count, address_space_mib), front.name, SMALL_LIMIT_MIB)
    socks, bystander = [], None
    try:
        bystander = Bystander(front.address)
        whole = requests.api_versions(1)
        head = requests.declaring(whole, FRAME - (len(whole) - 4))[:14]
        for _ in range(count):
            sock = connect(front.address)
            socks.append(sock)
            sock.sendall(head)
        time.sleep(2)
        answered = ask(front.address, requests.api_versions(2))
        out.closed = "%d holding, %s" % (count, "a new client answered" if answered else "-")
        if answered is None:
            out.problems.append("a new client not answered while they held")
        return out.finish(front, bystander)
    finally:
        _stop_bystander(bystander)
        _close_all(socks)
        stop_all(servers)


def budget_wait_idle(ctx, idle_ms=3000, slack=1.5):
    """A 2 MiB request budget held by two connections that each declare a 1 MiB
    frame and send nothing more; a third declares one too and waits for the
    budget. Every one is closed within idle_ms + slack of connecting: the wait is
    no activity (it was: the third was lent its wait, and closed twice as late)."""
    flags = ("--queued-max-request-bytes", str(2 * MiB + 8), "--socket-request-max-bytes",
             str(MiB), "--small-request-max-bytes", "1024", "--connections-max-idle-ms",
             str(idle_ms))
    front, servers = ctx.start(False, flags)
    out = Outcome("a wait for the budget, idle", front.name, SMALL_LIMIT_MIB)
    socks, bystander = [], None
    try:
        bystander = Bystander(front.address)
        whole = requests.api_versions(1)
        head = requests.declaring(whole, MiB - (len(whole) - 4))[:10]
        opened = []
        for _ in range(3):
            sock = connect(front.address, timeout=idle_ms / 1000 + 10)
            sock.sendall(head)
            socks.append(sock)
            opened.append(time.monotonic())
            time.sleep(0.2)  # the first two take the budget, the third waits
        closed_after = []
        for sock, at in zip(socks, opened):
            try:
                end = sock.recv(64)
            except OSError:
                end = b""
            closed_after.append(time.monotonic() - at)
            if end:
                out.problems.append("a holder was answered")
        out.closed = "closed after %s s" % ", ".join("%.2f" % t for t in closed_after)
        late = [t for t in closed_after if not idle_ms / 1000 - 0.5 <= t <= idle_ms / 1000 + slack]
        if late:
            out.problems.append("closed after %s s, not %.1f-%.1f s" % (
                ", ".join("%.2f" % t for t in late), idle_ms / 1000 - 0.5,
                idle_ms / 1000 + slack))
        return out.finish(front, bystander)
    finally:
        _stop_bystander(bystander)
        _close_all(socks)
        stop_all(servers)


def _ask_many(address, count):
    """`count` connections opened at once, each asking ApiVersions: when each was
    answered (s after the first was opened), or None if closed unanswered."""
    started = time.monotonic()
    results = [None] * count

    def one(i):
        try:
            with connect(address, timeout=15) as sock:
                sock.sendall(requests.api_versions(i + 1))
                if read_frame(sock) is not None:
                    results[i] = time.monotonic() - started
        except OSError:
            pass

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    return results


def connection_rates(ctx, per_ip=10, in_all=20):
    """--connection-creation-rate (Kafka's per-IP connection_creation_rate quota):
    40 connections at once from one address, about `per_ip` answered and the rest
    closed unanswered, a new one answered a second later. Then
    --max-connection-creation-rate (in all): 60 connections at once all answered,
    the last no sooner than 1.5 s after the first (a second's worth at once, then
    `in_all` a second), as accepting waits. And, at the defaults, the reserve for
    small requests the server states is at most its request budget (it was 1.2
    GiB beside 512 MiB at 20,000 connections)."""
    out = Outcome("connection creation rates", "broker", SMALL_LIMIT_MIB)
    front, servers = ctx.start(False, ("--connection-creation-rate", str(per_ip)))
    try:
        reserve = logged_figure(front, "small_request_reserve_bytes")
        budget = logged_figure(front, "queued_max_request_bytes")
        if reserve > budget:
            out.problems.append("the small-request reserve (%d MiB) is more than the request "
                                "budget (%d MiB)" % (reserve // MiB, budget // MiB))
        got = _ask_many(front.address, 40)
        answered = sum(1 for t in got if t is not None)
        time.sleep(1.2)
        later = ask(front.address, requests.api_versions(99))
        figures = ["reserve %d MiB, budget %d MiB" % (reserve // MiB, budget // MiB),
                   "per IP %d/s: %d/40 answered" % (per_ip, answered)]
        if not per_ip <= answered <= per_ip + 3:
            out.problems.append("%d of 40 answered at --connection-creation-rate %d"
                                % (answered, per_ip))
        if later is None:
            out.problems.append("a connection a second later not answered")
        out.closed = "; ".join(figures)
        out.finish(front)
    finally:
        stop_all(servers)
    if out.problems:
        return out
    front, servers = ctx.start(False, ("--max-connection-creation-rate", str(in_all)))
    try:
        got = _ask_many(front.address, 60)
        answered = [t for t in got if t is not None]
        last = max(answered, default=0.0)
        figures.append("in all %d/s: %d/60 answered, the last after %.2f s"
                       % (in_all, len(answered), last))
        if len(answered) < 60:
            out.problems.append("%d of 60 answered at --max-connection-creation-rate %d"
                                % (len(answered), in_all))
        if last < 1.5:
            out.problems.append("60 connections answered in %.2f s at %d a second"
                                % (last, in_all))
        out.closed = "; ".join(figures)
        return out.finish(front)
    finally:
        stop_all(servers)


PROBES = [memory_budget, memory_budget_proxied, idle_timeout, idle_timeout_proxied,
          connection_limit_proxied, upstream_timeout, prefix_memory, budget_wait_idle,
          connection_rates]
