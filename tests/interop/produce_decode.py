#!/usr/bin/env python3
"""Decode Kafka record batches (magic 2) saved as hex, and list their records.

    produce_decode.py FILE.hex [FILE.hex ...] [--expect] [--markdown] [--quiet]

FILE.hex holds the `records` bytes of one partition of a ProduceRequest (one
or more whole record batches), as hex; whitespace is ignored. For each batch
it prints the header fields, checks the batch length and the CRC-32C, decodes
the attributes, decompresses the records and lists them.

Codecs: gzip (zlib, standard library), snappy (raw or xerial-framed) and lz4
(frame format) are decompressed by pure-Python code in this file and, when
the library is installed, checked against cramjam / python-snappy / lz4; zstd
needs `zstandard` or `cramjam`. It also reports the codec framing: the gzip
header, the xerial snappy header and block sizes, the lz4 frame descriptor
(FLG/BD flags, header checksum check) and the zstd frame header.

--expect   check that the file holds exactly the 5 records of
           producers/spec.py (key, value, headers, timestamps); a null header
           value may be written as "" (see the README); exit 1 on a mismatch.
--markdown print a Markdown table of the header fields (for the README).
--quiet    no record listing (header fields and checks only).

Standard library only, plus the codec libraries above when present.
"""

import argparse
import os
import struct
import sys
import zlib

from kafka_codec import crc32c, read_uvarint

HERE = os.path.dirname(os.path.abspath(__file__))

# ------------------------------------------------------------------- xxh32 --

_P1, _P2, _P3, _P4, _P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
_M32 = 0xFFFFFFFF


def _rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & _M32


def xxh32(data, seed=0):
    n = len(data)
    i = 0
    if n >= 16:
        v = [(seed + _P1 + _P2) & _M32, (seed + _P2) & _M32, seed, (seed - _P1) & _M32]
        while i + 16 <= n:
            for j in range(4):
                (w,) = struct.unpack_from("<I", data, i + 4 * j)
                v[j] = (_rotl((v[j] + w * _P2) & _M32, 13) * _P1) & _M32
            i += 16
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & _M32
    else:
        h = (seed + _P5) & _M32
    h = (h + n) & _M32
    while i + 4 <= n:
        (w,) = struct.unpack_from("<I", data, i)
        h = (_rotl((h + w * _P3) & _M32, 17) * _P4) & _M32
        i += 4
    while i < n:
        h = (_rotl((h + data[i] * _P5) & _M32, 11) * _P1) & _M32
        i += 1
    h ^= h >> 15
    h = (h * _P2) & _M32
    h ^= h >> 13
    h = (h * _P3) & _M32
    h ^= h >> 16
    return h


# ------------------------------------------------------------------ varint --


def read_varint(buf, pos):
    v, pos = read_uvarint(buf, pos)
    return (v >> 1) ^ -(v & 1), pos


# ------------------------------------------------------------------ snappy --

