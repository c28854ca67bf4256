//! How the dashboard's files reach a room (src/bridge/delivery.rs), over real HTTP against
//! `routelab classroom` serving a built dist/: the copy compressed at build time chosen by
//! Accept-Encoding (the original for a client asking for nothing), hashed files cached for a year,
//! pages revalidated by ETag with a 304, nothing outside dist/ reachable.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/peer.rs"]
mod peer;

use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use peer::ScratchDir;
use routelab::classroom_hub::{run, ClassroomArgs, Handle};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WASM: &str = "dashboard-0123456789abcdef_bg.wasm";

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// A dist/ as the release build leaves it: a page, a hashed bundle, a scenario, each with the
/// copies scripts/precompress.mjs writes (brotli stands in as marked bytes: no brotli decoder here).
fn built_dist(dir: &Path) -> Vec<u8> {
    let wasm: Vec<u8> = (0..20_000u32)
        .flat_map(|i| (i % 251).to_le_bytes())
        .collect();
    std::fs::write(dir.join(WASM), &wasm).unwrap();
    std::fs::write(dir.join(format!("{WASM}.gz")), gzip(&wasm)).unwrap();
    std::fs::write(dir.join(format!("{WASM}.br")), b"BROTLI-OF-WASM").unwrap();
    let page = "<!DOCTYPE html><html><head></head><body></body></html>".repeat(20);
    std::fs::write(dir.join("index.html"), &page).unwrap();
    std::fs::write(dir.join("index.html.gz"), gzip(page.as_bytes())).unwrap();
    std::fs::write(dir.join("live.html"), &page).unwrap();
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::write(dir.join("scenarios/tiny.json"), "{}").unwrap();
    std::fs::write(dir.parent().unwrap().join("secret.txt"), "no").unwrap();
    wasm
}

async fn start(dist: &Path, state: &Path) -> Handle {
    run(ClassroomArgs {
        listen: "127.0.0.1:0".parse().unwrap(),
        public_url: None,
        state: Some(state.join("classroom.sqlite3")),
        new_room: false,
        max_students: 10,
        dist: Some(dist.to_path_buf()),
        allow_origin: Vec::new(),
    })
    .await
    .unwrap()
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request with `extra` header lines; the whole reply (bodies here are never chunked:
/// the server knows their length).
async fn get(h: &Handle, path: &str, extra: &[(&str, &str)]) -> Reply {
    let mut stream = TcpStream::connect(h.local_addr()).await.unwrap();
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .expect("a reply in time")
        .unwrap();
    let at = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(raw[..at].to_vec()).unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[at + 4..].to_vec(),
    }
}

const CHROMIUM: (&str, &str) = ("Accept-Encoding", "gzip, deflate, br, zstd");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_client_gets_the_copy_it_accepts_and_hashed_files_are_kept_for_good() {
    let scratch = ScratchDir::new("delivery");
    let dist = scratch.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let wasm = built_dist(&dist);
    let h = start(&dist, scratch.path()).await;
    let path = format!("/{WASM}");

    let br = get(&h, &path, &[CHROMIUM]).await;
    assert_eq!(br.status, 200);
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert_eq!(br.body, b"BROTLI-OF-WASM");
    assert_eq!(br.header("content-type"), Some("application/wasm"));
    assert_eq!(
        br.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(br.header("vary"), Some("accept-encoding"));
    // A page's file connections close once it has them: only its WebSocket stays.
    assert_eq!(br.header("connection"), Some("close"));

    let gz = get(&h, &path, &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&gz.body), wasm, "the gzip copy is the file");

    let plain = get(&h, &path, &[]).await;
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(
        plain.body, wasm,
        "a client asking for nothing gets the file"
    );
    let etags = [&br, &gz, &plain].map(|r| r.header("etag").unwrap().to_owned());
    assert!(etags[0] != etags[1] && etags[1] != etags[2], "{etags:?}");

    // A file with no brotli copy: gzip for a browser, as built.
    let page = get(&h, "/", &[CHROMIUM]).await;
    assert_eq!(page.header("content-encoding"), Some("gzip"));
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    assert_eq!(page.header("content-type"), Some("text/html"));
    let scenario = get(&h, "/scenarios/tiny.json", &[CHROMIUM]).await;
    assert_eq!((scenario.status, &scenario.body[..]), (200, &b"{}"[..]));
    assert_eq!(scenario.header("content-encoding"), None);
    assert_eq!(scenario.header("cache-control"), Some("no-cache"));

    assert_eq!(get(&h, "/missing.js", &[CHROMIUM]).await.status, 404);
    assert_eq!(get(&h, "/../secret.txt", &[]).await.status, 404);
    assert_eq!(
        get(&h, "/scenarios/../../secret.txt", &[]).await.status,
        404
    );
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_the_browser_has_is_answered_by_304() {
    let scratch = ScratchDir::new("delivery-304");
    let dist = scratch.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    built_dist(&dist);
    let h = start(&dist, scratch.path()).await;

    let first = get(&h, "/index.html", &[CHROMIUM]).await;
    let etag = first.header("etag").unwrap().to_owned();
    let again = get(&h, "/index.html", &[CHROMIUM, ("If-None-Match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    assert_eq!(again.header("cache-control"), Some("no-cache"));

    // Another encoding is another copy: its tag does not match, the page comes whole.
    let other = get(&h, "/index.html", &[("If-None-Match", &etag)]).await;
    assert_eq!(other.status, 200);
    assert!(!other.body.is_empty());

    // A rebuilt page has a new tag: the old one gets the new page.
    std::fs::write(dist.join("index.html.gz"), gzip(b"<p>rebuilt</p>")).unwrap();
    let rebuilt = get(&h, "/index.html", &[CHROMIUM, ("If-None-Match", &etag)]).await;
    assert_eq!(rebuilt.status, 200);
    assert_eq!(gunzip(&rebuilt.body), b"<p>rebuilt</p>");
    h.shutdown().await;
}
