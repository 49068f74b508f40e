//! Compile-time behaviour of the `#[kafka]` derives: every schema mistake the derive
//! promises to reject fails with a spanned error (`tests/fail`), and every attribute
//! and Kafka type compiles and behaves (`tests/pass`).
//!
//! Regenerate the expected errors with `TRYBUILD=overwrite cargo test -p
//! kwire-ui-tests`, then read every changed `.stderr`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/fail/*.rs");
    cases.pass("tests/pass/*.rs");
}
