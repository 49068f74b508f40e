//! The compression codecs of record batches: what the records section of a batch
//! holds when its attributes name a codec, read and written the way Kafka's clients
//! do.
//!
//! | codec | feature | reads | writes |
//! | --- | --- | --- | --- |
//! | gzip | `gzip` | gzip members, one or more (RFC 1952, CRC-32 and length checked) | one gzip member, deflate level 6 (Kafka's default) |
//! | snappy | `snappy` | the xerial framing, or one raw snappy block when the xerial magic is absent | the xerial framing, 32 KiB of input per block |
//! | lz4 | `lz4` | LZ4 frames, one or more (any block size, linked or independent blocks, checksums verified when present) | one LZ4 frame: 64 KiB blocks, independent, no checksums, no content size |
//! | zstd | `zstd` | Zstandard frames, one or more (skippable frames skipped) | one Zstandard frame, level 3 (Kafka's default) |
//!
//! **The xerial framing** is what Kafka's Java client writes for snappy
//! (`org.xerial.snappy.SnappyOutputStream`), and librdkafka too: a 16-byte header
//! (the magic `82 53 4e 41 50 50 59 00`, "\x82SNAPPY\0", then a big-endian int32
//! version, 1, and an int32 compatible version, 1), then blocks, each a big-endian
//! int32 length and a raw snappy block of that many bytes. There is no end marker.
//! Kafka's reader (`SnappyInputStream`) falls back to one raw snappy block when the
//! magic is absent, and skips the header of another stream concatenated after the
//! first; so does [`decompress`].
//!
//! **Decompression is bounded**: no codec allocates from a size that the input only
//! claims (a gzip member's ISIZE, a zstd frame's content size, a snappy block's
//! length). gzip, lz4 and zstd are read as streams, taking at most one byte more
//! than the limit, into a buffer that grows with what actually came out; a snappy
//! block's claimed length is checked against what is left of the limit, and against
//! what its compressed bytes could possibly expand to, before its output is
//! allocated; a zstd frame's window is capped by the limit too (see [`decompress`]).
//!
//! Every compressed codec refuses empty input as [`RecordsError::Corrupt`]: each
//! writes at least a header, even for no records.

#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
use std::io::Read;

use super::{Compression, RecordsError};

/// The default cap on the bytes one batch may decompress to: 64 MiB.
///
/// Kafka bounds batches far below this: a broker's `message.max.bytes` (its largest
/// batch, compressed) and a producer's `max.request.size` default to about 1 MiB,
/// while whole frames go further (`socket.request.max.bytes`, a broker's largest
/// request, defaults to 100 MiB; a consumer's `fetch.max.bytes` to 50 MiB). Records
/// compress a few times, rarely more than 20 times, so a default-sized batch stays
/// well under 64 MiB once decompressed; one that gives more is a decompression bomb
/// (64 MiB of zeros fits in about 64 KiB of gzip), and the cap keeps it from taking
/// more memory than this. Deployments that raise `message.max.bytes` a lot should
/// pass a larger cap to [`decompress`].
pub const DEFAULT_MAX_DECOMPRESSED: usize = 64 * 1024 * 1024;

/// Decompresses the records section of a batch compressed with `codec`, giving at
/// most `max_output` bytes ([`DEFAULT_MAX_DECOMPRESSED`] is a sensible cap).
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
            read_bounded(gzip::reader(input), "gzip", max_output, input.len())
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

/// The error for a codec whose cargo feature is off (each feature is named as its
/// codec).
fn not_enabled(codec: Compression) -> RecordsError {
    RecordsError::CodecNotEnabled(codec.name(), codec.name())
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

/// A decoder's error as [`RecordsError::Corrupt`].
#[cfg(any(
    feature = "gzip",
    feature = "snappy",
    feature = "lz4",
    feature = "zstd"
))]
fn corrupt(codec: &'static str, reason: impl ToString) -> RecordsError {
    RecordsError::Corrupt {
        codec,
        reason: reason.to_string(),
    }
}

