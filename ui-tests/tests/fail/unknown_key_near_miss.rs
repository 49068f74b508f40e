// A key near a known one gets a "did you mean", and is reported even when the
// attribute also misses a key it needs.

#[derive(kwire::Message)]
#[kafka(kind = data, verions = "0-3")]
pub struct NearMiss {
    #[kafka(versions = "0+", map_keys)]
    pub id: i32,
}

fn main() {}
