// Tagged versions without a tag number.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TaggedWithoutTag {
    #[kafka(versions = "0+", tagged = "1+")]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kafka_wire::UnknownTaggedFields,
}

fn main() {}
