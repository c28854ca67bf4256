//! Live mode's state and reducer. Pure like the simulator's: the socket glue turns what happens on the
//! WebSocket into [`LiveMsg`]s (with the page time they happened at), and the reducer answers by
//! changing counters the glue watches — `generation` to open a new socket, `resyncs` to send
//! `{"type":"resync"}` — never by touching the socket itself.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::data::LiveData;
use crate::i18n::{live, Lang};
use crate::live::replay::{Past, Rebuilt};
use crate::live::{LiveError, ServerMessage};
use crate::ui::lang_toggle::initial_lang;

/// The first reconnect delay; it doubles up to [`BACKOFF_MAX_MS`] and starts over after a snapshot.
pub const BACKOFF_FIRST_MS: u64 = 500;
/// The longest reconnect delay.
pub const BACKOFF_MAX_MS: u64 = 10_000;

/// The connection to the bridge, as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Conn {
    /// A socket is opening, or open but no snapshot has arrived yet.
    Connecting,
    /// A snapshot arrived on this socket: the data is live.
    Live,
    /// The socket closed; a new one opens at `retry_at_ms` (page clock).
    Reconnecting {
        retry_at_ms: f64,
        delay_ms: u64,
        reason: CloseReason,
    },
}

/// Why the socket closed, kept as what happened so the page says it in the language shown.
#[derive(Clone, Debug, PartialEq)]
pub enum CloseReason {
    /// The reason the bridge gave when closing, shown as it wrote it.
    Given(String),
    /// A close without a reason: 1000, 1001, 1006 (browsers hide why a connection failed, on
    /// purpose), 1008 …
    Code(u16),
    /// The URL could not be opened at all; `why` is the browser's words, when it gives some.
    CannotOpen { url: String, why: Option<String> },
}

impl CloseReason {
    /// In plain words, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            CloseReason::Given(reason) => reason.clone(),
            CloseReason::Code(1000) => lang.t(live::BRIDGE_CLOSED).to_owned(),
            CloseReason::Code(1001) => lang.t(live::BRIDGE_GOING_AWAY).to_owned(),
            CloseReason::Code(1006) => lang.t(live::NO_CONNECTION_TO_BRIDGE).to_owned(),
            CloseReason::Code(1008) => lang.t(live::REFUSED_BY_BRIDGE).to_owned(),
            CloseReason::Code(code) => {
                lang.fill(live::CLOSED_WITH_CODE, &[("code", &code.to_string())])
            }
            CloseReason::CannotOpen { url, why } => {
                let why = why.as_deref().unwrap_or(lang.t(live::NOT_A_WEBSOCKET_URL));
                lang.fill(live::CANNOT_OPEN, &[("url", url), ("why", why)])
            }
        }
    }
}

/// A reason given in words (as the bridge gives one).
impl From<&str> for CloseReason {
    fn from(reason: &str) -> Self {
        CloseReason::Given(reason.to_owned())
    }
}

/// A message the page could not use, shown until the next snapshot.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// Not a message of the protocol; serde's words say why.
    Unreadable(String),
    /// A message that could not be applied; `resyncing` when a fresh snapshot was asked for.
    Refused { error: LiveError, resyncing: bool },
}

impl Problem {
    /// In plain words, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Problem::Unreadable(e) => lang.fill(live::UNREADABLE_MESSAGE, &[("error", e)]),
            Problem::Refused {
                error,
                resyncing: false,
            } => error.text(lang),
            Problem::Refused {
                error,
                resyncing: true,
            } => lang.fill(live::ASKING_FOR_SNAPSHOT, &[("error", &error.text(lang))]),
        }
    }
}

impl Conn {
    /// `data-state` of the `live-status` element.
    pub fn name(&self) -> &'static str {
        match self {
            Conn::Connecting => "connecting",
            Conn::Live => "live",
            Conn::Reconnecting { .. } => "reconnecting",
        }
    }
}

