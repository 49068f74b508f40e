// Tagged versions without a tag number.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TaggedWithoutTag {
    #[kafka(versions = "0+", tagged = "1+")]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
