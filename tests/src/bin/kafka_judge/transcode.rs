//! One value read at its version and written at another, by Kafka and by us:
//! whether the two agree.

use bytes::Bytes;
use kwire_tests::codecs::RecodeError;

use crate::explained;
use crate::jvm::Answer;

/// How a value with several faults is refused ([`explained::refusals_agree`]):
/// checked again without its unknown tags.
pub const SEVERAL_FAULTS: &str = explained::SEVERAL_FAULTS;

/// What Kafka and we did with the value at the other version.
pub enum Verdict {
    /// Both wrote it, the same bytes.
    SameBytes,
    /// Both refused it, naming the same field.
    SameField,
    /// Both refused it and Kafka names no field: how they agree, Kafka's
    /// reason (digits left out) and our error's kind.
    Refused(&'static str, String, String),
    /// They disagree: how.
    Differ(String),
}

/// Compares Kafka's answer to a `transcode` of `input` to `to` with ours.
pub fn compare(kafka: Answer, ours: Result<Bytes, RecodeError>, to: i16, input: &Bytes) -> Verdict {
    match (kafka, ours) {
        (Answer::Ok(fields), Ok(bytes)) => {
            if fields.first().map(String::as_str) == Some(crate::hex(&bytes).as_str()) {
                Verdict::SameBytes
            } else {
                Verdict::Differ(format!(
                    "at v{to}: ours {} vs Kafka's {fields:?}",
                    crate::hex(&bytes)
                ))
            }
        }
        // Kafka could not read what it read at this version before: not a
        // verdict on the other version.
        (Answer::Refused(why), _) if !why.starts_with("write: ") => Verdict::Differ(format!(
            "at v{to}: Kafka refuses ({why}) {}",
            crate::hex(input)
        )),
        (Answer::Refused(why), Err(ours @ RecodeError::Encode(_))) => {
            match (kafka_field(&why), our_field(&ours)) {
                (Some(theirs), Some(mine)) if theirs.eq_ignore_ascii_case(&mine) => {
                    Verdict::SameField
                }
                (Some(theirs), mine) => Verdict::Differ(format!(
                    "at v{to}: Kafka refuses field {theirs}, we refuse {} ({ours})",
                    mine.unwrap_or_default()
                )),
                (None, _) => {
                    let kind = match &ours {
                        RecodeError::Encode(e) => format!("{:?}", e.kind()),
                        RecodeError::Decode(e) => e.to_string(),
                    };
                    let kind: String = kind.chars().take_while(|c| c.is_alphabetic()).collect();
                    let reason: String = why.chars().filter(|c| !c.is_ascii_digit()).collect();
                    match explained::refusals_agree(&reason, &kind) {
                        Some(how) => Verdict::Refused(how, reason, kind),
                        None => Verdict::Differ(format!(
                            "at v{to}: Kafka refuses ({why}), we refuse ({ours})"
                        )),
                    }
                }
            }
        }
        (Answer::Refused(why), Err(ours)) => Verdict::Differ(format!(
            "at v{to}: Kafka refuses to write ({why}), we to read ({ours})"
        )),
        (Answer::Refused(why), Ok(_)) => {
            Verdict::Differ(format!("at v{to}: Kafka refuses ({why}), we write"))
        }
        (Answer::Ok(_), Err(ours)) => {
            Verdict::Differ(format!("at v{to}: we refuse ({ours}), Kafka writes"))
        }
    }
}

/// The field Kafka names in "Attempted to write a non-default fooBar at version 2".
fn kafka_field(why: &str) -> Option<String> {
    let rest = why.split("non-default ").nth(1)?;
    rest.split_whitespace().next().map(String::from)
}

/// The innermost field our encode error names (PascalCase, where Kafka's Java
/// names are camelCase: compared without case).
fn our_field(error: &RecodeError) -> Option<String> {
    match error {
        RecodeError::Encode(e) => e
            .path()
            .segments()
            .filter_map(|segment| match segment {
                kwire::PathSegment::Name(name) => Some(name.to_string()),
                _ => None,
            })
            .next_back(),
        RecodeError::Decode(_) => None,
    }
}
