//! What sizing a value learns that writing it needs again.

use smallvec::SmallVec;

use crate::{EncodeError, EncodeErrorKind};

/// The facts [`Wire::size`](crate::Wire::size) works out and
/// [`Wire::write`](crate::Wire::write) needs again, so that encoding sizes once and
/// writes once: for each tagged section of a struct with tags of its own, which of
/// them are present (a bit per tag), and for each present tagged value, its size
/// (written before it on the wire).
///
/// Sizing records them in the order writing reads them back; values without
/// tagged fields record nothing. [`Message::encode`](crate::Message::encode) and
/// [`Message::encoder`](crate::Message::encoder) keep one for you; only code calling
/// `Wire` directly handles one.
///
/// Sizing also adds up how many of the bytes are zero-copy values (records,
/// `zero_copy` bytes), which a vectored encode attaches rather than copies:
/// Kafka's `sizeExcludingZeroCopy` is the size less [`zero_copy`](Sizes::zero_copy).
///
/// ```
/// use kwire::wire::{Sizes, Writer};
/// use kwire::{Cx, KafkaString, Wire};
///
/// let value = KafkaString::from_static("abc");
/// let cx = Cx::new(0, true);
/// let mut sizes = Sizes::new();
/// let size = value.size(cx, &mut sizes).unwrap();
/// let mut out = Writer::contiguous(size);
/// value.write(&mut out, cx, &mut sizes).unwrap();
/// assert_eq!(out.len(), size);
/// assert_eq!(sizes.zero_copy(), 0);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Sizes {
    /// Recorded values, in writing order. Most messages record none or a few, held
    /// in place, so encoding allocates nothing for them.
    recorded: SmallVec<[u32; 8]>,
    /// The next value writing reads.
    next: usize,
    /// The zero-copy bytes sized so far.
    zero_copy: usize,
    /// The zero-copy values among them.
    zero_copy_values: usize,
}

impl Sizes {
    /// An empty record; allocates nothing until more than a few values are recorded.
    pub fn new() -> Self {
        Sizes::default()
    }

    /// Makes room for a value known only later (a value's size is known after the
    /// things inside it are recorded, yet read before them); returns where it goes.
    #[inline]
    pub(crate) fn reserve(&mut self) -> usize {
        self.recorded.push(0);
        self.recorded.len() - 1
    }

    /// Makes room for `bits` bits, all clear; returns where they start.
    #[inline]
    pub(crate) fn reserve_bits(&mut self, bits: u32) -> usize {
        let start = self.recorded.len();
        for _ in 0..bits.div_ceil(32) {
            self.recorded.push(0);
        }
        start
    }

    /// Sets bit `bit` of the bits reserved at `start`.
    #[inline]
    pub(crate) fn set_bit(&mut self, start: usize, bit: u32) {
        if let Some(word) = self.recorded.get_mut(start + (bit / 32) as usize) {
            *word |= 1 << (bit % 32);
        }
    }

    /// Takes the `bits` bits recorded next; returns where they start and how many
    /// are set.
    #[inline]
    pub(crate) fn take_bits(&mut self, bits: u32) -> Result<(usize, u32), EncodeError> {
        let start = self.next;
        let words = bits.div_ceil(32) as usize;
        let Some(recorded) = self.recorded.get(start..start + words) else {
            return Err(EncodeError::new(EncodeErrorKind::NotSized));
        };
        let set = recorded.iter().map(|word| word.count_ones()).sum();
        self.next += words;
        Ok((start, set))
    }

    /// True when bit `bit` of the bits taken at `start` is set.
    #[inline]
    pub(crate) fn bit(&self, start: usize, bit: u32) -> bool {
        self.recorded
            .get(start + (bit / 32) as usize)
            .is_some_and(|word| word & (1 << (bit % 32)) != 0)
    }

    /// Fills a reserved place.
    #[inline]
    pub(crate) fn fill(&mut self, slot: usize, value: usize) -> Result<(), EncodeError> {
        let value =
            u32::try_from(value).map_err(|_| EncodeError::new(EncodeErrorKind::TooLong(value)))?;
        if let Some(place) = self.recorded.get_mut(slot) {
            *place = value;
        }
        Ok(())
    }

    /// The next recorded value, in the order sizing recorded them.
    #[inline]
    pub(crate) fn take(&mut self) -> Result<u32, EncodeError> {
        let value = self.recorded.get(self.next).copied();
        self.next += 1;
        value.ok_or_else(|| EncodeError::new(EncodeErrorKind::NotSized))
    }

    /// Counts `len` bytes of a zero-copy value (records, `zero_copy` bytes).
    #[inline(always)]
    pub fn add_zero_copy(&mut self, len: usize) {
        self.zero_copy += len;
        self.zero_copy_values += 1;
    }

    /// How many zero-copy values were sized: at most as many chunks as a vectored
    /// writer attaches.
    #[inline]
    pub fn zero_copy_values(&self) -> usize {
        self.zero_copy_values
    }

    /// How many of the bytes sized are zero-copy values, which a vectored writer
    /// attaches instead of copying.
    #[inline]
    pub fn zero_copy(&self) -> usize {
        self.zero_copy
    }

    /// True when writing has read back everything sizing recorded.
    pub fn is_used_up(&self) -> bool {
        self.next == self.recorded.len()
    }
}
