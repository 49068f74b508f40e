//! Version ranges as the derive reads them from attribute strings: Kafka's grammar,
//! from `kwire-version` (the one the runtime parses with), with the problem
//! worded for a compile error.

pub use kwire_version::VersionRange as Range;

use proc_macro2::TokenStream;
use quote::quote;

use crate::private_path;

/// Parses an attribute's range string.
pub fn parse(text: &str) -> Result<Range, String> {
    Range::parse(text).map_err(|e| match e {
        kwire_version::VersionRangeError::Empty => e.to_string(),
        _ => format!("`{text}` is not a version range: {e}"),
    })
}

/// True when the two ranges share a version.
pub fn overlaps(a: Range, b: Range) -> bool {
    !a.intersect(b).is_empty()
}

/// The lowest version of a non-empty range (0 for `none`, which has none).
pub fn lowest(range: Range) -> i16 {
    range.min().unwrap_or(0)
}

/// The highest version of a non-empty range (-1 for `none`).
pub fn highest(range: Range) -> i16 {
    range.max().unwrap_or(-1)
}

/// Tokens that build `range` in generated code.
pub fn tokens(range: Range) -> TokenStream {
    let p = private_path::private();
    match (range.min(), range.max()) {
        (Some(min), Some(max)) => quote!(#p::VersionRange::new(#min, #max)),
        _ => quote!(#p::VersionRange::NONE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One table of inputs through both parsers: the derive's (this module) and the
    /// runtime's (`VersionRange::parse`, what `kwire::VersionRange` is). Both
    /// must accept the same strings with the same meaning.
    #[test]
    fn the_derive_and_the_runtime_share_one_grammar() {
        let table: &[(&str, Option<(i16, i16)>)] = &[
            ("0", Some((0, 0))),
            ("7", Some((7, 7))),
            ("0+", Some((0, i16::MAX))),
            ("3-12", Some((3, 12))),
            ("3-3", Some((3, 3))),
            ("none", None),
            (" 1+", Some((1, i16::MAX))),
            ("1+ ", Some((1, i16::MAX))),
            ("\t2-4\n", Some((2, 4))),
            ("32767", Some((32767, 32767))),
            ("32767+", Some((32767, i16::MAX))),
            ("01", Some((1, 1))),
        ];
        let invalid = [
            "", " ", "3-2", "32768+", "32768", "+3", "-1", "3++", "3-", "-3", "3 - 4", "1+2", "x",
            "None", "0x1", "1.5", "3+-4", "٣",
        ];
        for (text, expected) in table {
            let derive = parse(text).unwrap_or_else(|e| panic!("derive refused {text:?}: {e}"));
            let runtime =
                Range::parse(text).unwrap_or_else(|e| panic!("runtime refused {text:?}: {e}"));
            assert_eq!(derive, runtime, "{text:?}");
            let bounds = derive.min().zip(derive.max());
            assert_eq!(bounds, *expected, "{text:?}");
        }
        for text in invalid {
            assert!(parse(text).is_err(), "derive accepted {text:?}");
            assert!(Range::parse(text).is_err(), "runtime accepted {text:?}");
        }
    }
}
