// A response enum holds responses only.

/// Asks.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = request, response = PingResponse, versions = "0")]
pub struct PingRequest {
    /// A number.
    #[kafka(versions = "0+")]
    pub value: i32,
}

/// Answers.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = response, versions = "0")]
pub struct PingResponse {
    /// A number.
    #[kafka(versions = "0+")]
    pub value: i32,
}

#[derive(Debug, kwire::ResponseEnum)]
pub enum MyResponse {
    Ping(PingRequest),
}

fn main() {}
