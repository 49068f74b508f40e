// Two fields share tag 0.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct DuplicateTag {
    #[kafka(versions = "0+", tag = 0)]
    pub first: i32,
    #[kafka(versions = "0+", tag = 0)]
    pub second: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kafka_wire::UnknownTaggedFields,
}

fn main() {}
