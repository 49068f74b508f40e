//! Compile-time behaviour of the `#[kafka]` derives: every schema mistake the derive
//! promises to reject fails with a spanned error (`tests/fail`), and every attribute
//! and Kafka type compiles and behaves (`tests/pass`).
//!
//! Regenerate the expected errors with `TRYBUILD=overwrite cargo test -p
//! kwire-ui-tests`, then read every changed `.stderr`.

#[test]
fn ui() {
    // trybuild compiles the cases in a project of its own under `target/`, whose
    // CARGO_MANIFEST_DIR is not this crate's: `compatible_with` paths
    // (`schemas/…`) resolve against this variable instead when it is set.
    std::env::set_var("KWIRE_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"));
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/fail/*.rs");
    cases.pass("tests/pass/*.rs");
}
