//! Zstandard through the zstd crate (libzstd).

use std::io::BufRead;

use ::zstd::stream::read::Decoder;
use ::zstd::zstd_safe;

use super::error::corrupt;
use super::limit::read_bounded;
use crate::records::RecordsError;

const CODEC: &str = "zstd";
/// The zstd level Kafka writes with (`compression.zstd.level` defaults to 3).
const LEVEL: i32 = 3;
/// The window log every frame may declare whatever the limit: 8 MiB, the
/// largest window of zstd's levels 1 to 19 (Kafka's zstd-jni writes with an
/// unknown content size, so the window comes from the level alone).
const MIN_WINDOW_LOG_MAX: u32 = 23;
/// The largest window log accepted: 128 MiB, the largest window of any zstd
/// level (and libzstd's own default limit).
const MAX_WINDOW_LOG_MAX: u32 = 27;

/// Decompresses the frames of `input`, refusing early when their declared
/// content sizes add up to more than `max_output` (a claim, used only to
/// refuse), and otherwise reading them as a bounded stream.
pub(super) fn decompress(input: &[u8], max_output: usize) -> Result<Vec<u8>, RecordsError> {
    if declared_content_size(input) > max_output as u128 {
        return Err(RecordsError::DecompressedTooLarge {
            codec: CODEC,
            limit: max_output,
        });
    }
    read_bounded(reader(input, max_output)?, CODEC, max_output, input.len())
}

/// The sum of the content sizes that the frames of `input` declare, for as many
/// frames as can be walked (a frame that cannot be stops the walk; the decoder
/// then reports it).
fn declared_content_size(input: &[u8]) -> u128 {
    let mut total = 0u128;
    let mut rest = input;
    while !rest.is_empty() {
        let Ok(len) = zstd_safe::find_frame_compressed_size(rest) else {
            break;
        };
        if len == 0 || len > rest.len() {
            break;
        }
        if let Ok(Some(size)) = zstd_safe::get_frame_content_size(&rest[..len]) {
            total += u128::from(size);
        }
        rest = &rest[len..];
    }
    total
}

/// The window log a frame may declare when decompressing to at most
/// `max_output` bytes: twice `max_output`, rounded up to a power of two, between
/// 8 MiB and 128 MiB.
fn window_log_max(max_output: usize) -> u32 {
    let log = usize::BITS - max_output.saturating_sub(1).leading_zeros();
    (log + 1).clamp(MIN_WINDOW_LOG_MAX, MAX_WINDOW_LOG_MAX)
}

/// The decompressed bytes of every frame of `input`, skippable frames skipped,
/// with the window capped by [`window_log_max`].
fn reader<R: BufRead>(input: R, max_output: usize) -> Result<Decoder<'static, R>, RecordsError> {
    let mut decoder = Decoder::with_buffer(input).map_err(|e| corrupt(CODEC, e))?;
    decoder
        .window_log_max(window_log_max(max_output))
        .map_err(|e| corrupt(CODEC, e))?;
    Ok(decoder)
}

