// Tags are int32 values in Kafka's schemas.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TagTooLarge {
    #[kafka(versions = "0+", tag = 4294967296)]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kafka_wire::UnknownTaggedFields,
}

fn main() {}
