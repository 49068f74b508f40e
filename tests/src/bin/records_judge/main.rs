//! Record batches judged by Kafka's own code (issue 31, point 4): Kafka 4.4.0's
//! `MemoryRecordsBuilder` writes batches of every kind with every codec and we read
//! them; our `RecordBatchBuilder` writes the same kinds and Kafka's `MemoryRecords`
//! reads them (`ensureValid` on each batch, then its records). Both sides list what
//! they read in one canonical form (`tests/judge/RecordsJudge.java`'s header), and
//! every differing listing is a difference. Kafka's uncompressed batches are also
//! rebuilt by our builder from our reading, which must give Kafka's bytes.
//!
//!     records_judge [--seed N] [--random N] -- JAVA-COMMAND...
//!
//! `tests/judge/records_run` compiles the Java side and runs this with its
//! command line. Prints the batches per kind each way and every difference;
//! exits 1 on any difference, 2 if the judge could not run.

mod corrupt;
mod listing;
mod our_cases;
mod peer;
mod rebuild;
mod spec;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

use bytes::Bytes;

use crate::peer::Peer;
use crate::rebuild::Rebuilt;

/// Per kind (`plain`, `control`, ...): cases, batches, differences.
#[derive(Default)]
struct Tally {
    cases: usize,
    batches: usize,
    differences: usize,
}

