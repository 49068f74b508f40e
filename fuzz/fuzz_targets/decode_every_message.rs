//! Every message, every version: an input that decodes must encode, and decode
//! again to an equal value, and go through its JSON form and back to an equal value
//! (unknown tagged fields aside); no input may panic, abort or hang.
//!
//! The first two bytes pick the message (by its position in the registry), the third
//! its version (within the message's valid versions), the rest is the body.
#![no_main]

use bytes::Bytes;
use kwire_tests::codecs::codecs;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [high, low, version, body @ ..] = data else {
        return;
    };
    let codecs = codecs();
    let codec = codecs[usize::from(u16::from_be_bytes([*high, *low])) % codecs.len()];
    let valid = codec.schema.valid_versions;
    let (Some(min), Some(max)) = (valid.min(), valid.max()) else {
        return;
    };
    let version = min + i16::from(*version) % (max - min + 1);
    if let Err(broken) = (codec.check_decoded)(&Bytes::copy_from_slice(body), version) {
        panic!("{broken}");
    }
});
