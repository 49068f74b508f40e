// Tags must be 0, 1, 2, …: tag 1 is missing.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct NonContiguousTags {
    #[kafka(versions = "0+", tag = 0)]
    pub first: i32,
    #[kafka(versions = "0+", tag = 2)]
    pub third: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
