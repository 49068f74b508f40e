#!/usr/bin/env python3
"""Capture the request frames a Kafka client sends.

A tiny TCP server (standard library only) that listens on 127.0.0.1, reads
Kafka frames (big-endian int32 length N, then N bytes) from every connection
and saves each frame, length prefix included, as one lowercase hex string in
its own file:

    OUTDIR/c<conn>-f<seq>-k<api_key>-v<api_version>.hex

By default it also answers ApiVersions (any version; above v4 it answers v0
with error 35 UNSUPPORTED_VERSION, as Kafka does), Metadata (any version
0..12, advertising itself as the only broker and no topics) and
DescribeCluster v0/v1, so that clients go on from ApiVersions to Metadata. Any other request is captured and left
unanswered. With --silent nothing is answered at all.

Usage:
    capture.py --out DIR [--port 0] [--port-file FILE] [--silent]
               [--duration SECONDS]

It prints "listening on 127.0.0.1:PORT" once ready (and writes PORT to
--port-file). It stops on SIGTERM/SIGINT or after --duration seconds.
"""

import argparse
import os
import struct
import sys
import threading
import time

from serving import recv_frame, serve
from kafka_codec import TAGS, array_len, i16, i32, nullable_string, string

API_VERSIONS = 18
METADATA = 3
DESCRIBE_CLUSTER = 60

# (api_key, min, max) advertised in our ApiVersionsResponse: roughly what an
# Apache Kafka 3.9 broker advertises for the common APIs.
ADVERTISED = [
    (0, 0, 11),   # Produce
    (1, 0, 17),   # Fetch
    (2, 0, 9),    # ListOffsets
    (3, 0, 12),   # Metadata
    (8, 0, 9),    # OffsetCommit
    (9, 0, 9),    # OffsetFetch
    (10, 0, 6),   # FindCoordinator
    (11, 0, 9),   # JoinGroup
    (12, 0, 4),   # Heartbeat
    (13, 0, 5),   # LeaveGroup
    (14, 0, 5),   # SyncGroup
    (15, 0, 5),   # DescribeGroups
    (16, 0, 5),   # ListGroups
    (17, 0, 1),   # SaslHandshake
    (18, 0, 4),   # ApiVersions
    (19, 0, 7),   # CreateTopics
    (20, 0, 6),   # DeleteTopics
    (21, 0, 2),   # DeleteRecords
    (22, 0, 5),   # InitProducerId
    (32, 0, 4),   # DescribeConfigs
    (33, 0, 2),   # AlterConfigs
    (36, 0, 2),   # SaslAuthenticate
    (37, 0, 3),   # CreatePartitions
    (42, 0, 2),   # DeleteGroups
    (60, 0, 1),   # DescribeCluster
]
API_VERSIONS_MAX = 4
METADATA_MAX = 12
CLUSTER_ID = "capture-cluster"
NODE_ID = 1


# ---------------------------------------------------------------- encoding --









# ------------------------------------------------------------- responses ---

def api_versions_response(correlation_id, version):
    """Response header is always v0 for ApiVersions (KIP-511)."""
    error = 0
    if version > API_VERSIONS_MAX:
        # Kafka: answer v0 with UNSUPPORTED_VERSION and the supported ranges.
        error, version = 35, 0
    flexible = version >= 3
    body = i16(error) + array_len(len(ADVERTISED), flexible)
    for key, lo, hi in ADVERTISED:
        body += i16(key) + i16(lo) + i16(hi)
        if flexible:
            body += TAGS
    if version >= 1:
        body += i32(0)  # throttle_time_ms
    if flexible:
        body += TAGS
    return i32(correlation_id) + body


