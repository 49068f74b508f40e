//! Kafka's version ranges: `"3+"`, `"0-12"`, `"7"` and `"none"`.
//!
//! One grammar, used by the `kafka-wire` runtime (which re-exports [`VersionRange`])
//! and by its derive, so an attribute the derive accepts is exactly a string the
//! runtime parses: ASCII digits only (no sign), surrounding whitespace ignored, the
//! bounds within 0 to 32767 and in order.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

/// A contiguous, inclusive range of protocol versions, as Kafka's schemas spell them.
///
/// Parsing is a `const fn`, so ranges can be checked at compile time.
///
/// ```
/// use kwire_version::VersionRange;
///
/// const FLEXIBLE: VersionRange = VersionRange::parse_or_panic("3+");
/// assert!(FLEXIBLE.contains(3) && FLEXIBLE.contains(i16::MAX) && !FLEXIBLE.contains(2));
/// assert_eq!(VersionRange::parse("0-12"), Ok(VersionRange::new(0, 12)));
/// assert!(VersionRange::parse("none").unwrap().is_empty());
/// assert_eq!(FLEXIBLE.to_string(), "3+");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionRange {
    min: i16,
    max: i16,
}

/// Why a version range string could not be parsed.
///
/// ```
/// use kwire_version::{VersionRange, VersionRangeError};
///
/// assert_eq!(VersionRange::parse("3-2"), Err(VersionRangeError::Reversed));
/// assert_eq!(
///     VersionRange::parse("+3").unwrap_err().to_string(),
///     "expected a version number: write `N`, `N+`, `N-M` or `none`"
/// );
/// ```
// Display and Error are written out rather than derived with thiserror: this crate
// is a dependency of the derive macro, and thiserror's own proc-macro would sit on
// the build's critical path ahead of it (0.7 s of every clean build, measured with
// `tests/benches/compile_time.py`), for one four-variant enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionRangeError {
    /// The string was empty.
    Empty,
    /// The string does not have the shape of a range; says what was wrong.
    Malformed(&'static str),
    /// A version number is above 32767.
    OutOfRange,
    /// The upper bound is below the lower bound.
    Reversed,
}

impl fmt::Display for VersionRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHAPES: &str = "write `N`, `N+`, `N-M` or `none`";
        match self {
            VersionRangeError::Empty => write!(f, "empty version range: {SHAPES}"),
            VersionRangeError::Malformed(what) => write!(f, "{what}: {SHAPES}"),
            VersionRangeError::OutOfRange => {
                f.write_str("version number out of range: versions are 0 to 32767")
            }
            VersionRangeError::Reversed => f.write_str("the upper bound is below the lower bound"),
        }
    }
}

impl std::error::Error for VersionRangeError {}

impl VersionRange {
    /// The empty range, Kafka's `"none"`.
    pub const NONE: VersionRange = VersionRange { min: 0, max: -1 };
    /// Every version, Kafka's `"0+"`.
    pub const ALL: VersionRange = VersionRange {
        min: 0,
        max: i16::MAX,
    };

    /// The range `min..=max`; empty when `max < min`.
    pub const fn new(min: i16, max: i16) -> Self {
        if max < min {
            Self::NONE
        } else {
            VersionRange { min, max }
        }
    }

    /// The open-ended range `min+`: every version from `min` on.
    ///
    /// ```
    /// use kwire_version::VersionRange;
    ///
    /// assert_eq!(VersionRange::at_least(3).to_string(), "3+");
    /// ```
    pub const fn at_least(min: i16) -> Self {
        VersionRange { min, max: i16::MAX }
    }

    /// Parses `"N"`, `"N+"`, `"N-M"` or `"none"`. Surrounding whitespace is allowed,
    /// as Kafka's own parser trims it; a sign is not.
    pub const fn parse(text: &str) -> Result<Self, VersionRangeError> {
        let bytes = text.as_bytes().trim_ascii();
        if bytes.is_empty() {
            return Err(VersionRangeError::Empty);
        }
        if matches!(bytes, b"none") {
            return Ok(Self::NONE);
        }
        let (min, rest) = match number(bytes) {
            Ok(parsed) => parsed,
            Err(e) => return Err(e),
        };
        if rest.is_empty() {
            return Ok(VersionRange { min, max: min });
        }
        if rest.len() == 1 && rest[0] == b'+' {
            return Ok(Self::at_least(min));
        }
        if rest[0] != b'-' {
            return Err(VersionRangeError::Malformed(
                "expected `+`, `-` or nothing after the first version",
            ));
        }
        let (_, after_dash) = rest.split_at(1);
        let (max, tail) = match number(after_dash) {
            Ok(parsed) => parsed,
            Err(e) => return Err(e),
        };
        if !tail.is_empty() {
            return Err(VersionRangeError::Malformed(
                "unexpected characters after the second version",
            ));
        }
        if max < min {
            return Err(VersionRangeError::Reversed);
        }
        Ok(VersionRange { min, max })
    }

