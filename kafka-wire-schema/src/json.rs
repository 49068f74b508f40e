//! Reading JSON the way Kafka's generator does: standard JSON plus comments, nothing
//! laxer, so a schema Kafka would reject is not read kindly here.

use jsonc_parser::{JsonObject, JsonValue, ParseOptions};

/// Parses `text` as JSON with comments.
pub fn parse(text: &str) -> Result<JsonValue<'_>, String> {
    let options = ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    match jsonc_parser::parse_to_value(text, &options) {
        Ok(Some(value)) => Ok(value),
        Ok(None) => Err("the file holds no JSON value".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// An object read key by key: each read takes the key out, so what is left at the
/// end are the keys the reader did not expect.
pub struct Keys<'a> {
    object: JsonObject<'a>,
}

impl<'a> Keys<'a> {
    /// Wraps `value`, which must be an object; `what` names it in the error.
    pub fn of(value: JsonValue<'a>, what: &str) -> Result<Self, String> {
        match value {
            JsonValue::Object(object) => Ok(Keys { object }),
            _ => Err(format!("{what} is not a JSON object")),
        }
    }

    /// Takes the raw value of `key`.
    pub fn take(&mut self, key: &str) -> Option<JsonValue<'a>> {
        self.object.take(key)
    }

    /// Takes a string key; `None` when absent.
    pub fn string(&mut self, key: &str) -> Result<Option<String>, String> {
        match self.object.take(key) {
            None => Ok(None),
            Some(JsonValue::String(s)) => Ok(Some(s.into_owned())),
            Some(_) => Err(format!("`{key}` is not a string")),
        }
    }

    /// Takes a boolean key; `false` when absent.
    pub fn flag(&mut self, key: &str) -> Result<bool, String> {
        match self.object.take(key) {
            None => Ok(false),
            Some(JsonValue::Boolean(b)) => Ok(b),
            Some(_) => Err(format!("`{key}` is not true or false")),
        }
    }

    /// Takes an integer key; `None` when absent. A string of an integer is read as
    /// the integer, as Kafka's generator (Jackson) reads it: Kafka's own
    /// `BrokerHeartbeatRequest.json` had `"tag": "0"` until 2025.
    pub fn integer(&mut self, key: &str) -> Result<Option<i64>, String> {
        match self.object.take(key) {
            None => Ok(None),
            Some(JsonValue::Number(n)) => n
                .parse()
                .map(Some)
                .map_err(|_| format!("`{key}` is not an integer: {n}")),
            Some(JsonValue::String(s)) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("`{key}` is not an integer: {s:?}")),
            Some(_) => Err(format!("`{key}` is not a number")),
        }
    }

    /// Takes an array key; empty when absent.
    pub fn array(&mut self, key: &str) -> Result<Vec<JsonValue<'a>>, String> {
        match self.object.take(key) {
            None => Ok(Vec::new()),
            Some(JsonValue::Array(items)) => Ok(items.take_inner()),
            Some(_) => Err(format!("`{key}` is not an array")),
        }
    }

    /// Takes an array of strings; `None` when absent.
    pub fn strings(&mut self, key: &str) -> Result<Option<Vec<String>>, String> {
        let Some(value) = self.object.take(key) else {
            return Ok(None);
        };
        let JsonValue::Array(items) = value else {
            return Err(format!("`{key}` is not an array"));
        };
        items
            .take_inner()
            .into_iter()
            .map(|item| match item {
                JsonValue::String(s) => Ok(s.into_owned()),
                _ => Err(format!("`{key}` holds something other than strings")),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// The keys not taken yet, sorted.
    pub fn rest(self) -> Vec<String> {
        let mut names: Vec<String> = self
            .object
            .into_iter()
            .map(|(key, _)| key.into_owned())
            .collect();
        names.sort();
        names
    }
}
