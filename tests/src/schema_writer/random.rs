//! Random values from a seed, for fuzzing decoders with valid encodings.

use kwire::schema::FieldSchema;

use super::Choices;

/// Values drawn from SplitMix64, a small deterministic generator, so a seed names
/// an encoding: some nullable fields null, some tagged fields written, a few unknown
/// tags, short strings, bytes and arrays (shorter the deeper they are nested), and
/// numbers of any bit pattern.
#[derive(Debug, Clone)]
pub struct Random {
    state: u64,
}

impl Random {
    /// The generator for `seed`.
    pub fn seeded(seed: u64) -> Self {
        Random { state: seed }
    }

    /// The next 64 random bits, for a caller drawing other things than values
    /// from the same generator (the records judge's batches).
    pub fn bits(&mut self) -> u64 {
        self.next()
    }

    /// The next number of the sequence (also [`super::Edges`]'s source).
    pub(super) fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    /// Random bytes, fewer than `most`.
    /// Sixteen random bytes.
    pub(super) fn uuid_bytes(&mut self) -> [u8; 16] {
        let high = self.next().to_be_bytes();
        let low = self.next().to_be_bytes();
        std::array::from_fn(|i| if i < 8 { high[i] } else { low[i - 8] })
    }

    /// A short lowercase ASCII string.
    pub(super) fn string_bytes(&mut self) -> Vec<u8> {
        let len = self.below(8);
        (0..len).map(|_| b'a' + self.below(26) as u8).collect()
    }

    pub(super) fn bytes_below(&mut self, most: u64) -> Vec<u8> {
        let len = self.below(most);
        (0..len).map(|_| self.next() as u8).collect()
    }
}

impl Choices for Random {
    fn is_null(&mut self, _: &FieldSchema) -> bool {
        self.percent(20)
    }

    fn writes_tagged(&mut self, _: &FieldSchema) -> bool {
        self.percent(30)
    }

    fn unknown_tagged(&mut self, known: u32) -> Vec<(u32, Vec<u8>)> {
        let mut entries = Vec::new();
        if self.percent(15) {
            let mut tag = known;
            for _ in 0..=self.below(2) {
                tag += self.below(4) as u32;
                entries.push((tag, self.bytes_below(6)));
                tag += 1;
            }
        }
        entries
    }

    fn array_len(&mut self, _: &FieldSchema, depth: u32) -> usize {
        let most = match depth {
            0..=1 => 4,
            2..=3 => 2,
            _ => 1,
        };
        self.below(most) as usize
    }

    fn bool(&mut self, _: &FieldSchema) -> bool {
        self.below(2) == 1
    }

    fn integer(&mut self, _: &FieldSchema) -> i64 {
        self.next() as i64
    }

    fn float(&mut self, _: &FieldSchema) -> f64 {
        f64::from_bits(self.next())
    }

    fn uuid(&mut self, _: &FieldSchema) -> [u8; 16] {
        self.uuid_bytes()
    }

    fn string(&mut self, _: &FieldSchema) -> Vec<u8> {
        self.string_bytes()
    }

    fn bytes(&mut self, _: &FieldSchema) -> Vec<u8> {
        self.bytes_below(12)
    }
}
