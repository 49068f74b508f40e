//! A peer's length prefix costs nothing it did not send: an oversize or negative one
//! is refused from its 4 bytes without allocating what it claims, and a legal but
//! large one reserves a step at a time as bytes arrive (a counting allocator
//! measures).

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use std::io::Cursor;

use counting_allocator::allocated_during;
use kwire_messages::frame::FrameLengthError;
use kwire_net::blocking::FrameReader;
use kwire_net::splitter::{FrameSplitter, DEFAULT_MAX_FRAME_SIZE};
use kwire_net::FrameIoError;

#[test]
fn an_oversize_prefix_is_refused_without_allocating_it() {
    let mut splitter = FrameSplitter::new();
    let claimed = i32::MAX;
    let (result, allocated) = allocated_during(|| {
        splitter.extend_from_slice(&claimed.to_be_bytes());
        splitter.next_frame()
    });
    assert_eq!(
        result,
        Err(FrameLengthError::TooLarge {
            len: claimed as usize,
            max: DEFAULT_MAX_FRAME_SIZE
        })
    );
    assert!(allocated.peak < 1024, "{allocated:?}");
}

#[test]
fn a_negative_prefix_is_refused_without_allocating() {
    let mut splitter = FrameSplitter::new();
    let (result, allocated) = allocated_during(|| {
        splitter.extend_from_slice(&(-7_i32).to_be_bytes());
        splitter.next_frame()
    });
    assert_eq!(result, Err(FrameLengthError::Negative(-7)));
    assert!(allocated.peak < 1024, "{allocated:?}");
}

#[test]
fn a_legal_100_mib_prefix_alone_costs_a_step_not_100_mib() {
    let mut splitter = FrameSplitter::new();
    let (result, allocated) = allocated_during(|| {
        splitter.extend_from_slice(&(DEFAULT_MAX_FRAME_SIZE as i32).to_be_bytes());
        splitter.next_frame()
    });
    assert_eq!(result, Ok(None));
    assert!(allocated.peak <= 128 * 1024, "{allocated:?}");
}

#[test]
fn a_blocking_reader_refuses_an_oversize_prefix_before_reading_on() {
    // The prefix claims 1 GiB; a megabyte of bytes follows it.
    let mut wire = (1_i32 << 30).to_be_bytes().to_vec();
    wire.resize(4 + 1024 * 1024, 0);
    let mut reader = FrameReader::new(Cursor::new(wire));
    let (result, allocated) = allocated_during(|| reader.read_frame());
    assert!(
        matches!(
            result,
            Err(FrameIoError::Length(FrameLengthError::TooLarge { .. }))
        ),
        "{result:?}"
    );
    // One read's worth of buffer at most, not the claimed gibibyte.
    assert!(allocated.peak <= 128 * 1024, "{allocated:?}");
}