/// Reads `reader` to its end, or to one byte past `max_output`, into a buffer that
/// grows with what comes out (starting from twice the compressed length, at most
/// `max_output`).
#[cfg(any(feature = "gzip", feature = "zstd"))]
fn read_bounded<R: Read>(
    mut reader: R,
    codec: &'static str,
    max_output: usize,
    input_len: usize,
) -> Result<Vec<u8>, RecordsError> {
    let mut out = Vec::with_capacity(input_len.saturating_mul(2).min(max_output));
    append_bounded(&mut reader, codec, max_output, &mut out)?;
    Ok(out)
}

/// Appends what `reader` gives to `out`, until its end or until `out` holds one
/// byte more than `max_output`: then [`RecordsError::DecompressedTooLarge`].
#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
fn append_bounded<R: Read>(
    reader: &mut R,
    codec: &'static str,
    max_output: usize,
    out: &mut Vec<u8>,
) -> Result<(), RecordsError> {
    let too_large = RecordsError::DecompressedTooLarge {
        codec,
        limit: max_output,
    };
    let left = max_output.checked_sub(out.len()).ok_or(too_large.clone())?;
    let limit = u64::try_from(left).unwrap_or(u64::MAX).saturating_add(1);
    reader
        .take(limit)
        .read_to_end(out)
        .map_err(|e| corrupt(codec, e))?;
    if out.len() > max_output {
        return Err(too_large);
    }
    Ok(())
}

/// gzip (RFC 1952) through flate2.
#[cfg(feature = "gzip")]
mod gzip {
    use std::io::{BufRead, Write};

    use flate2::bufread::MultiGzDecoder;
    use flate2::write::GzEncoder;

    use super::{corrupt, RecordsError};

    /// The decompressed bytes of every gzip member in `input`, one after another.
    /// Java's `GZIPInputStream`, which Kafka reads with, reads concatenated members
    /// too.
    pub(super) fn reader<R: BufRead>(input: R) -> MultiGzDecoder<R> {
        MultiGzDecoder::new(input)
    }

    /// One gzip member at deflate level 6: the level Kafka's `GZIPOutputStream`
    /// uses (`compression.gzip.level` defaults to zlib's default, 6).
    pub(super) fn compress(input: &[u8]) -> Result<Vec<u8>, RecordsError> {
        let mut encoder = GzEncoder::new(
            Vec::with_capacity(input.len() / 2 + 64),
            flate2::Compression::new(6),
        );
        encoder.write_all(input).map_err(|e| corrupt("gzip", e))?;
        encoder.finish().map_err(|e| corrupt("gzip", e))
    }
}

/// Snappy, in the xerial framing or as one raw block, through snap.
#[cfg(feature = "snappy")]
mod snappy {
    use super::{corrupt, RecordsError};

    /// The xerial magic: "\x82SNAPPY\0".
    const XERIAL_MAGIC: [u8; 8] = *b"\x82SNAPPY\0";
    /// The xerial header: the magic, an int32 version and an int32 compatible
    /// version.
    const XERIAL_HEADER_LEN: usize = 16;
    /// The version written: 1, as snappy-java writes it.
    const XERIAL_VERSION: i32 = 1;
    /// The compatible version written (the oldest reader's version): 1, as
    /// snappy-java writes it.
    const XERIAL_COMPATIBLE_VERSION: i32 = 1;
    /// Input bytes per xerial block: snappy-java's default block size, 32 KiB.
    pub(super) const XERIAL_BLOCK_SIZE: usize = 32 * 1024;
    /// The most output one byte of a raw snappy block can give: a copy with a
    /// 2-byte offset takes 3 bytes and gives at most 64 (64 / 3 < 22); every other
    /// element gives less per byte. A block claiming more than this many times its
    /// own length is corrupt, however much of the limit is left.
    const MAX_EXPANSION: usize = 22;

    const CODEC: &str = "snappy";

