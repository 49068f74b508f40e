// API keys are int16 values, never negative.

#[derive(kwire::Message)]
#[kafka(api_key = 40000, kind = request, versions = "0-3", listeners = "broker")]
pub struct BigKeyRequest {
    #[kafka(versions = "0+")]
    pub count: i32,
}

#[derive(kwire::Message)]
#[kafka(api_key = -1, kind = response, versions = "0-3")]
pub struct NegativeKeyResponse {
    #[kafka(versions = "0+")]
    pub count: i32,
}

fn main() {}
