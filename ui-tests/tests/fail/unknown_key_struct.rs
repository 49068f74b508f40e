// `flexibleVersions` is the JSON spelling; the attribute is `flexible`.

#[derive(kwire::Message)]
#[kafka(kind = data, versions = "0-3", flexibleVersions = "1+")]
pub struct UnknownStructKey {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
