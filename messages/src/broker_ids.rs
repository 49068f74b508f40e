//! The type every message uses for a list of broker IDs.

/// A list of broker IDs: Kafka's `[]int32` with `entityType: brokerId` (replicas,
/// in-sync replicas, replica assignments).
///
/// Up to four IDs, which covers any usual replication factor, are held in place, so
/// decoding a partition's replica lists allocates nothing; that is most of what
/// decoding a large MetadataResponse would otherwise cost. Longer lists move to the
/// heap. It derefs to `[i32]`; build one with [`smallvec!`](kwire::smallvec), from
/// a `Vec` or an array with `.into()`, or with `collect()`.
///
/// ```
/// use kwire::smallvec;
/// use kwire_messages::api::metadata::MetadataResponsePartition;
/// use kwire_messages::BrokerIds;
///
/// let partition = MetadataResponsePartition::default()
///     .with_leader_id(2)
///     .with_replica_nodes(smallvec![2, 3, 1])
///     .with_isr_nodes(vec![2, 3].into());
/// assert!(partition.replica_nodes.contains(&partition.leader_id));
/// let lagging: BrokerIds = partition
///     .replica_nodes
///     .iter()
///     .filter(|id| !partition.isr_nodes.contains(id))
///     .copied()
///     .collect();
/// assert_eq!(lagging[..], [1]);
/// ```
pub type BrokerIds = kwire::SmallVec<[i32; 4]>;
