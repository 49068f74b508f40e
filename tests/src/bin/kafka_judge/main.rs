//! Kafka's own generated message classes (kafka-clients 4.4.0, through
//! tests/judge/KafkaJudge.java) as the judge of every message we define, at
//! every version both know, in both directions:
//!
//! - our bytes to Kafka: each encoding (written from our runtime schema) is read
//!   by Kafka, which must write it back byte for byte and convert it to the JSON
//!   form we convert it to (records bytes and unknown tags left out: Kafka's JSON
//!   has neither);
//! - Kafka's values to us: our JSON form of each goes to Kafka, which builds and
//!   writes the message; its bytes must be the value's (unknown tags aside).
//!   And each encoding, read at its version, is written at another by Kafka and
//!   by us: the same bytes, or both refuse (naming the same field).
//!
//! Prints the counts and every difference, classified (`explained.rs`); exits 1
//! if one is unexplained, 2 if the judge fails.
//!
//! `kafka_judge [--values N] [--seed S] [--only NAME] -- JAVA COMMAND...`; the
//! wrapper `tests/judge/run` builds the Java side and passes its command.
#![forbid(unsafe_code)]

mod explained;
mod json;
mod jvm;
mod report;
mod transcode;
mod values;

use std::process::ExitCode;
use std::time::Instant;

use bytes::Bytes;
use kwire::schema::MessageKind;
use kwire_tests::codecs::{self, Codec, RecodeError};
use kwire_tests::schema_writer::{self, Defaults};

use jvm::{Answer, Judge, JudgeError};
use report::{Check, Counts, Difference, Differences};
use transcode::Verdict;

struct Options {
    values: usize,
    seed: u64,
    only: Option<String>,
    java: Vec<String>,
}

const USAGE: &str = "kafka_judge [--values N] [--seed S] [--only NAME] -- JAVA COMMAND...";

