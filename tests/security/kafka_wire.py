"""The few Kafka requests the Kafka suite sends by hand, written from Kafka's
schemas (standard library only, so that the checks do not lean on the Rust
code under test): ApiVersions v5 (KIP-1242: ClusterId and NodeId), Metadata
v12 (the cluster id, the brokers, leaders, and whether a topic exists),
ListOffsets v7 (an end offset), CreateTopics v7, ElectLeaders v2 (a
preferred leader, at once: a tool's JVM takes seconds to start on a loaded
machine), SaslHandshake v1 and SaslAuthenticate v2 for a PLAIN login,
SaslHandshake v0 and bare tokens for PLAIN and SCRAM (RFC 5802). Each answer
is read field by field; a frame with bytes left over is an error."""

import base64
import hashlib
import hmac
import os
import socket
import ssl
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
from kafka_codec import (TAGS, CodecError, Reader, i8, i16, i32, i64, nullable_string, read_frame,  # noqa: E402
                         read_uvarint, request, string, uvarint)

CLIENT_ID = "kwire-kafka-suite"
REBOOTSTRAP_REQUIRED = 129
UNKNOWN_TOPIC_OR_PARTITION = 3


# What the suite's checks raise: the shared Reader's errors (bytes that end
# early or run on) and the answers' own (an error code, a missing topic).
WireError = CodecError


def connect(address, ca=None, timeout=10.0):
    """A socket to HOST:PORT, over TLS (the host name checked) when `ca` is
    given."""
    host, port = address.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=timeout)
    if ca:
        sock = ssl.create_default_context(cafile=ca).wrap_socket(sock, server_hostname=host)
    sock.settimeout(timeout)
    return sock


def round_trip(sock, frame, correlation, flexible_header):
    """Sends `frame`; the answer's body after its header, or WireError."""
    sock.sendall(frame)
    answer = read_frame(sock)
    if answer is None:
        raise WireError("closed without an answer")
    reader = Reader(answer)
    got = reader.int32()
    if got != correlation:
        raise WireError("correlation id %d, sent %d" % (got, correlation))
    if flexible_header:
        reader.tags()
    return reader


def api_versions_v5(sock, cluster_id, node_id, correlation=1):
    """ApiVersions v5 naming `cluster_id` and `node_id` (None and -1: not
    known); the top-level error code and the number of APIs offered.
    (KIP-511: its answer has a v0 header whatever the version.)"""
    body = (string("kwire-kafka-suite", True) + string("1", True)
            + nullable_string(cluster_id, True) + i32(node_id) + TAGS)
    reader = round_trip(sock, request(18, 5, correlation, body, True, CLIENT_ID), correlation,
                        False)
    error = reader.int16()
    apis = reader.compact_array(lambda: (reader.int16(), reader.int16(), reader.int16(),
                                         reader.tags()))
    reader.int32()  # throttle_time_ms
    reader.tags()
    reader.end()
    return error, len(apis or [])


def metadata(sock, topics=None, correlation=2):
    """Metadata v12 for `topics` (None: all), never creating one; a dict:
    cluster_id, controller_id, brokers {id: "host:port"}, topics {name:
    (error_code, leaders {partition: leader})}."""
    if topics is None:
        wanted = uvarint(0)
    else:
        # topic_id (zero: by name), name, tagged fields.
        wanted = uvarint(len(topics) + 1) + b"".join(
            bytes(16) + string(name, True) + TAGS for name in topics)
    body = wanted + i8(0) + i8(0) + TAGS  # no auto-creation, no authorized operations
    reader = round_trip(sock, request(3, 12, correlation, body, True, CLIENT_ID), correlation,
                        True)
    reader.int32()  # throttle_time_ms
    brokers = {}

    def broker():
        node, host, port = reader.int32(), reader.compact_string(), reader.int32()
        reader.compact_string()  # rack
        reader.tags()
        brokers[node] = "%s:%d" % (host, port)
    reader.compact_array(broker)
    cluster_id, controller = reader.compact_string(), reader.int32()
    found = {}

    def partition():
        error, index, leader = reader.int16(), reader.int32(), reader.int32()
        reader.int32()  # leader_epoch
        for _ in range(3):  # replicas, isr, offline replicas
            reader.compact_array(reader.int32)
        reader.tags()
        return index, leader, error

    def topic():
        error, name = reader.int16(), reader.compact_string()
        reader.take(16)  # topic_id
        reader.int8()  # is_internal
        partitions = reader.compact_array(partition) or []
        reader.int32()  # topic_authorized_operations
        reader.tags()
        found[name] = (error, dict((index, leader) for index, leader, _ in partitions))
    reader.compact_array(topic)
    reader.tags()
    reader.end()
    return {"cluster_id": cluster_id, "controller_id": controller, "brokers": brokers,
            "topics": found}


