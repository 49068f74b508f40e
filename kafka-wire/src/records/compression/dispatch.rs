//! [`decompress`] and [`compress`]: the codec a batch names, picked, and the checks
//! every codec shares.

#[cfg(feature = "gzip")]
use super::gzip;
#[cfg(feature = "lz4")]
use super::lz4;
#[cfg(feature = "snappy")]
use super::snappy;
#[cfg(feature = "zstd")]
use super::zstd;

#[cfg(any(
    feature = "gzip",
    feature = "snappy",
    feature = "lz4",
    feature = "zstd"
))]
use super::error::corrupt;
use super::error::not_enabled;
use crate::records::{Compression, RecordsError};

/// Decompresses the records section of a batch compressed with `codec`, giving at
/// most `max_output` bytes
/// ([`DEFAULT_MAX_DECOMPRESSED`](super::DEFAULT_MAX_DECOMPRESSED) is a sensible cap).
///
/// [`Compression::None`] copies `input` whatever its length: the limit bounds what
/// decompression produces, and uncompressed bytes are already in memory.
///
/// Memory: the output grows with the bytes actually decompressed and stops one
/// byte past `max_output`. Besides it, gzip keeps a 32 KiB window, lz4 one block
/// (its frame's block size, 64 KiB as Kafka writes it, at most 8 MiB), and snappy
/// nothing: each block is decompressed in place at the end of the output, once its
/// claimed length has been checked against what is left of `max_output` and
/// against the most its compressed bytes can expand to (22 times). zstd keeps one
/// window, of the size its frame declares: a frame may declare up to twice
/// `max_output`, rounded up to a power of two, between 8 MiB (the largest window of
/// zstd's levels 1 to 19, which every frame may declare) and 128 MiB (the largest
/// of any level). A frame declaring more is refused before it is decoded, as
/// [`RecordsError::Corrupt`]; frames whose declared content sizes add up to more
/// than `max_output` are refused up front as
/// [`RecordsError::DecompressedTooLarge`].
///
/// # Errors
///
/// - [`RecordsError::CodecNotEnabled`] when the codec's cargo feature is off.
/// - [`RecordsError::DecompressedTooLarge`] when the data decompresses to more than
///   `max_output` bytes (found out before all of it is decompressed).
/// - [`RecordsError::Corrupt`] when the decoder refuses the data: a bad header,
///   checksum or block, truncated data, bytes after the last frame or member, or no
///   bytes at all.
///
/// # Examples
///
/// ```
/// use kwire::records::compression::{decompress, DEFAULT_MAX_DECOMPRESSED};
/// use kwire::records::Compression;
///
/// let records = decompress(Compression::None, b"records", DEFAULT_MAX_DECOMPRESSED).unwrap();
/// assert_eq!(records, b"records");
/// ```
///
/// A snappy block without the xerial header, as some clients write it:
///
/// ```
/// # #[cfg(feature = "snappy")] {
/// use kwire::records::compression::decompress;
/// use kwire::records::Compression;
///
/// // Raw snappy: the length 5 as a varint, then a literal of 5 bytes.
/// let raw = [0x05, 0x10, b'h', b'e', b'l', b'l', b'o'];
/// assert_eq!(decompress(Compression::Snappy, &raw, 1024).unwrap(), b"hello");
/// # }
/// ```
pub fn decompress(
    codec: Compression,
    input: &[u8],
    max_output: usize,
) -> Result<Vec<u8>, RecordsError> {
    match codec {
        Compression::None => Ok(input.to_vec()),
        #[cfg(feature = "gzip")]
        Compression::Gzip => {
            require_data(codec, input)?;
            gzip::decompress(input, max_output)
        }
        #[cfg(feature = "snappy")]
        Compression::Snappy => {
            require_data(codec, input)?;
            snappy::decompress(input, max_output)
        }
        #[cfg(feature = "lz4")]
        Compression::Lz4 => {
            require_data(codec, input)?;
            lz4::decompress(input, max_output)
        }
        #[cfg(feature = "zstd")]
        Compression::Zstd => {
            require_data(codec, input)?;
            zstd::decompress(input, max_output)
        }
        #[allow(unreachable_patterns)]
        other => {
            let _ = max_output;
            Err(not_enabled(other))
        }
    }
}

