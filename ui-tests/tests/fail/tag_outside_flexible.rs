// A tag in version 1, but the message is flexible only from version 2.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "2+")]
pub struct TagOutsideFlexible {
    #[kafka(versions = "0+", tag = 0, tagged = "1+")]
    pub hint: i32,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: kwire::UnknownTaggedFields,
}

fn main() {}
