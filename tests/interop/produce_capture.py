#!/usr/bin/env python3
"""A capture server that lets Kafka producers finish a ProduceRequest.

Standard library only. It listens on 127.0.0.1 and behaves enough like a
one-broker cluster for a producer to send its records:

  * ApiVersions (v0..v4; above v4 it answers v0 with error 35, as Kafka does).
    It advertises Produce v3..--produce-max (default 8, so that every Produce
    request is non-flexible), Metadata v0..12, InitProducerId v0..4,
    DescribeCluster v0..1 and, so that clients that guess the broker's
    version from the list see a recent broker, the usual Kafka 3.9 ranges of
    the other common APIs (which are never answered).
  * Metadata v0..12: this server is broker 0 (host 127.0.0.1, its own port),
    controller 0, and every requested topic exists with one partition,
    partition 0, led by broker 0. A request for all topics gets --topic
    (default "fixtures").
  * InitProducerId v0..5: producer id 1000, epoch 0 (--producer-id/--epoch).
  * DescribeCluster v0..1: broker 0.
  * Produce v3..v11 (flexible from v9): the request is parsed, the raw
    `records` bytes of every partition are saved, and it is answered with
    error 0 and base offset = the number of records this server has already
    accepted for that partition (0 for the first request). acks=0 gets no
    answer, as with Kafka.

Every request frame (length prefix included) is saved, like capture.py does,
as OUTDIR/c<conn>-f<seq>-k<api_key>-v<api_version>.hex. For the n-th Produce
request (n from 1) it also writes

    OUTDIR/produce-<n>.frame.hex                 the whole frame again
    OUTDIR/produce-<n>-<topic>-<partition>.records.hex   records bytes, hex
    OUTDIR/produce.jsonl                         one JSON line per request

Usage:
    produce_capture.py --out DIR [--port 0] [--port-file FILE]
                       [--produce-max 8] [--topic fixtures] [--duration S]

It prints "listening on 127.0.0.1:PORT" once ready (and writes PORT to
--port-file). It stops on SIGTERM/SIGINT or after --duration seconds.
"""

import argparse
import json
import os
import struct
import sys
import threading
import time

from serving import recv_frame, serve
from kafka_codec import (
    TAGS, Reader, array_len, i16, i32, i64, nullable_string, string,
)

API_PRODUCE = 0
API_METADATA = 3
API_API_VERSIONS = 18
API_INIT_PRODUCER_ID = 22
API_DESCRIBE_CLUSTER = 60

# First flexible request version of each API we parse (request header v2 and
# response header v1 from there on, except ApiVersions' response header).
FIRST_FLEXIBLE = {
    API_PRODUCE: 9,
    API_METADATA: 9,
    API_API_VERSIONS: 3,
    API_INIT_PRODUCER_ID: 2,
    API_DESCRIBE_CLUSTER: 0,
}

NODE_ID = 0
CLUSTER_ID = "produce-capture"
API_VERSIONS_MAX = 4
METADATA_MAX = 12
INIT_PRODUCER_ID_MAX = 4
PRODUCE_PARSE_MAX = 11


def advertised(produce_max):
    """(api_key, min, max) in our ApiVersionsResponse."""
    return [
        (0, 3, produce_max),  # Produce
        (1, 0, 17),   # Fetch (never answered)
        (2, 0, 9),    # ListOffsets (never answered)
        (3, 0, METADATA_MAX),  # Metadata
        (8, 0, 9),    # OffsetCommit (never answered)
        (9, 0, 9),    # OffsetFetch (never answered)
        (10, 0, 6),   # FindCoordinator (never answered)
        (11, 0, 9),   # JoinGroup (never answered)
        (12, 0, 4),   # Heartbeat (never answered)
        (13, 0, 5),   # LeaveGroup (never answered)
        (14, 0, 5),   # SyncGroup (never answered)
        (15, 0, 5),   # DescribeGroups (never answered)
        (16, 0, 5),   # ListGroups (never answered)
        (18, 0, API_VERSIONS_MAX),  # ApiVersions
        (19, 0, 7),   # CreateTopics (never answered)
        (20, 0, 6),   # DeleteTopics (never answered)
        (22, 0, INIT_PRODUCER_ID_MAX),  # InitProducerId
        (32, 0, 4),   # DescribeConfigs (never answered)
        (60, 0, 1),   # DescribeCluster
    ]