/// Compresses the records section of a batch with `codec`, as Kafka's Java client
/// does, so that Kafka's brokers and clients (Java and librdkafka) read it.
///
/// [`Compression::None`] copies `input`.
///
/// # Errors
///
/// - [`RecordsError::CodecNotEnabled`] when the codec's cargo feature is off.
/// - [`RecordsError::TooLarge`] when `input` is longer than a batch may be
///   (`i32::MAX` bytes).
/// - [`RecordsError::Corrupt`] should the encoder fail, which it does not on any
///   input that fits in memory.
///
/// # Examples
///
/// ```
/// use kwire::records::compression::compress;
/// use kwire::records::Compression;
///
/// assert_eq!(compress(Compression::None, b"records").unwrap(), b"records");
/// ```
///
/// A round trip through snappy, written in the xerial framing:
///
/// ```
/// # #[cfg(feature = "snappy")] {
/// use kwire::records::compression::{compress, decompress, DEFAULT_MAX_DECOMPRESSED};
/// use kwire::records::Compression;
///
/// let compressed = compress(Compression::Snappy, b"records, records, records").unwrap();
/// assert!(compressed.starts_with(b"\x82SNAPPY\0"));
/// let records = decompress(Compression::Snappy, &compressed, DEFAULT_MAX_DECOMPRESSED);
/// assert_eq!(records.unwrap(), b"records, records, records");
/// # }
/// ```
pub fn compress(codec: Compression, input: &[u8]) -> Result<Vec<u8>, RecordsError> {
    match codec {
        Compression::None => Ok(input.to_vec()),
        #[cfg(feature = "gzip")]
        Compression::Gzip => {
            fits_in_a_batch(input)?;
            gzip::compress(input)
        }
        #[cfg(feature = "snappy")]
        Compression::Snappy => {
            fits_in_a_batch(input)?;
            Ok(snappy::compress(input))
        }
        #[cfg(feature = "lz4")]
        Compression::Lz4 => {
            fits_in_a_batch(input)?;
            lz4::compress(input)
        }
        #[cfg(feature = "zstd")]
        Compression::Zstd => {
            fits_in_a_batch(input)?;
            zstd::compress(input)
        }
        #[allow(unreachable_patterns)]
        other => Err(not_enabled(other)),
    }
}

/// Refuses records longer than a batch may be: its length is an int32.
#[cfg(any(
    feature = "gzip",
    feature = "snappy",
    feature = "lz4",
    feature = "zstd"
))]
fn fits_in_a_batch(input: &[u8]) -> Result<(), RecordsError> {
    if input.len() > i32::MAX as usize {
        return Err(RecordsError::TooLarge {
            what: "records to compress",
        });
    }
    Ok(())
}

