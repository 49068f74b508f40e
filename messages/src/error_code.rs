// Table source: apache/kafka `clients/src/main/java/org/apache/kafka/common/protocol/Errors.java`,
// read as stored at commit a25502972272623125ba6f8730e83955c316e83c (a 4.4.0-SNAPSHOT trunk
// checkout in the m1a2st/kafka fork; no copy at 678c0e07 was available), codes -1..=135. Its
// codes 136 and 137 belong to an unmerged DeletePartitions branch (no such API in the schemas at
// 678c0e07e4733c5a592e52046dc2c4e1625587f1) and are left out. Retriable flags: the exception
// classes in `clients/src/main/java/org/apache/kafka/common/errors/` at apache/kafka 2eebaa36.
// Code 136 as released: Kafka 4.4.0's `Errors` class (kafka-clients-4.4.0.jar, read with
// `javap -c -constants`) defines -1..=136, the same names to 135 and 136
// CONTROLLER_ID_NOT_REGISTERED, whose exception extends ApiException (not retriable).

//! Kafka's error codes: every code Kafka's protocol defines, with its name, whether it
//! is retriable and its default message.
//!
//! Each response (and often each topic, partition or group inside it) carries an int16
//! error code. [`ErrorCode`] names them. The table is Apache Kafka's own
//! `org.apache.kafka.common.protocol.Errors` enum
//! (`clients/src/main/java/org/apache/kafka/common/protocol/Errors.java`, trunk,
//! 4.4.0-SNAPSHOT, the version that goes with the schemas this crate follows, commit
//! `678c0e07e4733c5a592e52046dc2c4e1625587f1`), read from a copy at commit
//! `a25502972272623125ba6f8730e83955c316e83c`: codes -1 to 135, in Kafka's order, with
//! Kafka's constant names and default messages; and 136, which the 4.4.0 release added
//! with UnregisterController. A code is *retriable* when Kafka's
//! exception class for it extends `org.apache.kafka.common.errors.RetriableException`
//! (directly or through `InvalidMetadataException`, `RefreshRetriableException`, ...),
//! the rule behind the "Retriable" column of Kafka's protocol guide.
//!
//! A code Kafka does not define (a newer broker, or a vendor's extension) is kept as
//! [`ErrorCode::Unknown`], so reading and writing a code never loses it.

use std::fmt;

/// Writes the error table: from one list of
/// `code => Variant, "KAFKA_NAME", retriable, "default message";` entries, the enum and
/// every lookup on it.
macro_rules! error_codes {
    ($(
        $code:literal => $variant:ident, $name:literal, $retriable:literal, $message:literal;
    )*) => {
        /// A Kafka error code: one of the codes Kafka defines, or [`ErrorCode::Unknown`]
        /// for any other.
        ///
        /// ```
        /// use kwire_messages::ErrorCode;
        ///
        /// assert_eq!(ErrorCode::from_code(35), ErrorCode::UnsupportedVersion);
        /// assert_eq!(ErrorCode::UnsupportedVersion.code(), 35);
        /// assert_eq!(ErrorCode::UnsupportedVersion.name(), "UNSUPPORTED_VERSION");
        /// assert!(!ErrorCode::UnsupportedVersion.is_retriable());
        /// assert!(ErrorCode::NotLeaderOrFollower.is_retriable());
        /// assert_eq!(ErrorCode::UnsupportedVersion.to_string(), "UNSUPPORTED_VERSION (35)");
        /// assert!(!ErrorCode::None.is_error());
        ///
        /// // A code Kafka does not define is kept.
        /// let unknown = ErrorCode::from_code(1234);
        /// assert_eq!(unknown, ErrorCode::Unknown(1234));
        /// assert_eq!(i16::from(unknown), 1234);
        /// assert_eq!(unknown.to_string(), "UNKNOWN (1234)");
        /// ```
        ///
        /// [`ErrorCode::Unknown`] is meant for codes outside Kafka's table:
        /// [`from_code`](ErrorCode::from_code) never returns it for a code Kafka
        /// defines, and a hand-built `Unknown(35)` is not equal to
        /// [`ErrorCode::UnsupportedVersion`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                #[doc = concat!("`", $name, "` = ", stringify!($code), ". ", $message)]
                $variant,
            )*
            /// A code that Kafka's table (at the commit this list was taken from) does not
            /// define, kept as it was received.
            Unknown(i16),
        }

        impl ErrorCode {
            /// Every code Kafka defines, in Kafka's order (by code, from -1).
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The error for a code: one of Kafka's, or [`ErrorCode::Unknown`] holding
            /// the code.
            pub const fn from_code(code: i16) -> ErrorCode {
                match code {
                    $($code => ErrorCode::$variant,)*
                    other => ErrorCode::Unknown(other),
                }
            }

            /// The code as it goes on the wire.
            pub const fn code(self) -> i16 {
                match self {
                    $(ErrorCode::$variant => $code,)*
                    ErrorCode::Unknown(code) => code,
                }
            }

            /// Kafka's name for the error (its `Errors` constant, e.g.
            /// `"UNSUPPORTED_VERSION"`); `"UNKNOWN"` for [`ErrorCode::Unknown`].
            pub const fn name(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)*
                    ErrorCode::Unknown(_) => "UNKNOWN",
                }
            }

            /// Whether a request that failed with this error may succeed if sent again:
            /// Kafka's exception for it is a `RetriableException`. `false` for
            /// [`ErrorCode::None`] and [`ErrorCode::Unknown`].
            pub const fn is_retriable(self) -> bool {
                match self {
                    $(ErrorCode::$variant => $retriable,)*
                    ErrorCode::Unknown(_) => false,
                }
            }

            /// Kafka's default message for the error; empty for [`ErrorCode::None`]
            /// (Kafka has none).
            pub const fn message(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $message,)*
                    ErrorCode::Unknown(_) => {
                        "The error code is not one Kafka defines in the table this crate follows."
                    }
                }
            }
        }
    };
}