    /// Decompresses xerial-framed snappy when `input` starts with the xerial magic,
    /// else one raw snappy block (as snappy-java's `SnappyInputStream` does).
    pub(super) fn decompress(input: &[u8], max_output: usize) -> Result<Vec<u8>, RecordsError> {
        let mut decoder = snap::raw::Decoder::new();
        let mut out = Vec::new();
        if !input.starts_with(&XERIAL_MAGIC) {
            decompress_block(&mut decoder, input, &mut out, max_output)?;
            return Ok(out);
        }
        let mut rest = input;
        while !rest.is_empty() {
            if rest.starts_with(&XERIAL_MAGIC) {
                // The first header, or that of a stream concatenated after the last.
                // Its versions are not checked: every version has these blocks.
                if rest.len() < XERIAL_HEADER_LEN {
                    return Err(corrupt(
                        CODEC,
                        format!(
                            "xerial header of {} bytes, needs {XERIAL_HEADER_LEN}",
                            rest.len()
                        ),
                    ));
                }
                rest = &rest[XERIAL_HEADER_LEN..];
                continue;
            }
            let Some((len, after)) = rest.split_first_chunk::<4>() else {
                return Err(corrupt(
                    CODEC,
                    format!("xerial block length cut short after {} bytes", rest.len()),
                ));
            };
            let len = i32::from_be_bytes(*len);
            let block = usize::try_from(len)
                .ok()
                .and_then(|len| after.get(..len))
                .ok_or_else(|| {
                    corrupt(
                        CODEC,
                        format!("xerial block of {len} bytes, {} bytes present", after.len()),
                    )
                })?;
            decompress_block(&mut decoder, block, &mut out, max_output)?;
            rest = &after[block.len()..];
        }
        Ok(out)
    }

    /// Decompresses one raw snappy block onto the end of `out`, after checking its
    /// claimed length against what the block could expand to and against what is
    /// left of `max_output`.
    fn decompress_block(
        decoder: &mut snap::raw::Decoder,
        block: &[u8],
        out: &mut Vec<u8>,
        max_output: usize,
    ) -> Result<(), RecordsError> {
        let len = snap::raw::decompress_len(block).map_err(|e| corrupt(CODEC, e))?;
        if len > block.len().saturating_mul(MAX_EXPANSION) {
            return Err(corrupt(
                CODEC,
                format!(
                    "a block of {} bytes claims {len} bytes, more than it can hold",
                    block.len()
                ),
            ));
        }
        if len > max_output.saturating_sub(out.len()) {
            return Err(RecordsError::DecompressedTooLarge {
                codec: CODEC,
                limit: max_output,
            });
        }
        let start = out.len();
        out.resize(start + len, 0);
        let written = decoder
            .decompress(block, &mut out[start..])
            .map_err(|e| corrupt(CODEC, e))?;
        // snap checks this too: a block gives exactly the length it claims.
        if written != len {
            return Err(corrupt(
                CODEC,
                format!("a block claims {len} bytes and gives {written}"),
            ));
        }
        Ok(())
    }

    /// The xerial framing: the header, then each 32 KiB of `input` as a raw snappy
    /// block after its big-endian int32 length. Empty input is the header alone,
    /// as snappy-java writes it.
    pub(super) fn compress(input: &[u8]) -> Vec<u8> {
        let mut encoder = snap::raw::Encoder::new();
        let blocks = input.len().div_ceil(XERIAL_BLOCK_SIZE);
        let mut out = Vec::with_capacity(XERIAL_HEADER_LEN + input.len() + blocks * 8);
        out.extend_from_slice(&XERIAL_MAGIC);
        out.extend_from_slice(&XERIAL_VERSION.to_be_bytes());
        out.extend_from_slice(&XERIAL_COMPATIBLE_VERSION.to_be_bytes());
        for chunk in input.chunks(XERIAL_BLOCK_SIZE) {
            let start = out.len();
            // max_compress_len of 32 KiB is about 38 KiB: it fits the int32.
            let max = snap::raw::max_compress_len(chunk.len());
            out.resize(start + 4 + max, 0);
            let written = encoder
                .compress(chunk, &mut out[start + 4..])
                .expect("the output holds max_compress_len bytes, and 32 KiB is not too long");
            out.truncate(start + 4 + written);
            let len = i32::try_from(written).expect("a 32 KiB block compresses to < 2 GiB");
            out[start..start + 4].copy_from_slice(&len.to_be_bytes());
        }
        out
    }
}

