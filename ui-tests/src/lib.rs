//! Compile-time tests of the `#[kafka]` derives: see `tests/ui.rs`, the compile-fail
//! cases in `tests/fail` and the compile-and-run cases in `tests/pass`.
