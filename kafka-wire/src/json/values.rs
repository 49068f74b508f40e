//! The JSON form of each Kafka type.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use bytes::Bytes;
use serde_json::{Number, Value};
use smallvec::{Array, SmallVec};

use super::{JsonError, JsonErrorKind, JsonWire};
use crate::{KafkaString, Records, Uuid};

impl JsonWire for bool {
    fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
        Ok(Value::Bool(*self))
    }

    fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
        value
            .as_bool()
            .ok_or_else(|| JsonError::wrong_type("a boolean", value))
    }
}

/// Integers: a JSON number that is an integer within the type's range.
macro_rules! integer {
    ($($ty:ty => $kafka:literal),* $(,)?) => {$(
        impl JsonWire for $ty {
            fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
                Ok(Value::Number(Number::from(*self)))
            }

            fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
                let Value::Number(number) = value else {
                    return Err(JsonError::wrong_type("an integer", value));
                };
                let fits = match (number.as_i64(), number.as_u64()) {
                    (Some(n), _) => <$ty>::try_from(n).ok(),
                    (None, Some(n)) => <$ty>::try_from(n).ok(),
                    (None, None) => return Err(JsonError::wrong_type("an integer", value)),
                };
                fits.ok_or_else(|| {
                    JsonError::new(JsonErrorKind::OutOfRange { value: number.to_string(), ty: $kafka })
                })
            }
        }
    )*};
}

integer!(i8 => "int8", i16 => "int16", u16 => "uint16", i32 => "int32", u32 => "uint32", i64 => "int64");

impl JsonWire for f64 {
    fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
        // JSON has no NaN or infinities; Kafka's converter (Jackson) writes them
        // as the strings "NaN", "Infinity" and "-Infinity", and so do we.
        Ok(match Number::from_f64(*self) {
            Some(number) => Value::Number(number),
            None if self.is_nan() => Value::String("NaN".into()),
            None if *self > 0.0 => Value::String("Infinity".into()),
            None => Value::String("-Infinity".into()),
        })
    }

    fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
        match value {
            Value::Number(number) => number
                .as_f64()
                .ok_or_else(|| JsonError::wrong_type("a number", value)),
            Value::String(s) if s == "NaN" => Ok(f64::NAN),
            Value::String(s) if s == "Infinity" => Ok(f64::INFINITY),
            Value::String(s) if s == "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(JsonError::wrong_type("a number", value)),
        }
    }
}

fn text(value: &Value) -> Result<&str, JsonError> {
    value
        .as_str()
        .ok_or_else(|| JsonError::wrong_type("a string", value))
}

impl JsonWire for KafkaString {
    fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
        Ok(Value::String(self.as_str().to_owned()))
    }

    fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
        text(value).map(KafkaString::from)
    }
}

impl JsonWire for String {
    fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
        Ok(Value::String(self.clone()))
    }

    fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
        text(value).map(str::to_owned)
    }
}

/// Standard base64, with padding, as Jackson writes binary nodes.
fn base64_bytes(value: &Value) -> Result<Bytes, JsonError> {
    let decoded = STANDARD
        .decode(text(value)?)
        .map_err(|e| JsonError::new(JsonErrorKind::BadEncoding(format!("not base64: {e}"))))?;
    Ok(Bytes::from(decoded))
}

impl JsonWire for Bytes {
    fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
        Ok(Value::String(STANDARD.encode(self)))
    }

    fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
        base64_bytes(value)
    }
}

impl JsonWire for Records {
    fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
        Ok(Value::String(STANDARD.encode(&self.0)))
    }

    fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
        base64_bytes(value).map(Records)
    }
}

impl JsonWire for Uuid {
    fn write_json(&self, _version: i16) -> Result<Value, JsonError> {
        Ok(Value::String(URL_SAFE_NO_PAD.encode(self.as_bytes())))
    }