/// The LZ4 frame format through lz4_flex.
#[cfg(feature = "lz4")]
mod lz4 {
    use std::io::{Read, Write};

    use lz4_flex::frame::{BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

    use super::{append_bounded, corrupt, RecordsError};

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
    pub(super) fn reader<R: Read>(input: R) -> FrameDecoder<R> {
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
        let u32_at = |at: usize| {
            u32::from_le_bytes([input[at], input[at + 1], input[at + 2], input[at + 3]])
        };
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
        let mut encoder =
            FrameEncoder::with_frame_info(info, Vec::with_capacity(input.len() / 2 + 64));
        encoder.write_all(input).map_err(|e| corrupt(CODEC, e))?;
        encoder.finish().map_err(|e| corrupt(CODEC, e))
    }
}

/// Zstandard through the zstd crate (libzstd).
#[cfg(feature = "zstd")]
mod zstd {
    use std::io::BufRead;

    use ::zstd::stream::read::Decoder;
    use ::zstd::zstd_safe;

    use super::{corrupt, read_bounded, RecordsError};

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
    pub(super) fn window_log_max(max_output: usize) -> u32 {
        let log = usize::BITS - max_output.saturating_sub(1).leading_zeros();
        (log + 1).clamp(MIN_WINDOW_LOG_MAX, MAX_WINDOW_LOG_MAX)
    }

    /// The decompressed bytes of every frame of `input`, skippable frames skipped,
    /// with the window capped by [`window_log_max`].
    pub(super) fn reader<R: BufRead>(
        input: R,
        max_output: usize,
    ) -> Result<Decoder<'static, R>, RecordsError> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1024 * 1024;

    /// The payload of the known-answer vectors (55 bytes).
    const SMALL: &[u8] = b"Kafka record batch: hello, hello, hello, hello, world!\n";

    /// Bytes from hex, whitespace ignored.
    #[cfg_attr(not(feature = "compression"), allow(dead_code))]
    fn hex(s: &str) -> Vec<u8> {
        let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        assert_eq!(digits.len() % 2, 0, "odd number of hex digits");
        digits
            .chunks(2)
            .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
            .collect()
    }

    /// Random-looking bytes from a 64-bit LCG (Knuth's MMIX constants).
    fn lcg_bytes(len: usize, seed: u64) -> Vec<u8> {
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
    fn text(len: usize) -> Vec<u8> {
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

    fn is_corrupt(result: &Result<Vec<u8>, RecordsError>, codec: Compression) -> bool {
        matches!(result, Err(RecordsError::Corrupt { codec: c, .. }) if *c == codec.name())
    }

    fn is_too_large(
        result: &Result<Vec<u8>, RecordsError>,
        codec: Compression,
        max: usize,
    ) -> bool {
        matches!(
            result,
            Err(RecordsError::DecompressedTooLarge { codec: c, limit }) if *c == codec.name() && *limit == max
        )
    }

    #[test]
    fn default_cap_is_64_mib() {
        assert_eq!(DEFAULT_MAX_DECOMPRESSED, 64 * MIB);
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

    /// Counts the bytes a decoder takes from its input.
    #[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
    struct Counting<'a> {
        inner: &'a [u8],
        consumed: &'a std::cell::Cell<usize>,
    }

    #[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
    impl Read for Counting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.consumed.set(self.consumed.get() + n);
            Ok(n)
        }
    }

    #[cfg(feature = "gzip")]
    mod gzip_codec {
        use std::cell::Cell;
        use std::io::BufReader;

        use super::*;

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
            let result = read_bounded(gzip::reader(input), "gzip", MIB, bomb.len());
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

    #[cfg(feature = "snappy")]
    mod snappy_codec {
        use super::*;

