// A nested struct reached in flexible versions must keep unknown tags too; its
// parent knows the flexible versions, so the parent reports it, on the field.

use kwire::UnknownTaggedFields;

#[derive(PartialEq, kwire::Struct)]
pub struct Child {
    #[kafka(versions = "0+")]
    pub id: i32,
}

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "2+")]
pub struct Parent {
    #[kafka(versions = "0+")]
    pub children: Vec<Child>,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

// Used only before the parent's flexible versions, a child needs no such field.
#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexible = "2+")]
pub struct EarlyParent {
    #[kafka(versions = "0-1")]
    pub children: Vec<Child>,
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {}
