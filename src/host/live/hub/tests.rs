//! The hub's viewers, updates and consumers.

use super::*;
use crate::live::{LiveState, NamesrvStatus, SourceKind};

fn hub(queue: usize) -> Arc<Hub> {
    let source = Source {
        kind: SourceKind::Bridge,
        version: "t".into(),
        interval_ms: 2_000,
        read_only: true,
        commands: false,
    };
    let ns = vec!["a:1".to_owned(), "b:2".to_owned()];
    Arc::new(Hub::new(&ns, source, queue, Arc::new(Metrics::new(&ns))))
}

fn ok_view(addr: &str, at: u64) -> NamesrvView {
    let mut v = NamesrvView::new(addr);
    v.status = NamesrvStatus::Ok;
    v.fetched_at_ms = Some(at);
    v.topics.insert(format!("T{at}"));
    v
}

fn recv(viewer: &mut Viewer) -> ServerMessage {
    let out = viewer.rx.try_recv().expect("a queued message");
    serde_json::from_str(out.text.as_str()).expect("valid JSON")
}

#[test]
fn snapshot_then_updates_rebuild_the_state() {
    let hub = hub(8);
    let mut v = hub.connect();
    let mut state = LiveState::default();
    state.apply(recv(&mut v)).unwrap();
    assert_eq!(state.namesrvs.len(), 2);
    assert_eq!(hub.publish(ok_view("a:1", 5)), Some(1));
    assert_eq!(hub.publish(ok_view("a:1", 5)), None, "no change, no update");
    assert_eq!(hub.publish(ok_view("zz:9", 5)), None, "unknown NameServer");
    assert_eq!(hub.publish(ok_view("b:2", 6)), Some(2));
    for _ in 0..2 {
        let m = recv(&mut v);
        let ServerMessage::Update(u) = &m else {
            panic!("update expected")
        };
        assert_eq!(u.namesrvs.len(), 1, "only the changed NameServer");
        state.apply(m).unwrap();
    }
    assert!(v.rx.try_recv().is_err());
    assert_eq!(state.namesrvs, hub.snapshot().namesrvs);
    assert_eq!(state.seq, 2);
}

#[test]
fn resync_queues_a_snapshot_in_order() {
    let hub = hub(8);
    let mut v = hub.connect();
    let _ = recv(&mut v);
    hub.publish(ok_view("a:1", 1));
    hub.resync(v.id);
    hub.publish(ok_view("a:1", 2));
    assert!(matches!(recv(&mut v), ServerMessage::Update(u) if u.seq == 1));
    assert!(matches!(recv(&mut v), ServerMessage::Snapshot(s) if s.seq == 1));
    assert!(matches!(recv(&mut v), ServerMessage::Update(u) if u.seq == 2));
}

#[test]
fn a_full_queue_drops_only_that_viewer() {
    let hub = hub(2);
    let stuck = hub.connect();
    let mut reader = hub.connect();
    for at in 1..=3 {
        hub.publish(ok_view("a:1", at));
        while reader.rx.try_recv().is_ok() {}
    }
    assert!(stuck.kicked.is_cancelled());
    assert!(!reader.kicked.is_cancelled());
    assert_eq!(hub.viewer_count(), 1);
    hub.publish(ok_view("a:1", 9));
    assert!(matches!(recv(&mut reader), ServerMessage::Update(u) if u.seq == 4));
    drop(reader);
    assert_eq!(hub.viewer_count(), 0);
}