/// Live mode's state. The data sits behind `Rc<RefCell<_>>` so a message does not copy every route;
/// `version` changes on every change so components re-render (as the simulator's `AppState` does).
#[derive(Clone)]
pub struct LiveModel {
    /// The bridge; `None` when the page feeds messages itself (tests, embedding).
    pub url: Option<String>,
    pub conn: Conn,
    pub data: Rc<RefCell<LiveData>>,
    pub version: u64,
    /// Server clock minus page clock (ms), from the last message's `sent_at_ms`: ages are computed on
    /// the server's clock, so a laptop whose clock is off does not show wrong ages.
    pub clock_offset_ms: f64,
    /// The next reconnect delay.
    pub backoff_ms: u64,
    /// Bumped to open a new socket.
    pub generation: u64,
    /// Bumped to send a resync request.
    pub resyncs: u64,
    /// Bumped to send [`Self::command`] (`routelab demo` only).
    pub commands_sent: u64,
    /// The last command line asked for from the page.
    pub command: Option<String>,
    /// A resync was asked for and its snapshot has not come yet (so one bad message asks once).
    awaiting_snapshot: bool,
    /// The last protocol problem, shown until the next snapshot.
    pub error: Option<Problem>,
    /// The topic chosen in the route view (`None`: the first user topic).
    pub topic: Option<String>,
    /// The language the page speaks.
    pub lang: Lang,
    /// What the bridge's history holds for the timeline.
    pub history: History,
    /// The moment asked for with [`LiveMsg::Seek`]; the glue fetches it when `seeks` moves.
    pub seek: Option<u64>,
    pub seeks: u64,
    /// Ask for whole views, not changes from the live ones (after the live state moved on under
    /// the answers [`ASKS_FROM_LIVE`] times).
    pub seek_whole: bool,
    /// Answers for the moment asked for that came too late for the live state.
    late_answers: u32,
    /// An answer made against a live update that has not arrived yet, kept until it does.
    pending_past: Option<(u64, Past)>,
}

/// How many times a moment is asked for as changes from the live views before whole views are
/// asked for instead.
pub const ASKS_FROM_LIVE: u32 = 3;

/// The timeline's data, as last fetched from `/history/changes`.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum History {
    /// Not fetched yet.
    #[default]
    Loading,
    Loaded(Rc<crate::live::replay::Changes>),
    /// The bridge keeps none, or it could not be read: the bridge's words.
    Unavailable(String),
}

impl PartialEq for LiveModel {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.data, &other.data) && self.version == other.version
    }
}

/// What happened.
pub enum LiveMsg {
    /// The socket opened.
    Opened,
    /// A text frame arrived at page time `at_ms`.
    Frame {
        text: String,
        at_ms: f64,
    },
    /// The socket closed or could not open, at page time `at_ms`.
    Closed {
        reason: CloseReason,
        at_ms: f64,
    },
    /// The reconnect delay passed.
    Retry,
    /// Connect to this bridge instead (the data of the previous one is dropped).
    Connect(String),
    SelectTopic(String),
    /// Send this command line to the source (`routelab demo`: `kill 127.0.0.1:10911` …).
    Command(String),
    /// Speak this language (the toggle has stored the choice).
    SetLang(Lang),
    /// `/history/changes` answered (or why not).
    Changes(Result<crate::live::replay::Changes, String>),
    /// Show the cluster as of this moment (server time, ms).
    Seek(u64),
    /// `/history/at` answered for the moment asked for (or why not).
    Past(u64, Result<Past, String>),
    /// Show the live state again.
    BackToLive,
}

impl LiveModel {
    /// Connecting to `url` (or waiting for messages fed by the page when `None`), in the language
    /// chosen before or the browser's.
    pub fn new(url: Option<String>) -> Self {
        Self {
            url,
            conn: Conn::Connecting,
            data: Rc::default(),
            version: 0,
            clock_offset_ms: 0.0,
            backoff_ms: BACKOFF_FIRST_MS,
            generation: 0,
            resyncs: 0,
            commands_sent: 0,
            command: None,
            awaiting_snapshot: false,
            error: None,
            topic: None,
            lang: initial_lang(),
            history: History::Loading,
            seek: None,
            seeks: 0,
            seek_whole: false,
            late_answers: 0,
            pending_past: None,
        }
    }

    /// Shows the past `answer` describes (asked for as moment `t`), once the live state it was made
    /// against is here; asks again if the live state has moved on.
    fn show_answer(&mut self, t: u64, answer: Past) {
        let (at_ms, alerts, consumers) = (
            answer.at_ms,
            answer.alerts.clone(),
            answer.consumers.clone(),
        );
        let (rebuilt, live_tables) = {
            let data = self.data.borrow();
            let live_tables = answer
                .from_live
                .as_ref()
                .is_some_and(|f| f.keeps_tables(&data.state.namesrvs));
            (
                answer.rebuild(data.state.seq, &data.state.namesrvs),
                live_tables,
            )
        };
        match rebuilt {
            Rebuilt::Views(views) => {
                self.data
                    .borrow_mut()
                    .show_past(at_ms, views, alerts, consumers, live_tables);
            }
            Rebuilt::Early(answer) => self.pending_past = Some((t, *answer)),
            Rebuilt::Late => {
                self.late_answers += 1;
                self.seek_whole = self.late_answers >= ASKS_FROM_LIVE;
                self.seeks += 1;
            }
        }
    }