struct Options {
    seed: u64,
    random: u32,
    java: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        seed: 1,
        random: 200,
        java: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| {
            args.next()
                .and_then(|value| value.parse::<u64>().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match arg.as_str() {
            "--seed" => options.seed = number("--seed")?,
            "--random" => {
                options.random = u32::try_from(number("--random")?)
                    .map_err(|_| "--random is too large".to_string())?;
            }
            "--" => {
                options.java = args.by_ref().collect();
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.java.is_empty() {
        return Err("no java command after --".to_string());
    }
    Ok(options)
}

fn kind(name: &str) -> String {
    name.split('/').next().unwrap_or(name).to_string()
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("records_judge: {message}");
            eprintln!("usage: records_judge [--seed N] [--random N] -- JAVA-COMMAND...");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(message) => {
            eprintln!("records_judge: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs both directions; the number of differences.
fn run(options: &Options) -> Result<usize, String> {
    let started = Instant::now();
    let mut peer = Peer::start(&options.java).map_err(|e| e.to_string())?;
    let mut differences = Vec::new();

    // Kafka's batches -> us.
    let kafka_cases = peer
        .kafka_cases(options.seed, options.random)
        .map_err(|e| e.to_string())?;
    let mut from_kafka: BTreeMap<String, Tally> = BTreeMap::new();
    // Per codec: batches, rebuilt byte-identical, rebuilt with the same records.
    let mut rebuilt: BTreeMap<&'static str, [usize; 3]> = BTreeMap::new();
    for case in &kafka_cases {
        let tally = from_kafka.entry(kind(&case.name)).or_default();
        tally.cases += 1;
        tally.batches += case
            .listing
            .lines()
            .filter(|l| l.starts_with("batch "))
            .count();
        let bytes = Bytes::from(case.bytes.clone());
        let ours = listing::ours(&bytes).unwrap_or_else(|e| format!("error ours: {e}\n"));
        if let Some(difference) = diff(&case.listing, &ours) {
            tally.differences += 1;
            differences.push(format!("Kafka -> us {}: {difference}", case.name));
        }
        for batch in kwire::records::Batches::new(bytes) {
            let Ok(batch) = batch else { continue }; // the listing said so already
            let codec = batch.compression().map_or("unknown", |c| c.name());
            let counts = rebuilt.entry(codec).or_default();
            counts[0] += 1;
            match rebuild::compare(&batch) {
                Ok(Rebuilt::Identical) => counts[1] += 1,
                Ok(Rebuilt::SameRecords) => counts[2] += 1,
                Ok(Rebuilt::Differs(what)) => {
                    tally.differences += 1;
                    differences.push(format!("Kafka -> us {} (our builder): {what}", case.name));
                }
                Err(e) => {
                    tally.differences += 1;
                    differences.push(format!("Kafka -> us {} (our builder): {e}", case.name));
                }
            }
        }
    }

    // Our batches -> Kafka.
    let our_cases = our_cases::cases(options.seed, options.random).map_err(|e| e.to_string())?;
    let mut to_kafka: BTreeMap<String, Tally> = BTreeMap::new();
    let mut our_fields: Vec<(&str, Vec<u8>)> = Vec::new();
    for case in &our_cases {
        let tally = to_kafka.entry(kind(&case.name)).or_default();
        tally.cases += 1;
        tally.batches += case.batches.len();
        let mut bytes = Vec::new();
        let mut expected = String::new();
        for spec in &case.batches {
            match spec.build() {
                Ok(batch) => {
                    spec.expected(&batch, &mut expected);
                    bytes.extend_from_slice(&batch);
                }
                Err(e) => expected.push_str(&format!("error ours: {e}\n")),
            }
        }
        listing::bytes_line(&mut expected, bytes.len(), bytes.len());
        let kafka = peer.read(&case.name, &bytes).map_err(|e| e.to_string())?;
        if let Some(difference) = diff(&kafka, &expected) {
            tally.differences += 1;
            differences.push(format!("us -> Kafka {}: {difference}", case.name));
        }
        our_fields.push((case.name.as_str(), bytes));
    }

    // Damaged batches: both readers must refuse, or both read the same, or the
    // difference is one of the documented places where we are stricter.
    let mut damaged: BTreeMap<&'static str, [usize; 4]> = BTreeMap::new();
    let mut explained: BTreeMap<&'static str, usize> = BTreeMap::new();
    // Our fixed cases and Kafka's, each damaged the same ways.
    let fixed = our_fields
        .iter()
        .map(|(name, bytes)| (format!("ours:{name}"), bytes.as_slice()))
        .chain(
            kafka_cases
                .iter()
                .map(|case| (format!("kafka:{}", case.name), case.bytes.as_slice())),
        )
        .filter(|(name, _)| !name.contains(":random/"));
    for (name, bytes) in fixed {
        for damage in corrupt::ALL {
            let Some(field) = damage.apply(bytes) else {
                continue;
            };
            let name = format!("{name}+{}", damage.name());
            let kafka = peer.read(&name, &field).map_err(|e| e.to_string())?;
            let ours = listing::ours(&Bytes::from(field));
            let counts = damaged.entry(damage.name()).or_default();
            counts[0] += 1;
            let kafka_outcome = corrupt::outcome(&kafka);
            if kafka_outcome == "refused" {
                counts[1] += 1;
            }
            let our_outcome = match &ours {
                Ok(listing) => corrupt::outcome(listing),
                Err(_) => "refused".to_string(),
            };
            let Some(difference) = diff(&kafka_outcome, &our_outcome) else {
                continue;
            };
            match ours
                .as_ref()
                .err()
                .and_then(|e| corrupt::explain(&kafka, e))
            {
                Some(why) => {
                    counts[2] += 1;
                    *explained.entry(why).or_default() += 1;
                }
                None => {
                    counts[3] += 1;
                    let ours = ours
                        .err()
                        .map(|e| format!(" (ours: {e})"))
                        .unwrap_or_default();
                    differences.push(format!("damaged {name}: {difference}{ours}"));
                }
            }
        }
    }
    peer.finish().map_err(|e| e.to_string())?;

    print_tally("Kafka's batches -> our reader", &from_kafka);
    println!(
        "  Kafka's batches rebuilt by our builder from our reading (byte-identical; else the \
         same header and decompressed records, the codec framing the same input its own way):"
    );
    for (codec, [batches, identical, same]) in &rebuilt {
        println!("    {codec:<8} {batches:>4} batches {identical:>4} byte-identical {same:>4} same records");
    }
    print_tally(
        "our batches -> Kafka's MemoryRecords (ensureValid, iteration)",
        &to_kafka,
    );
    println!(
        "damaged copies of the first batch of our fixed cases and Kafka's, judged by Kafka's \
         reader and ours (both refuse, or both read the same):"
    );
    for (damage, [fields, refused, stricter, differ]) in &damaged {
        println!(
            "  {damage:<12} {fields:>4} fields {refused:>4} refused by Kafka {stricter:>3} \
             refused by us only, as documented {differ:>3} differences"
        );
    }
    for (why, count) in &explained {
        println!("  {count:>4} x {why}");
    }
    println!(
        "seed {}, {} random batches each way",
        options.seed, options.random
    );
    if differences.is_empty() {
        println!("0 differences ({:.1} s)", started.elapsed().as_secs_f64());
    } else {
        println!("{} differences:", differences.len());
        for difference in &differences {
            println!("  {difference}");
        }
    }
    Ok(differences.len())
}

fn print_tally(title: &str, tally: &BTreeMap<String, Tally>) {
    println!("{title}:");
    let (mut cases, mut batches, mut differences) = (0, 0, 0);
    for (kind, t) in tally {
        println!(
            "  {kind:<16} {:>4} cases {:>5} batches {:>3} differences",
            t.cases, t.batches, t.differences
        );
        cases += t.cases;
        batches += t.batches;
        differences += t.differences;
    }
    println!(
        "  {:<16} {cases:>4} cases {batches:>5} batches {differences:>3} differences",
        "total"
    );
}

/// The first differing line of two listings, or `None` when they are the same.
fn diff(kafka: &str, ours: &str) -> Option<String> {
    if kafka == ours {
        return None;
    }
    let (k, o): (Vec<&str>, Vec<&str>) = (kafka.lines().collect(), ours.lines().collect());
    let at = k
        .iter()
        .zip(&o)
        .position(|(a, b)| a != b)
        .unwrap_or(k.len().min(o.len()));
    let cut = |line: Option<&&str>| {
        let line = line.copied().unwrap_or("(nothing)");
        if line.len() > 400 {
            format!("{}...", &line[..line.floor_char_boundary(400)])
        } else {
            line.to_string()
        }
    };
    Some(format!(
        "line {}: Kafka {:?}, ours {:?}",
        at + 1,
        cut(k.get(at)),
        cut(o.get(at))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::records::RecordBatch;

    /// The listings the judge expects from Kafka are the values the batches were
    /// built from; our own reader must give the same ones (else a difference Kafka
    /// reports could be the judge's own mistake).
    #[test]
    fn our_reader_lists_our_batches_as_their_values_say() {
        for case in our_cases::cases(3, 20).unwrap() {
            let mut bytes = Vec::new();
            let mut expected = String::new();
            for spec in &case.batches {
                let batch = spec.build().unwrap();
                spec.expected(&batch, &mut expected);
                bytes.extend_from_slice(&batch);
            }
            listing::bytes_line(&mut expected, bytes.len(), bytes.len());
            let ours = listing::ours(&Bytes::from(bytes)).unwrap();
            assert_eq!(diff(&expected, &ours), None, "{}", case.name);
        }
    }

    #[test]
    fn damage_does_what_it_says() {
        let case = our_cases::cases(3, 0)
            .unwrap()
            .into_iter()
            .find(|case| case.name == "idempotent/none")
            .unwrap();
        let bytes = case.batches[0].build().unwrap();
        let parse = |field: Vec<u8>| RecordBatch::parse(Bytes::from(field)).unwrap().0;
        let counted = parse(corrupt::Damage::CountUp.apply(&bytes).unwrap());
        assert_eq!(counted.records_count(), 11);
        counted.verify_crc().unwrap();
        let flipped = parse(corrupt::Damage::Crc.apply(&bytes).unwrap());
        assert!(flipped.verify_crc().is_err());
        let restamped = parse(corrupt::Damage::Records.apply(&bytes).unwrap());
        restamped.verify_crc().unwrap();
        assert_ne!(restamped.as_bytes(), &bytes);
        let cut = corrupt::Damage::Truncated.apply(&bytes).unwrap();
        assert_eq!(cut.len(), bytes.len() - 10);
    }

    #[test]
    fn diff_names_the_first_differing_line() {
        assert_eq!(diff("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            diff("a\nb\n", "a\nc\n").unwrap(),
            r#"line 2: Kafka "b", ours "c""#
        );
        assert_eq!(
            diff("a\n", "a\nc\n").unwrap(),
            r#"line 2: Kafka "(nothing)", ours "c""#
        );
    }
}
