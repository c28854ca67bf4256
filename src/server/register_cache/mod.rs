//! The last REGISTER_BROKER body each connection sent, kept parsed, so that a new body costs what
//! changed in it rather than what it holds. A broker re-registers every 30 s with its whole topic
//! table: while nothing changes it sends the same bytes (compared, and the kept body reused); when
//! it bumps its DataVersion (a restart, an `updateBrokerConfig`) or adds, changes or deletes a
//! topic (every new consumer group creates `%RETRY%<group>`), the new bytes are walked beside the
//! last body's [`layout`]: the text around the DataVersions and the table compared byte for byte,
//! the DataVersions read again, each table entry that repeats one of the last body's byte for byte
//! taken as it was read, and only the other entries read. Reading a 1,000-topic body is most of
//! what a registration costs the server (BENCHMARKS.md); comparing bytes costs a small part of it.
//!
//! What comes out is what reading the new bytes in full gives: only a body read as strict JSON
//! (what every broker sends) is walked, every piece the walk takes unread is byte for byte a piece
//! that was read so before, and anything the walk does not understand, or an entry that does not
//! read, leaves the body to the full reader and its errors.

mod layout;
#[cfg(test)]
mod tests;

use std::ops::Range;

use layout::{Layout, Walked};

use crate::model::lenient::{starts_object, Dialect};
use crate::model::{DataVersion, RegisterBrokerBody, TopicConfig};
use crate::server::body::{register_body, BodyError, MAX_TOPICS_PER_BODY, V3_0_11};

/// How a body was read: its bytes alone do not say (compressed, the pre-3.0.11 bare wrapper, the
/// profile).
type Reading = (bool, bool, bool);

/// One connection's last register body.
#[derive(Debug, Default)]
pub struct RegisterBodyCache {
    last: Option<Last>,
    /// The server's budget for every connection's kept body (`None`: unbounded).
    budget: Option<std::sync::Arc<CacheBudget>>,
    /// What this connection's kept body counts against the budget.
    charged: usize,
}

/// The memory every connection's kept register body may take together (`--register-cache-mb`).
/// A broker with 10,000 topics keeps about 5 MB (its body's bytes, the body read, where each
/// topic is): with a budget, a cluster of hundreds of such brokers holds at most the budget, and
/// the brokers beyond it have their bodies read in full each time, as without the cache.
#[derive(Debug)]
pub struct CacheBudget {
    limit: usize,
    used: std::sync::atomic::AtomicUsize,
    /// Bodies not kept because the budget was full (`/metrics`: an operator raises the budget
    /// when this grows).
    refused: std::sync::atomic::AtomicU64,
}

impl CacheBudget {
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            used: std::sync::atomic::AtomicUsize::new(0),
            refused: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The budget, bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Bodies not kept since start because the budget was full.
    pub fn refused(&self) -> u64 {
        self.refused.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Bytes charged now, over every connection.
    pub fn used(&self) -> usize {
        self.used.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Charges `n` more bytes if they fit.
    fn charge(&self, n: usize) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let fits = self
            .used
            .fetch_update(Relaxed, Relaxed, |u| {
                u.checked_add(n).filter(|&total| total <= self.limit)
            })
            .is_ok();
        if !fits {
            self.refused.fetch_add(1, Relaxed);
        }
        fits
    }

    fn release(&self, n: usize) {
        self.used.fetch_sub(n, std::sync::atomic::Ordering::Relaxed);
    }
}

/// What keeping a body costs, roughly: its bytes, the body read (about twice its JSON), and where
/// each topic is.
fn keeping_cost(bytes: &[u8], layout: Option<&Layout>) -> usize {
    bytes.len() * 3
        + layout.map_or(0, |l| {
            l.entries.len() * std::mem::size_of::<layout::Entry>()
        })
}

impl Drop for RegisterBodyCache {
    fn drop(&mut self) {
        if let Some(b) = &self.budget {
            b.release(self.charged);
        }
    }
}

#[derive(Debug)]
struct Last {
    reading: Reading,
    bytes: Vec<u8>,
    /// `None` while the body is lent out (between [`RegisterBodyCache::take`] and
    /// [`RegisterBodyCache::give_back`]); a request that fails in between leaves it so, and the
    /// next one is read in full.
    body: Option<RegisterBrokerBody>,
    /// Where the versions and the table's entries are in `bytes`: only for a body read as strict
    /// JSON whose layout the walk understands.
    layout: Option<Layout>,
}

impl RegisterBodyCache {
    /// A cache whose kept bodies count against `budget`, shared by every connection.
    pub fn with_budget(budget: std::sync::Arc<CacheBudget>) -> Self {
        Self {
            last: None,
            budget: Some(budget),
            charged: 0,
        }
    }

