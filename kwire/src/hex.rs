//! Hex in and out: the forms people paste (spaces, newlines, `0x`) read leniently,
//! bytes written back as lowercase pairs.

use std::fmt::Write as _;

/// Why text is not hex, with where it stops being hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexError {
    /// A character that is not a hex digit, whitespace or a `0x` prefix.
    NotHex {
        /// The character.
        found: char,
        /// Its position in the text, counting characters from 1.
        at: usize,
    },
    /// An odd number of hex digits: the last byte is half there.
    OddDigits(usize),
}

impl std::fmt::Display for HexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HexError::NotHex { found, at } => {
                write!(f, "not hex: {found:?} at character {at}")
            }
            HexError::OddDigits(count) => {
                write!(
                    f,
                    "odd number of hex digits ({count}): the last byte is incomplete"
                )
            }
        }
    }
}

impl std::error::Error for HexError {}

/// Reads hex digits, skipping whitespace and a `0x` or `0X` before any group of
/// digits (as `0x0016 0x0004` or a pasted `0x000000...` dump has). No digits at
/// all is no bytes: an empty body (ApiVersionsRequest v0) is a message.
pub fn parse(text: &str) -> Result<Vec<u8>, HexError> {
    let mut digits = Vec::with_capacity(text.len());
    let mut chars = text.chars().enumerate().peekable();
    let mut at_group_start = true;
    while let Some((index, c)) = chars.next() {
        if c.is_whitespace() {
            at_group_start = true;
            continue;
        }
        if at_group_start && c == '0' {
            if let Some(&(_, 'x' | 'X')) = chars.peek() {
                chars.next();
                at_group_start = false;
                continue;
            }
        }
        at_group_start = false;
        match c.to_digit(16) {
            // A hex digit is below 16, so it fits a byte.
            Some(value) => digits.push(value as u8),
            None => {
                return Err(HexError::NotHex {
                    found: c,
                    at: index + 1,
                })
            }
        }
    }
    if digits.len() % 2 == 1 {
        return Err(HexError::OddDigits(digits.len()));
    }
    Ok(digits
        .chunks_exact(2)
        .map(|pair| (pair[0] << 4) | pair[1])
        .collect())
}

/// The bytes as lowercase hex, no separators: the form Kafka's vectors and the
/// captured frames use.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        // Writing to a String cannot fail.
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The bytes as lowercase hex pairs separated by spaces, for annotated output.
pub fn spaced(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_forms_people_paste() {
        assert_eq!(parse("0016 0004"), Ok(vec![0x00, 0x16, 0x00, 0x04]));
        assert_eq!(parse("0x0016\n0X00ff"), Ok(vec![0x00, 0x16, 0x00, 0xff]));
        assert_eq!(parse("00\t16\r\n"), Ok(vec![0x00, 0x16]));
        assert_eq!(parse("AbCd"), Ok(vec![0xab, 0xcd]));
    }

    #[test]
    fn says_where_hex_stops() {
        assert_eq!(parse("00zz"), Err(HexError::NotHex { found: 'z', at: 3 }));
        assert_eq!(parse("001"), Err(HexError::OddDigits(3)));
        assert_eq!(parse("  "), Ok(vec![]));
        // `0x` only opens a group: inside one, `x` is not hex.
        assert_eq!(parse("000x"), Err(HexError::NotHex { found: 'x', at: 4 }));
    }

    #[test]
    fn writes_lowercase_pairs() {
        assert_eq!(encode(&[0, 0x16, 0xff]), "0016ff");
        assert_eq!(spaced(&[0, 0x16, 0xff]), "00 16 ff");
        assert_eq!(spaced(&[]), "");
    }
}