def metadata_response(correlation_id, version, host, port):
    flexible = version >= 9
    header = i32(correlation_id) + (TAGS if flexible else b"")
    body = b""
    if version >= 3:
        body += i32(0)  # throttle_time_ms
    body += array_len(1, flexible)
    body += i32(NODE_ID) + string(host, flexible) + i32(port)
    if version >= 1:
        body += nullable_string(None, flexible)  # rack
    if flexible:
        body += TAGS
    if version >= 2:
        body += nullable_string(CLUSTER_ID, flexible)
    if version >= 1:
        body += i32(NODE_ID)  # controller_id
    body += array_len(0, flexible)  # no topics
    if 8 <= version <= 10:
        body += i32(-2147483648)  # cluster_authorized_operations
    if flexible:
        body += TAGS
    return header + body


def describe_cluster_response(correlation_id, version, host, port):
    """DescribeCluster v0/v1 (always flexible: header v1)."""
    body = i32(0) + i16(0) + nullable_string(None, True)  # throttle, error, message
    if version >= 1:
        body += b"\x01"  # endpoint_type = 1 (brokers)
    body += string(CLUSTER_ID, True) + i32(NODE_ID)
    body += array_len(1, True) + i32(NODE_ID) + string(host, True) + i32(port)
    body += nullable_string(None, True) + TAGS  # rack, broker tags
    body += i32(-2147483648) + TAGS  # cluster_authorized_operations, tags
    return i32(correlation_id) + TAGS + body


# ----------------------------------------------------------------- server --

class Capture:
    def __init__(self, out, silent, log):
        self.out = out
        self.silent = silent
        self.log = log
        self.conn_seq = 0
        self.lock = threading.Lock()

    def note(self, msg):
        line = "%.3f %s" % (time.time(), msg)
        with self.lock:
            self.log.write(line + "\n")
            self.log.flush()
        print(line, flush=True)

    def handle(self, sock, peer):
        with self.lock:
            self.conn_seq += 1
            conn = self.conn_seq
        host, port = sock.getsockname()[:2]
        self.note("conn %d from %s:%d" % (conn, peer[0], peer[1]))
        seq = 0
        try:
            while True:
                frame = recv_frame(sock, self.note, conn)
                if frame is None:
                    break
                prefix, payload = frame
                n = len(payload)
                seq += 1
                key = ver = corr = -1
                if n >= 8:
                    key, ver, corr = struct.unpack(">hhi", payload[:8])
                name = "c%d-f%d-k%d-v%d.hex" % (conn, seq, key, ver)
                with open(os.path.join(self.out, name), "w") as f:
                    f.write((prefix + payload).hex())
                self.note("conn %d frame %d: len=%d api_key=%d api_version=%d "
                          "correlation_id=%d -> %s" % (conn, seq, n, key, ver, corr, name))
                if self.silent:
                    continue
                resp = None
                if key == API_VERSIONS:
                    resp = api_versions_response(corr, ver)
                elif key == METADATA and 0 <= ver <= METADATA_MAX:
                    resp = metadata_response(corr, ver, host, port)
                elif key == DESCRIBE_CLUSTER and 0 <= ver <= 1:
                    resp = describe_cluster_response(corr, ver, host, port)
                if resp is not None:
                    sock.sendall(i32(len(resp)) + resp)
                    self.note("conn %d: answered api_key=%d v%d (%d bytes)"
                              % (conn, key, ver, len(resp)))
        except OSError as e:
            self.note("conn %d: %s" % (conn, e))
        finally:
            sock.close()
            self.note("conn %d closed after %d frames" % (conn, seq))



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="folder for the .hex files")
    ap.add_argument("--port", type=int, default=0, help="0 = pick a free port")
    ap.add_argument("--port-file", help="write the chosen port here")
    ap.add_argument("--silent", action="store_true", help="never answer")
    ap.add_argument("--duration", type=float, default=0,
                    help="stop after this many seconds (0 = until signalled)")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    log = open(os.path.join(args.out, "capture.log"), "a")
    cap = Capture(args.out, args.silent, log)

    serve(args.port, args.port_file, cap.handle, args.duration, cap.note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
