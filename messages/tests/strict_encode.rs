//! Strict encoding on a real message: ProduceRequest v13 carries topic IDs only,
//! and its topic `name` is ignorable in 0-12, so a request that sets only the name
//! is sent with an empty topic by Kafka's rule (the broker answers
//! UNKNOWN_TOPIC_OR_PARTITION). A strict encode refuses it, naming the field.

use kwire::{EncodeErrorKind, Message, Records, Uuid};
use kwire_messages::api::produce::{PartitionProduceData, ProduceRequest, TopicProduceData};

fn request(topic: TopicProduceData) -> ProduceRequest {
    let partition = PartitionProduceData::default()
        .with_index(0)
        .with_records(Some(Records::default()));
    ProduceRequest::default()
        .with_acks(-1)
        .with_timeout_ms(30_000)
        .with_topic_data(vec![topic.with_partition_data(vec![partition])])
}

#[test]
fn a_name_without_an_id_at_v13_is_refused_strictly() {
    let by_name = request(TopicProduceData::default().with_name("orders".into()));

    // Kafka's rule: the name is dropped, and the topic goes out as the null ID.
    let sent = ProduceRequest::decode(&by_name.encode(13).unwrap(), 13).unwrap();
    assert_eq!(sent.topic_data[0].name, "");
    assert_eq!(sent.topic_data[0].topic_id, Uuid::default());

    let err = by_name.encode_strict(13).unwrap_err();
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::IgnorableFieldDropped { version: 13 }
    );
    assert_eq!(err.path().to_string(), "ProduceRequest.TopicData[0].Name");
    assert!(err.to_string().contains("would drop its value silently"));
    assert_eq!(by_name.check_strict(13).unwrap_err(), err);
    assert!(by_name.encoder_strict(13).is_err());

    // Version 12 still has the name: nothing is lost there.
    assert_eq!(
        by_name.encode_strict(12).unwrap(),
        by_name.encode(12).unwrap()
    );
}

#[test]
fn an_id_at_v13_is_written_strictly_as_normally() {
    let by_id = request(TopicProduceData::default().with_topic_id(Uuid::from_u64_pair(7, 9)));
    assert_eq!(by_id.encode_strict(13).unwrap(), by_id.encode(13).unwrap());
    // And the ID is what version 12 would lose.
    let err = by_id.check_strict(12).unwrap_err();
    assert_eq!(
        err.path().to_string(),
        "ProduceRequest.TopicData[0].TopicId"
    );
}
