// Tagged versions must run to the end (`N+`), as Kafka's generator requires.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TaggedNotOpenEnded {
    #[kafka(versions = "0+", tag = 0, tagged = "1-2")]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
