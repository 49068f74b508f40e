//! The LZ4 frame format through lz4_flex.

use std::io::{Read, Write};

use lz4_flex::frame::{BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

use super::error::corrupt;
use super::limit::append_bounded;
use crate::records::RecordsError;

const CODEC: &str = "lz4";
/// The magic number of an LZ4 frame.
const MAGIC: u32 = 0x184D_2204;
/// The magic numbers of skippable frames: 0x184D2A50 to 0x184D2A5F.
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// Decompresses every LZ4 frame of `input`, one after another, skippable frames
/// skipped, with block and content checksums verified when a frame has them.
///
/// The frames are first walked (headers and block lengths only) to find where
/// each ends: lz4_flex's decoder takes the end of its input inside a block
/// length, or right after a frame's magic, for a clean end of the frame, and
/// stops after the first frame, so the walk is what finds truncated frames and
/// bytes after the last one.
pub(super) fn decompress(input: &[u8], max_output: usize) -> Result<Vec<u8>, RecordsError> {
    let frames = frames(input)?;
    let mut out = Vec::with_capacity(input.len().saturating_mul(2).min(max_output));
    for frame in frames {
        let mut decoder = reader(frame);
        append_bounded(&mut decoder, CODEC, max_output, &mut out)?;
        if !decoder.get_ref().is_empty() {
            return Err(corrupt(
                CODEC,
                "the decoder stopped before the end of the frame",
            ));
        }
    }
    Ok(out)
}

/// The decompressed bytes of the LZ4 frame that `input` starts with.
fn reader<R: Read>(input: R) -> FrameDecoder<R> {
    FrameDecoder::new(input)
}

/// The LZ4 frames of `input`, each whole: magic, descriptor, blocks, end mark
/// and content checksum present (the decoder checks what they say).
fn frames(input: &[u8]) -> Result<Vec<&[u8]>, RecordsError> {
    let mut frames = Vec::new();
    let mut pos = 0;
    // The `n` bytes at `pos`, advancing past them.
    let take = |pos: &mut usize, n: usize, what: &str| -> Result<usize, RecordsError> {
        let start = *pos;
        match start.checked_add(n) {
            Some(end) if end <= input.len() => {
                *pos = end;
                Ok(start)
            }
            _ => Err(corrupt(
                CODEC,
                format!("{what} at byte {start} cut short: the data ends"),
            )),
        }
    };
    let u32_at =
        |at: usize| u32::from_le_bytes([input[at], input[at + 1], input[at + 2], input[at + 3]]);
    while pos < input.len() {
        let start = pos;
        let magic = u32_at(take(&mut pos, 4, "frame magic")?);
        if magic & 0xFFFF_FFF0 == SKIPPABLE_MAGIC {
            let len = u32_at(take(&mut pos, 4, "skippable frame length")?);
            take(&mut pos, len as usize, "skippable frame")?;
            continue;
        }
        if magic != MAGIC {
            return Err(corrupt(
                CODEC,
                format!("no LZ4 frame at byte {start}: magic {magic:#010x}"),
            ));
        }
        let flg = input[take(&mut pos, 2, "frame descriptor")?];
        if flg >> 6 != 1 {
            return Err(corrupt(CODEC, format!("frame version {}", flg >> 6)));
        }
        let block_checksums = flg & 0x10 != 0;
        let content_size = flg & 0x08 != 0;
        let content_checksum = flg & 0x04 != 0;
        let dict_id = flg & 0x01 != 0;
        let optional = 8 * usize::from(content_size) + 4 * usize::from(dict_id);
        take(&mut pos, optional + 1, "frame descriptor")?;
        loop {
            let size = u32_at(take(&mut pos, 4, "block length")?);
            if size == 0 {
                take(
                    &mut pos,
                    4 * usize::from(content_checksum),
                    "content checksum",
                )?;
                break;
            }
            let len = (size & 0x7FFF_FFFF) as usize;
            take(&mut pos, len, "block")?;
            take(&mut pos, 4 * usize::from(block_checksums), "block checksum")?;
        }
        frames.push(&input[start..pos]);
    }
    Ok(frames)
}

/// One LZ4 frame as Kafka's `KafkaLZ4BlockOutputStream` writes it for batches
/// of magic 2: 64 KiB blocks, independent (Kafka's reader decodes each block on
/// its own and refuses linked blocks), no block checksums, no content size and no
/// content checksum. Incompressible blocks are stored as they are, which the
/// format allows and every reader handles.
pub(super) fn compress(input: &[u8]) -> Result<Vec<u8>, RecordsError> {
    let info = FrameInfo::new()
        .block_size(BlockSize::Max64KB)
        .block_mode(BlockMode::Independent)
        .block_checksums(false)
        .content_checksum(false)
        .content_size(None);
    let mut encoder = FrameEncoder::with_frame_info(info, Vec::with_capacity(input.len() / 2 + 64));
    encoder.write_all(input).map_err(|e| corrupt(CODEC, e))?;
    encoder.finish().map_err(|e| corrupt(CODEC, e))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::reader;
    use crate::records::compression::limit::append_bounded;
    use crate::records::compression::test_support::{
        hex, is_corrupt, is_too_large, text, Counting, MIB, SMALL,
    };
    use crate::records::compression::{compress, decompress};
    use crate::records::{Compression, RecordsError};

    /// `SMALL` through lz4-java 1.8.0 (Debian's liblz4-java, liblz4 through JNI):
    /// `new LZ4FrameOutputStream(bytes, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB)`.
    /// FLG 0x60 (independent blocks), BD 0x40 (64 KiB): the descriptor Kafka's
    /// `KafkaLZ4BlockOutputStream` writes.
    const JAVA: &str = "04224d18604082 27000000
                        ff0b4b61666b61207265636f72642062617463683a2068656c6c6f2c07000370776f726c64210a
                        00000000";
    /// `SMALL` by Python's lz4 4.4.5 (liblz4 1.9.4) with its defaults, linked
    /// blocks and the content size: `lz4.frame.compress(SMALL)`.
    const PYTHON_DEFAULT: &str = "04224d1868403700000000000000bb 27000000
                                  ff0b4b61666b61207265636f72642062617463683a2068656c6c6f2c07000370776f726c6421
                                  0a 00000000";
    /// `SMALL` by Python's lz4 with both checksums: `lz4.frame.compress(SMALL,
    /// block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=False,
    /// content_checksum=True, block_checksum=True, store_size=False)`.
    const PYTHON_CHECKSUMS: &str = "04224d187440bd 27000000
                                    ff0b4b61666b61207265636f72642062617463683a2068656c6c6f2c07000370776f726c6421
                                    0a 6b42c854 00000000 3443de9a";

    #[test]
    fn known_answers() {
        for vector in [JAVA, PYTHON_DEFAULT, PYTHON_CHECKSUMS] {
            let out = decompress(Compression::Lz4, &hex(vector), 1024).unwrap();
            assert_eq!(out, SMALL);
        }
    }

    #[test]
    fn checksums_are_verified() {
        let vector = hex(PYTHON_CHECKSUMS);
        // Header 0..7, block length 7..11, block 11..50, block checksum 50..54,
        // end mark 54..58, content checksum 58..62.
        assert_eq!(vector.len(), 62);
        for at in [50, 53, 58, 61] {
            let mut damaged = vector.clone();
            damaged[at] ^= 1;
            let result = decompress(Compression::Lz4, &damaged, 1024);
            let reason = match result {
                Err(RecordsError::Corrupt { reason, .. }) => reason,
                other => panic!("{at}: {:?}", other.map(|out| out.len())),
            };
            assert!(reason.contains("hecksum"), "{at}: {reason}");
        }
    }

    #[test]
    fn writes_the_frame_descriptor_kafka_writes() {
        for input in [&b""[..], SMALL, &text(200 * 1024)] {
            let compressed = compress(Compression::Lz4, input).unwrap();
            // Magic, FLG 0x60, BD 0x40 and their checksum, as lz4-java above.
            assert_eq!(compressed[..7], hex(JAVA)[..7]);
            assert_eq!(compressed[compressed.len() - 4..], [0, 0, 0, 0]);
        }
    }

    /// 16 frames of 1 MiB of zeros: about 64 KiB that expand to 16 MiB.
    fn bomb() -> Vec<u8> {
        let frame = compress(Compression::Lz4, &vec![0; MIB]).unwrap();
        let bomb = frame.repeat(16);
        assert!(bomb.len() < 128 * 1024, "{}", bomb.len());
        bomb
    }

    #[test]
    fn bomb_stops_at_the_limit() {
        let bomb = bomb();
        let result = decompress(Compression::Lz4, &bomb, MIB);
        assert!(
            is_too_large(&result, Compression::Lz4, MIB),
            "{:?}",
            result.as_ref().map(Vec::len)
        );

        // One frame of 16 MiB of zeros: the decoder stops reading it after about
        // 1 MiB of output.
        let frame = compress(Compression::Lz4, &vec![0; 16 * MIB]).unwrap();
        let consumed = Cell::new(0);
        let mut decoder = reader(Counting {
            inner: &frame,
            consumed: &consumed,
        });
        let mut out = Vec::new();
        let result = append_bounded(&mut decoder, "lz4", MIB, &mut out);
        assert_eq!(
            result,
            Err(RecordsError::DecompressedTooLarge {
                codec: "lz4",
                limit: MIB
            })
        );
        assert!(
            consumed.get() < frame.len() / 8,
            "{} of {}",
            consumed.get(),
            frame.len()
        );
    }

    #[test]
    fn frames_are_walked_whole() {
        let frame = hex(JAVA);
        // Two frames, a skippable frame between them.
        let mut two = frame.clone();
        two.extend_from_slice(&[0x5f, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 0xaa, 0xbb]);
        two.extend_from_slice(&frame);
        let out = decompress(Compression::Lz4, &two, 1024).unwrap();
        assert_eq!(out, [SMALL, SMALL].concat());
        // Bytes after the last frame, and a frame without its end mark.
        for damaged in [
            [&frame[..], b"garbage"].concat(),
            frame[..frame.len() - 4].to_vec(),
            [&frame[..], &frame[..frame.len() - 2]].concat(),
        ] {
            let result = decompress(Compression::Lz4, &damaged, 1024);
            assert!(
                is_corrupt(&result, Compression::Lz4),
                "{:?}",
                result.as_ref().map(Vec::len)
            );
        }
    }
}
