//! Every compression codec, both ways: batches we compress, stored by Kafka as
//! sent (`compression.type=producer`) and read back; and batches Kafka itself
//! compresses (the topic's `compression.type` set to the codec, our batch
//! uncompressed), which we decompress. The codec of every batch fetched is
//! checked, so a batch stored another way than asked fails.

use kwire::records::Compression;
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::Connection;
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    batch, create_topic, data_records, ensure, fetch_all, no_error, produce, unique, values,
    values_of, Outcome,
};

/// Every codec Kafka knows.
const CODECS: [Compression; 5] = [
    Compression::None,
    Compression::Gzip,
    Compression::Snappy,
    Compression::Lz4,
    Compression::Zstd,
];

/// Records per batch: enough that each codec has something to compress.
const COUNT: usize = 200;

pub async fn run(kafka: &Connection, report: &mut Report, run: &str) {
    for codec in CODECS {
        let outcome = round_trip(kafka, run, codec, Compression::None).await;
        report.record(
            "codecs",
            &format!("{} by us, stored as sent", codec.name()),
            outcome,
        );
    }
    for codec in &CODECS[1..] {
        let outcome = round_trip(kafka, run, Compression::None, *codec).await;
        report.record(
            "codecs",
            &format!("{} by Kafka (topic compression.type)", codec.name()),
            outcome,
        );
    }
    report.record(
        "codecs",
        "zstd below Produce v7 refused, any Fetch reads it",
        zstd_gates(kafka, run).await,
    );
}

/// zstd came with Produce v7 and Fetch v10 (KIP-110): Kafka refuses a zstd batch
/// produced at v6 with UNSUPPORTED_COMPRESSION_TYPE. Kafka 4 no longer gates
/// Fetch below v10 (the check went with down-conversion, KIP-724): a Fetch v9
/// gets the zstd batch as stored, and we read it.
async fn zstd_gates(kafka: &Connection, run: &str) -> Outcome {
    let topic = create_topic(kafka, &unique("codec-zstd-gates", run), 1, &[]).await?;
    let sent = values("zstd-gate", 5);
    let old = produce(
        kafka,
        6,
        &topic,
        0,
        batch(&sent, Compression::Zstd, 0)?,
        None,
    )
    .await?;
    let code = ErrorCode::from_code(old.error_code);
    ensure!(
        code == ErrorCode::UnsupportedCompressionType,
        "Produce v6 of a zstd batch answered {code:?}"
    );
    let new = produce(
        kafka,
        7,
        &topic,
        0,
        batch(&sent, Compression::Zstd, 0)?,
        None,
    )
    .await?;
    no_error("Produce v7 of a zstd batch", new.error_code)?;
    for version in [9, 10] {
        let fetched = fetch_all(kafka, version, &topic, 0, 0, sent.len() as i64).await?;
        let read = data_records(&fetched.records)?;
        ensure!(
            values_of(&read) == sent && read.iter().all(|r| r.compression == Compression::Zstd),
            "Fetch v{version} did not read the zstd batch back"
        );
    }
    Ok(
        "Produce v6: UNSUPPORTED_COMPRESSION_TYPE; v7 stored; Fetch v9 and v10 read it as zstd"
            .into(),
    )
}

/// Produces `COUNT` records compressed with `ours` to a topic whose
/// `compression.type` is `topic_codec` (`None`: `producer`), and reads them back
/// expecting batches compressed with `ours` or, when the topic sets one, with
/// the topic's codec.
async fn round_trip(
    kafka: &Connection,
    run: &str,
    ours: Compression,
    topic_codec: Compression,
) -> Outcome {
    let setting = if topic_codec == Compression::None {
        "producer"
    } else {
        topic_codec.name()
    };
    let name = unique(&format!("codec-{}-{setting}", ours.name()), run);
    let topic = create_topic(kafka, &name, 1, &[("compression.type", setting)]).await?;
    let produce_version = kafka.version(ApiKey::Produce)?;
    let fetch_version = kafka.version(ApiKey::Fetch)?;
    let sent = values(&format!("{}-{setting}", ours.name()), COUNT);
    let records = batch(&sent, ours, 1_700_000_000_000)?;
    let size = records.len();
    let answer = produce(kafka, produce_version, &topic, 0, records, None).await?;
    no_error("Produce", answer.error_code)?;
    let fetched = fetch_all(kafka, fetch_version, &topic, 0, 0, COUNT as i64).await?;
    let read = data_records(&fetched.records)?;
    ensure!(
        values_of(&read) == sent,
        "read {} records back, not the {COUNT} sent",
        read.len()
    );
    let stored = if topic_codec == Compression::None {
        ours
    } else {
        topic_codec
    };
    let codecs: Vec<Compression> = read.iter().map(|record| record.compression).collect();
    ensure!(
        codecs.iter().all(|&codec| codec == stored),
        "the batches read back are compressed {:?}, expected {}",
        codecs.first(),
        stored.name()
    );
    let fetched_size = fetched
        .records
        .as_ref()
        .map_or(0, |records| records.0.len());
    Ok(format!(
        "{COUNT} records: sent {size} bytes, fetched {fetched_size} bytes {}",
        stored.name()
    ))
}