def create_topic(sock, name, correlation=6, timeout_ms=30000):
    """CreateTopics v7: `name` with one partition and the cluster's default
    replication factor; its error code (0, or 36 TOPIC_ALREADY_EXISTS)."""
    topic = (string(name, True) + i32(1) + i16(-1) + uvarint(1) + uvarint(1) + TAGS)
    body = uvarint(2) + topic + i32(timeout_ms) + i8(0) + TAGS
    reader = round_trip(sock, request(19, 7, correlation, body, True, CLIENT_ID), correlation,
                        True)
    reader.int32()  # throttle_time_ms
    errors = []

    def config():
        reader.compact_string(), reader.compact_string()
        reader.int8(), reader.int8(), reader.int8()  # read-only, source, sensitive
        reader.tags()

    def result():
        reader.compact_string()
        reader.take(16)  # topic_id
        errors.append(reader.int16())
        reader.compact_string()  # error_message
        reader.int32(), reader.int16()  # partitions, replication factor
        reader.compact_array(config)
        reader.tags()
    reader.compact_array(result)
    reader.tags()
    reader.end()
    if len(errors) != 1:
        raise WireError("CreateTopics: %d results" % len(errors))
    return errors[0]


def topic_ready(address, name, timeout=30.0):
    """Creates `name` on Kafka (a PLAINTEXT `address`) and waits until its
    partition has a leader; whether it has one in time."""
    with connect(address) as sock:
        error = create_topic(sock, name)
        if error not in (0, 36):
            raise WireError("CreateTopics %s: error %d" % (name, error))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = metadata(sock, [name])["topics"].get(name)
            if found and found[0] == 0 and found[1].get(0, -1) >= 0:
                return True
            time.sleep(0.05)
    return False


def latest_offset(sock, topic, correlation=5):
    """ListOffsets v7 on the leader `sock` leads to: partition 0's end offset."""
    partition = i32(0) + i32(-1) + i64(-1) + TAGS  # index, leader epoch, latest
    body = (i32(-1) + i8(0) + uvarint(2) + string(topic, True) + uvarint(2) + partition + TAGS
            + TAGS)
    reader = round_trip(sock, request(2, 7, correlation, body, True, CLIENT_ID), correlation,
                        True)
    reader.int32()  # throttle_time_ms
    found = []

    def one():
        reader.int32()
        error = reader.int16()
        reader.int64()  # timestamp
        offset = reader.int64()
        reader.int32()  # leader epoch
        reader.tags()
        if error != 0:
            raise WireError("ListOffsets: error %d for %s" % (error, topic))
        found.append(offset)

    def topic_answer():
        reader.compact_string()
        reader.compact_array(one)
        reader.tags()
    reader.compact_array(topic_answer)
    reader.tags()
    reader.end()
    if len(found) != 1:
        raise WireError("ListOffsets: %d partitions answered" % len(found))
    return found[0]


def elect_preferred_leaders(sock, topics, correlation=4, timeout_ms=30000):
    """ElectLeaders v2, the preferred replica of partition 0 of each of
    `topics`; {topic: error code} (0 elected; 84 ELECTION_NOT_NEEDED: it
    leads already)."""
    wanted = uvarint(len(topics) + 1) + b"".join(
        string(topic, True) + uvarint(2) + i32(0) + TAGS for topic in topics)
    body = i8(0) + wanted + i32(timeout_ms) + TAGS
    reader = round_trip(sock, request(43, 2, correlation, body, True, CLIENT_ID), correlation,
                        True)
    reader.int32()  # throttle_time_ms
    top = reader.int16()
    results = {}

    def partition():
        reader.int32()
        error = reader.int16()
        reader.compact_string()
        reader.tags()
        return error

    def topic():
        name = reader.compact_string()
        errors = reader.compact_array(partition) or []
        reader.tags()
        results[name] = errors[0] if errors else top
    reader.compact_array(topic)
    reader.tags()
    reader.end()
    if top != 0:
        raise WireError("ElectLeaders answered error %d" % top)
    return results