error_codes! {
    -1 => UnknownServerError, "UNKNOWN_SERVER_ERROR", false,
        "The server experienced an unexpected error when processing the request.";
    0 => None, "NONE", false,
        "";
    1 => OffsetOutOfRange, "OFFSET_OUT_OF_RANGE", false,
        "The requested offset is not within the range of offsets maintained by the server.";
    2 => CorruptMessage, "CORRUPT_MESSAGE", true,
        "This message has failed its CRC checksum, exceeds the valid size, has a null key for a \
        compacted topic, or is otherwise corrupt.";
    3 => UnknownTopicOrPartition, "UNKNOWN_TOPIC_OR_PARTITION", true,
        "This server does not host this topic-partition.";
    4 => InvalidFetchSize, "INVALID_FETCH_SIZE", false,
        "The requested fetch size is invalid.";
    5 => LeaderNotAvailable, "LEADER_NOT_AVAILABLE", true,
        "There is no leader for this topic-partition as we are in the middle of a leadership \
        election.";
    6 => NotLeaderOrFollower, "NOT_LEADER_OR_FOLLOWER", true,
        "For requests intended only for the leader, this error indicates that the broker is not \
        the current leader. For requests intended for any replica, this error indicates that the \
        broker is not a replica of the topic partition.";
    7 => RequestTimedOut, "REQUEST_TIMED_OUT", true,
        "The request timed out.";
    8 => BrokerNotAvailable, "BROKER_NOT_AVAILABLE", false,
        "The broker is not available.";
    9 => ReplicaNotAvailable, "REPLICA_NOT_AVAILABLE", true,
        "The replica is not available for the requested topic-partition. Produce/Fetch requests \
        and other requests intended only for the leader or follower return \
        NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition.";
    10 => MessageTooLarge, "MESSAGE_TOO_LARGE", false,
        "The request included a message larger than the max message size the server will accept.";
    11 => StaleControllerEpoch, "STALE_CONTROLLER_EPOCH", false,
        "The controller moved to another broker.";
    12 => OffsetMetadataTooLarge, "OFFSET_METADATA_TOO_LARGE", false,
        "The metadata field of the offset request was too large.";
    13 => NetworkException, "NETWORK_EXCEPTION", true,
        "The server disconnected before a response was received.";
    14 => CoordinatorLoadInProgress, "COORDINATOR_LOAD_IN_PROGRESS", true,
        "The coordinator is loading and hence can't process requests.";
    15 => CoordinatorNotAvailable, "COORDINATOR_NOT_AVAILABLE", true,
        "The coordinator is not available.";
    16 => NotCoordinator, "NOT_COORDINATOR", true,
        "This is not the correct coordinator.";
    17 => InvalidTopicException, "INVALID_TOPIC_EXCEPTION", false,
        "The request attempted to perform an operation on an invalid topic.";
    18 => RecordListTooLarge, "RECORD_LIST_TOO_LARGE", false,
        "The request included message batch larger than the configured segment size on the server.";
    19 => NotEnoughReplicas, "NOT_ENOUGH_REPLICAS", true,
        "Messages are rejected since there are fewer in-sync replicas than required.";
    20 => NotEnoughReplicasAfterAppend, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", true,
        "Messages are written to the log, but to fewer in-sync replicas than required.";
    21 => InvalidRequiredAcks, "INVALID_REQUIRED_ACKS", false,
        "Produce request specified an invalid value for required acks.";
    22 => IllegalGeneration, "ILLEGAL_GENERATION", false,
        "Specified group generation id is not valid.";
    23 => InconsistentGroupProtocol, "INCONSISTENT_GROUP_PROTOCOL", false,
        "The group member's supported protocols are incompatible with those of existing members \
        or first group member tried to join with empty protocol type or empty protocol list.";
    24 => InvalidGroupId, "INVALID_GROUP_ID", false,
        "The group id is invalid.";
    25 => UnknownMemberId, "UNKNOWN_MEMBER_ID", false,
        "The coordinator is not aware of this member.";
    26 => InvalidSessionTimeout, "INVALID_SESSION_TIMEOUT", false,
        "The session timeout is not within the range allowed by the broker (as configured by \
        group.min.session.timeout.ms and group.max.session.timeout.ms).";
    27 => RebalanceInProgress, "REBALANCE_IN_PROGRESS", false,
        "The group is rebalancing, so a rejoin is needed.";
    28 => InvalidCommitOffsetSize, "INVALID_COMMIT_OFFSET_SIZE", false,
        "The committing offset data size is not valid.";
    29 => TopicAuthorizationFailed, "TOPIC_AUTHORIZATION_FAILED", false,
        "Topic authorization failed.";
    30 => GroupAuthorizationFailed, "GROUP_AUTHORIZATION_FAILED", false,
        "Group authorization failed.";
    31 => ClusterAuthorizationFailed, "CLUSTER_AUTHORIZATION_FAILED", false,
        "Cluster authorization failed.";
    32 => InvalidTimestamp, "INVALID_TIMESTAMP", false,
        "The timestamp of the message is out of acceptable range.";
    33 => UnsupportedSaslMechanism, "UNSUPPORTED_SASL_MECHANISM", false,
        "The broker does not support the requested SASL mechanism.";
    34 => IllegalSaslState, "ILLEGAL_SASL_STATE", false,
        "Request is not valid given the current SASL state.";
    35 => UnsupportedVersion, "UNSUPPORTED_VERSION", false,
        "The version of API is not supported.";
    36 => TopicAlreadyExists, "TOPIC_ALREADY_EXISTS", false,
        "Topic with this name already exists.";
    37 => InvalidPartitions, "INVALID_PARTITIONS", false,
        "Number of partitions is below 1.";
    38 => InvalidReplicationFactor, "INVALID_REPLICATION_FACTOR", false,
        "Replication factor is below 1 or larger than the number of available brokers.";
    39 => InvalidReplicaAssignment, "INVALID_REPLICA_ASSIGNMENT", false,
        "Replica assignment is invalid.";
    40 => InvalidConfig, "INVALID_CONFIG", false,
        "Configuration is invalid.";
    41 => NotController, "NOT_CONTROLLER", true,
        "This is not the correct controller for this cluster.";
    42 => InvalidRequest, "INVALID_REQUEST", false,
        "This most likely occurs because of a request being malformed by the client library or \
        the message was sent to an incompatible broker. See the broker logs for more details.";
    43 => UnsupportedForMessageFormat, "UNSUPPORTED_FOR_MESSAGE_FORMAT", false,
        "The message format version on the broker does not support the request.";
    44 => PolicyViolation, "POLICY_VIOLATION", false,
        "Request parameters do not satisfy the configured policy.";
    45 => OutOfOrderSequenceNumber, "OUT_OF_ORDER_SEQUENCE_NUMBER", false,
        "The broker received an out of order sequence number.";
    46 => DuplicateSequenceNumber, "DUPLICATE_SEQUENCE_NUMBER", false,
        "The broker received a duplicate sequence number.";
    47 => InvalidProducerEpoch, "INVALID_PRODUCER_EPOCH", false,
        "Producer attempted to produce with an old epoch.";
    48 => InvalidTxnState, "INVALID_TXN_STATE", false,
        "The producer attempted a transactional operation in an invalid state.";
    49 => InvalidProducerIdMapping, "INVALID_PRODUCER_ID_MAPPING", false,
        "The producer attempted to use a producer id which is not currently assigned to its \
        transactional id.";
    50 => InvalidTransactionTimeout, "INVALID_TRANSACTION_TIMEOUT", false,
        "The transaction timeout is larger than the maximum value allowed by the broker (as \
        configured by transaction.max.timeout.ms).";
    51 => ConcurrentTransactions, "CONCURRENT_TRANSACTIONS", true,
        "The producer attempted to update a transaction while another concurrent operation on the \
        same transaction was ongoing.";
    52 => TransactionCoordinatorFenced, "TRANSACTION_COORDINATOR_FENCED", false,
        "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the \
        current coordinator for a given producer.";
    53 => TransactionalIdAuthorizationFailed, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", false,
        "Transactional Id authorization failed.";
    54 => SecurityDisabled, "SECURITY_DISABLED", false,
        "Security features are disabled.";
    55 => OperationNotAttempted, "OPERATION_NOT_ATTEMPTED", false,
        "The broker did not attempt to execute this operation. This may happen for batched RPCs \
        where some operations in the batch failed, causing the broker to respond without trying \
        the rest.";
    56 => KafkaStorageError, "KAFKA_STORAGE_ERROR", true,
        "Disk error when trying to access log file on the disk.";
    57 => LogDirNotFound, "LOG_DIR_NOT_FOUND", false,
        "The user-specified log directory is not found in the broker config.";
    58 => SaslAuthenticationFailed, "SASL_AUTHENTICATION_FAILED", false,
        "SASL Authentication failed.";
    59 => UnknownProducerId, "UNKNOWN_PRODUCER_ID", false,
        "This exception is raised by the broker if it could not locate the producer metadata \
        associated with the producerId in question. This could happen if, for instance, the \
        producer's records were deleted because their retention time had elapsed. Once the last \
        records of the producerId are removed, the producer's metadata is removed from the \
        broker, and future appends by the producer will return this exception.";
    60 => ReassignmentInProgress, "REASSIGNMENT_IN_PROGRESS", false,
        "A partition reassignment is in progress.";
    61 => DelegationTokenAuthDisabled, "DELEGATION_TOKEN_AUTH_DISABLED", false,
        "Delegation Token feature is not enabled.";
    62 => DelegationTokenNotFound, "DELEGATION_TOKEN_NOT_FOUND", false,
        "Delegation Token is not found on server.";
    63 => DelegationTokenOwnerMismatch, "DELEGATION_TOKEN_OWNER_MISMATCH", false,
        "Specified Principal is not valid Owner/Renewer.";
    64 => DelegationTokenRequestNotAllowed, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", false,
        "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on \
        delegation token authenticated channels.";
    65 => DelegationTokenAuthorizationFailed, "DELEGATION_TOKEN_AUTHORIZATION_FAILED", false,
        "Delegation Token authorization failed.";
    66 => DelegationTokenExpired, "DELEGATION_TOKEN_EXPIRED", false,
        "Delegation Token is expired.";
    67 => InvalidPrincipalType, "INVALID_PRINCIPAL_TYPE", false,
        "Supplied principalType is not supported.";
    68 => NonEmptyGroup, "NON_EMPTY_GROUP", false,
        "The group is not empty.";
    69 => GroupIdNotFound, "GROUP_ID_NOT_FOUND", false,
        "The group id does not exist.";
    70 => FetchSessionIdNotFound, "FETCH_SESSION_ID_NOT_FOUND", true,
        "The fetch session ID was not found.";
    71 => InvalidFetchSessionEpoch, "INVALID_FETCH_SESSION_EPOCH", true,
        "The fetch session epoch is invalid.";
    72 => ListenerNotFound, "LISTENER_NOT_FOUND", true,
        "There is no listener on the leader broker that matches the listener on which metadata \
        request was processed.";
    73 => TopicDeletionDisabled, "TOPIC_DELETION_DISABLED", false,
        "Topic deletion is disabled.";
    74 => FencedLeaderEpoch, "FENCED_LEADER_EPOCH", true,
        "The leader epoch in the request is older than the epoch on the broker.";
    75 => UnknownLeaderEpoch, "UNKNOWN_LEADER_EPOCH", true,
        "The leader epoch in the request is newer than the epoch on the broker.";
    76 => UnsupportedCompressionType, "UNSUPPORTED_COMPRESSION_TYPE", false,
        "The requesting client does not support the compression type of given partition.";
    77 => StaleBrokerEpoch, "STALE_BROKER_EPOCH", false,
        "Broker epoch has changed.";
    78 => OffsetNotAvailable, "OFFSET_NOT_AVAILABLE", true,
        "The leader high watermark has not caught up from a recent leader election so the offsets \
        cannot be guaranteed to be monotonically increasing.";
    79 => MemberIdRequired, "MEMBER_ID_REQUIRED", false,
        "The group member needs to have a valid member id before actually entering a consumer \
        group.";
    80 => PreferredLeaderNotAvailable, "PREFERRED_LEADER_NOT_AVAILABLE", true,
        "The preferred leader was not available.";
    81 => GroupMaxSizeReached, "GROUP_MAX_SIZE_REACHED", false,
        "The group has reached its maximum size.";
    82 => FencedInstanceId, "FENCED_INSTANCE_ID", false,
        "The broker rejected this static consumer since another consumer with the same \
        group.instance.id has registered with a different member.id.";
    83 => EligibleLeadersNotAvailable, "ELIGIBLE_LEADERS_NOT_AVAILABLE", true,
        "Eligible topic partition leaders are not available.";
    84 => ElectionNotNeeded, "ELECTION_NOT_NEEDED", true,
        "Leader election not needed for topic partition.";
    85 => NoReassignmentInProgress, "NO_REASSIGNMENT_IN_PROGRESS", false,
        "No partition reassignment is in progress.";
    86 => GroupSubscribedToTopic, "GROUP_SUBSCRIBED_TO_TOPIC", false,
        "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed \
        to it.";
    87 => InvalidRecord, "INVALID_RECORD", false,
        "This record has failed the validation on broker and hence will be rejected.";
    88 => UnstableOffsetCommit, "UNSTABLE_OFFSET_COMMIT", true,
        "There are unstable offsets that need to be cleared.";
    89 => ThrottlingQuotaExceeded, "THROTTLING_QUOTA_EXCEEDED", true,
        "The throttling quota has been exceeded.";
    90 => ProducerFenced, "PRODUCER_FENCED", false,
        "There is a newer producer with the same transactionalId which fences the current one.";
    91 => ResourceNotFound, "RESOURCE_NOT_FOUND", false,
        "A request illegally referred to a resource that does not exist.";
    92 => DuplicateResource, "DUPLICATE_RESOURCE", false,
        "A request illegally referred to the same resource twice.";
    93 => UnacceptableCredential, "UNACCEPTABLE_CREDENTIAL", false,
        "Requested credential would not meet criteria for acceptability.";
    94 => InconsistentVoterSet, "INCONSISTENT_VOTER_SET", false,
        "Indicates that the either the sender or recipient of a voter-only request is not one of \
        the expected voters.";
    95 => InvalidUpdateVersion, "INVALID_UPDATE_VERSION", false,
        "The given update version was invalid.";
    96 => FeatureUpdateFailed, "FEATURE_UPDATE_FAILED", false,
        "Unable to update finalized features due to an unexpected server error.";
    97 => PrincipalDeserializationFailure, "PRINCIPAL_DESERIALIZATION_FAILURE", false,
        "Request principal deserialization failed during forwarding. This indicates an internal \
        error on the broker cluster security setup.";
    98 => SnapshotNotFound, "SNAPSHOT_NOT_FOUND", false,
        "Requested snapshot was not found.";
    99 => PositionOutOfRange, "POSITION_OUT_OF_RANGE", false,
        "Requested position is not greater than or equal to zero, and less than the size of the \
        snapshot.";
    100 => UnknownTopicId, "UNKNOWN_TOPIC_ID", true,
        "This server does not host this topic ID.";
    101 => DuplicateBrokerRegistration, "DUPLICATE_BROKER_REGISTRATION", false,
        "This broker ID is already in use.";
    102 => BrokerIdNotRegistered, "BROKER_ID_NOT_REGISTERED", false,
        "The given broker ID was not registered.";
    103 => InconsistentTopicId, "INCONSISTENT_TOPIC_ID", true,
        "The log's topic ID did not match the topic ID in the request.";
    104 => InconsistentClusterId, "INCONSISTENT_CLUSTER_ID", false,
        "The clusterId in the request does not match that found on the server.";
    105 => TransactionalIdNotFound, "TRANSACTIONAL_ID_NOT_FOUND", false,
        "The transactionalId could not be found.";
    106 => FetchSessionTopicIdError, "FETCH_SESSION_TOPIC_ID_ERROR", true,
        "The fetch session encountered inconsistent topic ID usage.";
    107 => IneligibleReplica, "INELIGIBLE_REPLICA", false,
        "The new ISR contains at least one ineligible replica.";
    108 => NewLeaderElected, "NEW_LEADER_ELECTED", false,
        "The AlterPartition request successfully updated the partition state but the leader has \
        changed.";
    109 => OffsetMovedToTieredStorage, "OFFSET_MOVED_TO_TIERED_STORAGE", false,
        "The requested offset is moved to tiered storage.";
    110 => FencedMemberEpoch, "FENCED_MEMBER_EPOCH", false,
        "The member epoch is fenced by the group coordinator. The member must abandon all its \
        partitions and rejoin.";
    111 => UnreleasedInstanceId, "UNRELEASED_INSTANCE_ID", false,
        "The instance ID is still used by another member in the consumer group. That member must \
        leave first.";
    112 => UnsupportedAssignor, "UNSUPPORTED_ASSIGNOR", false,
        "The assignor or its version range is not supported by the consumer group.";
    113 => StaleMemberEpoch, "STALE_MEMBER_EPOCH", false,
        "The member epoch is stale. The member must retry after receiving its updated member \
        epoch via the ConsumerGroupHeartbeat API.";
    114 => MismatchedEndpointType, "MISMATCHED_ENDPOINT_TYPE", false,
        "The request was sent to an endpoint of the wrong type.";
    115 => UnsupportedEndpointType, "UNSUPPORTED_ENDPOINT_TYPE", false,
        "This endpoint type is not supported yet.";
    116 => UnknownControllerId, "UNKNOWN_CONTROLLER_ID", false,
        "This controller ID is not known.";
    117 => UnknownSubscriptionId, "UNKNOWN_SUBSCRIPTION_ID", false,
        "Client sent a push telemetry request with an invalid or outdated subscription ID.";
    118 => TelemetryTooLarge, "TELEMETRY_TOO_LARGE", false,
        "Client sent a push telemetry request larger than the maximum size the broker will accept.";
    119 => InvalidRegistration, "INVALID_REGISTRATION", false,
        "The controller has considered the broker registration to be invalid.";
    120 => TransactionAbortable, "TRANSACTION_ABORTABLE", false,
        "The server encountered an error with the transaction. The client can abort the \
        transaction to continue using this transactional ID.";
    121 => InvalidRecordState, "INVALID_RECORD_STATE", false,
        "The record state is invalid. The acknowledgement of delivery could not be completed.";
    122 => ShareSessionNotFound, "SHARE_SESSION_NOT_FOUND", true,
        "The share session was not found.";
    123 => InvalidShareSessionEpoch, "INVALID_SHARE_SESSION_EPOCH", true,
        "The share session epoch is invalid.";
    124 => FencedStateEpoch, "FENCED_STATE_EPOCH", false,
        "The share coordinator rejected the request because the share-group state epoch did not \
        match.";
    125 => InvalidVoterKey, "INVALID_VOTER_KEY", false,
        "The voter key doesn't match the receiving replica's key.";
    126 => DuplicateVoter, "DUPLICATE_VOTER", false,
        "The voter is already part of the set of voters.";
    127 => VoterNotFound, "VOTER_NOT_FOUND", false,
        "The voter is not part of the set of voters.";
    128 => InvalidRegularExpression, "INVALID_REGULAR_EXPRESSION", false,
        "The regular expression is not valid.";
    129 => RebootstrapRequired, "REBOOTSTRAP_REQUIRED", false,
        "Client metadata is stale. The client should rebootstrap to obtain new metadata.";
    130 => StreamsInvalidTopology, "STREAMS_INVALID_TOPOLOGY", false,
        "The supplied topology is invalid.";
    131 => StreamsInvalidTopologyEpoch, "STREAMS_INVALID_TOPOLOGY_EPOCH", false,
        "The supplied topology epoch is invalid.";
    132 => StreamsTopologyFenced, "STREAMS_TOPOLOGY_FENCED", false,
        "The supplied topology epoch is outdated.";
    133 => ShareSessionLimitReached, "SHARE_SESSION_LIMIT_REACHED", true,
        "The limit of share sessions has been reached.";
    134 => GroupDeletionFailed, "GROUP_DELETION_FAILED", false,
        "DeleteGroups could not complete; see the error message on the per-group result for \
        details.";
    135 => StreamsTopologyDescriptionUpdateFailed,
        "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED", false,
        "The broker could not process the topology description update; see the error message for \
        details.";
    // Kafka 4.4.0: UnregisterController's answer for an ID the quorum does not have.
    136 => ControllerIdNotRegistered, "CONTROLLER_ID_NOT_REGISTERED", false,
        "The given controller ID was not registered.";
}