    /// The server's clock now, from the page's clock `local_ms`.
    pub fn server_now(&self, local_ms: f64) -> u64 {
        (local_ms + self.clock_offset_ms).max(0.0) as u64
    }

    fn on_frame(&mut self, text: &str, at_ms: f64) {
        let message = match ServerMessage::from_json(text) {
            Ok(m) => m,
            Err(e) => {
                self.error = Some(Problem::Unreadable(e.to_string()));
                self.request_resync();
                return;
            }
        };
        let (sent_at_ms, snapshot) = match &message {
            ServerMessage::Snapshot(s) => (s.sent_at_ms, true),
            ServerMessage::Update(u) => (u.sent_at_ms, false),
        };
        let result = self.data.borrow_mut().apply(message);
        match result {
            Ok(()) => {
                if let Some((t, answer)) = self.pending_past.take() {
                    if self.seek == Some(t) {
                        self.show_answer(t, answer);
                    }
                }
                self.clock_offset_ms = sent_at_ms as f64 - at_ms;
                if snapshot {
                    self.conn = Conn::Live;
                    self.backoff_ms = BACKOFF_FIRST_MS;
                    self.awaiting_snapshot = false;
                    self.error = None;
                }
            }
            // Another snapshot would be refused the same way.
            Err(error @ LiveError::Protocol(_)) => {
                self.error = Some(Problem::Refused {
                    error,
                    resyncing: false,
                })
            }
            Err(error) => {
                self.error = Some(Problem::Refused {
                    error,
                    resyncing: true,
                });
                self.request_resync();
            }
        }
    }

    fn request_resync(&mut self) {
        if !self.awaiting_snapshot {
            self.awaiting_snapshot = true;
            self.resyncs += 1;
        }
    }
}

impl Reducible for LiveModel {
    type Action = LiveMsg;

    fn reduce(self: Rc<Self>, msg: LiveMsg) -> Rc<Self> {
        let mut s = (*self).clone();
        match msg {
            LiveMsg::Opened => {
                s.conn = Conn::Connecting;
                s.awaiting_snapshot = false;
            }
            LiveMsg::Frame { text, at_ms } => s.on_frame(&text, at_ms),
            LiveMsg::Closed { reason, at_ms } => {
                if s.url.is_none() {
                    return self;
                }
                let delay_ms = s.backoff_ms;
                s.backoff_ms = (s.backoff_ms * 2).min(BACKOFF_MAX_MS);
                s.conn = Conn::Reconnecting {
                    retry_at_ms: at_ms + delay_ms as f64,
                    delay_ms,
                    reason,
                };
            }
            LiveMsg::Retry => {
                if !matches!(s.conn, Conn::Reconnecting { .. }) {
                    return self;
                }
                s.conn = Conn::Connecting;
                s.generation += 1;
            }
            LiveMsg::Connect(url) => {
                let mut next = LiveModel::new(Some(url));
                next.lang = s.lang;
                next.generation = s.generation + 1;
                next.version = s.version + 1;
                return Rc::new(next);
            }
            LiveMsg::SelectTopic(t) => s.topic = Some(t),
            LiveMsg::Command(text) => {
                s.command = Some(text);
                s.commands_sent += 1;
            }
            LiveMsg::SetLang(lang) => s.lang = lang,
            LiveMsg::Changes(Ok(changes)) => s.history = History::Loaded(Rc::new(changes)),
            LiveMsg::Changes(Err(why)) => s.history = History::Unavailable(why),
            LiveMsg::Seek(t) => {
                s.seek = Some(t);
                s.seeks += 1;
                s.seek_whole = false;
                s.late_answers = 0;
                s.pending_past = None;
            }
            // Only the answer for the moment asked for last counts (answers may cross).
            LiveMsg::Past(t, result) => {
                if s.seek != Some(t) {
                    return self;
                }
                match result {
                    Ok(answer) => s.show_answer(t, answer),
                    Err(why) => {
                        s.seek = None;
                        s.history = History::Unavailable(why);
                    }
                }
            }
            LiveMsg::BackToLive => {
                s.seek = None;
                s.pending_past = None;
                s.data.borrow_mut().show_live();
            }
        }
        s.version += 1;
        Rc::new(s)
    }
}

/// The live state handle every live panel receives.
pub type LiveStore = UseReducerHandle<LiveModel>;
