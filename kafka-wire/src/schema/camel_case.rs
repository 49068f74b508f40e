//! Kafka's JSON name rule, once: a field's key in Kafka's JSON form is its schema
//! name with the first letter lowered (`ThrottleTimeMs` → `throttleTimeMs`), as
//! Kafka's `FieldSpec.camelCaseName` has it.
//!
//! The rule is a `const fn` so that it also serves at compile time: the derive
//! writes each field's schema name, and `__json_name!` turns it into a
//! `&'static str` constant in the generated code, with no run-time cost;
//! [`json_name`] applies the same function at run time, for tools. The derive has
//! no copy of the rule.
//!
//! Kafka's names are `[A-Za-z][A-Za-z0-9]*` (the derive refuses others), so the
//! first letter is ASCII and lowering it is a byte's work, which a `const fn` can do.

/// The rule itself: lowers the first letter of a schema name, in place. A byte
/// that is not an ASCII letter is left as it is, so UTF-8 stays valid.
const fn lower_first_letter(name: &mut [u8]) {
    if let [first, ..] = name {
        *first = first.to_ascii_lowercase();
    }
}

/// A field's name in Kafka's JSON form: its schema name with the first letter
/// lowered (`ThrottleTimeMs` → `throttleTimeMs`), as Kafka's `FieldSpec.camelCaseName`
/// has it. Derived structs use the same rule, applied when they are compiled.
///
/// ```
/// use kwire::schema::json_name;
///
/// assert_eq!(json_name("ProducerId"), "producerId");
/// assert_eq!(json_name("Enable2Pc"), "enable2Pc");
/// assert_eq!(json_name("validateOnly"), "validateOnly");
/// assert_eq!(json_name(""), "");
/// ```
pub fn json_name(schema_name: &str) -> String {
    let mut name = schema_name.as_bytes().to_vec();
    lower_first_letter(&mut name);
    String::from_utf8(name).expect("lowering an ASCII letter keeps UTF-8 valid")
}

/// The bytes of the JSON name of `schema_name`, which is `N` bytes long: the rule
/// in a form constants can use (`__json_name!`). Not a public
/// API.
#[doc(hidden)]
pub const fn json_name_bytes<const N: usize>(schema_name: &str) -> [u8; N] {
    let mut name = [0; N];
    name.copy_from_slice(schema_name.as_bytes());
    lower_first_letter(&mut name);
    name
}

/// The JSON name of a schema name given as a constant expression, as a
/// `&'static str` worked out at compile time. What generated code names (through
/// `kwire::__private_<version>::json_name!`); not a public API.
#[doc(hidden)]
#[macro_export]
macro_rules! __json_name {
    ($schema_name:expr) => {{
        const BYTES: [u8; $schema_name.len()] = $crate::schema::json_name_bytes($schema_name);
        const NAME: &str = match ::core::str::from_utf8(&BYTES) {
            ::core::result::Result::Ok(name) => name,
            ::core::result::Result::Err(_) => ::core::panic!("a JSON name is UTF-8"),
        };
        NAME
    }};
}

#[cfg(test)]
mod tests {
    use super::json_name;

    #[test]
    fn names_are_kafkas_camel_case_at_compile_and_at_run_time() {
        const COMPILED: [&str; 5] = [
            crate::__json_name!("ThrottleTimeMs"),
            crate::__json_name!("ZkVersion"),
            crate::__json_name!("Enable2Pc"),
            crate::__json_name!("validateOnly"),
            crate::__json_name!(""),
        ];
        let expected = [
            "throttleTimeMs",
            "zkVersion",
            "enable2Pc",
            "validateOnly",
            "",
        ];
        assert_eq!(COMPILED, expected);
        for (schema_name, json) in [
            "ThrottleTimeMs",
            "ZkVersion",
            "Enable2Pc",
            "validateOnly",
            "",
        ]
        .into_iter()
        .zip(expected)
        {
            assert_eq!(json_name(schema_name), json);
        }
    }
}
