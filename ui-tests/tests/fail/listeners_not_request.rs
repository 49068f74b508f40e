// Only requests name the listeners that accept them, and only requests have an
// unstable latest version.

#[derive(kwire::Message)]
#[kafka(api_key = 18, kind = response, versions = "0-3", listeners = "broker",
        latest_version_unstable)]
pub struct ListenersOnResponse {
    #[kafka(versions = "0+")]
    pub error_code: i16,
}

fn main() {}
