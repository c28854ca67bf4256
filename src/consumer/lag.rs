//! Lag as time, per queue: what a broker's QUERY_CONSUME_TIME_SPAN answer says of how long the
//! first message a consumer group has not consumed has waited (pure; `routelab admin consumerLag`
//! prints it, the bridge's lag poll reads it).
//!
//! The broker answers each write queue of a topic with `delayTime`: its own clock minus the store
//! time of the message at the group's offset, when that offset is below the queue's max offset, and
//! 0 otherwise (`AdminBrokerProcessor.queryConsumeTimeSpan`, 4.9.8 and 5.3.3). The lag is that
//! figure, measured on the broker's clock alone; the next unread message's store time is estimated
//! as the moment the answer arrived minus the lag (off by the clocks' difference).
//!
//! Where Java's broker cannot find the message (the group has no offset yet, or its offset fell
//! below the queue's min offset after retention), `getMessageStoreTimeStamp` gives −1 and the
//! `delayTime` is the broker's whole clock: such a figure, and a negative one, read as unknown.
//!
//! `lastTimestamp` of GET_CONSUME_STATS is not used: it is the store time of the last *consumed*
//! message, and its age overstates the lag of a group that keeps up with a quiet topic.

use serde::{Deserialize, Serialize};

/// Store times before 2000-01-01 are not real ones: a `delayTime` that reaches back past it is the
/// broker's clock minus −1.
pub const EARLIEST_STORE_TIME_MS: i64 = 946_684_800_000;

/// What a queue's `delayTime` says, with its backlog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unread {
    /// The group has read everything (lag 0).
    Nothing,
    /// The next unread message was stored at `next_store_time_ms` and has waited `lag_ms`.
    Since {
        next_store_time_ms: i64,
        lag_ms: i64,
    },
    /// The broker could not say (see the module's notes).
    Unknown,
}

impl Unread {
    /// A queue with `diff` messages unread whose broker answered `delay_ms`, the answer read at
    /// `read_at_ms` (our clock).
    pub fn of(diff: i64, delay_ms: i64, read_at_ms: u64) -> Self {
        if diff <= 0 {
            return Self::Nothing;
        }
        let read_at = i64::try_from(read_at_ms).unwrap_or(i64::MAX);
        if delay_ms < 0 || read_at.saturating_sub(delay_ms) < EARLIEST_STORE_TIME_MS {
            return Self::Unknown;
        }
        Self::Since {
            next_store_time_ms: read_at - delay_ms,
            lag_ms: delay_ms,
        }
    }

    /// The next unread message's store time, when there is one and it is known.
    pub fn next_store_time_ms(self) -> Option<i64> {
        match self {
            Self::Since {
                next_store_time_ms, ..
            } => Some(next_store_time_ms),
            _ => None,
        }
    }

    /// The lag: 0 with nothing unread, `None` when unknown.
    pub fn lag_ms(self) -> Option<i64> {
        match self {
            Self::Nothing => Some(0),
            Self::Since { lag_ms, .. } => Some(lag_ms),
            Self::Unknown => None,
        }
    }
}

/// One row of `routelab admin consumerLag` (its `--format json` objects have exactly these
/// members).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueLag {
    pub topic: String,
    pub broker: String,
    pub queue_id: i32,
    pub broker_offset: i64,
    pub consumer_offset: i64,
    /// Broker offset − consumer offset.
    pub diff: i64,
    /// The next unread message's store time (ms since the epoch); null when nothing is unread or
    /// the broker could not say.
    pub next_store_time_ms: Option<i64>,
    /// How long it has waited; 0 when nothing is unread, null when the broker could not say.
    pub lag_ms: Option<i64>,
}

impl QueueLag {
    /// A row from a queue's offsets and its broker's `delayTime` (`None`: not asked, as for a
    /// queue with nothing unread, or the broker failed).
    pub fn new(
        topic: &str,
        broker: &str,
        queue_id: i32,
        broker_offset: i64,
        consumer_offset: i64,
        delay_ms: Option<i64>,
        read_at_ms: u64,
    ) -> Self {
        let diff = broker_offset - consumer_offset;
        let unread = match delay_ms {
            Some(d) => Unread::of(diff, d, read_at_ms),
            None if diff <= 0 => Unread::Nothing,
            None => Unread::Unknown,
        };
        Self {
            topic: topic.to_owned(),
            broker: broker.to_owned(),
            queue_id,
            broker_offset,
            consumer_offset,
            diff,
            next_store_time_ms: unread.next_store_time_ms(),
            lag_ms: unread.lag_ms(),
        }
    }
}

/// A lag as people say it: `45 s`, `3 min 12 s`, `2 h 5 min`, `3 d 4 h` (English and Chinese read
/// the units alike).
pub fn human_lag(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        3600..86_400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86_400, s % 86_400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_796_000_000_000;

    #[test]
    fn nothing_unread_is_lag_zero_whatever_the_broker_says() {
        assert_eq!(Unread::of(0, 0, NOW), Unread::Nothing);
        assert_eq!(Unread::of(0, 5_000, NOW), Unread::Nothing);
        assert_eq!(Unread::of(-3, 0, NOW).lag_ms(), Some(0));
        assert_eq!(Unread::of(0, 0, NOW).next_store_time_ms(), None);
    }

    #[test]
    fn a_delay_gives_the_store_time_of_the_next_unread_message() {
        let u = Unread::of(1_240, 192_000, NOW);
        assert_eq!(u.lag_ms(), Some(192_000));
        assert_eq!(u.next_store_time_ms(), Some(NOW as i64 - 192_000));
        // Stored this very millisecond.
        assert_eq!(Unread::of(1, 0, NOW).lag_ms(), Some(0));
    }

    /// Java's broker gives now − (−1) when the message is not found (no offset yet, or below the
    /// min offset): not a lag of 56 years.
    #[test]
    fn a_message_not_found_is_unknown() {
        assert_eq!(Unread::of(10, NOW as i64 + 1, NOW), Unread::Unknown);
        assert_eq!(Unread::of(10, -5, NOW), Unread::Unknown);
        assert_eq!(Unread::of(10, -5, NOW).lag_ms(), None);
    }

    #[test]
    fn rows() {
        let r = QueueLag::new("T", "broker-a", 2, 100, 40, Some(65_000), NOW);
        assert_eq!(r.diff, 60);
        assert_eq!(r.lag_ms, Some(65_000));
        let r = QueueLag::new("T", "broker-a", 2, 100, 100, None, NOW);
        assert_eq!((r.lag_ms, r.next_store_time_ms), (Some(0), None));
        let r = QueueLag::new("T", "broker-a", 2, 100, 90, None, NOW);
        assert_eq!((r.lag_ms, r.next_store_time_ms), (None, None));
        let json = serde_json::to_value(&r).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys.len(), 8, "{keys:?}");
    }

    #[test]
    fn lags_in_words() {
        assert_eq!(human_lag(0), "0 s");
        assert_eq!(human_lag(45_900), "45 s");
        assert_eq!(human_lag(192_000), "3 min 12 s");
        assert_eq!(human_lag(7_500_000), "2 h 5 min");
        assert_eq!(human_lag(273_600_000), "3 d 4 h");
        assert_eq!(human_lag(-5), "0 s");
    }
}
