//! A classroom's pages over real WebSockets, natively: a student's page runs the simulator from
//! what it receives exactly as the browser does (the core's `Follower`), and a teacher's page
//! publishes a native timeline (the core's `Publisher`). Shared by the hub's tests and the load
//! bench.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use routelab::classroom::follow::{Follower, Received};
use routelab::classroom::protocol::{HubMsg, LessonPos, Roster, Source, Tally, TeacherMsg};
use routelab::classroom::publish::{Publisher, Shown};
use routelab::sim::timeline::Timeline;
use routelab::sim::{preset_json, Action, Scenario};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long a test waits for the hub before failing.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The page's clock: ms since the Unix epoch, as the hub's.
pub fn wall_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
        * 1000.0
}

/// The world of a room's scenario (a preset, as the classroom tests use).
pub fn world_of(source: &Source) -> Timeline {
    let scenario = match source {
        Source::Preset { name } => Scenario::from_json(preset_json(name).unwrap()).unwrap(),
        Source::Json { text } => Scenario::from_json(text).unwrap(),
    };
    Timeline::new(scenario)
}

/// `ws://ADDR/room/ws?QUERY`.
pub fn ws_url(addr: std::net::SocketAddr, query: &str) -> String {
    format!("ws://{addr}/room/ws?{query}")
}

/// How an upgrade or a connection ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    /// Refused before the upgrade, with this HTTP status.
    Status(u16),
    /// Closed by the hub with this close code and reason.
    Code(u16, String),
    /// The connection dropped.
    Dropped,
}

/// A page connected to the hub.
pub struct Page {
    ws: Ws,
    pub follower: Follower,
    pub world: Option<Timeline>,
    pub roster: Option<Roster>,
    pub tally: Option<Tally>,
    pub refused: Vec<String>,
    /// Set when the hub closed the connection.
    pub closed: Option<Closed>,
}

impl Page {
    /// Opens `url`, sending `origin` as a browser would.
    pub async fn open(url: &str, origin: Option<&str>) -> Result<Page, Closed> {
        let mut request = url.into_client_request().unwrap();
        if let Some(o) = origin {
            request
                .headers_mut()
                .insert("Origin", HeaderValue::from_str(o).unwrap());
        }
        match tokio_tungstenite::connect_async(request).await {
            Ok((ws, _)) => Ok(Page {
                ws,
                follower: Follower::new(),
                world: None,
                roster: None,
                tally: None,
                refused: Vec::new(),
                closed: None,
            }),
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
                Err(Closed::Status(r.status().as_u16()))
            }
            Err(e) => panic!("connecting to {url}: {e}"),
        }
    }

    pub async fn send_text(&mut self, text: String) {
        // A hub that already closed makes this fail; the test looks at `closed`.
        let _ = self.ws.send(Message::Text(text.into())).await;
    }

    pub async fn send<T: serde::Serialize>(&mut self, msg: &T) {
        self.send_text(serde_json::to_string(msg).unwrap()).await;
    }

    /// Reads one message and takes it in; false once closed or after `wait`.
    pub async fn read_one(&mut self, wait: Duration) -> bool {
        if self.closed.is_some() {
            return false;
        }
        let next = match tokio::time::timeout(wait, self.ws.next()).await {
            Ok(n) => n,
            Err(_) => return false,
        };
        match next {
            Some(Ok(Message::Text(t))) => {
                let msg: HubMsg = serde_json::from_str(t.as_str()).unwrap();
                self.take(msg).await;
                true
            }
            Some(Ok(Message::Close(frame))) => {
                self.closed = Some(match frame {
                    Some(f) => Closed::Code(f.code.into(), f.reason.to_string()),
                    None => Closed::Dropped,
                });
                false
            }
            Some(Ok(_)) => true,
            Some(Err(_)) | None => {
                self.closed = Some(Closed::Dropped);
                false
            }
        }
    }

    /// Takes in a message as the browser's page does: builds the world, syncs it, and runs it
    /// to the teacher's moment.
    async fn take(&mut self, msg: HubMsg) {
        match self.follower.receive(msg, wall_ms()) {
            Received::NewWorld => {
                if let Some(source) = self.follower.room().source.clone() {
                    self.world = Some(world_of(&source));
                    self.follower.world_loaded();
                }
            }
            Received::Missed => {
                self.send(&routelab::classroom::protocol::StudentMsg::Resync)
                    .await;
                return;
            }
            Received::Roster(r) => self.roster = Some(r),
            Received::Tally(t) => self.tally = Some(t),
            Received::Refused(why) => self.refused.push(why),
            Received::Changed => {}
        }
        self.sync();
    }

    /// Brings the world to the teacher's moment now.
    pub fn sync(&mut self) {
        if let Some(tl) = self.world.as_mut() {
            let out = self.follower.sync(tl, wall_ms());
            assert!(out.refused.is_empty(), "{:?}", out.refused);
            if tl.now() < out.target_ms {
                tl.advance_to(out.target_ms);
            }
        }
    }

    /// Reads until `done(self)` holds; panics after [`PATIENCE`] or on a close.
    pub async fn until(&mut self, what: &str, done: impl Fn(&Page) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero() && self.read_one(left).await || done(self),
                "waited for {what}: closed {:?}",
                self.closed
            );
        }
    }

    /// Reads until the hub closes the connection; returns how.
    pub async fn until_closed(&mut self) -> Closed {
        let deadline = Instant::now() + PATIENCE;
        while self.closed.is_none() {
            assert!(Instant::now() < deadline, "the hub did not close the page");
            self.read_one(Duration::from_millis(200)).await;
        }
        self.closed.take().unwrap()
    }

    /// The moment shown and its state hash.
    pub fn shows(&self) -> Option<(u64, u64)> {
        self.world
            .as_ref()
            .map(|tl| (tl.now(), tl.sim().state_hash()))
    }
}