    /// Gives up the kept body and its share of the budget.
    fn forget(&mut self) {
        self.last = None;
        if let Some(b) = &self.budget {
            b.release(std::mem::take(&mut self.charged));
        }
    }

    /// Keeps `last` if the budget has room for it (the body kept before is given up first).
    fn keep(&mut self, last: Last) {
        let cost = keeping_cost(&last.bytes, last.layout.as_ref());
        self.forget();
        if self.budget.as_ref().is_some_and(|b| !b.charge(cost)) {
            return;
        }
        self.charged = cost;
        self.last = Some(last);
    }

    /// The body of `bytes`, as [`register_body`] reads it: the one kept when the connection's last
    /// register body was the same bytes read the same way, the kept one with what changed read
    /// when the bytes differ in a few places, else read in full. Hand it back with
    /// [`Self::give_back`] once the request is done with it.
    pub fn take(
        &mut self,
        bytes: &[u8],
        compressed: bool,
        version: i32,
        v5: bool,
        json: Dialect,
    ) -> Result<RegisterBrokerBody, BodyError> {
        // `json` is the server's, the same for every body of a connection: not part of `reading`.
        let reading = (compressed, version < V3_0_11, v5);
        if let Some(last) = self.last.as_mut() {
            if last.reading == reading && last.bytes == bytes {
                if let Some(body) = last.body.take() {
                    return Ok(body);
                }
            }
        }
        if let Some(body) = self.walk(bytes, reading) {
            return Ok(body);
        }
        self.forget();
        // Plain JSON (every broker's) is read strictly first, as `register_body` does, so that it
        // is known to have been: only then may a later body reuse its pieces.
        let plain = !compressed && version >= V3_0_11;
        let strict = (plain && starts_object(bytes))
            .then(|| serde_json::from_slice::<RegisterBrokerBody>(bytes).ok())
            .flatten();
        let (body, layout) = match strict {
            Some(body) => {
                let count = body.topic_config_serialize_wrapper.topic_config_table.len();
                if count > MAX_TOPICS_PER_BODY {
                    // The same error as the full reader's.
                    return register_body(bytes, compressed, version, v5, json);
                }
                (body, layout::scan(bytes))
            }
            None => (register_body(bytes, compressed, version, v5, json)?, None),
        };
        self.keep(Last {
            reading,
            bytes: bytes.to_vec(),
            body: None,
            layout,
        });
        Ok(body)
    }

    /// Keeps `body`, which [`Self::take`] gave for the connection's last register body.
    pub fn give_back(&mut self, body: RegisterBrokerBody) {
        if let Some(last) = self.last.as_mut() {
            last.body = Some(body);
        }
    }

