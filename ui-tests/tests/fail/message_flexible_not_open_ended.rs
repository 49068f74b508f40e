// Once flexible, every later version is flexible.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-5", flexible = "2-4")]
pub struct FlexibleNotOpenEnded {
    #[kafka(versions = "0+")]
    pub count: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kafka_wire::UnknownTaggedFields,
}

fn main() {}
