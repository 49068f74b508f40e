"""Connection-level probes the clients do not make on purpose: pipelining, many
connections at once, a bad frame closing only its own connection, acks=0
(unanswered when written, the connection closed when not), and ApiVersions at
a version the server does not know.

    python3 tests/interop/matrix/probes.py HOST:PORT [--proxy]

run_matrix.py runs them against every setup (our broker and Kafka directly,
our proxy in front of tansu, noida-db and Kafka) before the clients; each
problem is a failure. Kafka 4.4.0 passes every one of them: it is the
reference they are written to.
Standard library only; requests are written by hand with ../kafka_codec.py, so
these probes do not depend on the Rust code they check.
"""

import concurrent.futures as cf
import os
import socket
import struct
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import kafka_codec  # noqa: E402
from kafka_codec import (TAGS, Reader, array_len, i8, i16, i32, nullable_string,  # noqa: E402
                         record_batch, string)

TIMEOUT = 5.0
UNSUPPORTED_VERSION = 35


def request(api_key, version, corr, body, flexible):
    return kafka_codec.request(api_key, version, corr, body, flexible, "probe")


def api_versions(corr, version=3):
    # v3+: client software name and version, compact strings, then tags.
    body = b"\x06probe\x021" + TAGS if version >= 3 else b""
    return request(18, version, corr, body, flexible=version >= 3)


def metadata_v1_all(corr):
    return request(3, 1, corr, i32(-1), flexible=False)  # null topics: all


ACKS0_TOPIC = "probe-acks0"


def produce_acks0(corr, topic, partition, batch):
    """Produce v3, acks 0, one partition; `batch` None sends null records."""
    records = i32(-1) if batch is None else i32(len(batch)) + batch
    body = (nullable_string(None, False) + i16(0) + i32(1000) + array_len(1, False)
            + string(topic, False) + array_len(1, False) + i32(partition) + records)
    return request(0, 3, corr, body, flexible=False)


def metadata_v4(corr, topic):
    """Metadata v4 for one topic, auto-creation allowed."""
    body = array_len(1, False) + string(topic, False) + i8(1)
    return request(3, 4, corr, body, flexible=False)


def leader_of(address, topic, timeout=15.0):
    """The address (as Metadata v4 names it) of the leader of `topic`'s
    partition 0, asking until the topic exists with a leader (auto-created;
    Kafka answers LEADER_NOT_AVAILABLE at first); None on timeout."""
    deadline = time.time() + timeout
    corr = 0
    while time.time() < deadline:
        corr += 1
        with connect(address) as sock:
            sock.sendall(metadata_v4(corr, topic))
            got = read_response(sock)
        if got is None:
            return None
        r = Reader(got[1])
        r.int32()  # throttle_time_ms
        brokers = {}
        for _ in range(r.int32()):
            node = r.int32()
            host = r.nullable_string(False, "replace")
            brokers[node] = "%s:%d" % (host, r.int32())
            r.nullable_string(False, "replace")  # rack
        r.nullable_string(False, "replace")  # cluster_id
        r.int32()  # controller_id
        for _ in range(r.int32()):
            error, name, _internal = r.int16(), r.nullable_string(False, "replace"), r.int8()
            for _ in range(r.int32()):
                p_error, index, leader = r.int16(), r.int32(), r.int32()
                for _ in range(2):  # replicas, isr
                    for _ in range(r.int32()):
                        r.int32()
                if (name == topic and error == 0 and p_error == 0 and index == 0
                        and leader in brokers):
                    return brokers[leader]
        time.sleep(0.2)
    return None


def connect(address):
    return kafka_codec.connect(address, TIMEOUT)


def read_response(sock):
    """(correlation id, body after it) of the next response, or None if closed."""
    data = kafka_codec.read_frame(sock)
    if data is None:
        return None
    return struct.unpack(">i", data[:4])[0], data[4:]


def closed_by_peer(sock):
    """True if the server closes the connection (rather than answering or
    leaving it open) within the timeout."""
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def check_pipelining(address):
    with connect(address) as sock:
        sock.sendall(api_versions(1) + metadata_v1_all(2) + api_versions(3, version=0))
        got = [read_response(sock) for _ in range(3)]
    order = [r[0] if r else None for r in got]
    if order != [1, 2, 3]:
        return ["pipelined requests answered as %s, expected correlation ids [1, 2, 3]" % order]
    return []


def check_many_connections(address, n=50):
    def one(i):
        with connect(address) as sock:
            sock.sendall(api_versions(100 + i))
            got = read_response(sock)
            return got is not None and got[0] == 100 + i
    with cf.ThreadPoolExecutor(max_workers=n) as pool:
        answered = sum(pool.map(one, range(n)))
    return [] if answered == n else ["%d of %d simultaneous connections answered" % (answered, n)]