    /// Like [`parse`](Self::parse), for constants written in code: a bad string fails
    /// the build when used in a `const`.
    pub const fn parse_or_panic(text: &str) -> Self {
        match Self::parse(text) {
            Ok(range) => range,
            Err(_) => panic!("invalid Kafka version range"),
        }
    }

    /// The lowest version, or `None` for the empty range.
    pub const fn min(self) -> Option<i16> {
        if self.is_empty() {
            None
        } else {
            Some(self.min)
        }
    }

    /// The highest version, or `None` for the empty range (`i16::MAX` when open-ended).
    pub const fn max(self) -> Option<i16> {
        if self.is_empty() {
            None
        } else {
            Some(self.max)
        }
    }

    /// True for `"none"`.
    pub const fn is_empty(self) -> bool {
        self.max < self.min
    }

    /// True for `"N+"` ranges, which have no upper bound.
    pub const fn is_open_ended(self) -> bool {
        !self.is_empty() && self.max == i16::MAX
    }

    /// True when `version` lies in the range.
    #[inline]
    pub const fn contains(self, version: i16) -> bool {
        self.min <= version && version <= self.max
    }

    /// True when every version of `other` lies in `self` (the empty range is in every range).
    pub const fn contains_range(self, other: VersionRange) -> bool {
        other.is_empty() || (self.min <= other.min && other.max <= self.max)
    }

    /// The versions both ranges contain.
    pub const fn intersect(self, other: VersionRange) -> VersionRange {
        let min = if self.min > other.min {
            self.min
        } else {
            other.min
        };
        let max = if self.max < other.max {
            self.max
        } else {
            other.max
        };
        VersionRange::new(min, max)
    }

    /// Const-friendly equality.
    pub const fn same_as(self, other: VersionRange) -> bool {
        (self.is_empty() && other.is_empty()) || (self.min == other.min && self.max == other.max)
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            f.write_str("none")
        } else if self.max == i16::MAX {
            write!(f, "{}+", self.min)
        } else if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

impl std::str::FromStr for VersionRange {
    type Err = VersionRangeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// Reads a decimal int16 from the front of `bytes`; returns it and what follows.
const fn number(bytes: &[u8]) -> Result<(i16, &[u8]), VersionRangeError> {
    let mut value: i32 = 0;
    let mut i = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        value = value * 10 + (bytes[i] - b'0') as i32;
        if value > i16::MAX as i32 {
            return Err(VersionRangeError::OutOfRange);
        }
        i += 1;
    }
    if i == 0 {
        return Err(VersionRangeError::Malformed("expected a version number"));
    }
    let (_, rest) = bytes.split_at(i);
    Ok((value as i16, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(VersionRange::parse("3+"), Ok(VersionRange::at_least(3)));
        assert_eq!(VersionRange::parse("0-12"), Ok(VersionRange::new(0, 12)));
        assert_eq!(VersionRange::parse("7"), Ok(VersionRange::new(7, 7)));
        assert_eq!(VersionRange::parse(" none "), Ok(VersionRange::NONE));
    }

    #[test]
    fn rejects_bad_strings() {
        assert_eq!(VersionRange::parse(""), Err(VersionRangeError::Empty));
        assert_eq!(VersionRange::parse("5-3"), Err(VersionRangeError::Reversed));
        assert_eq!(
            VersionRange::parse("40000+"),
            Err(VersionRangeError::OutOfRange)
        );
        assert!(matches!(
            VersionRange::parse("3++"),
            Err(VersionRangeError::Malformed(_))
        ));
        assert!(matches!(
            VersionRange::parse("-1"),
            Err(VersionRangeError::Malformed(_))
        ));
        assert!(matches!(
            VersionRange::parse("x"),
            Err(VersionRangeError::Malformed(_))
        ));
    }

    #[test]
    fn display_round_trips() {
        for s in ["none", "0+", "3-5", "7"] {
            assert_eq!(VersionRange::parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn set_operations() {
        let a = VersionRange::parse_or_panic("3+");
        let b = VersionRange::parse_or_panic("0-5");
        assert_eq!(a.intersect(b), VersionRange::new(3, 5));
        assert!(a.contains_range(VersionRange::new(4, 9)));
        assert!(!b.contains_range(a));
        assert!(b.contains_range(VersionRange::NONE));
    }
}

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