    /// The kept body brought up to `bytes` (read the same way as the last body): the text outside
    /// the DataVersions and the table compared with the last body's, the DataVersions read, the
    /// table walked beside the last one and its new entries read. `None` leaves `bytes` to the
    /// full reader.
    fn walk(&mut self, bytes: &[u8], reading: Reading) -> Option<RegisterBrokerBody> {
        let last = self.last.as_mut()?;
        if last.reading != reading || last.body.is_none() {
            return None;
        }
        let layout = last.layout.as_ref()?;
        let old = &last.bytes;
        // The places where the new bytes may differ, in the order they come.
        let mut holes: Vec<(Option<usize>, &Range<usize>)> = layout
            .versions
            .iter()
            .map(|(which, range)| (Some(*which), range))
            .collect();
        holes.push((None, &layout.table));
        holes.sort_by_key(|(_, range)| range.start);
        let (mut at_old, mut at_new) = (0, 0);
        let (mut data_version, mut mapping_data_version) = (None, None);
        let mut spans = Vec::with_capacity(2);
        let mut table = None;
        for (which, range) in holes {
            let before = old.get(at_old..range.start)?;
            if bytes.get(at_new..at_new + before.len())? != before {
                return None;
            }
            at_new += before.len();
            let end = match which {
                Some(which) => {
                    let (value, end) = read_version(bytes, at_new)?;
                    if which == 0 {
                        data_version = Some(value?);
                    } else {
                        mapping_data_version = value;
                    }
                    spans.push((which, at_new..end));
                    end
                }
                None => {
                    let kept = &last.body.as_ref()?.topic_config_serialize_wrapper;
                    let is_old_name = |name: &[u8]| {
                        std::str::from_utf8(name)
                            .is_ok_and(|n| kept.topic_config_table.contains_key(n))
                    };
                    let walked =
                        layout::walk_table(bytes, at_new, old, &layout.entries, &is_old_name)?;
                    let end = walked.end;
                    table = Some((at_new..end, walked));
                    end
                }
            };
            (at_old, at_new) = (range.end, end);
        }
        if old.get(at_old..)? != bytes.get(at_new..)? {
            return None;
        }
        let (table_range, walked) = table?;
        let read = read_entries(bytes, &walked)?;
        if walked.entries.len() > MAX_TOPICS_PER_BODY {
            return None;
        }
        let data_version = data_version?;
        let mut body = last.body.take()?;
        let wrapper = &mut body.topic_config_serialize_wrapper;
        wrapper.data_version = data_version;
        wrapper.mapping_data_version = mapping_data_version;
        // The last entries not repeated are gone, or come back changed among those read.
        let mut repeated = vec![false; layout.entries.len()];
        for j in walked.same_as.iter().flatten() {
            repeated[*j] = true;
        }
        let table = &mut wrapper.topic_config_table;
        for (e, _) in layout.entries.iter().zip(&repeated).filter(|(_, r)| !**r) {
            if let Ok(name) = std::str::from_utf8(&old[e.name()]) {
                table.remove(name);
            }
        }
        for (name, tc) in read {
            table.insert(name, tc);
        }
        let last = Last {
            reading,
            bytes: bytes.to_vec(),
            body: None,
            layout: Some(Layout {
                versions: spans,
                table: table_range,
                entries: walked.entries,
            }),
        };
        self.keep(last);
        Some(body)
    }
}

/// The DataVersion whose value starts at `at` (null for none, which only `mappingDataVersion` may
/// be), and where it ends; read as strictly as the full reader reads it.
fn read_version(bytes: &[u8], at: usize) -> Option<(Option<DataVersion>, usize)> {
    let mut values =
        serde_json::Deserializer::from_slice(bytes.get(at..)?).into_iter::<Option<DataVersion>>();
    let value = values.next()?.ok()?;
    Some((value, at + values.byte_offset()))
}

/// The walked table's entries that repeat none of the last body's, read; `None` when one does not
/// read as strict JSON (the full reader then says why, or reads it its own way).
fn read_entries(bytes: &[u8], walked: &Walked) -> Option<Vec<(String, TopicConfig)>> {
    walked
        .entries
        .iter()
        .zip(&walked.same_as)
        .filter(|(_, same)| same.is_none())
        .map(|(e, _)| {
            let name = std::str::from_utf8(&bytes[e.name()]).ok()?;
            let tc = serde_json::from_slice::<TopicConfig>(&bytes[e.value()]).ok()?;
            Some((name.to_owned(), tc))
        })
        .collect()
}
