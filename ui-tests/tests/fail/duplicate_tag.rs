// Two fields share tag 0.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct DuplicateTag {
    #[kafka(versions = "0+", tag = 0)]
    pub first: i32,
    #[kafka(versions = "0+", tag = 0)]
    pub second: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
