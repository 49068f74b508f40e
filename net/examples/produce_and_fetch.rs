//! Creates a topic, produces three records with headers, fetches them back and prints them.
//! `cargo run -p kwire-net --features client --example produce_and_fetch -- 127.0.0.1:9092 TOPIC`
use kwire::{records::Batches, records::RecordBatchBuilder, KafkaString, Records};
use kwire_messages::api::{create_topics::*, fetch::*, produce::*};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::{ClientError, ConnectOptions, Connection};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), ClientError> {
    let arg = |i, default: &str| std::env::args().nth(i).unwrap_or_else(|| default.into());
    let name = KafkaString::from(arg(2, "kwire-example"));
    let kafka = Connection::connect(&arg(1, "127.0.0.1:9092"), ConnectOptions::new()).await?;
    let topic = CreatableTopic::default().with_name(name.clone());
    let topic = topic.with_num_partitions(1).with_replication_factor(1);
    let created = kafka.send(CreateTopicsRequest::default().with_topics(vec![topic]));
    for topic in created.await?.topics {
        match ErrorCode::from_code(topic.error_code) {
            ErrorCode::None | ErrorCode::TopicAlreadyExists => {}
            error => return Err(error.into()),
        }
    }
    let mut batch = RecordBatchBuilder::new(0);
    for (key, value) in [(b"A1", b"held"), (b"A2", b"sold"), (b"A3", b"free")] {
        batch.append(0, Some(key), Some(value), &[("by", Some(b"example"))])?;
    }
    let records = PartitionProduceData::default().with_records(Some(Records(batch.build()?)));
    let topic = TopicProduceData::default().with_name(name.clone());
    let topic_data = vec![topic.with_partition_data(vec![records])];
    let request = ProduceRequest::default().with_acks(-1);
    let request = request.with_timeout_ms(5_000).with_topic_data(topic_data);
    // From v13, Produce and Fetch name topics by id only: stay at v12 to name them.
    let v12 = |api| Ok::<_, ClientError>(kafka.version(api)?.min(12));
    let done = kafka.send_at(request, v12(ApiKey::Produce)?).await?;
    let mut from = FetchPartition::default().with_partition_max_bytes(1 << 20);
    for written in done.responses.iter().flat_map(|t| &t.partition_responses) {
        ErrorCode::check(written.error_code)?;
        from.fetch_offset = written.base_offset;
    }
    let topic = FetchTopic::default().with_topic(name);
    let topics = vec![topic.with_partitions(vec![from])];
    let request = FetchRequest::default().with_min_bytes(1);
    let request = request.with_max_wait_ms(500).with_topics(topics);
    let fetched = kafka.send_at(request, v12(ApiKey::Fetch)?).await?;
    let text = |b: Option<&[u8]>| String::from_utf8_lossy(b.unwrap_or(b"")).to_string();
    for partition in fetched.responses.into_iter().flat_map(|t| t.partitions) {
        for batch in Batches::new(partition.records.unwrap_or_default().0) {
            for record in batch?.records()? {
                let record = record?;
                let (key, value) = (text(record.key), text(record.value));
                print!("{}: {key} = {value}", record.offset);
                for header in record.headers {
                    let header = header?;
                    print!(" [{}: {}]", header.key, text(header.value));
                }
                println!();
            }
        }
    }
    Ok(())
}
