// Headers have no API key of their own.

#[derive(kwire::Message)]
#[kafka(api_key = 7, kind = header, versions = "0-2")]
pub struct KeyedHeader {
    #[kafka(versions = "0+")]
    pub correlation_id: i32,
}

fn main() {}
