// A request enum holds requests: a response among them is a mistake.

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
#[kafka(api_key = 1001, kind = response, versions = "0")]
pub struct PongResponse {
    /// A number.
    #[kafka(versions = "0+")]
    pub value: i32,
}

/// Answers pings.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = response, versions = "0")]
pub struct PingResponse {
    /// A number.
    #[kafka(versions = "0+")]
    pub value: i32,
}

#[derive(Debug, kwire::RequestEnum)]
pub enum MyRequest {
    Ping(PingRequest),
    Pong(PongResponse),
}

fn main() {}
