//! The decompressed bytes of one request, all its batches together: each batch is
//! decompressed within what the request has left, so that a request of many
//! batches, each under the per-batch cap, cannot add up to more than the server
//! allows.

use crate::limits::{DecodeLimits, Limit};
use crate::records::{Compression, RecordBatch, RecordIter, RecordsError};

/// What one request may still decompress: made from
/// [`DecodeLimits::max_decompressed_bytes`], spent by each compressed batch read
/// through [`records`](Self::records). Uncompressed batches cost nothing: their
/// records are read where they arrived.
///
/// Each batch decompresses into at most what is left, so the bytes are refused
/// as they come out, never allocated beyond the budget (see
/// [`decompress`](super::decompress)).
///
/// ```
/// use kwire::records::{Compression, DecompressionBudget, RecordBatch, RecordBatchBuilder};
/// use kwire::{DecodeLimits, Limit};
///
/// let mut builder = RecordBatchBuilder::new(0);
/// builder.append(0, None, Some(b"a value"), &[])?;
/// let (batch, _) = RecordBatch::parse(builder.build()?)?;
///
/// let limits = DecodeLimits::default().with_max_decompressed_bytes(1 << 20);
/// let mut budget = DecompressionBudget::new(&limits);
/// let records = budget.records(&batch)?;
/// assert_eq!(records.count(), 1);
/// // Not compressed: read in place, nothing spent.
/// assert_eq!(budget.left(), 1 << 20);
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecompressionBudget {
    max: usize,
    left: usize,
}

impl DecompressionBudget {
    /// A budget of `limits.max_decompressed_bytes()` for one request.
    ///
    /// ```
    /// use kwire::records::DecompressionBudget;
    /// use kwire::DecodeLimits;
    ///
    /// let limits = DecodeLimits::default().with_max_decompressed_bytes(1000);
    /// assert_eq!(DecompressionBudget::new(&limits).left(), 1000);
    /// ```
    pub fn new(limits: &DecodeLimits) -> Self {
        let max = limits.max_decompressed_bytes();
        DecompressionBudget { max, left: max }
    }

    /// The bytes the request may still decompress to.
    ///
    /// ```
    /// let budget = kwire::records::DecompressionBudget::new(&kwire::DecodeLimits::DEFAULT);
    /// assert_eq!(budget.left(), kwire::records::DEFAULT_MAX_DECOMPRESSED);
    /// ```
    pub fn left(&self) -> usize {
        self.left
    }

    /// The batch's records, decompressed (for a compressed batch) within what is
    /// left, which they then spend. Beyond it,
    /// [`LimitExceeded`](RecordsError::LimitExceeded) with
    /// [`Limit::DecompressedBytes`]; other errors are
    /// [`RecordBatch::records_with_limit`]'s.
    ///
    /// ```
    /// use kwire::records::{DecompressionBudget, RecordBatch, RecordBatchBuilder, RecordsError};
    /// use kwire::{DecodeLimits, Limit};
    ///
    /// let mut builder = RecordBatchBuilder::new(0);
    /// builder.append(0, None, Some(b"value"), &[])?;
    /// let (batch, _) = RecordBatch::parse(builder.build()?)?;
    /// let mut budget = DecompressionBudget::new(&DecodeLimits::default());
    /// assert_eq!(budget.records(&batch)?.count(), 1);
    /// # Ok::<(), RecordsError>(())
    /// ```
    pub fn records<'b>(&mut self, batch: &'b RecordBatch) -> Result<RecordIter<'b>, RecordsError> {
        let compressed = batch.compression()? != Compression::None;
        match batch.records_with_limit(self.left) {
            Ok(records) => {
                if compressed {
                    self.left = self.left.saturating_sub(records.bytes().len());
                }
                Ok(records)
            }
            Err(RecordsError::DecompressedTooLarge { .. }) => {
                // Stopped one byte past what was left: one past the request's limit.
                Err(RecordsError::LimitExceeded {
                    limit: Limit::DecompressedBytes,
                    value: (self.max as u64).saturating_add(1),
                    max: self.max as u64,
                })
            }
            Err(other) => Err(other),
        }
    }
}
