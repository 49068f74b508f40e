//! Version ranges as the derive reads them from attribute strings.
//!
//! The runtime crate has its own `const` parser; this one runs inside the compiler
//! and reports problems as spanned compile errors instead.

use std::fmt;

/// An inclusive range; `max < min` is the empty range `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub min: i16,
    pub max: i16,
}

impl Range {
    pub const NONE: Range = Range { min: 0, max: -1 };

    pub fn is_empty(self) -> bool {
        self.max < self.min
    }

    pub fn is_open_ended(self) -> bool {
        !self.is_empty() && self.max == i16::MAX
    }

    pub fn contains_range(self, other: Range) -> bool {
        other.is_empty() || (self.min <= other.min && other.max <= self.max)
    }

    pub fn overlaps(self, other: Range) -> bool {
        !self.is_empty() && !other.is_empty() && self.min <= other.max && other.min <= self.max
    }

    /// The versions in both; `NONE` when there are none.
    pub fn intersect(self, other: Range) -> Range {
        let both = Range {
            min: self.min.max(other.min),
            max: self.max.min(other.max),
        };
        if both.is_empty() {
            Range::NONE
        } else {
            both
        }
    }

    /// Parses `N`, `N+`, `N-M` or `none`, with a message fit for a compile error.
    pub fn parse(text: &str) -> Result<Range, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("empty version range: expected `N`, `N+`, `N-M` or `none`".into());
        }
        if text == "none" {
            return Ok(Range::NONE);
        }
        let version = |part: &str| {
            part.parse::<u16>()
                .ok()
                .and_then(|v| i16::try_from(v).ok())
                .ok_or_else(|| {
                    format!("`{text}` is not a version range: expected `N`, `N+`, `N-M` or `none` with versions 0 to 32767")
                })
        };
        let range = if let Some(min) = text.strip_suffix('+') {
            Range {
                min: version(min)?,
                max: i16::MAX,
            }
        } else if let Some((min, max)) = text.split_once('-') {
            Range {
                min: version(min)?,
                max: version(max)?,
            }
        } else {
            let v = version(text)?;
            Range { min: v, max: v }
        };
        if range.is_empty() {
            return Err(format!(
                "`{text}` is backwards: the upper bound is below the lower"
            ));
        }
        Ok(range)
    }
}

impl fmt::Display for Range {
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
