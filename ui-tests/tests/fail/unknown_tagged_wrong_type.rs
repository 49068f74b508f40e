// The unknown-tags field must be `UnknownTaggedFields`.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct UnknownTaggedWrongType {
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: Vec<u8>,
}

fn main() {}
