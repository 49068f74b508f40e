// Each variant holds exactly one message, and the key comes from its type.

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

#[derive(kwire::RequestEnum)]
pub enum MyRequest {
    Empty,
    Two(PingRequest, PingRequest),
    Named { ping: PingRequest },
}

#[derive(kwire::ResponseEnum)]
pub enum Numbered {
    Ping(PingResponse) = 3,
}

fn main() {}
