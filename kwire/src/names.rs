//! Names as kwire shows them: fields in Kafka's JSON form (camelCase), paths into
//! a message, and messages found by their schema names.

use kwire::schema::MessageSchema;
use kwire_messages::registry;

use crate::error::CliError;

/// `path.name`, or `name` at the top of a bare body.
pub fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

/// `1 byte`, `2 bytes`: a count with its noun.
pub fn count(n: u64, singular: &str) -> String {
    if n == 1 {
        format!("1 {singular}")
    } else {
        format!("{n} {singular}s")
    }
}

/// The message called `name` (any schema the registry lists: requests, responses,
/// headers, data), matched exactly or else ignoring case.
pub fn message(name: &str) -> Result<&'static MessageSchema, CliError> {
    let all = registry::schemas();
    let found = all
        .iter()
        .find(|schema| schema.name == name)
        .or_else(|| all.iter().find(|s| s.name.eq_ignore_ascii_case(name)));
    if let Some(schema) = found {
        return Ok(schema);
    }
    // An API's name (`InitProducerId`) names two messages: say which they are.
    let sides: Vec<&str> = all
        .iter()
        .map(|schema| schema.name)
        .filter(|candidate| {
            candidate
                .strip_prefix(name)
                .is_some_and(|rest| rest == "Request" || rest == "Response")
        })
        .collect();
    if sides.is_empty() {
        Err(CliError::new(format!(
            "no message is called {name:?} (names are like FetchRequest, RequestHeader, LeaderChangeMessage)"
        )))
    } else {
        Err(CliError::new(format!(
            "no message is called {name:?}: did you mean {}?",
            sides.join(" or ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_plural_beyond_one() {
        assert_eq!(count(1, "byte"), "1 byte");
        assert_eq!(count(0, "tagged field"), "0 tagged fields");
    }

    #[test]
    fn paths_join_with_dots() {
        assert_eq!(join("", "topics"), "topics");
        assert_eq!(join("body.topics[0]", "name"), "body.topics[0].name");
    }
}