impl ErrorCode {
    /// Whether this is an error at all: any code but 0 ([`ErrorCode::None`]).
    pub const fn is_error(self) -> bool {
        self.code() != 0
    }

    /// `Ok(())` for [`ErrorCode::None`], the error otherwise: a response's code
    /// ready for `?`.
    ///
    /// ```
    /// use kwire_messages::ErrorCode;
    ///
    /// assert_eq!(ErrorCode::None.into_result(), Ok(()));
    /// assert_eq!(ErrorCode::TopicAlreadyExists.into_result(), Err(ErrorCode::TopicAlreadyExists));
    /// ```
    pub const fn into_result(self) -> Result<(), ErrorCode> {
        if self.is_error() {
            Err(self)
        } else {
            Ok(())
        }
    }

    /// A code as it came on the wire, as a `Result`: `Ok(())` for 0, the
    /// [`ErrorCode`] otherwise.
    ///
    /// ```
    /// use kwire_messages::api::HeartbeatResponse;
    /// use kwire_messages::ErrorCode;
    ///
    /// fn heartbeat_ok(response: &HeartbeatResponse) -> Result<(), ErrorCode> {
    ///     ErrorCode::check(response.error_code)
    /// }
    /// assert_eq!(heartbeat_ok(&HeartbeatResponse::default()), Ok(()));
    /// let rebalancing = HeartbeatResponse::default().with_error_code(27);
    /// assert_eq!(heartbeat_ok(&rebalancing), Err(ErrorCode::RebalanceInProgress));
    /// ```
    pub const fn check(code: i16) -> Result<(), ErrorCode> {
        ErrorCode::from_code(code).into_result()
    }
}