# ---------------------------------------------------------------- encoding --











# ---------------------------------------------------------------- decoding --

def parse_header(payload):
    """Return (api_key, api_version, correlation_id, client_id, body_reader)."""
    r = Reader(payload)
    key, ver, corr = r.int16(), r.int16(), r.int32()
    client_id = r.nullable_string(False, "replace")  # always a non-compact string
    first_flex = FIRST_FLEXIBLE.get(key)
    if first_flex is not None and ver >= first_flex:
        r.tags()
    return key, ver, corr, client_id, r


def parse_metadata_request(r, ver):
    """Requested topic names, or None for all topics."""
    flexible = ver >= 9
    n = r.array_len(flexible)
    if n < 0:
        return None
    if ver == 0 and n == 0:
        return None  # v0: empty list means all topics
    names = []
    for _ in range(n):
        if ver >= 10:
            r.take(16)  # topic_id
        names.append(r.nullable_string(flexible, "replace"))
        if flexible:
            r.tags()
    return names


def parse_produce_request(r, ver):
    flexible = ver >= 9
    req = {"transactional_id": r.nullable_string(flexible, "replace") if ver >= 3 else None}
    req["acks"] = r.int16()
    req["timeout_ms"] = r.int32()
    topics = []
    for _ in range(r.array_len(flexible)):
        name = r.nullable_string(flexible, "replace")
        parts = []
        for _ in range(r.array_len(flexible)):
            index = r.int32()
            records = r.nullable_bytes(flexible)
            if flexible:
                r.tags()
            parts.append((index, records))
        if flexible:
            r.tags()
        topics.append((name, parts))
    if flexible:
        r.tags()
    req["topics"] = topics
    req["trailing_bytes"] = len(r.buf) - r.pos
    return req


def count_records(records):
    """Number of records in a run of v2 record batches (0 if not v2)."""
    total, pos = 0, 0
    while records and pos + 61 <= len(records):
        (length,) = struct.unpack_from(">i", records, pos + 8)
        magic = records[pos + 16]
        if magic != 2:
            return total
        (last_offset_delta,) = struct.unpack_from(">i", records, pos + 23)
        total += last_offset_delta + 1
        pos += 12 + length
    return total


# ------------------------------------------------------------- responses ---

def api_versions_response(corr, ver, produce_max):
    """Response header is always v0 for ApiVersions (KIP-511)."""
    error = 0
    if ver > API_VERSIONS_MAX:
        error, ver = 35, 0
    flexible = ver >= 3
    apis = advertised(produce_max)
    body = i16(error) + array_len(len(apis), flexible)
    for key, lo, hi in apis:
        body += i16(key) + i16(lo) + i16(hi)
        if flexible:
            body += TAGS
    if ver >= 1:
        body += i32(0)  # throttle_time_ms
    if flexible:
        body += TAGS
    return i32(corr) + body


