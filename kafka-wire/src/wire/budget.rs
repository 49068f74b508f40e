//! What is left of a reader's [`DecodeLimits`]: the per-value bounds as they are,
//! and the per-message totals (array elements, records) as they are spent.
//!
//! Each check is one comparison where a length or count is read anyway, and the
//! accounting and the errors are out of line: with the default limits an array
//! costs one comparison, a string or bytes value one, and nothing is counted.

use crate::limits::{DecodeLimits, Limit};
use crate::{DecodeError, DecodeErrorKind};

/// The limits of one [`Reader`](crate::Reader), and what is left of its totals.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget<'a> {
    limits: &'a DecodeLimits,
    /// Copied from `limits`: read for every string.
    max_string_len: usize,
    /// Copied from `limits`: read for every bytes value.
    max_bytes_len: usize,
    /// The length above which a records value goes to
    /// [`Budget::spend_records`]: the bytes limit while records are not counted,
    /// 0 (every value) while they are. One comparison for both limits.
    records_check: usize,
    /// The count above which an array goes to [`Budget::spend_elements`]: the
    /// per-array limit while no total is kept, 0 (every array) while one is.
    array_check: usize,
    /// Array elements the message may still claim: the per-message total less
    /// every count read so far.
    elements_left: usize,
    /// Records the message may still carry; `usize::MAX` while none are counted.
    records_left: usize,
}

impl<'a> Budget<'a> {
    #[inline]
    pub(crate) const fn new(limits: &'a DecodeLimits) -> Self {
        let counts_elements = limits.max_array_elements() != usize::MAX;
        Budget {
            limits,
            max_string_len: limits.max_string_len(),
            max_bytes_len: limits.max_bytes_len(),
            array_check: if counts_elements {
                0
            } else {
                limits.max_array_len()
            },
            records_check: if limits.max_records() != usize::MAX {
                0
            } else {
                limits.max_bytes_len()
            },
            elements_left: limits.max_array_elements(),
            records_left: limits.max_records(),
        }
    }

    #[inline(always)]
    pub(crate) fn limits(&self) -> &'a DecodeLimits {
        self.limits
    }

    /// The longest string allowed (Kafka's 32767 at most).
    #[inline(always)]
    pub(crate) fn max_string_len(&self) -> usize {
        self.max_string_len
    }

    /// Takes `count` array elements from the budget, or refuses an array that
    /// claims more than one array or what is left of the message's total may
    /// hold. `start` is where the count was read.
    #[inline(always)]
    pub(crate) fn take_elements(&mut self, count: usize, start: usize) -> Result<(), DecodeError> {
        if count > self.array_check {
            return self.spend_elements(count, start);
        }
        Ok(())
    }

    /// The accounting of [`take_elements`](Self::take_elements), for arrays past
    /// its one comparison.
    #[inline(never)]
    fn spend_elements(&mut self, count: usize, start: usize) -> Result<(), DecodeError> {
        let max_len = self.limits.max_array_len();
        if count > max_len {
            return Err(exceeded(Limit::ArrayLength, count, max_len, start));
        }
        let max = self.limits.max_array_elements();
        take_from_total(
            &mut self.elements_left,
            max,
            count,
            Limit::ArrayElements,
            start,
        )
    }

    /// Refuses a `bytes` value of `len` bytes, whose length prefix ended at
    /// byte `at`, when it is longer than the limit.
    #[inline(always)]
    pub(crate) fn check_bytes_len(&self, len: usize, at: usize) -> Result<(), DecodeError> {
        if len > self.max_bytes_len {
            return Err(exceeded(Limit::BytesLength, len, self.max_bytes_len, at));
        }
        Ok(())
    }

    /// Checks a `records` value of `len` bytes, whose length prefix ended at byte
    /// `at`, against the bytes limit, and spends the records its batches declare
    /// when records are counted (without a records limit, a `records` field is
    /// not looked into). `records` is the input from the value on.
    #[inline(always)]
    pub(crate) fn take_records(
        &mut self,
        len: usize,
        records: &[u8],
        at: usize,
    ) -> Result<(), DecodeError> {
        if len > self.records_check {
            return self.spend_records(len, records, at);
        }
        Ok(())
    }

    #[inline(never)]
    fn spend_records(&mut self, len: usize, records: &[u8], at: usize) -> Result<(), DecodeError> {
        self.check_bytes_len(len, at)?;
        if self.records_left == usize::MAX {
            return Ok(());
        }
        let count = crate::records::count::declared_records(records.get(..len).unwrap_or(records));
        let max = self.limits.max_records();
        take_from_total(&mut self.records_left, max, count, Limit::Records, at)
    }
}

/// Takes `count` from `left`, what remains of the per-message total `limit` of
/// `max`, or refuses it naming all the message would then have claimed.
fn take_from_total(
    left: &mut usize,
    max: usize,
    count: usize,
    limit: Limit,
    at: usize,
) -> Result<(), DecodeError> {
    if count > *left {
        let spent = max - *left;
        return Err(exceeded(limit, spent.saturating_add(count), max, at));
    }
    *left -= count;
    Ok(())
}

/// The error for a value over a limit, at byte `start`.
#[cold]
#[inline(never)]
pub(crate) fn exceeded(limit: Limit, value: usize, max: usize, start: usize) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::LimitExceeded {
            limit,
            value: value as u64,
            max: max as u64,
        },
        start,
    )
}
