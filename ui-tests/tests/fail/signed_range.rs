// One grammar for version ranges, the runtime's: digits only, no sign.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "+3")]
pub struct SignedRange {
    #[kafka(versions = "0+")]
    pub id: i32,
}

fn main() {}
