//! The batches we write for Kafka to read: every kind with every codec, the
//! control batches, the cleaner's empty batch, and random ones from a seed. The
//! same kinds Kafka writes for us (`RecordsJudge.java`), made here from values.

use kwire::records::Compression;
use kwire::{KafkaString, Uuid};
use kwire_messages::control_records::ControlRecord;
use kwire_messages::data::{
    leader_change_message, voters_record, EndTxnMarker, KRaftVersionRecord, LeaderChangeMessage,
    SnapshotFooterRecord, SnapshotHeaderRecord, VotersRecord,
};
use kwire_tests::schema_writer::Random;

use crate::spec::{Rec, Spec};

/// A fixed time, so that a run's batches are the same every time.
const T0: i64 = 1_700_000_000_000;

pub const CODECS: [Compression; 5] = [
    Compression::None,
    Compression::Gzip,
    Compression::Snappy,
    Compression::Lz4,
    Compression::Zstd,
];

/// One records field: `KIND/VARIANT` and its batches.
pub struct OurCase {
    pub name: String,
    pub batches: Vec<Spec>,
}

fn case(name: String, spec: Spec) -> OurCase {
    OurCase {
        name,
        batches: vec![spec],
    }
}

fn sequential(n: i64, t0: i64) -> Vec<Rec> {
    (0..n)
        .map(|i| {
            let value = format!(
                "value-{i}-{}",
                "x".repeat(usize::try_from(i % 50).unwrap_or(0))
            );
            Rec::new(
                i,
                t0 + i * 7,
                Some(format!("key-{i}").as_bytes()),
                Some(value.as_bytes()),
            )
        })
        .collect()
}

fn text(size: usize) -> Vec<u8> {
    b"the quick brown fox jumps over the lazy dog; "
        .iter()
        .copied()
        .cycle()
        .take(size)
        .collect()
}

fn noise(random: &mut Random, size: usize) -> Vec<u8> {
    (0..size).map(|_| random.bits() as u8).collect()
}

