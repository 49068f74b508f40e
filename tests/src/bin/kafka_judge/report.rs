//! What a run found: the counts, and every difference, grouped and classified.

use std::collections::BTreeMap;
use std::fmt;

use crate::explained::{self, Class};

/// Which comparison a difference comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Check {
    /// We do not decode an encoding written from our own schema.
    OurDecode,
    /// Our encoder does not write back the schema writer's bytes.
    OurBytes,
    /// Kafka refuses to read our encoding.
    KafkaReads,
    /// Kafka reads our encoding but writes other bytes.
    KafkaWritesBack,
    /// Kafka's JSON of our encoding is not our JSON form.
    KafkaJson,
    /// Kafka refuses to read our JSON form.
    KafkaReadsJson,
    /// Kafka's bytes from our JSON form are not the value's (without its
    /// unknown tags, which JSON has no place for).
    KafkaBytesFromJson,
    /// An encoding with a byte more is not refused by both.
    TrailingBytes,
    /// A version above both ranges is not refused by both.
    VersionRange,
    /// Read at one version and written at another, Kafka and we disagree:
    /// one refuses, or the bytes differ, or the refusals name other fields.
    Transcode,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Check::OurDecode => "our decode",
            Check::OurBytes => "our re-encoding",
            Check::KafkaReads => "Kafka reads our bytes",
            Check::KafkaWritesBack => "Kafka writes back our bytes",
            Check::KafkaJson => "Kafka's JSON = ours",
            Check::KafkaReadsJson => "Kafka reads our JSON",
            Check::KafkaBytesFromJson => "Kafka's bytes from our JSON = the value",
            Check::TrailingBytes => "a byte more is refused",
            Check::VersionRange => "a version above the range is refused",
            Check::Transcode => "read at one version, written at another",
        })
    }
}

/// One difference on one encoding.
pub struct Difference {
    pub message: &'static str,
    pub version: i16,
    pub check: Check,
    /// Which encoding (`values::Encoding::label`).
    pub label: String,
    pub detail: String,
}

/// The counts of a run.
#[derive(Default)]
pub struct Counts {
    pub messages: usize,
    pub message_versions: usize,
    /// Direction 2: encodings Kafka was asked to read.
    pub kafka_read: usize,
    /// ... that Kafka wrote back byte for byte.
    pub same_bytes: usize,
    /// ... whose JSON from Kafka was ours.
    pub same_json: usize,
    /// Encodings sent with a byte more (one per message-version).
    pub longer: usize,
    /// ... refused by both.
    pub longer_refused: usize,
    /// Messages read at the version above both ranges (one each).
    pub above_range: usize,
    /// ... refused by both.
    pub above_range_refused: usize,
    /// Direction 3: JSON values Kafka was asked to write.
    pub kafka_wrote: usize,
    /// ... whose bytes are the value's.
    pub read_back: usize,
    /// ... of which equal only up to a NaN's payload bits.
    pub nan_payloads: usize,
    /// Transcodes asked of both.
    pub transcodes: usize,
    /// ... both wrote the same bytes.
    pub transcoded_same: usize,
    /// ... both refused.
    pub both_refused: usize,
    /// ... both refused, naming the same field.
    pub same_field: usize,
    /// Values refused with several faults, written again by both without
    /// their unknown tags.
    pub follow_ups: usize,
    /// ... where both then agree (the same bytes, or refused for one fault).
    pub follow_ups_agree: usize,
    /// Refusals to write where Kafka names no field: how they agree
    /// (`explained::refusals_agree`), Kafka's reason (digits left out) and our
    /// error's kind, with how many.
    pub refusal_pairs: BTreeMap<(&'static str, String, String), usize>,
}

/// A group's class (`None`: unexplained), message, version and check.
type GroupKey = (Option<Class>, &'static str, i16, Check);

/// How many differences a group has, the first one's detail, and the reason.
type Group = (usize, String, String);

/// Differences grouped by message, version, check and class: one line each,
/// with how many encodings showed it and the first one's detail.
#[derive(Default)]
pub struct Differences {
    groups: BTreeMap<GroupKey, Group>,
    pub unexplained: usize,
    pub explained: usize,
    /// The explanations that matched a difference, by address.
    used: std::collections::BTreeSet<usize>,
}

impl Differences {
    pub fn add(&mut self, difference: Difference) {
        let explanation = explained::explain(&difference);
        match explanation {
            Some(e) => {
                self.explained += 1;
                self.used.insert(std::ptr::from_ref(e) as usize);
            }
            None => self.unexplained += 1,
        }
        let key = (
            explanation.map(|e| e.class),
            difference.message,
            difference.version,
            difference.check,
        );
        let why = explanation.map_or("", |e| e.why).to_string();
        let entry = self.groups.entry(key).or_insert_with(|| {
            (
                0,
                format!("{} ({})", difference.detail, difference.label),
                why,
            )
        });
        entry.0 += 1;
    }

    /// The explanations no difference matched: stale once our messages follow
    /// 4.4.0 there, or not reached by a short run.
    pub fn unused(&self) -> Vec<&'static explained::Explanation> {
        explained::EXPLAINED
            .iter()
            .filter(|e| !self.used.contains(&(std::ptr::from_ref(*e) as usize)))
            .collect()
    }

    pub fn print(&self) {
        for ((class, message, version, check), (count, example, why)) in &self.groups {
            let class = class.map_or("UNEXPLAINED", Class::label);
            println!("  [{class}] {message} v{version}, {check}, {count} encodings: {example}");
            if !why.is_empty() {
                println!("      why: {why}");
            }
        }
    }
}
