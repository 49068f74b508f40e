//! JSON string and number literals, by hand: the writer must not pull in a JSON
//! library, since the runtime depends on it.

use std::fmt::Write;

/// `text` as a JSON string literal: quotes, backslashes and control characters
/// escaped, everything else (non-ASCII too) kept as it is, which JSON allows.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            // Every other character below U+0020 must be escaped in JSON.
            c if c < ' ' => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// True when `text` is a number in JSON's grammar (`-?int frac? exp?`), so it can
/// be written bare; anything else is written as a string instead of breaking the
/// file.
pub fn is_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    // The integer part: one zero, or digits not starting with zero.
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_backslashes_and_control_characters_are_escaped() {
        assert_eq!(quoted(r#"say "hi" \o/"#), r#""say \"hi\" \\o/""#);
        assert_eq!(quoted("a\nb\tc\r\u{8}\u{c}"), r#""a\nb\tc\r\b\f""#);
        assert_eq!(quoted("\u{1}\u{1f}"), r#""\u0001\u001f""#);
        assert_eq!(quoted("épée → ok"), "\"épée → ok\"");
        assert_eq!(quoted(""), "\"\"");
    }

    #[test]
    fn numbers_follow_jsons_grammar() {
        for good in ["0", "-1", "2147483647", "1.5", "-0.25e-3", "1E9"] {
            assert!(is_number(good), "{good}");
        }
        for bad in ["", "-", "01", "0x7f", "1.", ".5", "1e", "+1", "NaN", "1 "] {
            assert!(!is_number(bad), "{bad}");
        }
    }
}
