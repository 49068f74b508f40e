// Defaults are compared on encode, so a nested struct must be `PartialEq`.

#[derive(kafka_wire::Struct)]
pub struct Child {
    #[kafka(versions = "0+")]
    pub id: i32,
}

#[derive(kafka_wire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct Parent {
    #[kafka(versions = "0+")]
    pub children: Vec<Child>,
}

fn main() {}