def plain_login(sock, user, password, correlation=3):
    """SaslHandshake v1 for PLAIN, then SaslAuthenticate v2 with `user` and
    `password`; whether it was accepted (a refusal may also close)."""
    handshake = request(17, 1, correlation, string("PLAIN", False), False, CLIENT_ID)
    reader = round_trip(sock, handshake, correlation, False)
    if reader.int16() != 0:
        return False
    token = b"\0" + user.encode() + b"\0" + password.encode()
    body = uvarint(len(token) + 1) + token + TAGS
    try:
        reader = round_trip(sock, request(36, 2, correlation + 1, body, True, CLIENT_ID),
                            correlation + 1, True)
    except (WireError, OSError):
        return False
    return reader.int16() == 0


def _token(sock, token):
    """One bare SASL token each way (after SaslHandshake v0); the reply, or
    None when the server closed instead."""
    sock.sendall(struct.pack(">i", len(token)) + token)
    try:
        return read_frame(sock)
    except OSError:
        return None


def _scram(sock, hash_name, user, password):
    """SCRAM (RFC 5802) over bare tokens; whether the server proved itself
    and accepted the proof."""
    nonce = base64.b64encode(os.urandom(18)).decode()
    first_bare = "n=%s,r=%s" % (user, nonce)
    server_first = _token(sock, ("n,," + first_bare).encode())
    if not server_first:
        return False
    fields = dict(part.split("=", 1) for part in server_first.decode().split(","))
    if not fields.get("r", "").startswith(nonce):
        return False
    salted = hashlib.pbkdf2_hmac(hash_name, password.encode(), base64.b64decode(fields["s"]),
                                 int(fields["i"]))
    hmac_of = lambda key, text: hmac.new(key, text, hash_name).digest()  # noqa: E731
    client_key = hmac_of(salted, b"Client Key")
    without_proof = "c=biws,r=%s" % fields["r"]
    auth = ("%s,%s,%s" % (first_bare, server_first.decode(), without_proof)).encode()
    signature = hmac_of(hashlib.new(hash_name, client_key).digest(), auth)
    proof = bytes(a ^ b for a, b in zip(client_key, signature))
    server_final = _token(sock, ("%s,p=%s" % (without_proof, base64.b64encode(proof).decode()))
                          .encode())
    if not server_final:
        return False
    expected = hmac_of(hmac_of(salted, b"Server Key"), auth)
    return server_final.decode() == "v=" + base64.b64encode(expected).decode()


def sasl_v0_login(sock, mechanism, user, password, correlation=7):
    """SaslHandshake v0 for `mechanism` (PLAIN, SCRAM-SHA-256 or
    SCRAM-SHA-512), then its bare tokens, as clients did before
    SaslAuthenticate (KIP-152); whether it logged in (a refusal closes)."""
    handshake = request(17, 0, correlation, string(mechanism, False), False, CLIENT_ID)
    reader = round_trip(sock, handshake, correlation, False)
    if reader.int16() != 0:
        return False
    if mechanism == "PLAIN":
        # Kafka answers an accepted PLAIN token with an empty one.
        reply = _token(sock, b"\0" + user.encode() + b"\0" + password.encode())
        return reply == b""
    return _scram(sock, {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}[mechanism],
                  user, password)


def topic_absent(address, topic):
    """Whether Kafka (at a PLAINTEXT `address`) knows no topic `topic`."""
    with connect(address) as sock:
        found = metadata(sock, [topic])["topics"]
    return found.get(topic, (UNKNOWN_TOPIC_OR_PARTITION,))[0] == UNKNOWN_TOPIC_OR_PARTITION

