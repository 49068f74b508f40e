// A schema names concrete types.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct Generic<T> {
    #[kafka(versions = "0+")]
    pub value: T,
}

fn main() {}
