// Two variants of one request enum cannot share an API key: a decoder could not
// tell which one the bytes are.

/// Asks one thing.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = request, response = OneResponse, versions = "0")]
pub struct OneRequest {
    /// A number.
    #[kafka(versions = "0+")]
    pub value: i32,
}

/// Answers it.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = response, versions = "0")]
pub struct OneResponse {
    /// A number.
    #[kafka(versions = "0+")]
    pub value: i32,
}

/// Asks another thing, by mistake with the same key.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = request, response = OneResponse, versions = "0")]
pub struct OtherRequest {
    /// A name.
    #[kafka(versions = "0+")]
    pub name: kwire::KafkaString,
}

#[derive(Debug, kwire::RequestEnum)]
pub enum MyRequest {
    One(OneRequest),
    Other(OtherRequest),
}

fn main() {}
