//! The hostile inputs found by reviewing the decoder as an attacker would, as bodies
//! of named messages: regression tests decode them, and the fuzz target starts
//! from them.

use kwire::wire::varint::put_unsigned_varint;
use kwire::Message;
use kwire_messages::api::FetchRequest;

/// One hostile body of a message at a version, and what it tries.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The message, as the registry names it.
    pub message: &'static str,
    /// The version to decode it at.
    pub version: i16,
    /// The body.
    pub body: Vec<u8>,
    /// What it tries.
    pub why: &'static str,
}

/// `encoding` with an array count inserted at `offset` (a varint of count + 1 when
/// `compact`, else an int32), then `zeros` zero bytes.
pub fn count_at(
    encoding: &[u8],
    offset: usize,
    compact: bool,
    count: usize,
    zeros: usize,
) -> Vec<u8> {
    let mut bytes = encoding[..offset].to_vec();
    if compact {
        put_unsigned_varint(&mut bytes, count as u32 + 1);
    } else {
        bytes.extend_from_slice(&(count as i32).to_be_bytes());
    }
    bytes.extend_from_slice(&encoding[offset..]);
    bytes.resize(bytes.len() + zeros, 0);
    bytes
}

/// `prefix`, then an array count equal to the bytes that follow it, which are
/// `zeros` zero bytes.
pub fn lying_count(prefix: &[u8], compact: bool, zeros: usize) -> Vec<u8> {
    count_at(prefix, prefix.len(), compact, zeros, zeros)
}

/// A RequestHeader v2 (key 18, version 3, correlation 7, null client ID) whose
/// tagged section holds an empty value for each of `tags`, in that order.
pub fn header_with_tags(tags: impl ExactSizeIterator<Item = u32>) -> Vec<u8> {
    let mut bytes = vec![0, 18, 0, 3, 0, 0, 0, 7, 0xff, 0xff];
    put_unsigned_varint(&mut bytes, tags.len() as u32);
    for tag in tags {
        put_unsigned_varint(&mut bytes, tag);
        bytes.push(0);
    }
    bytes
}

/// Every probe, with lying counts before `zeros` zero bytes.
pub fn probes(zeros: usize) -> Vec<Probe> {
    let count = |message, version, prefix: &[u8], compact, why| Probe {
        message,
        version,
        body: lying_count(prefix, compact, zeros),
        why,
    };
    vec![
        count(
            "DescribeDelegationTokenResponse",
            2,
            &[0, 0],
            true,
            "248 bytes reserved per input byte, then an abort",
        ),
        count(
            "DescribeDelegationTokenResponse",
            1,
            &[0, 0],
            false,
            "zeros that decode as tokens",
        ),
        count(
            "CreateAclsRequest",
            2,
            &[],
            true,
            "an abort under a 3 GB limit at 32 MiB",
        ),
        count(
            "DescribeGroupsResponse",
            0,
            &[],
            false,
            "200 bytes per input byte",
        ),
        count(
            "MetadataResponse",
            0,
            &[],
            false,
            "185 bytes per input byte, nested",
        ),
        count(
            "MetadataResponse",
            12,
            &[0, 0, 0, 0],
            true,
            "185 bytes per input byte, nested",
        ),
        count(
            "CreateTopicsRequest",
            5,
            &[],
            true,
            "137 bytes per input byte",
        ),
        Probe {
            message: "RequestHeader",
            version: 2,
            body: header_with_tags((0..65_536).rev()),
            why: "descending unknown tags: quadratic once",
        },
        Probe {
            message: "FetchRequest",
            version: 12,
            body: fetch_v12_with_replica_state(),
            why: "a known tag outside its tagged versions",
        },
    ]
}

/// FetchRequest v12 carrying tag 1, ReplicaState, which is tagged only from v15.
pub fn fetch_v12_with_replica_state() -> Vec<u8> {
    let mut bytes = FetchRequest::default()
        .encode(12)
        .map(|b| b.to_vec())
        .unwrap_or_default();
    // The default's empty tagged section gives way to one field: tag 1, 13 bytes
    // (ReplicaId, ReplicaEpoch, no tags).
    bytes.pop();
    bytes.extend_from_slice(&[1, 1, 13, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0]);
    bytes
}