/// An error code is an error: its [`Display`](fmt::Display) is Kafka's name and
/// the code, e.g. `TOPIC_ALREADY_EXISTS (36)`, and [`ErrorCode::message`] is
/// Kafka's description.
impl std::error::Error for ErrorCode {}

impl From<i16> for ErrorCode {
    fn from(code: i16) -> Self {
        ErrorCode::from_code(code)
    }
}

impl From<ErrorCode> for i16 {
    fn from(error: ErrorCode) -> Self {
        error.code()
    }
}

/// The name and the code, e.g. `UNSUPPORTED_VERSION (35)`, or `UNKNOWN (1234)`.
impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.code())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::ErrorCode;

    #[test]
    fn every_code_round_trips() {
        for &error in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_code(error.code()), error, "{error}");
            assert_eq!(ErrorCode::from(i16::from(error)), error, "{error}");
            assert!(!matches!(error, ErrorCode::Unknown(_)), "{error}");
        }
    }

    #[test]
    fn codes_and_names_are_unique() {
        let codes: HashSet<i16> = ErrorCode::ALL.iter().map(|e| e.code()).collect();
        let names: HashSet<&str> = ErrorCode::ALL.iter().map(|e| e.name()).collect();
        assert_eq!(codes.len(), ErrorCode::ALL.len());
        assert_eq!(names.len(), ErrorCode::ALL.len());
        assert!(!names.contains("UNKNOWN"));
    }

    #[test]
    fn table_is_kafkas_codes_in_order() {
        // Kafka 4.4.0's Errors enum lists -1 to 136 with no gaps, in order of code.
        let codes: Vec<i16> = ErrorCode::ALL.iter().map(|e| e.code()).collect();
        assert_eq!(codes, (-1..=136).collect::<Vec<i16>>());
    }

    #[test]
    fn variant_names_follow_kafka_names() {
        for &error in ErrorCode::ALL {
            let camel: String = error
                .name()
                .split('_')
                .map(|word| {
                    let lower = word.to_ascii_lowercase();
                    let mut chars = lower.chars();
                    let first = chars.next().map(|c| c.to_ascii_uppercase());
                    first.into_iter().chain(chars).collect::<String>()
                })
                .collect();
            assert_eq!(format!("{error:?}"), camel);
        }
    }

    #[test]
    fn unknown_codes_are_kept() {
        assert_eq!(ErrorCode::from_code(32000).code(), 32000);
        for code in [-2, 137, 1000, 32000, i16::MIN, i16::MAX] {
            let error = ErrorCode::from_code(code);
            assert_eq!(error, ErrorCode::Unknown(code));
            assert_eq!(error.code(), code);
            assert_eq!(i16::from(error), code);
            assert_eq!(error.name(), "UNKNOWN");
            assert!(!error.is_retriable());
            assert!(error.is_error());
            assert!(!error.message().is_empty());
        }
    }

    #[test]
    fn display_shows_name_and_code() {
        assert_eq!(
            ErrorCode::UnsupportedVersion.to_string(),
            "UNSUPPORTED_VERSION (35)"
        );
        assert_eq!(
            ErrorCode::UnknownServerError.to_string(),
            "UNKNOWN_SERVER_ERROR (-1)"
        );
        assert_eq!(ErrorCode::None.to_string(), "NONE (0)");
        assert_eq!(ErrorCode::from_code(1234).to_string(), "UNKNOWN (1234)");
        assert_eq!(ErrorCode::from_code(-7).to_string(), "UNKNOWN (-7)");
    }

    #[test]
    fn retriable_spot_checks() {
        assert!(ErrorCode::from_code(6).is_retriable()); // NOT_LEADER_OR_FOLLOWER
        assert!(!ErrorCode::from_code(35).is_retriable()); // UNSUPPORTED_VERSION
        assert!(ErrorCode::from_code(13).is_retriable()); // NETWORK_EXCEPTION
        assert!(!ErrorCode::from_code(29).is_retriable()); // TOPIC_AUTHORIZATION_FAILED
        assert!(ErrorCode::CoordinatorNotAvailable.is_retriable());
        assert!(ErrorCode::NotCoordinator.is_retriable());
        assert!(ErrorCode::RequestTimedOut.is_retriable());
        assert!(ErrorCode::ShareSessionLimitReached.is_retriable());
        assert!(!ErrorCode::UnknownServerError.is_retriable());
        assert!(!ErrorCode::None.is_retriable());
        assert!(!ErrorCode::RebalanceInProgress.is_retriable());
        assert!(!ErrorCode::ProducerFenced.is_retriable());
        assert_eq!(
            ErrorCode::ALL.iter().filter(|e| e.is_retriable()).count(),
            32
        );
    }

    #[test]
    fn names_messages_and_is_error() {
        assert_eq!(ErrorCode::from_code(35).name(), "UNSUPPORTED_VERSION");
        assert_eq!(
            ErrorCode::UnsupportedVersion.message(),
            "The version of API is not supported."
        );
        assert_eq!(ErrorCode::None.message(), "");
        assert!(!ErrorCode::None.is_error());
        for &error in ErrorCode::ALL {
            assert_eq!(error.is_error(), error != ErrorCode::None);
            if error != ErrorCode::None {
                assert!(
                    error.message().ends_with('.'),
                    "{error}: {}",
                    error.message()
                );
                assert!(
                    !error.message().contains("  "),
                    "{error}: {}",
                    error.message()
                );
            }
        }
        assert_eq!(
            ErrorCode::NotLeaderOrFollower.message(),
            "For requests intended only for the leader, this error indicates that the broker is \
             not the current leader. For requests intended for any replica, this error indicates \
             that the broker is not a replica of the topic partition."
        );
    }
}
