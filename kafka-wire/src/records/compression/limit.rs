//! The cap on decompressed bytes, and the bounded reads that keep to it.

#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
use std::io::Read;

#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
use super::error::corrupt;
#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
use crate::records::RecordsError;

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
/// pass a larger cap to [`decompress`](super::decompress).
pub const DEFAULT_MAX_DECOMPRESSED: usize = 64 * 1024 * 1024;

/// Reads `reader` to its end, or to one byte past `max_output`, into a buffer that
/// grows with what comes out (starting from twice the compressed length, at most
/// `max_output`).
#[cfg(any(feature = "gzip", feature = "zstd"))]
pub(super) fn read_bounded<R: Read>(
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
pub(super) fn append_bounded<R: Read>(
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

#[cfg(test)]
mod tests {
    use super::DEFAULT_MAX_DECOMPRESSED;
    use crate::records::compression::test_support::MIB;

    #[test]
    fn default_cap_is_64_mib() {
        assert_eq!(DEFAULT_MAX_DECOMPRESSED, 64 * MIB);
    }
}