    fn read_json(value: &Value, _version: i16) -> Result<Self, JsonError> {
        let decoded = URL_SAFE_NO_PAD.decode(text(value)?).map_err(|e| {
            JsonError::new(JsonErrorKind::BadEncoding(format!(
                "not URL-safe base64 without padding: {e}"
            )))
        })?;
        let bytes: [u8; 16] = decoded.as_slice().try_into().map_err(|_| {
            JsonError::new(JsonErrorKind::BadEncoding(format!(
                "a UUID is 16 bytes, not {}",
                decoded.len()
            )))
        })?;
        Ok(Uuid::from_bytes(bytes))
    }
}

impl<T: JsonWire> JsonWire for Option<T> {
    fn write_json(&self, version: i16) -> Result<Value, JsonError> {
        match self {
            None => Ok(Value::Null),
            Some(value) => value.write_json(version),
        }
    }

    fn read_json(value: &Value, version: i16) -> Result<Self, JsonError> {
        match value {
            Value::Null => Ok(None),
            value => T::read_json(value, version).map(Some),
        }
    }

    fn is_null(&self) -> bool {
        self.is_none()
    }

    fn drop_unknown_tags(&mut self) {
        if let Some(value) = self {
            value.drop_unknown_tags();
        }
    }
}

fn array_to_json<'a, T: JsonWire + 'a>(
    items: impl Iterator<Item = &'a T>,
    version: i16,
) -> Result<Value, JsonError> {
    items
        .enumerate()
        .map(|(i, item)| item.write_json(version).map_err(|e| e.at_index(i)))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
}

fn array_from_json<T: JsonWire, C: FromIterator<T>>(
    value: &Value,
    version: i16,
) -> Result<C, JsonError> {
    let items = value
        .as_array()
        .ok_or_else(|| JsonError::wrong_type("an array", value))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| T::read_json(item, version).map_err(|e| e.at_index(i)))
        .collect()
}

/// Implements `JsonWire` for an array container, as `array_wire!` implements `Wire`.
macro_rules! array_json {
    (impl[$($generics:tt)*] for $container:ty, elements: $item:ty) => {
        impl<$($generics)*> JsonWire for $container
        where
            $item: JsonWire,
        {
            fn write_json(&self, version: i16) -> Result<Value, JsonError> {
                array_to_json(self.iter(), version)
            }

            fn read_json(value: &Value, version: i16) -> Result<Self, JsonError> {
                array_from_json(value, version)
            }

            fn drop_unknown_tags(&mut self) {
                self.iter_mut().for_each(JsonWire::drop_unknown_tags);
            }
        }
    };
}

array_json!(impl[T] for Vec<T>, elements: T);
array_json!(impl[A: Array] for SmallVec<A>, elements: A::Item);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_must_fit_their_type() {
        assert_eq!(i16::read_json(&json!(-32768), 0), Ok(-32768));
        let err = i16::read_json(&json!(32768), 0).unwrap_err();
        assert!(matches!(
            err.kind(),
            JsonErrorKind::OutOfRange { ty: "int16", .. }
        ));
        assert!(i32::read_json(&json!(1.5), 0).is_err());
        assert!(u16::read_json(&json!(-1), 0).is_err());
        assert_eq!(i64::read_json(&json!(i64::MIN), 0), Ok(i64::MIN));
        assert!(i64::read_json(&json!(u64::MAX), 0).is_err());
    }

    #[test]
    fn uuids_are_url_safe_base64_without_padding() {
        let uuid = Uuid::from_bytes([0xfb; 16]);
        let json = uuid.write_json(0).unwrap();
        assert_eq!(json, json!("-_v7-_v7-_v7-_v7-_v7-w"));
        assert_eq!(Uuid::read_json(&json, 0), Ok(uuid));
        assert!(Uuid::read_json(&json!("AAAA"), 0).is_err());
    }

    #[test]
    fn bytes_are_standard_base64_and_errors_name_the_index() {
        let json = Bytes::from_static(&[0xfb, 0xff]).write_json(0).unwrap();
        assert_eq!(json, json!("+/8="));
        let err = Vec::<Bytes>::read_json(&json!(["AA==", "!"]), 0).unwrap_err();
        assert_eq!(err.path().to_string(), "[1]");
    }
}
