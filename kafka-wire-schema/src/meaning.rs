//! What schema values mean, so that spellings which mean the same compare equal:
//! `"0x7fffffff"` and `2147483647`, an omitted default and the type's zero, `"0+"` and
//! `0+`, two `about` texts that differ only in spacing.

use std::fmt;

use kwire_version::VersionRange;

/// A version range key: absent means `none` for every key that may be absent.
pub fn range(text: Option<&str>) -> Result<VersionRange, String> {
    match text {
        None => Ok(VersionRange::NONE),
        Some(t) => VersionRange::parse(t).map_err(|e| format!("`{t}`: {e}")),
    }
}

/// `about` text with whitespace runs collapsed and the ends trimmed.
pub fn about(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The kinds of value a default can be, each with its own zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueClass {
    /// Any integer type.
    Integer,
    /// `bool`.
    Bool,
    /// `float64`.
    Float,
    /// `uuid`.
    Uuid,
    /// `string`.
    Text,
    /// `bytes`, `records`, arrays and structs: empty by default.
    Composite,
}

impl ValueClass {
    /// The class of a JSON type name (`int32`, `[]Topic`, `Topic`).
    pub fn of_schema_type(ty: &str) -> ValueClass {
        match ty.trim() {
            "int8" | "int16" | "uint16" | "int32" | "uint32" | "int64" => ValueClass::Integer,
            "bool" => ValueClass::Bool,
            "float64" => ValueClass::Float,
            "uuid" => ValueClass::Uuid,
            "string" => ValueClass::Text,
            _ => ValueClass::Composite,
        }
    }
}

/// What a default means.
#[derive(Debug, Clone, PartialEq)]
pub enum DefaultValue {
    /// `"null"`.
    Null,
    /// An integer, whatever its spelling.
    Integer(i128),
    /// A boolean.
    Bool(bool),
    /// A float.
    Float(f64),
    /// A string value.
    Text(String),
    /// A UUID, as written (the zero UUID whatever its spelling is `Uuid(None)`).
    Uuid(Option<String>),
    /// The empty bytes, records, array or struct.
    Empty,
    /// A spelling that does not parse for the type; equal only to the same spelling.
    Unparsable(String),
}

impl fmt::Display for DefaultValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefaultValue::Null => f.write_str("null"),
            DefaultValue::Integer(i) => write!(f, "{i}"),
            DefaultValue::Bool(b) => write!(f, "{b}"),
            DefaultValue::Float(x) => write!(f, "{x:?}"),
            DefaultValue::Text(t) => write!(f, "{t:?}"),
            DefaultValue::Uuid(None) => f.write_str("the zero uuid"),
            DefaultValue::Uuid(Some(u)) => f.write_str(u),
            DefaultValue::Empty => f.write_str("empty"),
            DefaultValue::Unparsable(t) => write!(f, "{t:?} (does not parse)"),
        }
    }
}

/// The meaning of `text` as the default of a value of `class`; `None` is the zero.
pub fn default(class: ValueClass, text: Option<&str>) -> DefaultValue {
    let Some(text) = text else {
        return match class {
            ValueClass::Integer => DefaultValue::Integer(0),
            ValueClass::Bool => DefaultValue::Bool(false),
            ValueClass::Float => DefaultValue::Float(0.0),
            ValueClass::Uuid => DefaultValue::Uuid(None),
            ValueClass::Text => DefaultValue::Text(String::new()),
            ValueClass::Composite => DefaultValue::Empty,
        };
    };
    if text == "null" {
        return DefaultValue::Null;
    }
    let unparsable = || DefaultValue::Unparsable(text.to_owned());
    match class {
        ValueClass::Integer => integer(text).map_or_else(unparsable, DefaultValue::Integer),
        ValueClass::Bool => match text.trim() {
            "true" => DefaultValue::Bool(true),
            "false" => DefaultValue::Bool(false),
            _ => unparsable(),
        },
        ValueClass::Float => text
            .trim()
            .parse()
            .map_or_else(|_| unparsable(), DefaultValue::Float),
        ValueClass::Uuid => match text.trim() {
            "" | "AAAAAAAAAAAAAAAAAAAAAA" => DefaultValue::Uuid(None),
            other => DefaultValue::Uuid(Some(other.to_owned())),
        },
        ValueClass::Text => DefaultValue::Text(text.to_owned()),
        ValueClass::Composite if text.trim().is_empty() => DefaultValue::Empty,
        ValueClass::Composite => unparsable(),
    }
}

/// A decimal or `0x` hexadecimal integer, optionally negative.
fn integer(text: &str) -> Option<i128> {
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None if digits.bytes().all(|b| b.is_ascii_digit()) => digits.parse().ok()?,
        None => return None,
    };
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_integer_are_equal() {
        let hex = default(ValueClass::Integer, Some("0x7fffffff"));
        assert_eq!(hex, default(ValueClass::Integer, Some("2147483647")));
        assert_eq!(
            default(ValueClass::Integer, Some("-1")),
            DefaultValue::Integer(-1)
        );
        assert_eq!(
            default(ValueClass::Integer, None),
            default(ValueClass::Integer, Some("0"))
        );
        assert_ne!(
            default(ValueClass::Integer, Some("null")),
            DefaultValue::Integer(0)
        );
        assert!(matches!(
            default(ValueClass::Integer, Some("1e3")),
            DefaultValue::Unparsable(_)
        ));
    }

    #[test]
    fn zeros_by_class() {
        assert_eq!(
            default(ValueClass::Bool, None),
            default(ValueClass::Bool, Some("false"))
        );
        assert_eq!(
            default(ValueClass::Text, None),
            DefaultValue::Text(String::new())
        );
        assert_eq!(default(ValueClass::Composite, None), DefaultValue::Empty);
        assert_ne!(
            default(ValueClass::Text, Some("null")),
            DefaultValue::Text(String::new())
        );
    }

    #[test]
    fn about_ignores_spacing_only() {
        assert_eq!(about("  The  name\n of it. "), "The name of it.");
        assert_ne!(about("The name."), about("The Name."));
    }

    #[test]
    fn absent_range_is_none() {
        assert_eq!(range(None), Ok(VersionRange::NONE));
        assert_eq!(range(Some("0+")), Ok(VersionRange::at_least(0)));
        assert!(range(Some("x")).is_err());
    }
}