def snappy_raw_decompress(data):
    """Decompress one raw snappy block (pure Python)."""
    length, pos = read_uvarint(data, 0)
    out = bytearray()
    while pos < len(data):
        tag = data[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:  # literal
            n = tag >> 2
            if n >= 60:
                extra = n - 59
                n = int.from_bytes(data[pos:pos + extra], "little")
                pos += extra
            n += 1
            out += data[pos:pos + n]
            pos += n
            continue
        if kind == 1:
            n = ((tag >> 2) & 7) + 4
            off = ((tag >> 5) << 8) | data[pos]
            pos += 1
        elif kind == 2:
            n = (tag >> 2) + 1
            off = int.from_bytes(data[pos:pos + 2], "little")
            pos += 2
        else:
            n = (tag >> 2) + 1
            off = int.from_bytes(data[pos:pos + 4], "little")
            pos += 4
        if off == 0 or off > len(out):
            raise ValueError("snappy: bad copy offset %d" % off)
        for _ in range(n):
            out.append(out[-off])
    if len(out) != length:
        raise ValueError("snappy: got %d bytes, header says %d" % (len(out), length))
    return bytes(out)


XERIAL_MAGIC = b"\x82SNAPPY\x00"


def snappy_decompress(data, notes):
    if data[:8] == XERIAL_MAGIC:
        version, compat = struct.unpack_from(">ii", data, 8)
        pos, blocks = 16, []
        while pos < len(data):
            (n,) = struct.unpack_from(">i", data, pos)
            pos += 4
            blocks.append(data[pos:pos + n])
            pos += n
        notes.append("snappy: xerial framing (magic 82 'SNAPPY' 00, version %d, "
                     "compatible %d), %d block(s) of %s compressed bytes"
                     % (version, compat, len(blocks), [len(b) for b in blocks]))
    else:
        notes.append("snappy: raw snappy block, no xerial framing")
        blocks = [data]
    out = b"".join(snappy_raw_decompress(b) for b in blocks)
    try:
        import cramjam
    except ImportError:
        return out
    lib = b"".join(bytes(cramjam.snappy.decompress_raw(b)) for b in blocks)
    notes.append("snappy: %s" % ("pure-Python result checked against cramjam" if lib == out
                                 else "MISMATCH with cramjam"))
    return out


# --------------------------------------------------------------------- lz4 --

def lz4_block_decompress(data, out):
    """Append the decompressed LZ4 block `data` to bytearray `out`."""
    pos = 0
    n = len(data)
    while pos < n:
        token = data[pos]
        pos += 1
        lit = token >> 4
        if lit == 15:
            while True:
                b = data[pos]
                pos += 1
                lit += b
                if b != 255:
                    break
        out += data[pos:pos + lit]
        pos += lit
        if pos >= n:
            break  # last sequence: literals only
        off = data[pos] | (data[pos + 1] << 8)
        pos += 2
        ml = token & 15
        if ml == 15:
            while True:
                b = data[pos]
                pos += 1
                ml += b
                if b != 255:
                    break
        ml += 4
        if off == 0 or off > len(out):
            raise ValueError("lz4: bad match offset %d" % off)
        for _ in range(ml):
            out.append(out[-off])


def lz4_frame_decompress(data, notes):
    (magic,) = struct.unpack_from("<I", data, 0)
    if magic != 0x184D2204:
        raise ValueError("lz4: not a frame (magic %08x)" % magic)
    flg, bd = data[4], data[5]
    version = flg >> 6
    b_indep = (flg >> 5) & 1
    b_checksum = (flg >> 4) & 1
    c_size = (flg >> 3) & 1
    c_checksum = (flg >> 2) & 1
    dict_id = flg & 1
    pos = 6
    content_size = None
    if c_size:
        (content_size,) = struct.unpack_from("<Q", data, pos)
        pos += 8
    if dict_id:
        pos += 4
    hc = data[pos]
    want_hc = (xxh32(data[4:pos]) >> 8) & 0xFF
    want_hc_kafka_broken = (xxh32(data[0:pos]) >> 8) & 0xFF  # old Kafka bug (KAFKA-3160)
    pos += 1
    block_max = {4: "64 KB", 5: "256 KB", 6: "1 MB", 7: "4 MB"}.get((bd >> 4) & 7, "?")
    hc_note = "ok" if hc == want_hc else (
        "WRONG: computed over the magic too (the pre-KIP-57 Kafka bug)"
        if hc == want_hc_kafka_broken else "WRONG (want %02x)" % want_hc)
    notes.append("lz4: frame FLG=%02x (version %d, block independence %d, block checksum %d, "
                 "content size %d, content checksum %d, dict id %d), BD=%02x (block max %s), "
                 "header checksum %02x %s%s"
                 % (flg, version, b_indep, b_checksum, c_size, c_checksum, dict_id, bd,
                    block_max, hc, hc_note,
                    "" if content_size is None else ", content size %d" % content_size))
    out = bytearray()
    blocks = []
    while True:
        (bsize,) = struct.unpack_from("<I", data, pos)
        pos += 4
        if bsize == 0:
            break  # EndMark
        uncompressed = bsize >> 31
        bsize &= 0x7FFFFFFF
        block = data[pos:pos + bsize]
        pos += bsize
        if uncompressed:
            out += block
        else:
            lz4_block_decompress(block, out)
        blocks.append("%d%s" % (bsize, " stored" if uncompressed else ""))
        if b_checksum:
            pos += 4
    if c_checksum:
        (cc,) = struct.unpack_from("<I", data, pos)
        pos += 4
        notes.append("lz4: content checksum %s" % ("ok" if cc == xxh32(bytes(out)) else "WRONG"))
    notes.append("lz4: %d block(s) %s, %d trailing byte(s)" % (len(blocks), blocks, len(data) - pos))
    out = bytes(out)
    try:
        import lz4.frame
        if lz4.frame.decompress(data) != out:
            notes.append("lz4: MISMATCH with the lz4 package")
        else:
            notes.append("lz4: pure-Python result checked against the lz4 package")
    except ImportError:
        pass
    return out


# -------------------------------------------------------------------- zstd --

def zstd_decompress(data, notes):
    (magic,) = struct.unpack_from("<I", data, 0)
    if magic == 0xFD2FB528:
        fhd = data[4]
        fcs_flag = fhd >> 6
        single = (fhd >> 5) & 1
        checksum = (fhd >> 2) & 1
        did_flag = fhd & 3
        pos = 5
        window = None
        if not single:
            wd = data[pos]
            pos += 1
            exp, mant = wd >> 3, wd & 7
            base = 1 << (10 + exp)
            window = base + (base // 8) * mant
        pos += (0, 1, 2, 4)[did_flag]
        fcs_len = (1 if single else 0, 2, 4, 8)[fcs_flag]
        fcs = None
        if fcs_len:
            fcs = int.from_bytes(data[pos:pos + fcs_len], "little")
            if fcs_len == 2:
                fcs += 256
        notes.append("zstd: frame header FHD=%02x (single segment %d, content checksum %d, "
                     "dict id bytes %d, content size %s%s)"
                     % (fhd, single, checksum, (0, 1, 2, 4)[did_flag],
                        "absent" if fcs is None else fcs,
                        "" if window is None else ", window %d" % window))
    else:
        notes.append("zstd: no zstd frame magic (%08x)" % magic)
    try:
        import zstandard
        return zstandard.ZstdDecompressor().decompressobj().decompress(data)
    except ImportError:
        pass
    try:
        import cramjam
        return bytes(cramjam.zstd.decompress(data))
    except ImportError:
        raise RuntimeError("zstd needs the zstandard or cramjam package")


# -------------------------------------------------------------------- gzip --

def gzip_decompress(data, notes):
    if data[:2] == b"\x1f\x8b":
        flg = data[3]
        (mtime,) = struct.unpack_from("<I", data, 4)
        notes.append("gzip: header FLG=%02x mtime=%d XFL=%d OS=%d" % (flg, mtime, data[8], data[9]))
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = d.decompress(data) + d.flush()
    if d.unused_data:
        notes.append("gzip: %d byte(s) after the gzip member" % len(d.unused_data))
    return out


CODECS = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}


def decompress(codec, data, notes):
    if codec == 0:
        return data
    if codec == 1:
        return gzip_decompress(data, notes)
    if codec == 2:
        return snappy_decompress(data, notes)
    if codec == 3:
        return lz4_frame_decompress(data, notes)
    if codec == 4:
        return zstd_decompress(data, notes)
    raise ValueError("unknown codec %d" % codec)


# ----------------------------------------------------------------- records --

def parse_records(buf, count):
    recs = []
    pos = 0
    for _ in range(count):
        length, pos = read_varint(buf, pos)
        end = pos + length
        attributes = buf[pos]
        pos += 1
        ts_delta, pos = read_varint(buf, pos)
        off_delta, pos = read_varint(buf, pos)
        klen, pos = read_varint(buf, pos)
        key = None if klen < 0 else bytes(buf[pos:pos + klen])
        pos += max(klen, 0)
        vlen, pos = read_varint(buf, pos)
        value = None if vlen < 0 else bytes(buf[pos:pos + vlen])
        pos += max(vlen, 0)
        nh, pos = read_varint(buf, pos)
        headers = []
        for _ in range(nh):
            hklen, pos = read_varint(buf, pos)
            hk = bytes(buf[pos:pos + hklen]).decode("utf-8", "replace")
            pos += hklen
            hvlen, pos = read_varint(buf, pos)
            hv = None if hvlen < 0 else bytes(buf[pos:pos + hvlen])
            pos += max(hvlen, 0)
            headers.append((hk, hv))
        if pos != end:
            raise ValueError("record length %d but fields end at %d" % (length, pos - (end - length)))
        recs.append(dict(length=length, attributes=attributes, timestamp_delta=ts_delta,
                         offset_delta=off_delta, key=key, value=value, headers=headers))
    return recs, pos


def parse_batches(data):
    batches = []
    pos = 0
    while pos < len(data):
        if len(data) - pos < 61:
            raise ValueError("%d trailing bytes at %d, too short for a batch header"
                             % (len(data) - pos, pos))
        (base_offset, length, leader_epoch, magic) = struct.unpack_from(">qiib", data, pos)
        if magic != 2:
            raise ValueError("batch at %d has magic %d; only magic 2 is decoded" % (pos, magic))
        (crc, attributes, last_offset_delta, first_ts, max_ts, producer_id, producer_epoch,
         base_sequence, count) = struct.unpack_from(">IhiqqqhiI", data, pos + 17)
        end = pos + 12 + length
        if end > len(data):
            raise ValueError("batch at %d: length %d runs past the end" % (pos, length))
        b = dict(start=pos, base_offset=base_offset, length=length,
                 partition_leader_epoch=leader_epoch, magic=magic, crc=crc,
                 crc_computed=crc32c(data[pos + 21:end]), attributes=attributes,
                 last_offset_delta=last_offset_delta, first_timestamp=first_ts,
                 max_timestamp=max_ts, producer_id=producer_id, producer_epoch=producer_epoch,
                 base_sequence=base_sequence, count=count, notes=[])
        b["codec"] = attributes & 7
        b["timestamp_type"] = "LogAppendTime" if attributes & 8 else "CreateTime"
        b["transactional"] = bool(attributes & 16)
        b["control"] = bool(attributes & 32)
        b["delete_horizon"] = bool(attributes & 64)
        payload = bytes(data[pos + 61:end])
        b["payload_bytes"] = len(payload)
        raw = decompress(b["codec"], payload, b["notes"])
        b["uncompressed_bytes"] = len(raw)
        b["records"], used = parse_records(raw, count)
        if used != len(raw):
            b["notes"].append("%d byte(s) after the last record" % (len(raw) - used))
        batches.append(b)
        pos = end
    return batches


# ------------------------------------------------------------------ output --

def show(v):
    if v is None:
        return "null"
    if len(v) > 40:
        return "%r... (%d bytes)" % (v[:20].decode("latin-1"), len(v))
    return repr(v.decode("latin-1"))


def attr_text(b):
    parts = [CODECS.get(b["codec"], "codec%d" % b["codec"]), b["timestamp_type"]]
    for k in ("transactional", "control", "delete_horizon"):
        if b[k]:
            parts.append(k)
    return "0x%04x (%s)" % (b["attributes"] & 0xFFFF, ", ".join(parts))


def print_batch(i, b, quiet):
    crc_ok = "ok" if b["crc"] == b["crc_computed"] else "WRONG (computed %08x)" % b["crc_computed"]
    print("  batch %d at byte %d:" % (i, b["start"]))
    print("    base_offset=%d batch_length=%d partition_leader_epoch=%d magic=%d"
          % (b["base_offset"], b["length"], b["partition_leader_epoch"], b["magic"]))
    print("    crc=%08x (%s) attributes=%s last_offset_delta=%d"
          % (b["crc"], crc_ok, attr_text(b), b["last_offset_delta"]))
    print("    first_timestamp=%d max_timestamp=%d" % (b["first_timestamp"], b["max_timestamp"]))
    print("    producer_id=%d producer_epoch=%d base_sequence=%d records_count=%d"
          % (b["producer_id"], b["producer_epoch"], b["base_sequence"], b["count"]))
    print("    records: %d bytes on the wire, %d uncompressed"
          % (b["payload_bytes"], b["uncompressed_bytes"]))
    for n in b["notes"]:
        print("    " + n)
    if quiet:
        return
    for r in b["records"]:
        ts = b["first_timestamp"] + r["timestamp_delta"]
        print("    - offset_delta=%d ts=%d (delta %d) attrs=%d len=%d key=%s value=%s headers=%s"
              % (r["offset_delta"], ts, r["timestamp_delta"], r["attributes"], r["length"],
                 show(r["key"]), show(r["value"]),
                 "[" + ", ".join("(%r, %s)" % (k, show(v)) for k, v in r["headers"]) + "]"))


def markdown(batches):
    rows = [("base offset", "base_offset"), ("batch length", "length"),
            ("partition leader epoch", "partition_leader_epoch"), ("magic", "magic"),
            ("crc", None), ("attributes", None), ("last offset delta", "last_offset_delta"),
            ("first timestamp", "first_timestamp"), ("max timestamp", "max_timestamp"),
            ("producer id", "producer_id"), ("producer epoch", "producer_epoch"),
            ("base sequence", "base_sequence"), ("records count", "count"),
            ("records bytes (wire / uncompressed)", None)]
    head = "| field | " + " | ".join("batch %d" % i for i in range(len(batches))) + " |"
    lines = [head, "|---|" + "---|" * len(batches)]
    for label, key in rows:
        cells = []
        for b in batches:
            if label == "crc":
                cells.append("0x%08x (%s)" % (b["crc"], "ok" if b["crc"] == b["crc_computed"]
                                               else "WRONG"))
            elif label == "attributes":
                cells.append(attr_text(b))
            elif key is None:
                cells.append("%d / %d" % (b["payload_bytes"], b["uncompressed_bytes"]))
            else:
                cells.append(str(b[key]))
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    return "\n".join(lines)


# ------------------------------------------------------------------ expect --

def expected():
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(HERE, "producers"))
    from spec import RECORDS
    return RECORDS