        /// `SMALL` through snappy-java 1.1.8.3 (Debian's libsnappy-java, which runs
        /// Google's C++ snappy through JNI), the class Kafka's producer writes with:
        /// `SnappyOutputStream o = new SnappyOutputStream(bytes); o.write(SMALL); o.close();`
        /// The xerial header, then one block of 0x27 bytes.
        const JAVA: &str = "82534e41505059000000000100000001 00000027
                            37644b61666b61207265636f72642062617463683a2068656c6c6f2c56070018776f726c64210a";
        /// `big()` through snappy-java with 1 KiB blocks,
        /// `new SnappyOutputStream(bytes, 1024)`: two blocks, of 0x69 and 0x60 bytes.
        const JAVA_TWO_BLOCKS: &str = "
            82534e41505059000000000100000001 00000069
            8008787265636f72642d303a2074686520717569636b2062726f776e20666f783b0a0d1f0031761f
            000032761f000033761f000034761f000035761f000036761f00fed900fed900fed900fed900fed9
            00fed900fed900fed900fed900fed900fed900fed9007ed900 00000060
            c4067865636f72642d353a2074686520717569636b2062726f776e20666f783b0a72091f0036761f
            000030761f000031761f000032761f000033761f000034761f00fed900fed900fed900fed900fed9
            00fed900fed900fed900fed90092d900";
        /// No bytes through snappy-java: the header alone.
        const JAVA_EMPTY: &str = "82534e41505059000000000100000001";
        /// `SMALL` as one raw snappy block (no xerial header), by Google's C++
        /// snappy 1.1.9 through Debian's python3-snappy 0.5.3:
        /// `snappy.compress(SMALL)`.
        const RAW: &str =
            "37644b61666b61207265636f72642062617463683a2068656c6c6f2c56070018776f726c64210a";

        /// 60 lines of "record-{i % 7}: the quick brown fox;\n", 1,860 bytes.
        fn big() -> Vec<u8> {
            (0..60)
                .flat_map(|i| format!("record-{}: the quick brown fox;\n", i % 7).into_bytes())
                .collect()
        }

        #[test]
        fn known_answers() {
            let decode = |vector| decompress(Compression::Snappy, &hex(vector), 4096).unwrap();
            assert_eq!(decode(JAVA), SMALL);
            assert_eq!(decode(RAW), SMALL);
            assert_eq!(decode(JAVA_EMPTY), b"");
            let big = big();
            assert_eq!(big.len(), 1860);
            assert_eq!(decode(JAVA_TWO_BLOCKS), big);
        }

        #[test]
        fn concatenated_xerial_streams() {
            let mut stream = hex(JAVA);
            stream.extend_from_slice(&hex(JAVA_TWO_BLOCKS));
            let mut expected = SMALL.to_vec();
            expected.extend_from_slice(&big());
            assert_eq!(
                decompress(Compression::Snappy, &stream, 4096).unwrap(),
                expected
            );
        }

        #[test]
        fn writes_the_xerial_framing_in_32_kib_blocks() {
            assert_eq!(compress(Compression::Snappy, b"").unwrap(), hex(JAVA_EMPTY));
            let input = text(100 * 1024);
            let compressed = compress(Compression::Snappy, &input).unwrap();
            assert_eq!(compressed[..16], hex(JAVA_EMPTY));
            // Walk the blocks: 32, 32, 32 and 4 KiB of input.
            let mut rest = &compressed[16..];
            let mut sizes = Vec::new();
            while !rest.is_empty() {
                let len = i32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
                let block = &rest[4..4 + len];
                sizes.push(snap::raw::decompress_len(block).unwrap());
                rest = &rest[4 + len..];
            }
            assert_eq!(sizes, [32 * 1024, 32 * 1024, 32 * 1024, 4 * 1024]);
        }

        fn xerial(blocks: &[&[u8]]) -> Vec<u8> {
            let mut out = hex(JAVA_EMPTY);
            for block in blocks {
                out.extend_from_slice(&(block.len() as i32).to_be_bytes());
                out.extend_from_slice(block);
            }
            out
        }