fn options() -> Result<Options, String> {
    let mut options = Options {
        values: 200,
        seed: 1,
        only: None,
        java: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--values" => {
                options.values = value("--values")?
                    .parse()
                    .map_err(|e| format!("--values: {e}"))?
            }
            "--seed" => {
                options.seed = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?
            }
            "--only" => options.only = Some(value("--only")?),
            "--" => {
                options.java = args.collect();
                break;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.java.is_empty() {
        return Err("no java command after --".into());
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("kafka_judge: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    match run(&options) {
        Ok(unexplained) => {
            println!("wall time: {:.1} s", started.elapsed().as_secs_f64());
            if unexplained == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("kafka_judge: {e}");
            ExitCode::from(2)
        }
    }
}

/// Kafka's spelling of a message's kind, and what identifies it to the judge.
fn identity(codec: &Codec) -> (&'static str, String) {
    let schema = codec.schema;
    match (schema.kind, schema.api_key) {
        (MessageKind::Request | MessageKind::Response, Some(key)) => {
            (schema.kind.as_str(), key.to_string())
        }
        _ => (schema.kind.as_str(), schema.name.to_string()),
    }
}

fn run(options: &Options) -> Result<usize, JudgeError> {
    println!(
        "kafka_judge: Kafka 4.4.0's generated classes judge our messages ({} values per \
         message-version, seed {})",
        options.values, options.seed
    );
    println!(
        "note: Kafka's JSON leaves out records bytes (it writes their size as \
         <field>SizeInBytes, compared with our bytes' count) and unknown tagged fields \
         (our JSON form has none either); the JSON comparison leaves them out, and the \
         bytes comparisons keep both"
    );
    let mut judge = Judge::start(&options.java)?;
    let mut counts = Counts::default();
    let mut differences = Differences::default();
    let mut only_ours = Vec::new();
    let mut only_kafka = Vec::new();
    for codec in codecs::codecs() {
        let schema = codec.schema;
        if options
            .only
            .as_deref()
            .is_some_and(|only| only != schema.name)
        {
            continue;
        }
        let (kind, id) = identity(codec);
        let answer = judge.ask(&[format!("versions\t{kind}\t{id}")])?;
        let (Some(our_min), Some(our_max)) =
            (schema.valid_versions.min(), schema.valid_versions.max())
        else {
            continue;
        };
        let (kafka_min, kafka_max) = match &answer[0] {
            Answer::Ok(fields) => (
                fields[0].parse::<i16>().unwrap_or(i16::MAX),
                fields[1].parse::<i16>().unwrap_or(i16::MIN),
            ),
            Answer::Refused(_) => {
                only_ours.push(format!("{} v{our_min}-{our_max}", schema.name));
                continue;
            }
        };
        let (low, high) = (our_min.max(kafka_min), our_max.min(kafka_max));
        for (from, to, list) in [
            (our_min, our_max, &mut only_ours),
            (kafka_min, kafka_max, &mut only_kafka),
        ] {
            let outside: Vec<String> = (from..=to)
                .filter(|v| !(low..=high).contains(v))
                .map(|v| v.to_string())
                .collect();
            if !outside.is_empty() {
                list.push(format!("{} v{}", schema.name, outside.join(",")));
            }
        }
        counts.messages += 1;
        above_the_range(
            &mut judge,
            codec,
            kafka_max.max(our_max),
            &mut counts,
            &mut differences,
        )?;
        for version in low..=high {
            counts.message_versions += 1;
            judge_version(
                &mut judge,
                codec,
                version,
                (low, high),
                options,
                &mut counts,
                &mut differences,
            )?;
        }
    }
    judge.finish()?;
    print(&counts, &differences, &only_ours, &only_kafka);
    Ok(differences.unexplained)
}

/// The defaults' encoding at the highest version either side knows, read at
/// the version above it: both must refuse (the judge checks Kafka's range, as
/// the generated `read` does not).
fn above_the_range(
    judge: &mut Judge,
    codec: &Codec,
    highest: i16,
    counts: &mut Counts,
    differences: &mut Differences,
) -> Result<(), JudgeError> {
    let (kind, id) = identity(codec);
    let above = highest + 1;
    let bytes = Bytes::from(schema_writer::write(codec.schema, highest, &mut Defaults));
    let kafka = judge.ask(&[format!("read\t{kind}\t{id}\t{above}\t{}", hex(&bytes))])?;
    counts.above_range += 1;
    match (&kafka[0], (codec.recode)(&bytes, above)) {
        (Answer::Refused(why), Err(_)) if why.contains("judge: version") => {
            counts.above_range_refused += 1
        }
        (kafka, ours) => differences.add(Difference {
            message: codec.schema.name,
            version: above,
            check: Check::VersionRange,
            label: "defaults".into(),
            detail: format!("Kafka {kafka:?}, ours {ours:?}"),
        }),
    }
    Ok(())
}

/// Another version of the common range for the `index`th encoding at
/// `version`: each in turn, so that N encodings visit every other version.
fn other_version(version: i16, (low, high): (i16, i16), index: usize) -> Option<i16> {
    let span = (high - low) as usize;
    if span == 0 {
        return None;
    }
    let step = 1 + index % span;
    Some(low + ((version - low) as usize + step) as i16 % (span as i16 + 1))
}

/// What we did with one encoding, to compare with Kafka's answers.
struct Ours {
    label: String,
    bytes: Bytes,
    json: serde_json::Value,
    without_unknown_tags: Bytes,
    other: Option<(i16, Result<Bytes, RecodeError>)>,
}

fn judge_version(
    judge: &mut Judge,
    codec: &Codec,
    version: i16,
    range: (i16, i16),
    options: &Options,
    counts: &mut Counts,
    differences: &mut Differences,
) -> Result<(), JudgeError> {
    let schema = codec.schema;
    let (kind, id) = identity(codec);
    let mut differ = |check: Check, label: &str, detail: String| {
        differences.add(Difference {
            message: schema.name,
            version,
            check,
            label: label.to_string(),
            detail,
        })
    };
    let mut ours = Vec::new();
    let mut requests = Vec::new();
    let mut follow_ups = Vec::new();
    let encodings = values::encodings(schema, version, options.values, options.seed);
    for (index, encoding) in encodings.into_iter().enumerate() {
        let bytes = Bytes::from(encoding.bytes);
        let json = match (codec.decode_to_json)(&bytes, version) {
            Ok(json) => json,
            Err(e) => {
                differ(Check::OurDecode, &encoding.label, e);
                continue;
            }
        };
        match (codec.recode)(&bytes, version) {
            Ok(again) if again == bytes => {}
            Ok(again) => differ(
                Check::OurBytes,
                &encoding.label,
                format!("wrote {} bytes for {}", again.len(), bytes.len()),
            ),
            Err(e) => differ(Check::OurBytes, &encoding.label, e.to_string()),
        }
        let without_unknown_tags = match (codec.recode_without_unknown_tags)(&bytes, version) {
            Ok(b) => b,
            Err(e) => {
                differ(Check::OurBytes, &encoding.label, e);
                continue;
            }
        };
        let hex = hex(&bytes);
        requests.push(format!("read\t{kind}\t{id}\t{version}\t{hex}"));
        requests.push(format!("json\t{kind}\t{id}\t{version}\t{json}"));
        let other = other_version(version, range, index).map(|to| {
            requests.push(format!("transcode\t{kind}\t{id}\t{version}\t{to}\t{hex}"));
            (to, (codec.transcode)(&bytes, version, to))
        });
        ours.push(Ours {
            label: encoding.label,
            bytes,
            json,
            without_unknown_tags,
            other,
        });
    }
    // One byte more than the first encoding: both must refuse it (Kafka's
    // generated read stops where the message ends; the judge checks the rest).
    let longer = ours.first().map(|first| {
        let mut longer = first.bytes.to_vec();
        longer.push(0);
        let longer = Bytes::from(longer);
        requests.push(format!("read\t{kind}\t{id}\t{version}\t{}", hex(&longer)));
        (first.label.clone(), longer)
    });
    let mut answers = judge.ask(&requests)?.into_iter();
    for our in ours {
        let (Some(read), Some(from_json)) = (answers.next(), answers.next()) else {
            break;
        };
        let label = our.label.as_str();
        // Direction 2: our bytes, read by Kafka.
        counts.kafka_read += 1;
        match read {
            Answer::Ok(fields) if fields.len() == 2 => {
                if fields[0] == hex(&our.bytes) {
                    counts.same_bytes += 1;
                } else {
                    differ(
                        Check::KafkaWritesBack,
                        label,
                        format!("ours {} vs Kafka's {}", hex(&our.bytes), fields[0]),
                    );
                }
                let expected = json::as_kafka_writes(&our.json, &schema.body, version);
                match serde_json::from_str::<serde_json::Value>(&fields[1]) {
                    Ok(kafka) => match json::first_difference(&expected, &kafka) {
                        None => counts.same_json += 1,
                        Some(at) => {
                            differ(Check::KafkaJson, label, format!("ours vs Kafka's at {at}"))
                        }
                    },
                    Err(e) => differ(
                        Check::KafkaJson,
                        label,
                        format!("Kafka's JSON does not parse: {e}"),
                    ),
                }
            }
            Answer::Ok(fields) => differ(Check::KafkaReads, label, format!("answer {fields:?}")),
            Answer::Refused(why) => differ(Check::KafkaReads, label, why),
        }
        // Direction 3: our JSON form, written by Kafka, read by us.
        counts.kafka_wrote += 1;
        match from_json {
            Answer::Ok(fields) if fields.len() == 1 => match unhex(&fields[0]) {
                Some(kafka) if kafka == our.without_unknown_tags => counts.read_back += 1,
                Some(kafka) => match (codec.same_value)(&kafka, &our.without_unknown_tags, version)
                {
                    Ok(true) => {
                        counts.read_back += 1;
                        counts.nan_payloads += 1;
                    }
                    Ok(false) => differ(
                        Check::KafkaBytesFromJson,
                        label,
                        format!(
                            "value's {} vs Kafka's {}",
                            hex(&our.without_unknown_tags),
                            fields[0]
                        ),
                    ),
                    Err(e) => differ(
                        Check::KafkaBytesFromJson,
                        label,
                        format!("Kafka's bytes: {e}"),
                    ),
                },
                None => differ(Check::KafkaBytesFromJson, label, "not hex".into()),
            },
            Answer::Ok(fields) => {
                differ(Check::KafkaReadsJson, label, format!("answer {fields:?}"))
            }
            Answer::Refused(why) => differ(Check::KafkaReadsJson, label, why),
        }
        // At another version: the rules for fields one version lacks.
        if let Some((to, ours_there)) = our.other {
            let Some(kafka) = answers.next() else { break };
            counts.transcodes += 1;
            let verdict = transcode::compare(kafka, ours_there, to, &our.bytes);
            match verdict {
                Verdict::SameBytes => counts.transcoded_same += 1,
                Verdict::SameField => {
                    counts.both_refused += 1;
                    counts.same_field += 1;
                }
                Verdict::Refused(how, kafka, ours) => {
                    counts.both_refused += 1;
                    if how == transcode::SEVERAL_FAULTS {
                        // Confirmed below: without its unknown tags, the value
                        // must be refused for the fault we name, or written.
                        follow_ups.push((our.label.clone(), to, our.without_unknown_tags.clone()));
                    }
                    *counts.refusal_pairs.entry((how, kafka, ours)).or_default() += 1;
                }
                Verdict::Differ(detail) => differ(Check::Transcode, label, detail),
            }
        }
    }
    if let (Some((label, longer)), Some(kafka)) = (longer, answers.next()) {
        counts.longer += 1;
        let ours = (codec.recode)(&longer, version);
        match (kafka, ours) {
            (Answer::Refused(why), Err(_)) if why.contains("trailing") => {
                counts.longer_refused += 1
            }
            (kafka, ours) => differ(
                Check::TrailingBytes,
                &label,
                format!("with a byte more: Kafka {kafka:?}, ours {ours:?}"),
            ),
        }
    }
    // The values refused by Kafka for their tagged fields and by us for
    // another fault, again without their unknown tags.
    let requests: Vec<String> = follow_ups
        .iter()
        .map(|(_, to, bytes)| format!("transcode\t{kind}\t{id}\t{version}\t{to}\t{}", hex(bytes)))
        .collect();
    let answers = if requests.is_empty() {
        Vec::new()
    } else {
        judge.ask(&requests)?
    };
    for ((label, to, bytes), kafka) in follow_ups.into_iter().zip(answers) {
        counts.follow_ups += 1;
        let ours = (codec.transcode)(&bytes, version, to);
        match transcode::compare(kafka, ours, to, &bytes) {
            Verdict::SameBytes | Verdict::SameField => counts.follow_ups_agree += 1,
            Verdict::Refused(how, ..) if how != transcode::SEVERAL_FAULTS => {
                counts.follow_ups_agree += 1
            }
            Verdict::Refused(_, kafka, ours) => differ(
                Check::Transcode,
                &label,
                format!(
                    "at v{to} without unknown tags: Kafka still refuses ({kafka}), we ({ours})"
                ),
            ),
            Verdict::Differ(detail) => differ(
                Check::Transcode,
                &label,
                format!("without unknown tags: {detail}"),
            ),
        }
    }
    Ok(())
}

fn print(counts: &Counts, differences: &Differences, only_ours: &[String], only_kafka: &[String]) {
    if !only_ours.is_empty() {
        println!(
            "only in our (pinned) schemas, not judged [pin vs 4.4.0]: {}",
            only_ours.join("; ")
        );
    }
    if !only_kafka.is_empty() {
        println!(
            "only in Kafka 4.4.0, not judged [pin vs 4.4.0]: {}",
            only_kafka.join("; ")
        );
    }
    if only_ours.is_empty() && only_kafka.is_empty() {
        println!("versions only one side knows: none");
    }
    println!(
        "message-versions judged: {} (of {} messages both know)",
        counts.message_versions, counts.messages
    );
    println!(
        "direction 2, our bytes -> Kafka: {} encodings read by Kafka; {} written back \
         byte-identically; {} with Kafka's JSON equal to ours",
        counts.kafka_read, counts.same_bytes, counts.same_json
    );
    println!(
        "  and {} of them with a byte more, refused by both: {}; {} at the version above \
         both ranges, refused by both: {}",
        counts.longer, counts.longer_refused, counts.above_range, counts.above_range_refused
    );
    println!(
        "direction 3, Kafka's values -> us: {} JSON values written by Kafka; {} of them the \
         value's bytes ({} only up to a NaN's payload, which JSON does not keep); {} read at \
         one version and written at another by both: {} the same bytes, {} refused by both \
         ({} naming the same field)",
        counts.kafka_wrote,
        counts.read_back,
        counts.nan_payloads,
        counts.transcodes,
        counts.transcoded_same,
        counts.both_refused,
        counts.same_field
    );
    println!(
        "  of which {} refused by Kafka for their tagged fields and by us for another fault, \
         and without their unknown tags, {} refused by both for one fault or written alike",
        counts.follow_ups, counts.follow_ups_agree
    );
    println!(
        "differences: {} ({} explained, {} unexplained)",
        differences.explained + differences.unexplained,
        differences.explained,
        differences.unexplained
    );
    differences.print();
    for unused in differences.unused() {
        println!(
            "note: no difference matched the explanation of {} v{}-{}, {} (\"{}\"): \
             stale once our messages follow 4.4.0 there, or not reached by this run",
            unused.message, unused.versions.0, unused.versions.1, unused.check, unused.detail
        );
    }
    println!("refused by both where Kafka names no field, by their reasons:");
    for ((how, kafka, ours), count) in &counts.refusal_pairs {
        println!("  {count}: Kafka \"{kafka}\", ours {ours}: {how}");
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(DIGITS[usize::from(byte >> 4)] as char);
        out.push(DIGITS[usize::from(byte & 15)] as char);
    }
    out
}

fn unhex(text: &str) -> Option<Bytes> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    digits
        .chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect::<Option<Vec<u8>>>()
        .map(Bytes::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_other_version_is_visited_and_never_the_same() {
        for version in 3..=7 {
            let mut seen: Vec<i16> = (0..8)
                .filter_map(|i| other_version(version, (3, 7), i))
                .collect();
            assert!(!seen.contains(&version));
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 4, "from v{version}: {seen:?}");
        }
        assert_eq!(other_version(2, (2, 2), 0), None);
    }

    #[test]
    fn hex_goes_both_ways() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(hex(&bytes), "0001abff");
        assert_eq!(unhex("0001abff").unwrap()[..], bytes);
        assert_eq!(unhex("0g"), None);
        assert_eq!(unhex("012"), None);
    }
}