def check_expected(batches):
    """Problems (list of str) and accepted deviations (list of str)."""
    recs = []
    for b in batches:
        for r in b["records"]:
            recs.append((b, r))
    want = expected()
    problems, deviations = [], []
    if len(recs) != len(want):
        problems.append("%d records, want %d" % (len(recs), len(want)))
    for i, ((b, r), (k, v, h, ts)) in enumerate(zip(recs, want), 1):
        got_ts = b["first_timestamp"] + r["timestamp_delta"]
        if r["key"] != k:
            problems.append("record %d: key %s, want %s" % (i, show(r["key"]), show(k)))
        if r["value"] != v:
            problems.append("record %d: value %s, want %s" % (i, show(r["value"]), show(v)))
        if got_ts != ts:
            problems.append("record %d: timestamp %d, want %d" % (i, got_ts, ts))
        if len(r["headers"]) != len(h):
            problems.append("record %d: headers %r, want %r" % (i, r["headers"], h))
        else:
            for (gk, gv), (wk, wv) in zip(r["headers"], h):
                if gk != wk:
                    problems.append("record %d: header key %r, want %r" % (i, gk, wk))
                elif gv != wv:
                    if wv is None and gv == b"":
                        deviations.append("record %d: header %r is \"\" instead of null" % (i, gk))
                    else:
                        problems.append("record %d: header %r = %s, want %s"
                                        % (i, gk, show(gv), show(wv)))
    offsets = [b["base_offset"] + r["offset_delta"] for b, r in recs]
    if offsets != list(range(len(recs))):
        problems.append("offsets (base_offset + offset_delta) are %r" % offsets)
    for b in batches:
        if b["crc"] != b["crc_computed"]:
            problems.append("batch at %d: CRC wrong" % b["start"])
        if b["count"] != len(b["records"]) or b["last_offset_delta"] != b["count"] - 1:
            problems.append("batch at %d: count %d / last offset delta %d"
                            % (b["start"], b["count"], b["last_offset_delta"]))
        if any("MISMATCH" in n or "WRONG" in n for n in b["notes"]):
            problems.append("batch at %d: %s" % (b["start"], b["notes"]))
    return problems, deviations


def load(path):
    text = open(path).read()
    return bytes.fromhex("".join(text.split()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--expect", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    rc = 0
    for path in args.files:
        print("%s:" % path)
        try:
            data = load(path)
            batches = parse_batches(data)
        except Exception as e:
            print("  ERROR: %s" % e)
            rc = 1
            continue
        print("  %d bytes, %d batch(es), %d record(s)"
              % (len(data), len(batches), sum(len(b["records"]) for b in batches)))
        for i, b in enumerate(batches):
            print_batch(i, b, args.quiet)
        if args.markdown:
            print()
            print(markdown(batches))
            print()
        if args.expect:
            problems, deviations = check_expected(batches)
            for d in deviations:
                print("  deviation: " + d)
            if problems:
                rc = 1
                for p in problems:
                    print("  MISMATCH: " + p)
            else:
                print("  expect: OK, the 5 records of producers/spec.py%s"
                      % (" (with the deviations above)" if deviations else ""))
    return rc


if __name__ == "__main__":
    sys.exit(main())