def topic_uuid(name):
    # A fixed, non-zero topic id per name (only sent in Metadata v10+).
    raw = name.encode()
    return (raw * (16 // max(1, len(raw)) + 1))[:16].ljust(16, b"\x01")


def metadata_response(corr, ver, host, port, names):
    flexible = ver >= 9
    out = i32(corr) + (TAGS if flexible else b"")
    if ver >= 3:
        out += i32(0)  # throttle_time_ms
    out += array_len(1, flexible)
    out += i32(NODE_ID) + string(host, flexible) + i32(port)
    if ver >= 1:
        out += nullable_string(None, flexible)  # rack
    if flexible:
        out += TAGS
    if ver >= 2:
        out += nullable_string(CLUSTER_ID, flexible)
    if ver >= 1:
        out += i32(NODE_ID)  # controller_id
    out += array_len(len(names), flexible)
    for name in names:
        out += i16(0)  # error_code
        out += nullable_string(name, flexible) if ver >= 12 else string(name, flexible)
        if ver >= 10:
            out += topic_uuid(name)
        if ver >= 1:
            out += b"\x00"  # is_internal
        out += array_len(1, flexible)  # one partition
        out += i16(0) + i32(0) + i32(NODE_ID)  # error, partition_index, leader_id
        if ver >= 7:
            out += i32(0)  # leader_epoch
        out += array_len(1, flexible) + i32(NODE_ID)  # replica_nodes
        out += array_len(1, flexible) + i32(NODE_ID)  # isr_nodes
        if ver >= 5:
            out += array_len(0, flexible)  # offline_replicas
        if flexible:
            out += TAGS
        if ver >= 8:
            out += i32(-2147483648)  # topic_authorized_operations
        if flexible:
            out += TAGS
    if 8 <= ver <= 10:
        out += i32(-2147483648)  # cluster_authorized_operations
    if flexible:
        out += TAGS
    return out


def init_producer_id_response(corr, ver, producer_id, epoch):
    flexible = ver >= 2
    out = i32(corr) + (TAGS if flexible else b"")
    out += i32(0) + i16(0) + i64(producer_id) + i16(epoch)
    if flexible:
        out += TAGS
    return out


def describe_cluster_response(corr, ver, host, port):
    body = i32(0) + i16(0) + nullable_string(None, True)  # throttle, error, message
    if ver >= 1:
        body += b"\x01"  # endpoint_type = 1 (brokers)
    body += string(CLUSTER_ID, True) + i32(NODE_ID)
    body += array_len(1, True) + i32(NODE_ID) + string(host, True) + i32(port)
    body += nullable_string(None, True) + TAGS  # rack, broker tags
    body += i32(-2147483648) + TAGS  # cluster_authorized_operations, tags
    return i32(corr) + TAGS + body


def produce_response(corr, ver, results):
    """results: [(topic, [(partition, base_offset)])]."""
    flexible = ver >= 9
    out = i32(corr) + (TAGS if flexible else b"")
    out += array_len(len(results), flexible)
    for name, parts in results:
        out += string(name or "", flexible)
        out += array_len(len(parts), flexible)
        for index, base_offset in parts:
            out += i32(index) + i16(0) + i64(base_offset)
            out += i64(-1)  # log_append_time_ms (v2+): -1 = CreateTime
            if ver >= 5:
                out += i64(0)  # log_start_offset
            if ver >= 8:
                out += array_len(0, flexible)  # record_errors
                out += nullable_string(None, flexible)  # error_message
            if flexible:
                out += TAGS
        if flexible:
            out += TAGS
    out += i32(0)  # throttle_time_ms
    if flexible:
        out += TAGS
    return out


# ----------------------------------------------------------------- server --

class Server:
    def __init__(self, args, log):
        self.args = args
        self.out = args.out
        self.log = log
        self.lock = threading.Lock()
        self.conn_seq = 0
        self.produce_seq = 0
        self.next_offset = {}  # (topic, partition) -> next base offset

    def note(self, msg):
        line = "%.3f %s" % (time.time(), msg)
        with self.lock:
            self.log.write(line + "\n")
            self.log.flush()
        print(line, flush=True)

    def write(self, name, text):
        with open(os.path.join(self.out, name), "w") as f:
            f.write(text)

    def on_produce(self, conn, frame, ver, corr, client_id, r):
        req = parse_produce_request(r, ver)
        with self.lock:
            self.produce_seq += 1
            n = self.produce_seq
            results, files = [], []
            for name, parts in req["topics"]:
                res = []
                for index, records in parts:
                    key = (name, index)
                    base = self.next_offset.get(key, 0)
                    self.next_offset[key] = base + count_records(records or b"")
                    res.append((index, base))
                    fname = "produce-%d-%s-%d.records.hex" % (n, name, index)
                    files.append({"topic": name, "partition": index, "file": fname,
                                  "bytes": None if records is None else len(records),
                                  "base_offset": base,
                                  "records": count_records(records or b"")})
                    with open(os.path.join(self.out, fname), "w") as f:
                        f.write("" if records is None else records.hex())
                results.append((name, res))
            with open(os.path.join(self.out, "produce-%d.frame.hex" % n), "w") as f:
                f.write(frame.hex())
            entry = {"n": n, "conn": conn, "api_version": ver, "correlation_id": corr,
                     "client_id": client_id, "acks": req["acks"],
                     "timeout_ms": req["timeout_ms"],
                     "transactional_id": req["transactional_id"],
                     "trailing_bytes": req["trailing_bytes"],
                     "frame": "produce-%d.frame.hex" % n, "partitions": files}
            with open(os.path.join(self.out, "produce.jsonl"), "a") as f:
                f.write(json.dumps(entry) + "\n")
        self.note("conn %d: Produce v%d #%d acks=%d txn=%r partitions=%s" % (
            conn, ver, n, req["acks"], req["transactional_id"],
            ["%s-%d:%sB/%dr" % (p["topic"], p["partition"], p["bytes"], p["records"])
             for p in files]))
        if req["acks"] == 0:
            return None
        return produce_response(corr, ver, results)

    def handle(self, sock, peer):
        with self.lock:
            self.conn_seq += 1
            conn = self.conn_seq
        host, port = sock.getsockname()[:2]
        self.note("conn %d from %s:%d" % (conn, peer[0], peer[1]))
        seq = 0
        try:
            while True:
                frame = recv_frame(sock, self.note, conn, min_len=8)
                if frame is None:
                    break
                prefix, payload = frame
                n = len(payload)
                seq += 1
                key, ver, corr = struct.unpack(">hhi", payload[:8])
                name = "c%d-f%d-k%d-v%d.hex" % (conn, seq, key, ver)
                self.write(name, (prefix + payload).hex())
                self.note("conn %d frame %d: len=%d api_key=%d v%d corr=%d -> %s"
                          % (conn, seq, n, key, ver, corr, name))
                try:
                    resp = self.respond(conn, prefix + payload, host, port)
                except Exception as e:  # a parse error: note it, answer nothing
                    self.note("conn %d: cannot handle api_key=%d v%d: %r" % (conn, key, ver, e))
                    resp = None
                if resp is not None:
                    sock.sendall(i32(len(resp)) + resp)
                    self.note("conn %d: answered api_key=%d v%d (%d bytes)"
                              % (conn, key, ver, len(resp)))
        except OSError as e:
            self.note("conn %d: %s" % (conn, e))
        finally:
            sock.close()
            self.note("conn %d closed after %d frames" % (conn, seq))

    def respond(self, conn, frame, host, port):
        key, ver, corr, client_id, r = parse_header(frame[4:])
        a = self.args
        if key == API_API_VERSIONS:
            return api_versions_response(corr, ver, a.produce_max)
        if key == API_METADATA and 0 <= ver <= METADATA_MAX:
            names = parse_metadata_request(r, ver)
            if names is None:
                names = [a.topic]
            names = [x for x in names if x is not None]
            return metadata_response(corr, ver, host, port, names)
        if key == API_INIT_PRODUCER_ID and 0 <= ver <= 5:
            return init_producer_id_response(corr, ver, a.producer_id, a.epoch)
        if key == API_DESCRIBE_CLUSTER and 0 <= ver <= 1:
            return describe_cluster_response(corr, ver, host, port)
        if key == API_PRODUCE and 3 <= ver <= PRODUCE_PARSE_MAX:
            return self.on_produce(conn, frame, ver, corr, client_id, r)
        self.note("conn %d: api_key=%d v%d left unanswered" % (conn, key, ver))
        return None



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="folder for the .hex files")
    ap.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    ap.add_argument("--port-file", help="write the chosen port here")
    ap.add_argument("--produce-max", type=int, default=8,
                    help="highest Produce version advertised (3..%d)" % PRODUCE_PARSE_MAX)
    ap.add_argument("--topic", default="fixtures", help="topic listed for all-topics Metadata")
    ap.add_argument("--producer-id", type=int, default=1000)
    ap.add_argument("--epoch", type=int, default=0)
    ap.add_argument("--duration", type=float, default=0,
                    help="stop after this many seconds (0 = until signalled)")
    args = ap.parse_args()
    if not 3 <= args.produce_max <= PRODUCE_PARSE_MAX:
        ap.error("--produce-max must be 3..%d" % PRODUCE_PARSE_MAX)

    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "capture.log"), "a")
    server = Server(args, log)

    serve(args.port, args.port_file, server.handle, args.duration, server.note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
