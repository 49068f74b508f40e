// `null` needs a nullable (`Option`) field.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3")]
pub struct DefaultNullNotOption {
    #[kafka(versions = "0+", default = null)]
    pub count: i32,
}

fn main() {}
