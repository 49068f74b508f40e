//! Where in a message an error happened: field names and array positions.

use std::fmt;

/// One step of a [`FieldPath`], from the outside in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathSegment {
    /// A message, struct or field name as the schema spells it (`Topics`).
    Name(&'static str),
    /// The position of an element in the array named just before it.
    Index(usize),
}

/// Where in a message an error happened:
/// `MetadataResponse.Topics[3].Partitions[7].ErrorCode`.
///
/// Built from the inside out as an error travels up, so decoding that succeeds pays
/// nothing for it. Its [`segments`](FieldPath::segments) can be inspected as well as
/// printed.
///
/// ```
/// use bytes::Bytes;
/// use kwire::{KafkaString, Message, PathSegment};
///
/// /// Some topics.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(kind = data, versions = "0")]
/// struct Topics {
///     /// Their names.
///     #[kafka(versions = "0+")]
///     names: Vec<KafkaString>,
/// }
///
/// // Two names: "a", then one claiming 5 bytes where 2 are left.
/// let input = Bytes::from_static(&[0, 0, 0, 2, 0, 1, b'a', 0, 5, b'x', b'y']);
/// let err = Topics::decode(&input, 0).unwrap_err();
/// assert_eq!(err.path().to_string(), "Topics.Names[1]");
/// let segments: Vec<PathSegment> = err.path().segments().collect();
/// assert_eq!(segments, [PathSegment::Name("Topics"), PathSegment::Name("Names"), PathSegment::Index(1)]);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct FieldPath {
    /// Innermost first: segments are pushed as the error leaves each level.
    reversed: Vec<PathSegment>,
}

impl FieldPath {
    /// Adds the segment that encloses everything so far.
    pub(crate) fn push(&mut self, segment: PathSegment) {
        if self.reversed.capacity() == 0 {
            // Kafka's deepest paths have nine segments; one allocation covers them
            // and as many again.
            self.reversed.reserve_exact(16);
        }
        self.reversed.push(segment);
    }

    /// True when no segment has been added.
    pub fn is_empty(&self) -> bool {
        self.reversed.is_empty()
    }

    /// The segments from the outermost (the message) in.
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = PathSegment> + '_ {
        self.reversed.iter().rev().copied()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments().enumerate() {
            match segment {
                PathSegment::Name(name) if i == 0 => f.write_str(name)?,
                PathSegment::Name(name) => write!(f, ".{name}")?,
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("FieldPath").field(&self.to_string()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(inner_first: &[PathSegment]) -> FieldPath {
        let mut path = FieldPath::default();
        for segment in inner_first {
            path.push(*segment);
        }
        path
    }

    #[test]
    fn prints_from_the_outside_in_with_positions() {
        use PathSegment::{Index, Name};
        let deep = path(&[
            Name("ProducerId"),
            Index(0),
            Name("AbortedTransactions"),
            Index(7),
            Name("Partitions"),
            Index(3),
            Name("Responses"),
            Name("FetchResponse"),
        ]);
        assert_eq!(
            deep.to_string(),
            "FetchResponse.Responses[3].Partitions[7].AbortedTransactions[0].ProducerId"
        );
        assert_eq!(deep.segments().next(), Some(Name("FetchResponse")));
        assert_eq!(deep.segments().next_back(), Some(Name("ProducerId")));
        assert_eq!(path(&[Index(2), Name("Ids")]).to_string(), "Ids[2]");
        assert!(FieldPath::default().is_empty());
    }
}
