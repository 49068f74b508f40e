// Defaults are compared on encode, so a nested struct must be `PartialEq`.

#[derive(kwire::Struct)]
pub struct Child {
    #[kafka(versions = "0+")]
    pub id: i32,
}

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct Parent {
    #[kafka(versions = "0+")]
    pub children: Vec<Child>,
}

fn main() {}
