"""Kafka's primitive encodings, shared by the interop scripts (capture servers,
probes, the batch decoder): big-endian integers, unsigned varints, strings and
arrays in classic and flexible (compact) form, and reading exact byte counts from
a socket. Standard library only."""

import struct

TAGS = b"\x00"  # an empty tagged-field section


def i8(v):
    return struct.pack(">b", v)


def i16(v):
    return struct.pack(">h", v)


def i32(v):
    return struct.pack(">i", v)


def i64(v):
    return struct.pack(">q", v)


def uvarint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def read_uvarint(buf, pos):
    """The unsigned varint at buf[pos:] and the position after it."""
    shift = value = 0
    while True:
        if pos >= len(buf):
            raise ValueError("varint runs past the end")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def string(s, flexible):
    raw = s.encode()
    return (uvarint(len(raw) + 1) if flexible else i16(len(raw))) + raw


def nullable_string(s, flexible):
    if s is None:
        return uvarint(0) if flexible else i16(-1)
    return string(s, flexible)


def array_len(n, flexible):
    return uvarint(n + 1) if flexible else i32(n)


def recv_exact(sock, n):
    """Exactly n bytes from sock, or None if it closes first."""
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)
