//! Varint arithmetic shared by readers, writers and size computations.

use bytes::BufMut;

/// How many bytes `value` takes as an unsigned varint.
#[inline]
pub const fn unsigned_varint_size(value: u32) -> usize {
    // Counts, lengths and tags are almost always one byte: skip the arithmetic.
    if value < 0x80 {
        return 1;
    }
    // One byte per started group of 7 bits; zero still takes a byte.
    let bits = 32 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// How many bytes `value` takes as an unsigned varlong.
#[inline]
pub const fn unsigned_varlong_size(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Writes `value` as an unsigned varint.
#[inline]
pub fn put_unsigned_varint<B: BufMut + ?Sized>(buf: &mut B, mut value: u32) {
    if value < 0x80 {
        buf.put_u8(value as u8);
        return;
    }
    while value >= 0x80 {
        buf.put_u8((value as u8) | 0x80);
        value >>= 7;
    }
    buf.put_u8(value as u8);
}

/// Writes `value` as an unsigned varlong.
pub fn put_unsigned_varlong<B: BufMut + ?Sized>(buf: &mut B, mut value: u64) {
    while value >= 0x80 {
        buf.put_u8((value as u8) | 0x80);
        value >>= 7;
    }
    buf.put_u8(value as u8);
}

/// Writes `value` as a zigzag varint.
pub fn put_varint<B: BufMut + ?Sized>(buf: &mut B, value: i32) {
    put_unsigned_varint(buf, zigzag_encode_32(value));
}

/// Writes `value` as a zigzag varlong.
pub fn put_varlong<B: BufMut + ?Sized>(buf: &mut B, value: i64) {
    put_unsigned_varlong(buf, zigzag_encode_64(value));
}

/// Size of `value` as a zigzag varint.
pub const fn varint_size(value: i32) -> usize {
    unsigned_varint_size(zigzag_encode_32(value))
}

/// Size of `value` as a zigzag varlong.
pub const fn varlong_size(value: i64) -> usize {
    unsigned_varlong_size(zigzag_encode_64(value))
}

/// Maps signed to unsigned so small magnitudes stay short: 0, -1, 1, -2 → 0, 1, 2, 3.
#[inline]
pub const fn zigzag_encode_32(value: i32) -> u32 {
    ((value << 1) ^ (value >> 31)) as u32
}

/// Inverse of [`zigzag_encode_32`].
#[inline]
pub const fn zigzag_decode_32(value: u32) -> i32 {
    ((value >> 1) as i32) ^ -((value & 1) as i32)
}

/// 64-bit zigzag.
#[inline]
pub const fn zigzag_encode_64(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// Inverse of [`zigzag_encode_64`].
#[inline]
pub const fn zigzag_decode_64(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reader;
    use bytes::Bytes;

    #[test]
    fn sizes_match_writes() {
        for v in [0u32, 1, 127, 128, 16383, 16384, u32::MAX] {
            let mut buf = Vec::new();
            put_unsigned_varint(&mut buf, v);
            assert_eq!(buf.len(), unsigned_varint_size(v), "{v}");
            let bytes = Bytes::from(buf);
            assert_eq!(Reader::new(&bytes).read_unsigned_varint().unwrap(), v);
        }
        for v in [0u64, 1, 127, 128, u64::MAX] {
            let mut buf = Vec::new();
            put_unsigned_varlong(&mut buf, v);
            assert_eq!(buf.len(), unsigned_varlong_size(v), "{v}");
            let bytes = Bytes::from(buf);
            assert_eq!(Reader::new(&bytes).read_unsigned_varlong().unwrap(), v);
        }
    }

    #[test]
    fn zigzag_round_trips() {
        for v in [0i32, -1, 1, -2, i32::MIN, i32::MAX] {
            assert_eq!(zigzag_decode_32(zigzag_encode_32(v)), v);
            let mut buf = Vec::new();
            put_varint(&mut buf, v);
            assert_eq!(buf.len(), varint_size(v));
            let bytes = Bytes::from(buf);
            assert_eq!(Reader::new(&bytes).read_varint().unwrap(), v);
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX] {
            assert_eq!(zigzag_decode_64(zigzag_encode_64(v)), v);
            let mut buf = Vec::new();
            put_varlong(&mut buf, v);
            assert_eq!(buf.len(), varlong_size(v));
            let bytes = Bytes::from(buf);
            assert_eq!(Reader::new(&bytes).read_varlong().unwrap(), v);
        }
        assert_eq!(zigzag_encode_32(-1), 1);
        assert_eq!(zigzag_encode_32(1), 2);
    }

    /// Every length at the edges of each encoded length, alone and followed by more
    /// input (the two- and three-byte forms are read by an unrolled path when
    /// three bytes are there).
    #[test]
    fn unsigned_varints_read_back_at_every_length_edge() {
        let edges = (1..=4).flat_map(|n| [(1u32 << (7 * n)) - 1, 1 << (7 * n)]);
        for v in [0, 1, u32::MAX - 1, u32::MAX].into_iter().chain(edges) {
            for trailing in [&[][..], &[0x80], &[0x01, 0x02, 0x03]] {
                let mut buf = Vec::new();
                put_unsigned_varint(&mut buf, v);
                let len = buf.len();
                buf.extend_from_slice(trailing);
                let bytes = Bytes::from(buf);
                let mut reader = Reader::new(&bytes);
                assert_eq!(
                    reader.read_unsigned_varint().unwrap(),
                    v,
                    "{v} then {trailing:?}"
                );
                assert_eq!(reader.remaining(), trailing.len(), "{v}: {len} bytes read");
            }
        }
    }

    #[test]
    fn overlong_varints_fail() {
        let bytes = Bytes::from_static(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
        assert!(Reader::new(&bytes).read_unsigned_varint().is_err());
        let bytes = Bytes::from_static(&[0xff]);
        assert!(Reader::new(&bytes).read_unsigned_varint().is_err());
    }
}
