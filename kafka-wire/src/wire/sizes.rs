//! What sizing a value learns that writing it needs again.

use smallvec::SmallVec;

use crate::{EncodeError, EncodeErrorKind};

/// The facts [`Wire::size`](crate::Wire::size) works out and
/// [`Wire::write`](crate::Wire::write) needs again, so that encoding sizes once and
/// writes once: for each tagged section, how many fields it holds, and for each
/// tagged value, its size (written before it on the wire).
///
/// Sizing records them in the order writing reads them back; values without
/// tagged fields record nothing. [`Message::encode`](crate::Message::encode) and
/// [`Message::encoder`](crate::Message::encoder) keep one for you; only code calling
/// `Wire` directly handles one.
///
/// ```
/// use kafka_wire::wire::Sizes;
/// use kafka_wire::{Cx, KafkaString, Wire};
///
/// let value = KafkaString::from_static("abc");
/// let cx = Cx::new(0, true);
/// let mut sizes = Sizes::new();
/// let size = value.size(cx, &mut sizes).unwrap();
/// let mut out = Vec::with_capacity(size);
/// value.write(&mut out, cx, &mut sizes).unwrap();
/// assert_eq!(out.len(), size);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Sizes {
    /// Recorded values, in writing order.
    recorded: SmallVec<[u32; 8]>,
    /// The next value writing reads.
    next: usize,
}

impl Sizes {
    /// An empty record; allocates nothing until a value with more than a few tagged
    /// fields is sized.
    pub fn new() -> Self {
        Sizes::default()
    }

    /// Makes room for a value known only later (a section's count is known after its
    /// fields are sized, yet written before them); returns where it goes.
    #[inline]
    pub(crate) fn reserve(&mut self) -> usize {
        self.recorded.push(0);
        self.recorded.len() - 1
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

    /// True when writing has read back everything sizing recorded.
    pub fn is_used_up(&self) -> bool {
        self.next == self.recorded.len()
    }
}
