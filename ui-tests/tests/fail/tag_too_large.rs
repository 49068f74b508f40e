// Tags are int32 values in Kafka's schemas.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TagTooLarge {
    #[kafka(versions = "0+", tag = 4294967296)]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
