// 70000 does not fit an int16.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultOutOfRange {
    #[kafka(versions = "0+", default = 70000)]
    pub count: i16,
}

fn main() {}
