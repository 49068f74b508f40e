#!/usr/bin/env python3
"""Checks a broker's SASL SCRAM login by hand: standard library only.

    tansu_auth.py --port P --user NAME --password PW [--mechanism SCRAM-SHA-512]
                  [--expect ok|fail]
    tansu_auth.py --port P --unauthenticated [--expect fail]

With --user: ApiVersions v0, SaslHandshake v1, then SaslAuthenticate v1 twice
(RFC 5802 client-first and client-final, as Kafka carries them), checks the
server's signature, and sends Metadata v1 on the same connection. Prints one
line and exits 0 when the outcome is the expected one (default ok).

With --unauthenticated: Metadata v1 as the first request; a broker that
requires SASL closes the connection (expect fail, the default then).

For broker.py's `start tansu --sasl-user ...` and `--sasl-required` brokers
(see README.md, "tansu with SASL"). Talks to 127.0.0.1 only; every socket
operation has a timeout.
"""

import argparse
import base64
import hashlib
import hmac
import os
import socket
import struct
import sys

HASHES = {"SCRAM-SHA-256": hashlib.sha256, "SCRAM-SHA-512": hashlib.sha512}


class Closed(Exception):
    pass


class Conn:
    def __init__(self, port, timeout):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.corr = 0

    def request(self, key, version, body):
        """Header v1 request; returns the response body (after correlation id)."""
        self.corr += 1
        client = b"tansu_auth"
        frame = struct.pack(">hhih", key, version, self.corr, len(client)) + client + body
        self.sock.sendall(struct.pack(">i", len(frame)) + frame)
        size = struct.unpack(">i", self._read(4))[0]
        data = self._read(size)
        corr = struct.unpack(">i", data[:4])[0]
        if corr != self.corr:
            raise ValueError("correlation id %d, expected %d" % (corr, self.corr))
        return data[4:]

    def _read(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise Closed("connection closed by the broker")
            buf += chunk
        return buf

    def close(self):
        self.sock.close()


def string(s):
    b = s.encode()
    return struct.pack(">h", len(b)) + b


def read_string(data, at):
    n = struct.unpack(">h", data[at:at + 2])[0]
    if n < 0:
        return None, at + 2
    return data[at + 2:at + 2 + n].decode(errors="replace"), at + 2 + n


def authenticate(conn, token):
    """SaslAuthenticate v1: (error_code, error_message, auth_bytes)."""
    body = conn.request(36, 1, struct.pack(">i", len(token)) + token)
    err = struct.unpack(">h", body[:2])[0]
    msg, at = read_string(body, 2)
    n = struct.unpack(">i", body[at:at + 4])[0]
    return err, msg, body[at + 4:at + 4 + max(n, 0)]


def metadata(conn):
    """Metadata v1 for all topics: list of 'host:port' of the brokers."""
    body = conn.request(3, 1, struct.pack(">i", -1))
    n = struct.unpack(">i", body[:4])[0]
    at, brokers = 4, []
    for _ in range(n):
        at += 4  # node_id
        host, at = read_string(body, at)
        port = struct.unpack(">i", body[at:at + 4])[0]
        _, at = read_string(body, at + 4)  # rack
        brokers.append("%s:%d" % (host, port))
    return brokers


def attrs(msg):
    out = {}
    for part in msg.decode(errors="replace").split(","):
        k, sep, v = part.partition("=")
        if sep:
            out[k] = v
    return out


def scram_login(conn, mechanism, user, password):
    """Returns (ok, detail)."""
    h = HASHES[mechanism]
    conn.request(18, 0, b"")  # ApiVersions, as every client does first
    body = conn.request(17, 1, string(mechanism))
    err = struct.unpack(">h", body[:2])[0]
    if err != 0:
        return False, "SaslHandshake error_code %d" % err
    name = user.replace("=", "=3D").replace(",", "=2C")
    nonce = base64.b64encode(os.urandom(18)).decode()
    first_bare = "n=%s,r=%s" % (name, nonce)
    err, msg, server_first = authenticate(conn, ("n,," + first_bare).encode())
    if err != 0:
        return False, "SaslAuthenticate (client-first) error_code %d %s" % (err, msg)
    a = attrs(server_first)
    if "e" in a:
        return False, "server-first says e=%s" % a["e"]
    if not a.get("r", "").startswith(nonce):
        return False, "server nonce does not extend ours: %r" % server_first
    salted = hashlib.pbkdf2_hmac(h().name, password.encode(), base64.b64decode(a["s"]),
                                 int(a["i"]))
    client_key = hmac.new(salted, b"Client Key", h).digest()
    stored_key = h(client_key).digest()
    final_bare = "c=biws,r=%s" % a["r"]
    auth_message = ",".join([first_bare, server_first.decode(), final_bare]).encode()
    signature = hmac.new(stored_key, auth_message, h).digest()
    proof = bytes(x ^ y for x, y in zip(client_key, signature))
    final = "%s,p=%s" % (final_bare, base64.b64encode(proof).decode())
    err, msg, server_final = authenticate(conn, final.encode())
    b = attrs(server_final)
    if err != 0:
        return False, "SaslAuthenticate (client-final) error_code %d %s %s" % (
            err, msg, server_final.decode(errors="replace"))
    if "e" in b:
        # tansu 0.6.0 answers error_code 0 and puts the failure here.
        return False, "server-final says e=%s (error_code 0)" % b["e"]
    server_key = hmac.new(salted, b"Server Key", h).digest()
    want = base64.b64encode(hmac.new(server_key, auth_message, h).digest()).decode()
    if b.get("v") != want:
        return False, "server signature does not match: %r" % server_final
    return True, "authenticated, server signature verified, %d iterations" % int(a["i"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--user")
    ap.add_argument("--password")
    ap.add_argument("--mechanism", default="SCRAM-SHA-512", choices=sorted(HASHES))
    ap.add_argument("--unauthenticated", action="store_true")
    ap.add_argument("--expect", choices=["ok", "fail"])
    ap.add_argument("--timeout", type=float, default=10)
    args = ap.parse_args()
    if not args.unauthenticated and (args.user is None or args.password is None):
        ap.error("--user and --password, or --unauthenticated")
    expect = args.expect or ("fail" if args.unauthenticated else "ok")
    conn = Conn(args.port, args.timeout)
    try:
        if args.unauthenticated:
            what = "no SASL"
            try:
                ok, detail = True, "Metadata v1 answered: brokers %s" % metadata(conn)
            except Closed as e:
                ok, detail = False, "Metadata v1 refused: " + str(e)
        else:
            what = "%s %s" % (args.mechanism, args.user)
            try:
                ok, detail = scram_login(conn, args.mechanism, args.user, args.password)
                if ok:
                    detail += "; Metadata v1: brokers %s" % metadata(conn)
            except Closed as e:
                ok, detail = False, str(e)
    except (OSError, ValueError, struct.error) as e:
        ok, detail = False, "%s: %s" % (type(e).__name__, e)
    finally:
        conn.close()
    print("%s: %s: %s (expected %s)" % (what, "ok" if ok else "fail", detail, expect))
    return 0 if ok == (expect == "ok") else 1


if __name__ == "__main__":
    sys.exit(main())