pub fn cases(seed: u64, random_count: u32) -> Result<Vec<OurCase>, kwire::EncodeError> {
    let mut out = Vec::new();
    let mut noise_source = Random::seeded(seed ^ 0x5eed);
    for codec in CODECS {
        let c = codec.name();
        let plain = vec![
            Rec::new(0, T0, Some(b"k"), Some(b"v")),
            Rec::new(1, T0 + 5, None, Some(b"no key")),
            Rec::new(2, T0 - 3, Some(b"tombstone"), None),
            Rec::new(3, T0 + 9, Some(b""), Some(b"")),
            Rec::new(4, T0 + 1, None, None),
            Rec::new(5, -1, Some(b"no timestamp"), Some(b"-1")),
            Rec::new(6, T0 + 2, Some(b"text"), Some(&text(65_536))),
            Rec::new(
                7,
                T0 + 4,
                Some(&noise(&mut noise_source, 300)),
                Some(&noise(&mut noise_source, 100_000)),
            ),
        ];
        out.push(case(format!("plain/{c}"), Spec::new(codec, plain)));

        let headers = vec![
            Rec::new(0, T0, Some(b"a"), Some(b"1"))
                .header("trace", Some(b"abc"))
                .header("empty", Some(b""))
                .header("none", None),
            Rec::new(1, T0 + 1, Some(b"b"), Some(b"2"))
                .header("dup", Some(b"x"))
                .header("dup", Some(b"y")),
            Rec::new(2, T0 + 2, Some(b"c"), Some(b"3"))
                .header("", Some(b"empty key"))
                .header("clé-ü-✓", Some("ünïcødé".as_bytes())),
            Rec::new(3, T0 + 3, Some(b"d"), Some(b"4")),
            Rec::new(4, T0 + 4, None, None).header("long", Some(&[b'h'; 5000])),
        ];
        out.push(case(format!("headers/{c}"), Spec::new(codec, headers)));

        out.push(case(
            format!("idempotent/{c}"),
            Spec::new(codec, sequential(10, T0)).producer(4_000, 3, 17),
        ));

        let mut txn = Spec::new(codec, sequential(5, T0)).producer(4_001, 0, 0);
        txn.transactional = true;
        out.push(case(format!("transactional/{c}"), txn));

        let gaps = [0, 3, 4, 10, 11, 200]
            .iter()
            .enumerate()
            .map(|(i, &delta)| {
                let i = i as i64;
                Rec::new(
                    delta,
                    T0 + i,
                    Some(format!("g{i}").as_bytes()),
                    Some(format!("gap {delta}").as_bytes()),
                )
            })
            .collect();
        let mut gap_spec = Spec::new(codec, gaps).producer(4_002, 1, 100);
        gap_spec.base_offset = 1_000;
        gap_spec.last_offset_delta = Some(250);
        out.push(case(format!("offset_gaps/{c}"), gap_spec));

        let mut log_append = Spec::new(codec, sequential(4, T0));
        log_append.log_append_time = Some(T0 + 999_000);
        out.push(case(format!("log_append_time/{c}"), log_append));

        let horizon = vec![
            Rec::new(0, T0, Some(b"gone"), None),
            Rec::new(2, T0 + 10, Some(b"kept"), Some(b"v")),
            Rec::new(5, T0 + 20, Some(b"gone too"), None).header("h", Some(b"v")),
        ];
        let mut horizon_spec = Spec::new(codec, horizon);
        horizon_spec.delete_horizon = Some(T0 + 86_400_000);
        out.push(case(format!("delete_horizon/{c}"), horizon_spec));

        let mut epoch = Spec::new(codec, sequential(3, T0));
        epoch.partition_leader_epoch = 42;
        epoch.base_offset = 1 << 40;
        out.push(case(format!("leader_epoch/{c}"), epoch));

        out.push(case(
            format!("many/{c}"),
            Spec::new(codec, sequential(2_000, T0)),
        ));

        let commit = ControlRecord::Commit(EndTxnMarker::default().with_coordinator_epoch(7));
        let mut control =
            Spec::new(codec, vec![Rec::control(0, T0, commit)?]).producer(4_003, 2, -1);
        (control.transactional, control.control, control.base_offset) = (true, true, 77);
        out.push(case(format!("control_builder/{c}"), control));

        let multi = (0..3)
            .map(|i| {
                let mut spec = Spec::new(codec, sequential(i + 1, T0 + i));
                spec.base_offset = 100 * i;
                spec
            })
            .collect();
        out.push(OurCase {
            name: format!("multi_batch/{c}"),
            batches: multi,
        });
    }

    let control_batch = |base_offset: i64, record: ControlRecord, transactional: bool| {
        let mut spec = Spec::new(Compression::None, vec![Rec::control(0, T0, record)?]);
        (spec.base_offset, spec.partition_leader_epoch) = (base_offset, 9);
        (spec.control, spec.transactional) = (true, transactional);
        if transactional {
            spec = spec.producer(4_004, 5, -1);
        }
        Ok::<_, kwire::EncodeError>(spec)
    };
    let marker = |epoch| EndTxnMarker::default().with_coordinator_epoch(epoch);
    let voter = |id| leader_change_message::Voter::default().with_voter_id(id);
    let endpoint = voters_record::Endpoint::default()
        .with_name(KafkaString::from("CONTROLLER"))
        .with_host(KafkaString::from("localhost"))
        .with_port(9093);
    let controls = [
        ("commit", 500, ControlRecord::Commit(marker(11)), true),
        ("abort", 501, ControlRecord::Abort(marker(12)), true),
        (
            "leader_change",
            600,
            ControlRecord::LeaderChange(
                LeaderChangeMessage::default()
                    .with_leader_id(2)
                    .with_voters(vec![voter(1), voter(2)])
                    .with_granting_voters(vec![voter(2)]),
            ),
            false,
        ),
        (
            "snapshot_header",
            0,
            ControlRecord::SnapshotHeader(
                SnapshotHeaderRecord::default().with_last_contained_log_timestamp(T0 - 1),
            ),
            false,
        ),
        (
            "snapshot_footer",
            10,
            ControlRecord::SnapshotFooter(SnapshotFooterRecord::default()),
            false,
        ),
        (
            "kraft_version",
            11,
            ControlRecord::KRaftVersion(KRaftVersionRecord::default().with_kraft_version(1)),
            false,
        ),
        (
            "kraft_voters",
            12,
            ControlRecord::KRaftVoters(VotersRecord::default().with_voters(vec![
                voters_record::Voter::default()
                    .with_voter_id(1)
                    .with_voter_directory_id(Uuid::from_u64_pair(1, 2))
                    .with_endpoints(vec![endpoint])
                    .with_kraft_version_feature(
                        voters_record::KRaftVersionFeature::default()
                            .with_min_supported_version(0)
                            .with_max_supported_version(1),
                    ),
            ])),
            false,
        ),
    ];
    for (name, base_offset, record, transactional) in controls {
        out.push(case(
            format!("control/{name}"),
            control_batch(base_offset, record, transactional)?,
        ));
    }

    let mut empty = Spec::new(Compression::None, Vec::new()).producer(4_005, 2, 40);
    (empty.base_offset, empty.partition_leader_epoch) = (500, 7);
    (empty.transactional, empty.last_offset_delta) = (true, Some(9));
    empty.empty_max_timestamp = Some(T0);
    out.push(case("empty/cleaner".to_string(), empty));

    let mut random = Random::seeded(seed);
    for i in 0..random_count {
        out.push(case(format!("random/{seed}-{i}"), random_spec(&mut random)));
    }
    Ok(out)
}

