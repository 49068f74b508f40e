//! What the tests of every codec share: payloads, known-answer helpers and checks.

#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
use std::io::Read;

use crate::records::{Compression, RecordsError};

pub(super) const MIB: usize = 1024 * 1024;

/// The payload of the known-answer vectors (55 bytes).
pub(super) const SMALL: &[u8] = b"Kafka record batch: hello, hello, hello, hello, world!\n";

/// Bytes from hex, whitespace ignored.
#[cfg_attr(not(feature = "compression"), allow(dead_code))]
pub(super) fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert_eq!(digits.len() % 2, 0, "odd number of hex digits");
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
        .collect()
}

/// Random-looking bytes from a 64-bit LCG (Knuth's MMIX constants).
pub(super) fn lcg_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 56) as u8
        })
        .collect()
}

/// Text of `len` bytes, compressible as records usually are.
pub(super) fn text(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 64);
    let mut i = 0u64;
    while out.len() < len {
        out.extend_from_slice(
            format!("offset={i} key=user-{} value=the quick brown fox\n", i % 97).as_bytes(),
        );
        i += 1;
    }
    out.truncate(len);
    out
}

pub(super) fn is_corrupt(result: &Result<Vec<u8>, RecordsError>, codec: Compression) -> bool {
    matches!(result, Err(RecordsError::Corrupt { codec: c, .. }) if *c == codec.name())
}

pub(super) fn is_too_large(
    result: &Result<Vec<u8>, RecordsError>,
    codec: Compression,
    max: usize,
) -> bool {
    matches!(
        result,
        Err(RecordsError::DecompressedTooLarge { codec: c, limit }) if *c == codec.name() && *limit == max
    )
}

/// Counts the bytes a decoder takes from its input.
#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
pub(super) struct Counting<'a> {
    pub(super) inner: &'a [u8],
    pub(super) consumed: &'a std::cell::Cell<usize>,
}

#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
impl Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.set(self.consumed.get() + n);
        Ok(n)
    }
}
