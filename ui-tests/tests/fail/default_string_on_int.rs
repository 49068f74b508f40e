// A string default on an int32 field.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultStringOnInt {
    #[kafka(versions = "0+", default = "five")]
    pub count: i32,
}

fn main() {}