/// Refuses empty compressed data: every codec writes at least a header, even for
/// no records.
#[cfg(any(
    feature = "gzip",
    feature = "snappy",
    feature = "lz4",
    feature = "zstd"
))]
fn require_data(codec: Compression, input: &[u8]) -> Result<(), RecordsError> {
    if input.is_empty() {
        return Err(corrupt(codec.name(), "no compressed data"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{compress, decompress};
    use crate::records::compression::test_support::{
        is_corrupt, is_too_large, lcg_bytes, text, MIB, SMALL,
    };
    use crate::records::compression::DEFAULT_MAX_DECOMPRESSED;
    use crate::records::{Compression, RecordsError};

    fn inputs() -> Vec<Vec<u8>> {
        vec![
            Vec::new(),
            vec![0x42],
            SMALL.to_vec(),
            text(100 * 1024),
            lcg_bytes(MIB, 1),
        ]
    }

    const ALL: [Compression; 4] = [
        Compression::Gzip,
        Compression::Snappy,
        Compression::Lz4,
        Compression::Zstd,
    ];

    fn enabled(codec: Compression) -> bool {
        match codec {
            Compression::None => true,
            Compression::Gzip => cfg!(feature = "gzip"),
            Compression::Snappy => cfg!(feature = "snappy"),
            Compression::Lz4 => cfg!(feature = "lz4"),
            Compression::Zstd => cfg!(feature = "zstd"),
        }
    }

    fn enabled_codecs() -> impl Iterator<Item = Compression> {
        ALL.into_iter().filter(|&codec| enabled(codec))
    }

    #[test]
    fn none_copies_whatever_the_limit() {
        for input in inputs() {
            assert_eq!(compress(Compression::None, &input).unwrap(), input);
            assert_eq!(decompress(Compression::None, &input, 0).unwrap(), input);
        }
    }

    #[test]
    fn disabled_codecs_say_which_feature() {
        for codec in ALL.into_iter().filter(|&codec| !enabled(codec)) {
            let expected = RecordsError::CodecNotEnabled(codec.name(), codec.name());
            assert_eq!(compress(codec, SMALL), Err(expected.clone()));
            assert_eq!(decompress(codec, SMALL, MIB), Err(expected.clone()));
            assert_eq!(decompress(codec, &[], MIB), Err(expected));
        }
    }

    #[test]
    fn round_trips() {
        for codec in enabled_codecs() {
            for input in inputs() {
                let compressed = compress(codec, &input).unwrap();
                let out = decompress(codec, &compressed, DEFAULT_MAX_DECOMPRESSED).unwrap();
                assert!(out == input, "{codec:?}, {} bytes", input.len());
                // The limit is inclusive.
                let out = decompress(codec, &compressed, input.len()).unwrap();
                assert!(out == input, "{codec:?}, {} bytes", input.len());
                if !input.is_empty() {
                    let result = decompress(codec, &compressed, input.len() - 1);
                    assert!(
                        is_too_large(&result, codec, input.len() - 1),
                        "{codec:?}: {:?}",
                        result.as_ref().map(Vec::len)
                    );
                }
            }
        }
    }

    #[test]
    fn text_compresses() {
        let input = text(100 * 1024);
        for codec in enabled_codecs() {
            let compressed = compress(codec, &input).unwrap();
            assert!(
                compressed.len() < input.len() / 3,
                "{codec:?}: {}",
                compressed.len()
            );
        }
    }

    #[test]
    fn empty_input_is_corrupt() {
        for codec in enabled_codecs() {
            let result = decompress(codec, &[], MIB);
            assert!(
                is_corrupt(&result, codec),
                "{codec:?}: {:?}",
                result.as_ref().map(Vec::len)
            );
        }
    }

    #[test]
    fn random_bytes_are_corrupt() {
        for codec in enabled_codecs() {
            for (seed, len) in [1, 2, 3, 4, 7, 16, 100, 1000, 10_000, 100_000]
                .into_iter()
                .enumerate()
            {
                let input = lcg_bytes(len, seed as u64 + 7);
                let result = decompress(codec, &input, DEFAULT_MAX_DECOMPRESSED);
                assert!(
                    is_corrupt(&result, codec),
                    "{codec:?}, {len}: {:?}",
                    result.as_ref().map(Vec::len)
                );
            }
        }
    }

    #[test]
    fn truncated_streams_are_corrupt() {
        for codec in enabled_codecs() {
            for input in [SMALL.to_vec(), text(100 * 1024)] {
                let compressed = compress(codec, &input).unwrap();
                let step = (compressed.len() / 64).max(1);
                let cuts = (1..compressed.len())
                    .step_by(step)
                    .chain(compressed.len().saturating_sub(8)..compressed.len());
                for cut in cuts {
                    let result = decompress(codec, &compressed[..cut], DEFAULT_MAX_DECOMPRESSED);
                    match result {
                        // Xerial has no end marker: cut between two blocks, it is a
                        // shorter stream.
                        Ok(out)
                            if codec == Compression::Snappy
                                && out.len() % (32 * 1024) == 0
                                && input.starts_with(&out) => {}
                        result => assert!(
                            is_corrupt(&result, codec),
                            "{codec:?}, cut at {cut} of {}: {:?}",
                            compressed.len(),
                            result.as_ref().map(Vec::len)
                        ),
                    }
                }
            }
        }
    }

    /// Flipped bytes may go unnoticed by codecs without checksums, but never panic
    /// nor give more than the limit.
    #[test]
    fn flipped_bytes_never_panic() {
        for codec in enabled_codecs() {
            let compressed = compress(codec, &text(20 * 1024)).unwrap();
            let noise = lcg_bytes(compressed.len(), 99);
            for i in 0..compressed.len() {
                let mut damaged = compressed.clone();
                damaged[i] ^= noise[i] | 1;
                match decompress(codec, &damaged, 64 * 1024) {
                    Ok(out) => assert!(out.len() <= 64 * 1024),
                    Err(
                        RecordsError::Corrupt { .. } | RecordsError::DecompressedTooLarge { .. },
                    ) => {}
                    Err(other) => panic!("{codec:?}: {other:?}"),
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_round_trip(input in proptest::collection::vec(proptest::num::u8::ANY, 0..4096)) {
            for codec in enabled_codecs() {
                let compressed = compress(codec, &input).unwrap();
                proptest::prop_assert_eq!(&decompress(codec, &compressed, input.len()).unwrap(), &input);
            }
        }

        #[test]
        fn any_bytes_decompress_without_panic(input in proptest::collection::vec(proptest::num::u8::ANY, 0..512)) {
            for codec in enabled_codecs() {
                let _ = decompress(codec, &input, 4096);
            }
        }
    }
}
