// Once flexible, every later version is flexible.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-5", flexible = "2-4")]
pub struct FlexibleNotOpenEnded {
    #[kafka(versions = "0+")]
    pub count: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
