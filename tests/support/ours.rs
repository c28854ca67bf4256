//! Our NameServer (`routelab::server`) started in-process on a free loopback port with a scratch
//! home, for tests. Include with `#[path = "support/ours.rs"] mod ours;` (needs `peer` too).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::time::Duration;

use routelab::namesrv::Profile;
use routelab::net::{ClientConfig, NamesrvClient};
use routelab::remoting::{Frame, RemotingCommand};
use routelab::server::{run, ServerConfig, ServerHandle};

use super::peer::ScratchDir;

/// A running server and its home directory (removed on drop, after the server).
pub struct Ours {
    pub handle: Option<ServerHandle>,
    pub home: ScratchDir,
}

impl Ours {
    /// Starts with the profile's defaults; `tweak` may change the config first.
    pub async fn start(profile: Profile, tweak: impl FnOnce(&mut ServerConfig)) -> Self {
        let home = ScratchDir::new("ours");
        Self::start_in(home, profile, tweak).await
    }

    /// Starts on an existing home (a restart keeps the KV file).
    pub async fn start_in(
        home: ScratchDir,
        profile: Profile,
        tweak: impl FnOnce(&mut ServerConfig),
    ) -> Self {
        let mut config = ServerConfig::with_home(home.path().to_path_buf());
        config.listen = "127.0.0.1:0".parse().expect("an address");
        config.profile = profile;
        tweak(&mut config);
        let handle = run(config).await.expect("our NameServer does not start");
        Self {
            handle: Some(handle),
            home,
        }
    }

    pub fn handle(&self) -> &ServerHandle {
        self.handle.as_ref().expect("running")
    }

    pub fn addr(&self) -> String {
        self.handle().local_addr().to_string()
    }

    pub async fn client(&self) -> NamesrvClient {
        client_with(&self.addr(), ClientConfig::default()).await
    }

    /// Stops the server and gives the home back (to start again on it).
    pub async fn stop(mut self) -> ScratchDir {
        if let Some(h) = self.handle.take() {
            h.shutdown().await;
        }
        self.home
    }
}

pub async fn client_with(addr: &str, config: ClientConfig) -> NamesrvClient {
    NamesrvClient::connect(addr, config)
        .await
        .expect("cannot connect")
}

/// A request with `code`, these ext fields and `version`.
pub fn raw(code: i32, ext: &[(&str, &str)], version: i32) -> RemotingCommand {
    let ext: BTreeMap<String, String> = ext
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let mut cmd = RemotingCommand::request(code, ext);
    cmd.version = version;
    cmd
}

/// Sends `cmd` with `body` and returns the response, whatever its code.
pub async fn call(client: &NamesrvClient, cmd: RemotingCommand, body: &[u8]) -> Frame {
    client
        .request(cmd, body.to_vec())
        .await
        .expect("the request failed")
}

/// A bound so a test that waits for the server never hangs the suite.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A frame with a hand-written JSON header and this body (length prefixes included).
pub fn json_frame(header: &str, body: &[u8]) -> Vec<u8> {
    let h = header.as_bytes();
    let mut out = Vec::new();
    out.extend_from_slice(&((4 + h.len() + body.len()) as i32).to_be_bytes());
    out.extend_from_slice(&(h.len() as u32).to_be_bytes());
    out.extend_from_slice(h);
    out.extend_from_slice(body);
    out
}

/// Writes `frame` (whole, length prefix included) on a new connection; the answer's JSON header
/// text and body, or `None` when the server closes the connection without one.
pub async fn exchange_raw(addr: &str, frame: &[u8]) -> Option<(String, Vec<u8>)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    s.write_all(frame).await.expect("write");
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if buf.len() >= 8 {
            let total = u32::from_be_bytes(buf[0..4].try_into().unwrap()) as usize;
            let len = (u32::from_be_bytes(buf[4..8].try_into().unwrap()) & 0xff_ffff) as usize;
            if buf.len() >= 4 + total {
                let header = String::from_utf8(buf[8..8 + len].to_vec()).expect("UTF-8 header");
                return Some((header, buf[8 + len..4 + total].to_vec()));
            }
        }
        let n = tokio::time::timeout(PATIENCE, s.read(&mut chunk))
            .await
            .expect("an answer or a close")
            .unwrap_or(0);
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}
