// The unknown-tags field has no schema of its own.

use kwire::UnknownTaggedFields;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "0+")]
pub struct UnknownTaggedWithKeys {
    #[kafka(versions = "0+")]
    pub count: i32,
    #[kafka(unknown_tagged, versions = "0+")]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
