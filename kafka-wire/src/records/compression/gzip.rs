//! gzip (RFC 1952) through flate2.

use std::io::{BufRead, Write};

use flate2::bufread::MultiGzDecoder;
use flate2::write::GzEncoder;

use super::error::corrupt;
use super::limit::read_bounded;
use crate::records::RecordsError;

const CODEC: &str = "gzip";

/// Decompresses every gzip member of `input` as one bounded stream: a member's
/// ISIZE is only a claim, so nothing is allocated from it.
pub(super) fn decompress(input: &[u8], max_output: usize) -> Result<Vec<u8>, RecordsError> {
    read_bounded(reader(input), CODEC, max_output, input.len())
}

/// The decompressed bytes of every gzip member in `input`, one after another.
/// Java's `GZIPInputStream`, which Kafka reads with, reads concatenated members
/// too.
fn reader<R: BufRead>(input: R) -> MultiGzDecoder<R> {
    MultiGzDecoder::new(input)
}

/// One gzip member at deflate level 6: the level Kafka's `GZIPOutputStream`
/// uses (`compression.gzip.level` defaults to zlib's default, 6).
pub(super) fn compress(input: &[u8]) -> Result<Vec<u8>, RecordsError> {
    let mut encoder = GzEncoder::new(
        Vec::with_capacity(input.len() / 2 + 64),
        flate2::Compression::new(6),
    );
    encoder.write_all(input).map_err(|e| corrupt(CODEC, e))?;
    encoder.finish().map_err(|e| corrupt(CODEC, e))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::io::BufReader;

    use super::reader;
    use crate::records::compression::limit::read_bounded;
    use crate::records::compression::test_support::{
        hex, is_corrupt, is_too_large, Counting, MIB, SMALL,
    };
    use crate::records::compression::{compress, decompress, DEFAULT_MAX_DECOMPRESSED};
    use crate::records::Compression;

    /// `SMALL` through Java's `java.util.zip.GZIPOutputStream` (OpenJDK 17, zlib),
    /// as Kafka's producer writes it:
    /// `GZIPOutputStream o = new GZIPOutputStream(bytes); o.write(SMALL); o.close();`
    const JAVA: &str =
        "1f8b08000000000000fff34e4ccb4e54284a4dce2f4a51484a2c49ceb052c848cdc9c9d7c14e95
                        e717e5a428720100f194481b37000000";
    /// `SMALL` as two gzip members, by Python 3.11's gzip module (zlib):
    /// `gzip.compress(SMALL[:20], mtime=0) + gzip.compress(SMALL[20:], mtime=0)`.
    const PYTHON_TWO_MEMBERS: &str = "1f8b0800000000000203f34e4ccb4e54284a4dce2f4a51484a2c49ceb0520000ce713ea8
                                      140000001f8b0800000000000203cb48cdc9c9d751c8c04695e717e5a4287201008412086f
                                      23000000";

    #[test]
    fn known_answers() {
        for vector in [JAVA, PYTHON_TWO_MEMBERS] {
            let out = decompress(Compression::Gzip, &hex(vector), 1024).unwrap();
            assert_eq!(out, SMALL);
        }
    }

    #[test]
    fn writes_one_gzip_member() {
        let compressed = compress(Compression::Gzip, SMALL).unwrap();
        // Magic, deflate, then at the end CRC-32 and ISIZE.
        assert_eq!(compressed[..3], [0x1f, 0x8b, 0x08]);
        let isize = u32::from_le_bytes(compressed[compressed.len() - 4..].try_into().unwrap());
        assert_eq!(isize as usize, SMALL.len());
    }

    #[test]
    fn a_lying_isize_is_not_trusted() {
        let mut compressed = hex(JAVA);
        let end = compressed.len();
        compressed[end - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        let result = decompress(Compression::Gzip, &compressed, DEFAULT_MAX_DECOMPRESSED);
        assert!(
            is_corrupt(&result, Compression::Gzip),
            "{:?}",
            result.as_ref().map(Vec::len)
        );
    }

    #[test]
    fn trailing_garbage_is_corrupt() {
        let mut compressed = hex(JAVA);
        compressed.extend_from_slice(b"garbage");
        let result = decompress(Compression::Gzip, &compressed, 1024);
        assert!(
            is_corrupt(&result, Compression::Gzip),
            "{:?}",
            result.as_ref().map(Vec::len)
        );
    }

    /// 64 members of 1 MiB of zeros: about 64 KiB that expand to 64 MiB.
    fn bomb() -> Vec<u8> {
        let member = compress(Compression::Gzip, &vec![0; MIB]).unwrap();
        let bomb = member.repeat(64);
        assert!(bomb.len() < 128 * 1024, "{}", bomb.len());
        bomb
    }

    #[test]
    fn bomb_stops_at_the_limit() {
        let bomb = bomb();
        let result = decompress(Compression::Gzip, &bomb, MIB);
        assert!(
            is_too_large(&result, Compression::Gzip, MIB),
            "{:?}",
            result.as_ref().map(Vec::len)
        );

        // It stopped after the second member, far from the 64 MiB of output.
        let consumed = Cell::new(0);
        let input = BufReader::with_capacity(
            1024,
            Counting {
                inner: &bomb,
                consumed: &consumed,
            },
        );
        let result = read_bounded(reader(input), "gzip", MIB, bomb.len());
        assert!(
            is_too_large(&result, Compression::Gzip, MIB),
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
}
