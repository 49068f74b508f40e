// Tagged versions without a tag number.

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TaggedWithoutTag {
    #[kafka(versions = "0+", tagged = "1+")]
    pub hint: i32,
}

fn main() {}
