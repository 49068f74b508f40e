// A tag whose tagged versions are empty: it would never be written.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct TagWithoutTaggedVersions {
    #[kafka(versions = "0+", tag = 0, tagged = "none")]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
