//! A moment of the history rebuilt: each NameServer's last checkpoint before it, the records after
//! the checkpoint replayed, and the alerts active then. Decoding a checkpoint of a large cluster is
//! most of that work (a 10,000-topic view is megabytes of compressed JSON), and scrubbing asks for
//! one moment after another within the same half hour, so the checkpoints last decoded are kept in
//! a [`Checkpoints`].

use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::{params, OptionalExtension};

use super::{decompress, from_sql, to_sql, Query, Store, StoreError};
use crate::live::history::Record;
use crate::live::replay::{alerts_at, replay, Past};
use crate::live::NamesrvView;

/// How many decoded checkpoints a [`Checkpoints`] keeps: a scrub goes back and forth between a few
/// moments (a broker leaving and coming back each start a checkpoint of their own).
const KEPT: usize = 4;

/// Decoded checkpoints: the ones written last and the ones rebuilt moments started from last, at
/// most `KEPT` (four), the least recently used given up first. Each is one NameServer's whole view, as
/// large as the bridge's live one.
#[derive(Debug, Default)]
pub struct Checkpoints {
    /// Checkpoint row ids and their views, the most recently used last.
    decoded: Mutex<Vec<(i64, Arc<NamesrvView>)>>,
}

impl Checkpoints {
    pub(crate) fn get(&self, id: i64) -> Option<Arc<NamesrvView>> {
        let mut decoded = self.decoded.lock().unwrap_or_else(PoisonError::into_inner);
        let at = decoded.iter().position(|(kept, _)| *kept == id)?;
        let entry = decoded.remove(at);
        let view = entry.1.clone();
        decoded.push(entry);
        Some(view)
    }

    /// Keeps the view of checkpoint `id` (the writer hands over each one it writes, so the recent
    /// past is rebuilt without decoding anything).
    pub fn keep(&self, id: i64, view: Arc<NamesrvView>) {
        let mut decoded = self.decoded.lock().unwrap_or_else(PoisonError::into_inner);
        decoded.retain(|(kept, _)| *kept != id);
        if decoded.len() == KEPT {
            decoded.remove(0);
        }
        decoded.push((id, view));
    }
}

impl Store {
    /// The cluster as of `at_ms`: for each of `namesrvs`, its last checkpoint at or before then with
    /// the records after it replayed; the alerts active then; and the consumer groups last kept. `checkpoints` keeps the decoded
    /// checkpoints between calls (a fresh one decodes every time).
    pub fn at(
        &self,
        namesrvs: &[String],
        at_ms: u64,
        checkpoints: &Checkpoints,
    ) -> Result<Past, StoreError> {
        let sqlite = |e: rusqlite::Error| StoreError::from_sqlite(&self.path, &e);
        let mut views = Vec::with_capacity(namesrvs.len());
        for ns in namesrvs {
            let found: Option<(i64, i64)> = self
                .conn
                .query_row(
                    "SELECT id, at_ms FROM checkpoint WHERE namesrv = ?1 AND at_ms <= ?2
                     ORDER BY at_ms DESC, id DESC LIMIT 1",
                    params![ns, to_sql(at_ms)],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(sqlite)?;
            let Some((id, from)) = found else {
                views.push(NamesrvView::new(ns.as_str()));
                continue;
            };
            let checkpoint = match checkpoints.get(id) {
                Some(view) => view,
                None => {
                    let view = Arc::new(self.decode_checkpoint(ns, id)?);
                    checkpoints.keep(id, view.clone());
                    view
                }
            };
            let (records, _) = self.query(&Query {
                since_ms: from_sql(from),
                until_ms: at_ms,
                namesrv: Some(ns.clone()),
                ..Query::default()
            })?;
            // Records at the checkpoint's own moment are in it already.
            let after = records.iter().filter(|r| r.at_ms > from_sql(from));
            views.push(replay(NamesrvView::clone(&checkpoint), after));
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT record FROM change WHERE kind IN ('alert_fired', 'alert_resolved') AND at_ms <= ?1
                 ORDER BY at_ms, id",
            )
            .map_err(sqlite)?;
        let alert_records: Vec<Record> = stmt
            .query_map([to_sql(at_ms)], |r| r.get::<_, String>(0))
            .map_err(sqlite)?
            .filter_map(|r| r.ok().and_then(|j| serde_json::from_str(&j).ok()))
            .collect();
        Ok(Past {
            at_ms,
            namesrvs: views,
            from_live: None,
            alerts: alerts_at(&alert_records, at_ms),
            consumers: self.consumers_at(at_ms)?,
        })
    }

    /// The checkpoint in row `id`, decompressed and parsed.
    fn decode_checkpoint(&self, ns: &str, id: i64) -> Result<NamesrvView, StoreError> {
        let blob: Vec<u8> = self
            .conn
            .query_row("SELECT view FROM checkpoint WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .map_err(|e| StoreError::from_sqlite(&self.path, &e))?;
        decompress(&blob)
            .and_then(|json| {
                serde_json::from_slice::<NamesrvView>(&json).map_err(|e| e.to_string())
            })
            .map_err(|e| {
                StoreError::new(
                    &self.path,
                    format!("a checkpoint of {ns} cannot be read ({e})"),
                )
            })
    }
}
