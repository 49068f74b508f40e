#!/usr/bin/env python3
"""Send one hand-made ApiVersions request and print the raw response.

    probe_api_versions.py HOST:PORT [--version 9] [--header 1|2] [--decode]

The request is ApiVersions (api_key 18) at --version with a request header of
--header version (1: client_id only; 2: client_id + empty tagged fields).
For --version >= 3 the body is client_software_name="probe",
client_software_version="1.0" and empty tagged fields (the v3/v4 shape);
below 3 the body is empty. Prints the request and the response (length prefix
included) as hex, then a best-effort decode of the response: correlation_id,
error_code and the api_keys array, read first as the non-flexible v0 form
(int32 count) and then as the flexible v3+ form (unsigned-varint count + 1).
Standard library only; talks only to the address given.
"""

import argparse
import socket
import struct
import sys

from kafka_codec import read_uvarint, uvarint




def build(version, header, corr=7, client_id="probe"):
    cid = client_id.encode()
    h = struct.pack(">hhih", 18, version, corr, len(cid)) + cid
    if header >= 2:
        h += b"\x00"
    body = b""
    if version >= 3:
        body = uvarint(6) + b"probe" + uvarint(4) + b"1.0" + b"\x00"
    payload = h + body
    return struct.pack(">i", len(payload)) + payload


def recv_frame(sock):
    def exact(n):
        buf = bytearray()
        while len(buf) < n:
            c = sock.recv(n - len(buf))
            if not c:
                raise EOFError("connection closed after %d of %d bytes" % (len(buf), n))
            buf += c
        return bytes(buf)
    pre = exact(4)
    (n,) = struct.unpack(">i", pre)
    return pre + exact(n)


def decode(resp):
    lines = []
    b = resp[4:]
    corr, err = struct.unpack(">ih", b[:6])
    lines.append("correlation_id=%d error_code=%d" % (corr, err))
    # non-flexible: int32 count, (key, min, max) * count, [throttle int32]
    try:
        (cnt,) = struct.unpack(">i", b[6:10])
        end = 10 + 6 * cnt
        if 0 <= cnt < 1000 and end <= len(b):
            keys = [struct.unpack(">hhh", b[10 + 6 * k:16 + 6 * k]) for k in range(cnt)]
            lines.append("as non-flexible (v0-v2): %d api keys, %d bytes left after the array"
                         % (cnt, len(b) - end))
            lines.append("  " + " ".join("%d:%d-%d" % k for k in keys))
        else:
            lines.append("as non-flexible: implausible count %d" % cnt)
    except struct.error:
        lines.append("as non-flexible: too short")
    # flexible: uvarint count+1, (key, min, max, tags) * count, throttle, tags
    try:
        n1, i = read_uvarint(b, 6)
        cnt = n1 - 1
        keys = []
        for _ in range(cnt):
            keys.append(struct.unpack(">hhh", b[i:i + 6]))
            i += 6
            ntags, i = read_uvarint(b, i)
            for _ in range(ntags):
                _, i = read_uvarint(b, i)
                sz, i = read_uvarint(b, i)
                i += sz
        lines.append("as flexible (v3+): %d api keys, %d bytes left after the array"
                     % (cnt, len(b) - i))
        lines.append("  " + " ".join("%d:%d-%d" % k for k in keys))
    except (IndexError, struct.error):
        lines.append("as flexible: does not parse")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("addr")
    ap.add_argument("--version", type=int, default=9)
    ap.add_argument("--header", type=int, choices=[1, 2],
                    help="request header version (default: 2 if --version >= 3, else 1)")
    ap.add_argument("--decode", action="store_true")
    ap.add_argument("--timeout", type=float, default=5)
    args = ap.parse_args()
    if args.header is None:
        args.header = 2 if args.version >= 3 else 1
    host, port = args.addr.rsplit(":", 1)
    req = build(args.version, args.header)
    print("request  v%d header v%d: %s" % (args.version, args.header, req.hex()))
    with socket.create_connection((host, int(port)), timeout=args.timeout) as s:
        s.sendall(req)
        try:
            resp = recv_frame(s)
        except (EOFError, socket.timeout) as e:
            print("response: none (%s)" % e)
            return 1
    print("response (%d bytes): %s" % (len(resp), resp.hex()))
    if args.decode:
        print(decode(resp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
