//! `routelab namesrv` as a process: `-p` prints the effective config (file, then flags), the KV
//! store survives a restart, and SIGTERM stops the server cleanly.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use ours::{call, raw, Ours};
use peer::ScratchDir;
use routelab::namesrv::Profile;
use routelab::remoting::RequestCode;

fn routelab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_routelab"))
}

#[test]
fn print_config_applies_the_file_then_the_flags() {
    let home = ScratchDir::new("ns-cli");
    let file = home.path().join("namesrv.properties");
    std::fs::write(&file, "listenPort=9999\norderMessageEnable=true\nbogus=1\n").unwrap();
    let out = routelab()
        .args(["namesrv", "-c"])
        .arg(&file)
        .args(["--listen", "127.0.0.1:7777", "-p", "--home"])
        .arg(home.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("listenPort=7777\n"), "{text}");
    assert!(text.contains("orderMessageEnable=true\n"), "{text}");
    let kv = home.path().join("namesrv").join("kvConfig.json");
    assert!(
        text.contains(&format!("kvConfigPath={}\n", kv.display())),
        "{text}"
    );
    let bad = routelab()
        .args(["namesrv", "--profile", "6.x", "-p"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[tokio::test]
async fn kv_config_survives_a_restart() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let c = ns.client().await;
    let put = raw(
        RequestCode::PUT_KV_CONFIG,
        &[
            ("namespace", "ORDER_TOPIC_CONFIG"),
            ("key", "T"),
            ("value", "a:4"),
        ],
        479,
    );
    assert_eq!(call(&c, put, b"").await.command.code, 0);
    let home = ns.stop().await;
    let file = home.path().join("namesrv/kvConfig.json");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        r#"{"configTable":{"ORDER_TOPIC_CONFIG":{"T":"a:4"}}}"#
    );
    let ns = Ours::start_in(home, Profile::V5, |_| {}).await;
    let kv = ns
        .client()
        .await
        .kv_list("ORDER_TOPIC_CONFIG")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kv.get("T").map(String::as_str), Some("a:4"));
}

#[cfg(unix)]
#[test]
fn sigterm_stops_it_cleanly() {
    let home = ScratchDir::new("ns-term");
    let mut child = routelab()
        .args(["namesrv", "--listen", "127.0.0.1:0", "--home"])
        .arg(home.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("The Name Server boot success"), "{line}");
    // The default bind and connection bound are said at start.
    let mut reach = String::new();
    out.read_line(&mut reach).unwrap();
    assert!(reach.contains("bound to 127.0.0.1 only"), "{reach}");
    assert!(reach.contains("at most 10000 connections"), "{reach}");
    let status = Command::new("kill")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "exit status {exit:?}");
}