/// The teacher's page: a native timeline published through the hub.
pub struct Teacher {
    pub page: Page,
    pub tl: Timeline,
    pub world: u64,
    pub source: Source,
    pub playing: bool,
    pub jump: u64,
    pub lesson: Option<LessonPos>,
    publisher: Publisher,
}

impl Teacher {
    /// Connects with the token and waits for the welcome.
    pub async fn open(url: &str, origin: Option<&str>, preset: &str) -> Teacher {
        let mut page = Page::open(url, origin)
            .await
            .expect("the teacher's token is taken");
        page.until("the teacher's welcome", |p| p.follower.welcomed())
            .await;
        let source = Source::Preset {
            name: preset.into(),
        };
        let mut publisher = Publisher::new();
        publisher.reconnected(page.follower.room().rev);
        Teacher {
            page,
            tl: world_of(&source),
            world: 1,
            source,
            playing: false,
            jump: 0,
            lesson: None,
            publisher,
        }
    }

    pub fn shown(&self) -> Shown {
        let clock = (self.playing, 10.0, self.jump);
        Shown::of(&self.tl, self.world, clock, self.lesson.clone())
    }

    /// Sends what changed; returns how many messages.
    pub async fn publish(&mut self) -> usize {
        let shown = self.shown();
        let source = self.source.clone();
        let msgs = self.publisher.publish(&shown, || source, false);
        for m in &msgs {
            self.page.send(m).await;
        }
        msgs.len()
    }

    pub async fn act(&mut self, action: Action) {
        let (fork, _) = self.tl.apply(action).unwrap();
        if fork.is_some() {
            self.jump += 1;
        }
        self.publish().await;
    }

    pub async fn advance(&mut self, t: u64) {
        self.tl.advance_to(t);
        self.publish().await;
    }

    pub async fn seek(&mut self, t: u64) {
        self.tl.seek(t);
        self.jump += 1;
        self.publish().await;
    }

    pub async fn send(&mut self, msg: &TeacherMsg) {
        self.page.send(msg).await;
    }

    pub fn shows(&self) -> (u64, u64) {
        (self.tl.now(), self.tl.sim().state_hash())
    }
}
