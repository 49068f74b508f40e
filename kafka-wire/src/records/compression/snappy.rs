//! Snappy, in the xerial framing or as one raw block, through snap.

use super::error::corrupt;
use crate::records::RecordsError;

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
const XERIAL_BLOCK_SIZE: usize = 32 * 1024;
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

#[cfg(test)]
mod tests {
    use super::XERIAL_BLOCK_SIZE;
    use crate::records::compression::test_support::{
        hex, is_corrupt, is_too_large, text, MIB, SMALL,
    };
    use crate::records::compression::{compress, decompress, DEFAULT_MAX_DECOMPRESSED};
    use crate::records::Compression;

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
        let zeros = vec![0u8; XERIAL_BLOCK_SIZE];
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
