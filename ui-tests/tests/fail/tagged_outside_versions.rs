// The field exists from version 2, so it cannot be tagged from version 1.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TaggedOutsideVersions {
    #[kafka(versions = "2+", tag = 0, tagged = "1+")]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
