// A nested struct takes its versions and flexibility from its parent message.

#[derive(kwire::Struct)]
#[kafka(api_key = 1, kind = data, versions = "0-3", flexible = "1+", listeners = "broker",
        latest_version_unstable)]
pub struct Nested {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
