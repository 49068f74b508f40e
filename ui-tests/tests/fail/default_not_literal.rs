// Defaults are schema data, not code.

const FIVE: i32 = 5;

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultNotLiteral {
    #[kafka(versions = "0+", default = FIVE + 1)]
    pub count: i32,
}

fn main() {}