def closes_only_itself(address, what, frame):
    """`frame` closes its own connection; a connection opened before it still
    works."""
    with connect(address) as good:
        good.sendall(api_versions(1))
        if read_response(good) is None:
            return ["no answer to ApiVersions before the %s" % what]
        problems = []
        with connect(address) as bad:
            bad.sendall(frame)
            if not closed_by_peer(bad):
                problems.append("a %s did not close its connection" % what)
        good.sendall(api_versions(2))
        got = read_response(good)
        if got is None or got[0] != 2:
            problems.append("another connection stopped working after a %s" % what)
    return problems


def check_negative_length(address):
    return closes_only_itself(address, "negative length prefix", i32(-5) + b"xxxx")


def check_truncated_body(address):
    frame = request(18, 3, 9, b"\x06pro", flexible=True)  # a 5-byte name cut at 3
    return closes_only_itself(address, "truncated ApiVersions v3 body", frame)


def check_acks0(address):
    """A Produce with acks=0 that the partition's leader writes gets no answer
    and leaves the connection open; one it cannot write (a partition that
    does not exist) closes the connection unanswered, Kafka's only way to
    tell a producer that waits for nothing to refresh its metadata."""
    leader = leader_of(address, ACKS0_TOPIC)
    if leader is None:
        return ["no leader for %s-0 in Metadata v4 (auto-created)" % ACKS0_TOPIC]
    problems = []
    with connect(leader) as sock:
        sock.sendall(produce_acks0(1, ACKS0_TOPIC, 0, record_batch([b"acks=0"]))
                     + api_versions(2))
        got = read_response(sock)
        if got is None:
            return ["connection closed after a Produce with acks=0 that could be written"]
        if got[0] != 2:
            return ["a Produce with acks=0 was answered (correlation id %d)" % got[0]]
        sock.sendall(produce_acks0(3, ACKS0_TOPIC, 99, record_batch([b"nowhere"])))
        try:
            got = read_response(sock)
        except socket.timeout:
            got = "open"
        except (ConnectionResetError, BrokenPipeError):
            got = None
        if got == "open":
            problems.append("the connection stayed open after a Produce with acks=0 to a "
                            "partition that does not exist")
        elif got is not None:
            problems.append("a Produce with acks=0 to a partition that does not exist was "
                            "answered (correlation id %d) instead of closing" % got[0])
    return problems


def check_unknown_api_versions(address):
    """KIP-511: ApiVersions at a version the server lacks gets a v0 body with
    UNSUPPORTED_VERSION and the server's ApiVersions range."""
    with connect(address) as sock:
        sock.sendall(api_versions(7, version=127))
        got = read_response(sock)
    if got is None:
        return ["ApiVersions v127 closed the connection instead of Kafka's v0 answer"]
    corr, body = got
    error = struct.unpack(">h", body[:2])[0] if len(body) >= 2 else None
    if corr != 7 or error != UNSUPPORTED_VERSION:
        return ["ApiVersions v127 answered with correlation id %d, error %s; expected 7, %d"
                % (corr, error, UNSUPPORTED_VERSION)]
    return []


# Everything is asked of our broker and of Kafka. Through our proxy only what
# the proxy itself decides is asked: what a truncated body, acks=0 or an
# unknown ApiVersions version get is the broker's answer, passed through
# (noida-db answers acks=0; tansu resets the connection on it and answers
# ApiVersions v127 with error 0). In front of Kafka, whose answers are right,
# acks=0 and ApiVersions v127 are asked too: the proxy must expect no answer to
# the one and pass the broker's close on, and pass the other's v0 fallback
# through without counting the request it cannot decode as a failure (a client
# asks at the newest version it knows). A truncated body is a frame the proxy
# cannot decode: it forwards it and counts it as a decode failure, which the
# matrix holds to 0, so it is asked of brokers only.
BROKER_CHECKS = [check_pipelining, check_many_connections, check_negative_length,
                 check_truncated_body, check_acks0, check_unknown_api_versions]
PROXY_CHECKS = [check_pipelining, check_many_connections, check_negative_length]
KAFKA_PROXY_CHECKS = PROXY_CHECKS + [check_acks0, check_unknown_api_versions]


def run(address, checks=BROKER_CHECKS):
    """The probes against address; a list of problems (empty when all pass)."""
    problems = []
    for check in checks:
        try:
            problems += ["%s: %s" % (check.__name__, p) for p in check(address)]
        except OSError as e:
            problems.append("%s: %r" % (check.__name__, e))
    return problems


if __name__ == "__main__":
    checks = PROXY_CHECKS if "--proxy" in sys.argv[2:] else BROKER_CHECKS
    found = run(sys.argv[1], checks)
    for p in found:
        print(p)
    print("%d probes, %d problems" % (len(checks), len(found)))
    sys.exit(1 if found else 0)
