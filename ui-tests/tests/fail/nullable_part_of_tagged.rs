// A tagged field is nullable in all its tagged versions or in none (Kafka's
// generator rule): here version 2 may be null but version 1 may not.

use kwire::KafkaString;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "1+")]
pub struct NullablePartOfTagged {
    #[kafka(versions = "1+", tag = 0, nullable = "2+")]
    pub name: Option<KafkaString>,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
