// Only a request names the response that answers it.

/// Answers.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = response, response = PingResponse, versions = "0")]
pub struct PingResponse {
    /// A number.
    #[kafka(versions = "0+")]
    pub value: i32,
}

fn main() {}
