#!/usr/bin/env python3
"""Send each captured request frame to a broker and report what comes back.

    replay_fixtures.py HOST:PORT [FIXTURE.hex ...] [--full]

Default fixtures: every tests/fixtures/captured/*.hex. Each frame goes on its
own fresh connection, exactly as captured (length prefix included). Prints,
per file: the response length, its correlation_id and the first bytes after
it (or "closed"/"timeout" when nothing came back). --full prints the whole
response hex. Standard library only.
"""

import argparse
import glob
import os
import socket
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "captured")


def roundtrip(host, port, frame, timeout):
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(frame)
        buf = b""
        try:
            while len(buf) < 4 or len(buf) < 4 + struct.unpack(">i", buf[:4])[0]:
                chunk = s.recv(65536)
                if not chunk:
                    return None, "closed after %d bytes" % len(buf)
                buf += chunk
        except socket.timeout:
            return None, "timeout after %d bytes" % len(buf)
    return buf, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("addr")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--timeout", type=float, default=3)
    args = ap.parse_args()
    host, port = args.addr.rsplit(":", 1)
    files = args.files or sorted(glob.glob(os.path.join(FIXTURES, "*.hex")))
    for path in files:
        frame = bytes.fromhex(open(path).read().strip())
        key, ver, corr = struct.unpack(">hhi", frame[4:12])
        resp, why = roundtrip(host, int(port), frame, args.timeout)
        name = os.path.basename(path)
        if resp is None:
            print("%-55s k%d v%d -> %s" % (name, key, ver, why))
            continue
        rcorr = struct.unpack(">i", resp[4:8])[0]
        shown = resp.hex() if args.full else resp[8:24].hex() + ("..." if len(resp) > 24 else "")
        print("%-55s k%d v%d -> %d bytes corr=%d%s %s" % (
            name, key, ver, len(resp), rcorr, "" if rcorr == corr else " (MISMATCH)", shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