/// One zstd frame at level 3, with its content size and no checksum, as Kafka's
/// zstd-jni writes it (which leaves out the content size; every reader takes
/// both).
pub(super) fn compress(input: &[u8]) -> Result<Vec<u8>, RecordsError> {
    ::zstd::bulk::compress(input, LEVEL).map_err(|e| corrupt(CODEC, e))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::io::BufReader;

    use super::{reader, window_log_max};
    use crate::records::compression::limit::read_bounded;
    use crate::records::compression::test_support::{
        hex, is_corrupt, is_too_large, Counting, MIB, SMALL,
    };
    use crate::records::compression::{compress, decompress, DEFAULT_MAX_DECOMPRESSED};
    use crate::records::Compression;

    /// `SMALL` through zstd-jni 1.5.2 (Debian's libzstd-jni-java, libzstd
    /// through JNI) at level 3, the class Kafka's producer writes with:
    /// `ZstdOutputStream o = new ZstdOutputStream(bytes, 3); o.write(SMALL); o.close();`
    /// No content size, a 2 MiB window (descriptor 0x58).
    const JAVA: &str = "28b52ffd0058 450100
                        14024b61666b61207265636f72642062617463683a2068656c6c6f2c776f726c64210a01004a2963";
    /// `SMALL` by Python's zstandard 0.25 (libzstd 1.5.7), with the content size
    /// and a checksum:
    /// `zstandard.ZstdCompressor(level=3, write_checksum=True).compress(SMALL)`.
    const PYTHON: &str = "28b52ffd2437 450100
                          14024b61666b61207265636f72642062617463683a2068656c6c6f2c776f726c64210a01004a2963
                          f4cf6cca";
    /// `SMALL` by ruzstd 0.9.1, a Zstandard written in Rust from the spec, not
    /// libzstd: `ruzstd::encoding::compress_to_vec(SMALL, CompressionLevel::Fastest)`.
    const RUZSTD: &str =
        "28b52ffd0438b501002c02004b61666b61207265636f72642062617463683a2068656c6c6f2c20
                          776f726c64210a02a810e3fff9108c1f1026c67e3115c208f4cf6cca";

    #[test]
    fn known_answers() {
        for vector in [JAVA, PYTHON, RUZSTD] {
            let out = decompress(Compression::Zstd, &hex(vector), 1024).unwrap();
            assert_eq!(out, SMALL);
        }
    }

    #[test]
    fn a_skippable_frame_is_skipped() {
        let mut input = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3];
        input.extend_from_slice(&hex(JAVA));
        assert_eq!(decompress(Compression::Zstd, &input, 1024).unwrap(), SMALL);
    }

    #[test]
    fn a_bad_checksum_is_corrupt() {
        let mut damaged = hex(PYTHON);
        let end = damaged.len();
        damaged[end - 1] ^= 1;
        let result = decompress(Compression::Zstd, &damaged, 1024);
        assert!(
            is_corrupt(&result, Compression::Zstd),
            "{:?}",
            result.as_ref().map(Vec::len)
        );
    }

    #[test]
    fn writes_level_3_frames_with_their_content_size() {
        let compressed = compress(Compression::Zstd, SMALL).unwrap();
        assert_eq!(
            ::zstd::zstd_safe::get_frame_content_size(&compressed).ok(),
            Some(Some(SMALL.len() as u64))
        );
    }

    #[test]
    fn window_cap_follows_the_limit() {
        assert_eq!(window_log_max(0), 23);
        assert_eq!(window_log_max(MIB), 23);
        assert_eq!(window_log_max(8 * MIB), 24);
        assert_eq!(window_log_max(DEFAULT_MAX_DECOMPRESSED), 27);
        assert_eq!(window_log_max(usize::MAX), 27);

        // A frame declaring a 128 MiB window, as zstd's levels 21 and 22 write.
        let mut encoder = ::zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        encoder.window_log(27).unwrap();
        std::io::Write::write_all(&mut encoder, SMALL).unwrap();
        let compressed = encoder.finish().unwrap();
        let out = decompress(Compression::Zstd, &compressed, DEFAULT_MAX_DECOMPRESSED);
        assert_eq!(out.unwrap(), SMALL);
        let result = decompress(Compression::Zstd, &compressed, MIB);
        assert!(
            is_corrupt(&result, Compression::Zstd),
            "{:?}",
            result.as_ref().map(Vec::len)
        );
    }

    /// 1,024 frames of 1 MiB of zeros, written as a stream (no content size):
    /// about 50 KiB that expand to 1 GiB.
    fn bomb() -> Vec<u8> {
        let frame = ::zstd::stream::encode_all(&vec![0; MIB][..], 3).unwrap();
        assert_eq!(
            ::zstd::zstd_safe::get_frame_content_size(&frame).ok(),
            Some(None)
        );
        let bomb = frame.repeat(1024);
        assert!(bomb.len() < 100 * 1024, "{}", bomb.len());
        bomb
    }

    #[test]
    fn bomb_stops_at_the_limit() {
        let bomb = bomb();
        let result = decompress(Compression::Zstd, &bomb, MIB);
        assert!(
            is_too_large(&result, Compression::Zstd, MIB),
            "{:?}",
            result.as_ref().map(Vec::len)
        );

        let consumed = Cell::new(0);
        let input = BufReader::with_capacity(
            1024,
            Counting {
                inner: &bomb,
                consumed: &consumed,
            },
        );
        let decoder = reader(input, MIB).unwrap();
        let result = read_bounded(decoder, "zstd", MIB, bomb.len());
        assert!(
            is_too_large(&result, Compression::Zstd, MIB),
            "{:?}",
            result.as_ref().map(Vec::len)
        );
        assert!(
            consumed.get() < bomb.len() / 16,
            "{} of {}",
            consumed.get(),
            bomb.len()
        );
    }

    #[test]
    fn declared_content_sizes_over_the_limit_are_refused_up_front() {
        // One frame of 64 MiB of zeros that says so, and 64 frames of 1 MiB.
        let one = compress(Compression::Zstd, &vec![0; 64 * MIB]).unwrap();
        let frame = compress(Compression::Zstd, &vec![0; MIB]).unwrap();
        for bomb in [one, frame.repeat(64)] {
            assert!(bomb.len() < 100 * 1024, "{}", bomb.len());
            let result = decompress(Compression::Zstd, &bomb, MIB);
            assert!(
                is_too_large(&result, Compression::Zstd, MIB),
                "{:?}",
                result.as_ref().map(Vec::len)
            );
        }
    }
}
