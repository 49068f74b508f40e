//! Idempotent producing: a producer id from InitProducerId, batches numbered by
//! sequence, a batch sent twice stored once (Kafka answers the retry with the
//! first write's offset), and a sequence gap refused.

use kwire::records::RecordBatchBuilder;
use kwire_messages::api::{InitProducerIdRequest, InitProducerIdResponse};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::Connection;
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    create_topic, data_records, ensure, fetch_all, no_error, produce, retried, unique, values,
    values_of, Failure, Outcome, Topic,
};

/// Records per batch.
const PER_BATCH: usize = 5;

pub async fn run(kafka: &Connection, report: &mut Report, run: &str) {
    let mut state = None;
    report.record(
        "idempotent",
        "InitProducerId without a transactional id",
        async {
            let topic = create_topic(kafka, &unique("idempotent", run), 1, &[]).await?;
            // Kafka's schema makes the id's default "", which Kafka refuses as
            // INVALID_REQUEST: an idempotent producer sends null.
            let request = InitProducerIdRequest::default()
                .with_transactional_id(None)
                .with_transaction_timeout_ms(60_000);
            let answer = retried(
                || async { Ok(kafka.send(request.clone()).await?) },
                |answer: &InitProducerIdResponse| answer.error_code,
            )
            .await?;
            no_error("InitProducerId", answer.error_code)?;
            ensure!(
                answer.producer_id >= 0 && answer.producer_epoch >= 0,
                "InitProducerId gave producer {} epoch {}",
                answer.producer_id,
                answer.producer_epoch
            );
            let seen = format!(
                "v{}: producer id {}, epoch {}",
                kafka.version(ApiKey::InitProducerId)?,
                answer.producer_id,
                answer.producer_epoch
            );
            state = Some((topic, answer.producer_id, answer.producer_epoch));
            Ok::<_, Failure>(seen)
        }
        .await,
    );
    let Some((topic, id, epoch)) = state else {
        return;
    };
    let producer = Producer { topic, id, epoch };
    report.record(
        "idempotent",
        "sequences 0 and 5 stored in order",
        producer.two_batches(kafka).await,
    );
    report.record(
        "idempotent",
        "the batch at sequence 5 again: stored once",
        producer.duplicate(kafka).await,
    );
    report.record(
        "idempotent",
        "a sequence gap refused",
        producer.gap(kafka).await,
    );
}

struct Producer {
    topic: Topic,
    id: i64,
    epoch: i16,
}

impl Producer {
    /// The batch of `PER_BATCH` records from `sequence`.
    fn batch(&self, sequence: i32) -> Result<bytes::Bytes, Failure> {
        let mut builder = RecordBatchBuilder::new(0).producer(self.id, self.epoch, sequence);
        for value in values(&format!("idempotent-{sequence}"), PER_BATCH) {
            builder.append(0, None, Some(value.as_bytes()), &[("by", Some(b"kwire"))])?;
        }
        Ok(builder.build()?)
    }

    async fn send(&self, kafka: &Connection, sequence: i32) -> Result<(ErrorCode, i64), Failure> {
        let version = kafka.version(ApiKey::Produce)?;
        let answer = produce(kafka, version, &self.topic, 0, self.batch(sequence)?, None).await?;
        Ok((ErrorCode::from_code(answer.error_code), answer.base_offset))
    }

    /// The values the partition holds, which must end at `end`, checking every
    /// batch carries the producer id.
    async fn stored(&self, kafka: &Connection, end: usize) -> Result<Vec<String>, Failure> {
        let version = kafka.version(ApiKey::Fetch)?;
        let fetched = fetch_all(kafka, version, &self.topic, 0, 0, end as i64).await?;
        ensure!(
            fetched.high_watermark == end as i64,
            "the partition ends at {}, expected {end}",
            fetched.high_watermark
        );
        let read = data_records(&fetched.records)?;
        ensure!(
            read.iter().all(|record| record.producer_id == self.id),
            "a batch read back lacks producer id {}",
            self.id
        );
        Ok(values_of(&read))
    }

    async fn two_batches(&self, kafka: &Connection) -> Outcome {
        for (sequence, offset) in [(0, 0), (PER_BATCH as i32, PER_BATCH as i64)] {
            let (code, base) = self.send(kafka, sequence).await?;
            ensure!(
                (code, base) == (ErrorCode::None, offset),
                "sequence {sequence}: {code:?} at offset {base}, expected NONE at {offset}"
            );
        }
        let want = [
            values("idempotent-0", PER_BATCH),
            values("idempotent-5", PER_BATCH),
        ]
        .concat();
        ensure!(
            self.stored(kafka, 2 * PER_BATCH).await? == want,
            "the partition does not hold both batches"
        );
        Ok(format!(
            "offsets 0 and {PER_BATCH}, producer id on every batch"
        ))
    }

    /// Kafka keeps the last five batches of each producer: a retry of one of
    /// them is answered as the first write was (NONE, its offset), not stored.
    async fn duplicate(&self, kafka: &Connection) -> Outcome {
        let (code, base) = self.send(kafka, PER_BATCH as i32).await?;
        ensure!(
            (code, base) == (ErrorCode::None, PER_BATCH as i64),
            "the retry got {code:?} at offset {base}, expected NONE at {PER_BATCH}"
        );
        let stored = self.stored(kafka, 2 * PER_BATCH).await?;
        ensure!(
            stored.len() == 2 * PER_BATCH,
            "the partition holds {} records after the retry, expected {}",
            stored.len(),
            2 * PER_BATCH
        );
        Ok(format!(
            "NONE at offset {PER_BATCH} (the first write's), {} records stored",
            stored.len()
        ))
    }

    async fn gap(&self, kafka: &Connection) -> Outcome {
        let sequence = 4 * PER_BATCH as i32;
        let (code, _) = self.send(kafka, sequence).await?;
        ensure!(
            code == ErrorCode::OutOfOrderSequenceNumber,
            "sequence {sequence} after {} answered {code:?}",
            2 * PER_BATCH - 1
        );
        let stored = self.stored(kafka, 2 * PER_BATCH).await?.len();
        ensure!(
            stored == 2 * PER_BATCH,
            "the partition holds {stored} records after the gap"
        );
        Ok(format!(
            "sequence {sequence} (expected {}): OUT_OF_ORDER_SEQUENCE_NUMBER, nothing stored",
            2 * PER_BATCH
        ))
    }
}