        #[test]
        fn a_claimed_2_gib_block_is_refused_before_allocating() {
            // A raw block whose length varint says 2 GiB, and nothing else.
            let claim = [0x80, 0x80, 0x80, 0x80, 0x08];
            assert_eq!(snap::raw::decompress_len(&claim).unwrap(), 1 << 31);
            for max in [MIB, DEFAULT_MAX_DECOMPRESSED, usize::MAX] {
                for input in [xerial(&[&claim]), claim.to_vec()] {
                    let result = decompress(Compression::Snappy, &input, max);
                    assert!(
                        is_corrupt(&result, Compression::Snappy),
                        "{:?}",
                        result.as_ref().map(Vec::len)
                    );
                }
            }
            // A plausible claim (at most 22 times the block) over the limit.
            let mut block = vec![0x80, 0x80, 0x01]; // 16 KiB
            block.resize(1024, 0);
            let result = decompress(Compression::Snappy, &xerial(&[&block]), 1024);
            assert!(
                is_too_large(&result, Compression::Snappy, 1024),
                "{:?}",
                result.as_ref().map(Vec::len)
            );
        }

        #[test]
        fn a_block_length_past_the_end_is_corrupt() {
            let mut input = hex(JAVA_EMPTY);
            input.extend_from_slice(&i32::MAX.to_be_bytes());
            input.extend_from_slice(&hex(RAW));
            let result = decompress(Compression::Snappy, &input, DEFAULT_MAX_DECOMPRESSED);
            assert!(
                is_corrupt(&result, Compression::Snappy),
                "{:?}",
                result.as_ref().map(Vec::len)
            );
            // And a negative one.
            input[16..20].copy_from_slice(&(-1i32).to_be_bytes());
            let result = decompress(Compression::Snappy, &input, DEFAULT_MAX_DECOMPRESSED);
            assert!(
                is_corrupt(&result, Compression::Snappy),
                "{:?}",
                result.as_ref().map(Vec::len)
            );
        }

        #[test]
        fn a_cut_header_is_corrupt() {
            for len in 8..16 {
                let result = decompress(Compression::Snappy, &hex(JAVA)[..len], 4096);
                assert!(
                    is_corrupt(&result, Compression::Snappy),
                    "{len}: {:?}",
                    result.as_ref().map(Vec::len)
                );
            }
        }

        #[test]
        fn bombs_stop_at_the_limit() {
            // 64 xerial blocks of 32 KiB of zeros: about 100 KiB for 2 MiB.
            let zeros = vec![0u8; snappy::XERIAL_BLOCK_SIZE];
            let block = snap::raw::Encoder::new().compress_vec(&zeros).unwrap();
            let bomb = xerial(&vec![&block[..]; 64]);
            assert!(bomb.len() < 128 * 1024, "{}", bomb.len());
            let result = decompress(Compression::Snappy, &bomb, MIB);
            assert!(
                is_too_large(&result, Compression::Snappy, MIB),
                "{:?}",
                result.as_ref().map(Vec::len)
            );
            assert_eq!(
                decompress(Compression::Snappy, &bomb, 2 * MIB)
                    .unwrap()
                    .len(),
                2 * MIB
            );

            // One raw block of 4 MiB of zeros: refused on its claimed length alone.
            let raw = snap::raw::Encoder::new()
                .compress_vec(&vec![0; 4 * MIB])
                .unwrap();
            let result = decompress(Compression::Snappy, &raw, MIB);
            assert!(
                is_too_large(&result, Compression::Snappy, MIB),
                "{:?}",
                result.as_ref().map(Vec::len)
            );
        }
    }

    #[cfg(feature = "lz4")]
    mod lz4_codec {
        use std::cell::Cell;

        use super::*;

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
            let mut decoder = lz4::reader(Counting {
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

    #[cfg(feature = "zstd")]
    mod zstd_codec {
        use std::cell::Cell;
        use std::io::BufReader;

        use super::*;

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
            assert_eq!(zstd::window_log_max(0), 23);
            assert_eq!(zstd::window_log_max(MIB), 23);
            assert_eq!(zstd::window_log_max(8 * MIB), 24);
            assert_eq!(zstd::window_log_max(DEFAULT_MAX_DECOMPRESSED), 27);
            assert_eq!(zstd::window_log_max(usize::MAX), 27);

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
            let decoder = zstd::reader(input, MIB).unwrap();
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
}