/// A batch of random settings and records; the same ones for the same seed.
fn random_spec(r: &mut Random) -> Spec {
    let below = |r: &mut Random, n: u64| i64::try_from(r.below(n)).unwrap_or(0);
    let codec = CODECS[usize::try_from(r.below(5)).unwrap_or(0)];
    let mut spec = Spec::new(codec, Vec::new());
    spec.base_offset = if r.below(2) == 0 {
        below(r, 1_000)
    } else {
        below(r, 1 << 50)
    };
    spec.partition_leader_epoch = if r.below(4) == 0 {
        -1
    } else {
        below(r, 1_000) as i32
    };
    if r.below(3) == 0 {
        spec = spec.producer(
            below(r, 1 << 40),
            below(r, 32_767) as i16,
            below(r, 1 << 30) as i32,
        );
        spec.transactional = r.below(2) == 0;
    }
    if r.below(5) == 0 {
        spec.log_append_time = Some(T0 + below(r, 1 << 30));
    }
    // Independent of the timestamp type: the cleaner keeps a LogAppendTime batch's type.
    if r.below(5) == 0 {
        spec.delete_horizon = Some(T0 + below(r, 1 << 30));
    }
    let most = if r.below(4) == 0 { 300 } else { 20 };
    let count = 1 + r.below(most);
    let around = T0 + below(r, 1 << 31) - (1 << 30);
    let mut delta = 0;
    for _ in 0..count {
        let timestamp = if r.below(20) == 0 {
            -1
        } else {
            around + below(r, 200_000) - 100_000
        };
        let key = (r.below(6) != 0).then(|| random_bytes(r, 60));
        let value_most = if r.below(10) == 0 { 20_000 } else { 500 };
        let value = (r.below(8) != 0).then(|| random_bytes(r, value_most));
        let mut record = Rec::new(delta, timestamp, key.as_deref(), value.as_deref());
        if r.below(4) == 0 {
            for _ in 0..1 + r.below(4) {
                let value = (r.below(5) != 0).then(|| random_bytes(r, 40));
                record = record.header(&random_key(r), value.as_deref());
            }
        }
        spec.records.push(record);
        delta += if r.below(4) == 0 {
            2 + below(r, 998)
        } else {
            1
        };
    }
    if r.below(6) == 0 {
        spec.last_offset_delta = i32::try_from(delta - 1 + below(r, 50)).ok();
    }
    spec
}

/// Random bytes, compressible (repeated runs) half the time.
fn random_bytes(r: &mut Random, most: u64) -> Vec<u8> {
    let len = usize::try_from(r.below(most + 1)).unwrap_or(0);
    if r.below(2) == 0 {
        (0..len).map(|_| r.bits() as u8).collect()
    } else {
        (0..len).map(|i| b'a' + ((i / 7) % 3) as u8).collect()
    }
}

fn random_key(r: &mut Random) -> String {
    const PARTS: [&str; 7] = ["trace", "id", "ü", "✓", "", "x-", "𝄞"];
    (0..r.below(4))
        .map(|_| PARTS[usize::try_from(r.below(7)).unwrap_or(0)])
        .collect()
}
