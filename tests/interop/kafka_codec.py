"""Kafka's primitive encodings, shared by the interop scripts (capture servers,
probes, the batch decoder): big-endian integers, unsigned varints, strings and
arrays in classic and flexible (compact) form, request frames, record batches'
CRC-32C and a small uncompressed batch, and connecting to a server and reading
exact byte counts and whole frames from it. Standard library only."""

import socket
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


class CodecError(ValueError):
    """Bytes that end early, run on, or are not of the shape asked."""


class Reader:
    """Reads a message's fields in order; CodecError when the bytes end
    early, or (`end`) when some are left over."""

    def __init__(self, data, pos=0):
        self.data, self.pos = data, pos

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise CodecError("the bytes end at %d, %d wanted from %d"
                             % (len(self.data), n, self.pos))
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def int8(self):
        return struct.unpack(">b", self.take(1))[0]

    def int16(self):
        return struct.unpack(">h", self.take(2))[0]

    def int32(self):
        return struct.unpack(">i", self.take(4))[0]

    def int64(self):
        return struct.unpack(">q", self.take(8))[0]

    def uvarint(self):
        try:
            value, self.pos = read_uvarint(self.data, self.pos)
        except ValueError as e:
            raise CodecError(str(e)) from None
        return value

    def array_len(self, flexible):
        """-1 for a null array."""
        return self.uvarint() - 1 if flexible else self.int32()

    def nullable_bytes(self, flexible):
        n = self.uvarint() - 1 if flexible else self.int32()
        return None if n < 0 else self.take(n)

    def nullable_string(self, flexible, errors="strict"):
        n = self.uvarint() - 1 if flexible else self.int16()
        return None if n < 0 else self.take(n).decode("utf-8", errors)

    def compact_bytes(self):
        return self.nullable_bytes(True)

    def compact_string(self):
        return self.nullable_string(True)

    def compact_array(self, read_one):
        n = self.array_len(True)
        return None if n < 0 else [read_one() for _ in range(n)]

    def tags(self):
        """Skips a tagged-field section."""
        for _ in range(self.uvarint()):
            self.uvarint()
            self.take(self.uvarint())

    def end(self):
        if self.pos != len(self.data):
            raise CodecError("%d bytes left over" % (len(self.data) - self.pos))


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


def request(api_key, version, corr, body, flexible, client_id):
    """A request frame: header v1 (v2 when flexible), then `body`."""
    header = i16(api_key) + i16(version) + i32(corr) + nullable_string(client_id, False)
    if flexible:
        header += TAGS
    payload = header + body
    return i32(len(payload)) + payload


def connect(address, timeout=5.0):
    """A socket to HOST:PORT with `timeout` on connecting and on every read."""
    host, port = address.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=timeout)
    sock.settimeout(timeout)
    return sock


def read_frame(sock):
    """The next frame's contents (after its length prefix), or None if the
    peer closes first."""
    size = recv_exact(sock, 4)
    if size is None:
        return None
    return recv_exact(sock, struct.unpack(">i", size)[0])


def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def crc32c(data):
    """CRC-32C (Castagnoli), what a record batch's crc field holds."""
    c = 0xFFFFFFFF
    table = _CRC32C
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def varint(v):
    """A record field's signed varint: zigzag, then Kafka's unsigned varint."""
    return uvarint((v << 1) ^ (v >> 63))


def record_batch(values, timestamp=1_700_000_000_000):
    """An uncompressed v2 batch of records with null keys and these values."""
    records = b""
    for delta, value in enumerate(values):
        body = (i8(0) + varint(0) + varint(delta) + varint(-1)
                + varint(len(value)) + value + varint(0))
        records += varint(len(body)) + body
    after_crc = (i16(0) + i32(len(values) - 1) + i64(timestamp) + i64(timestamp)
                 + i64(-1) + i16(-1) + i32(-1) + i32(len(values)) + records)
    crc = struct.pack(">I", crc32c(after_crc))
    after_length = i32(0) + i8(2) + crc + after_crc
    return i64(0) + i32(len(after_length)) + after_length
