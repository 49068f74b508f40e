//! The differences between Kafka 4.4.0's generated classes and us that are
//! understood, each with its class and reason. A difference that matches none
//! fails the run.

use crate::report::{Check, Difference};

/// What kind of difference it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Kafka's generated code does it its own way, and we keep ours on purpose
    /// (tests/README.md says why).
    KafkaBehaviour,
}

impl Class {
    pub fn label(self) -> &'static str {
        match self {
            Class::KafkaBehaviour => "Kafka's behaviour",
        }
    }
}

/// A known difference: every part must match.
pub struct Explanation {
    pub message: &'static str,
    /// Versions it applies to, inclusive.
    pub versions: (i16, i16),
    pub check: Check,
    /// Text the difference's detail holds.
    pub detail: &'static str,
    pub class: Class,
    pub why: &'static str,
}

/// Every understood difference.
pub static EXPLAINED: &[Explanation] = &[
    // The float64 fields, Value in AlterClientQuotasRequest's ops and in
    // DescribeClientQuotasResponse's values.
    Explanation {
        message: "AlterClientQuotasRequest",
        versions: (0, 1),
        check: Check::KafkaReadsJson,
        detail: FLOAT_STRING,
        class: Class::KafkaBehaviour,
        why: NAN_AS_STRING,
    },
    Explanation {
        message: "DescribeClientQuotasResponse",
        versions: (0, 1),
        check: Check::KafkaReadsJson,
        detail: FLOAT_STRING,
        class: Class::KafkaBehaviour,
        why: NAN_AS_STRING,
    },
];

const FLOAT_STRING: &str = "expected a floating point type, but got STRING";

const NAN_AS_STRING: &str = "Kafka's converter writes NaN and the infinities as the \
    strings \"NaN\", \"Infinity\", \"-Infinity\" (Jackson's default, and our JSON \
    form's) but reads a float64 only from a JSON number: it refuses its own JSON of \
    them, which we read";

/// The explanation of `difference`, if there is one.
pub fn explain(difference: &Difference) -> Option<&'static Explanation> {
    EXPLAINED.iter().find(|e| {
        e.message == difference.message
            && (e.versions.0..=e.versions.1).contains(&difference.version)
            && e.check == difference.check
            && difference.detail.contains(e.detail)
    })
}

/// A value refused by Kafka for its tagged fields and by us for another fault.
pub const SEVERAL_FAULTS: &str = "a value with several faults: Kafka names its tagged fields, \
    we another fault (and without its unknown tags, both refuse it for ours, or write it)";

/// Whether Kafka's refusal to write (its reason, digits left out) and ours (our
/// error's kind) refuse the same value, and how: the same fault, or another
/// fault of a value with several (Kafka checks a struct's tagged fields after
/// its fields, each struct in turn; we check a struct's fields before the
/// structs inside it, so with several faults each names another). `None`: they
/// disagree, a difference.
pub fn refusals_agree(kafka: &str, ours: &str) -> Option<&'static str> {
    const TAGGED: &str = "write: UnsupportedVersionException: Tagged fields were set";
    const NULL: &str = "write: NullPointerException";
    match ours {
        "TaggedFieldsNotSupported" if kafka.starts_with(TAGGED) => {
            Some("the same fault: tagged fields at a version without them")
        }
        "NullNotAllowed" if kafka.starts_with(NULL) => {
            Some("the same fault: null where the version does not allow it")
        }
        "FieldNotInVersion" | "NullNotAllowed" if kafka.starts_with(TAGGED) => Some(SEVERAL_FAULTS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_refusals_of_one_value_agree() {
        let tagged = "write: UnsupportedVersionException: Tagged fields were set, but version  \
                      of this message does not support them.";
        let null = "write: NullPointerException: null";
        assert!(refusals_agree(tagged, "TaggedFieldsNotSupported").is_some());
        assert!(refusals_agree(null, "NullNotAllowed").is_some());
        assert_eq!(
            refusals_agree(tagged, "FieldNotInVersion"),
            Some(SEVERAL_FAULTS)
        );
        assert_eq!(refusals_agree(null, "TaggedFieldsNotSupported"), None);
        assert_eq!(
            refusals_agree("read: BufferUnderflowException: null", "NullNotAllowed"),
            None
        );
    }

    #[test]
    fn an_explanation_needs_every_part_to_match() {
        let difference = |message, version, check, detail: &str| Difference {
            message,
            version,
            check,
            label: "edges".into(),
            detail: detail.into(),
        };
        let float = "from JSON: RuntimeException: Value: expected a floating point type, \
                     but got STRING";
        let name = "AlterClientQuotasRequest";
        assert!(explain(&difference(name, 1, Check::KafkaReadsJson, float)).is_some());
        assert!(explain(&difference(name, 2, Check::KafkaReadsJson, float)).is_none());
        assert!(explain(&difference(name, 1, Check::KafkaJson, float)).is_none());
        assert!(explain(&difference(name, 1, Check::KafkaReadsJson, "other")).is_none());
        assert!(explain(&difference(
            "FetchResponse",
            1,
            Check::KafkaReadsJson,
            float
        ))
        .is_none());
    }
}
