//! The KV config on disk (`kvConfigPath`, spec §4): loaded once at start, rewritten whole after
//! every change, atomically (a temporary file in the same directory, then a rename), and printed to
//! the log every 10 minutes as Java's `KVConfigManager.printAllPeriodically` does.

use std::io;
use std::path::{Path, PathBuf};

use tokio::sync::Mutex;

use crate::namesrv::KvConfig;

/// The file and the sequence number of the last snapshot written, so a late writer never
/// overwrites a newer table.
#[derive(Debug)]
pub struct KvStore {
    path: PathBuf,
    written: Mutex<u64>,
}

impl KvStore {
    /// A store writing to `path`.
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            written: Mutex::new(0),
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file; a missing file is an empty table (a first start), a file that is not a KV
    /// table is an error (refusing to start beats overwriting it).
    pub fn load(&self) -> io::Result<KvConfig> {
        match std::fs::read(&self.path) {
            Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Ok(KvConfig::default()),
            Ok(bytes) => crate::model::fastjson::from_body(&bytes).map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{} is not a KV config file: {e}", self.path.display()),
                )
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(KvConfig::default()),
            Err(e) => Err(e),
        }
    }

    /// Writes snapshot number `seq` unless a newer one is already on disk.
    pub async fn save(&self, seq: u64, kv: KvConfig) -> io::Result<()> {
        let mut written = self.written.lock().await;
        if seq <= *written {
            return Ok(());
        }
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || write_atomically(&path, &kv))
            .await
            .map_err(io::Error::other)??;
        *written = seq;
        Ok(())
    }
}

/// `{"configTable":{…}}` to `<file>.tmp`, synced, then renamed over the file: a crash leaves the old
/// or the new table, never half of one.
pub fn write_atomically(path: &Path, kv: &KvConfig) -> io::Result<()> {
    let text = serde_json::to_vec(kv).map_err(io::Error::other)?;
    replace_file(path, &text)
}

/// `bytes` to `<file>.tmp`, synced, then renamed over the file (its directory created first).
/// Java's `MixAll.string2File` also goes through `<file>.tmp`, but deletes the file before the
/// rename, so a crash there leaves none; a rename over it never does.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace_file_keeping(path, bytes, false)
}

/// [`replace_file`], first copying the old content (if any) to `<file>.bak` when `backup` is set,
/// as `MixAll.string2File` does for the files it writes (the config after UPDATE_NAMESRV_CONFIG).
pub fn replace_file_keeping(path: &Path, bytes: &[u8], backup: bool) -> io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    if backup {
        let mut bak = path.as_os_str().to_owned();
        bak.push(".bak");
        match std::fs::copy(path, PathBuf::from(bak)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    std::fs::rename(&tmp, path)
}

/// The periodic log line: every namespace with its table.
pub fn log_all(kv: &KvConfig) {
    tracing::info!("--------------------------------------------------------");
    tracing::info!("configTable SIZE: {}", kv.namespaces().len());
    for (namespace, table) in kv.namespaces() {
        for (key, value) in table {
            tracing::info!("configTable NS: {namespace} Key: {key} Value: {value}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn round_trip_and_stale_snapshots_are_skipped() {
        let dir = std::env::temp_dir().join(format!("routelab-kv-{}", std::process::id()));
        let store = KvStore::new(dir.join("namesrv/kvConfig.json"));
        assert_eq!(store.load().unwrap(), KvConfig::default());
        let kv = KvConfig::from_table([("NS".into(), [("k".into(), "v".into())].into())].into());
        store.save(2, kv.clone()).await.unwrap();
        store.save(1, KvConfig::default()).await.unwrap();
        assert_eq!(store.load().unwrap(), kv);
        let text = std::fs::read_to_string(store.path()).unwrap();
        assert_eq!(text, r#"{"configTable":{"NS":{"k":"v"}}}"#);
        std::fs::write(store.path(), "garbage").unwrap();
        assert!(store.load().is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
