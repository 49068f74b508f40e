// One field holds the unknown tags of a struct.

use kwire::UnknownTaggedFields;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct UnknownTaggedTwice {
    #[kafka(unknown_tagged)]
    pub first: UnknownTaggedFields,
    #[kafka(unknown_tagged)]
    pub second: UnknownTaggedFields,
}

fn main() {}
