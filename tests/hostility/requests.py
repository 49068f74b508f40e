"""The requests the hostility probes send, written by hand from Kafka's schemas
(standard library only, so that the probes do not depend on the Rust code they
attack), and the one record batch they store.

Every builder returns a whole frame: the 4-byte length, a request header v1
(client id "hostility") and the body."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
# record_batch is kafka_codec's, named here for the probes (requests.record_batch).
from kafka_codec import (TAGS, array_len, i8, i16, i32, i64,  # noqa: E402,F401
                         nullable_string, record_batch, request, string, uvarint)

CLIENT_ID = "hostility"


def frame(api_key, version, corr, body):
    """A non-flexible request (header v1) carrying `body`."""
    return request(api_key, version, corr, body, False, CLIENT_ID)


def api_versions(corr):
    return frame(18, 0, corr, b"")


def declaring(whole, extra):
    """`whole` with its length raised by `extra`: the head of a frame `extra` bytes
    longer, which the caller sends after it (bytes an ApiVersions v0 ignores), so a
    tiny request can make the server take a frame of any size."""
    return i32(len(whole) - 4 + extra) + whole[4:]


def metadata_all(corr):
    """Metadata v1 for every topic (a null topic array)."""
    return frame(3, 1, corr, i32(-1))


def create_topics(corr, name, partitions, replication=1):
    """CreateTopics v4: one topic, no assignments or configs, not validate-only."""
    topic = (string(name, False) + i32(partitions) + i16(replication)
             + array_len(0, False) + array_len(0, False))
    return frame(19, 4, corr, array_len(1, False) + topic + i32(30000) + i8(0))


def produce(corr, topic, partition, batch, acks=-1):
    """Produce v3, one partition; acks=all unless `acks` says otherwise."""
    body = (nullable_string(None, False) + i16(acks) + i32(30000)
            + array_len(1, False) + string(topic, False)
            + array_len(1, False) + i32(partition) + i32(len(batch)) + batch)
    return frame(0, 3, corr, body)


def produce_error_at(topic):
    """Where the first partition's error code sits in a payload answering
    `produce` (v3): after the correlation id, the topic's name and the
    partition index."""
    return 4 + 4 + 2 + len(topic) + 4 + 4


def fetch(corr, topic, partition, repeats, max_bytes, partition_max_bytes, max_wait_ms=0):
    """Fetch v4 naming `partition` of `topic` `repeats` times, from offset 0."""
    one = i32(partition) + i64(0) + i32(partition_max_bytes)
    body = (i32(-1) + i32(max_wait_ms) + i32(1) + i32(max_bytes) + i8(0)
            + array_len(1, False) + string(topic, False)
            + array_len(repeats, False) + one * repeats)
    return frame(1, 4, corr, body)


# --------------------------------------------------------------------- SASL --

def sasl_handshake(corr, mechanism, version=1):
    """SaslHandshake (v0 or v1: the same body, the mechanism's name)."""
    return frame(17, version, corr, string(mechanism, False))


def sasl_authenticate_head(corr, size, version=1):
    """The start of a SaslAuthenticate frame whose auth_bytes are `size` bytes
    long, up to where they begin: the caller sends them after it (in pieces, if
    large), and for v2 then SASL_AUTHENTICATE_TAIL_V2. v0-v1 (header v1, bytes
    with an int32 length) or v2 (flexible: header v2, compact bytes)."""
    if version >= 2:
        header = i16(36) + i16(version) + i32(corr) + nullable_string(CLIENT_ID, False) + TAGS
        lead = header + uvarint(size + 1)
        return i32(len(lead) + size + len(TAGS)) + lead
    lead = i16(36) + i16(version) + i32(corr) + nullable_string(CLIENT_ID, False) + i32(size)
    return i32(len(lead) + size) + lead


SASL_AUTHENTICATE_TAIL_V2 = TAGS  # the body's empty tagged fields, after the bytes


def sasl_authenticate(corr, auth_bytes, version=1):
    """SaslAuthenticate carrying `auth_bytes` (v0-v2)."""
    tail = SASL_AUTHENTICATE_TAIL_V2 if version >= 2 else b""
    return sasl_authenticate_head(corr, len(auth_bytes), version) + auth_bytes + tail
