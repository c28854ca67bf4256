//! `routelab classroom`: the workshop and the room's hub on one port. The room itself (what the
//! teacher published, who follows, the answers) is the pure [`crate::classroom::room::Room`]; this
//! shell gives it sockets, files and a database.
//!
//! # Layout
//!
//! - this file: the flags, the room's code and token, the links, starting and stopping.
//! - `hub`: the connections around the room, and delivering what it says.
//! - `http`: the routes (`/room/ws`, `/room/qr.svg`, the workshop's files).
//! - `store`: the room kept in SQLite across restarts.
//! - `cli`: the command (logging, the runtime, the start-up text, Ctrl-C).

pub mod cli;
mod http;
pub mod hub;
pub mod store;

use std::net::{SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::sync::Arc;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::classroom::protocol::RoomState;
use crate::classroom::room::Room;
use crate::host::web::access::normalize_origin;
use crate::host::web::assets::Assets;
use crate::host::web::conn_limit::{LimitedListener, EXTRA_HTTP_CONNECTIONS};
use hub::Hub;
use store::{Kept, Saver, Store};

/// Run a classroom: you drive the workshop, every student's laptop follows.
///
/// Serves the workshop and a room on one port. It prints two links: the teacher's (keep it to
/// yourself: it carries the token that drives the room) and the students' (show it, or the QR
/// code the teacher's page shows). Each student's page runs the same simulator and shows the
/// very cluster you drive; a student may step aside to explore and come back.
///
/// The room (its code, your token, what you showed last) is kept in --state, so restarting this
/// command resumes it and the pages reconnect by themselves; --new-room starts afresh.
///
/// Examples:
///   routelab classroom                              (this machine only: try it out)
///   routelab classroom --listen 0.0.0.0:7979        (a classroom network)
///   routelab classroom --listen 0.0.0.0:7979 --public-url http://192.168.1.20:7979
#[derive(Clone, Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct ClassroomArgs {
    /// Address to serve on. The default reaches only this machine; 0.0.0.0:7979 opens the room to
    /// the classroom network.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:7979")]
    pub listen: SocketAddr,
    /// The address students' laptops reach this machine by, for the students' link and its QR
    /// code. Default: this machine's network address when listening on 0.0.0.0, else the listen
    /// address.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Where the room is kept across restarts. Default: classroom.sqlite3 in the user's data
    /// directory (routelab/).
    #[arg(long, value_name = "PATH")]
    pub state: Option<PathBuf>,
    /// Start a new room (a new code and token) instead of resuming the one kept.
    #[arg(long)]
    pub new_room: bool,
    /// Students connected at once; one more is refused with 503.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub max_students: usize,
    /// Serve the workshop from this built dist/ instead of the one inside the binary.
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,
    /// Also accept pages served by this origin (e.g. http://localhost:8080 for `trunk serve`).
    /// Repeatable.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
}

/// A running classroom.
pub struct Handle {
    addr: SocketAddr,
    hub: Arc<Hub>,
    links: Links,
    /// Why the pages cannot be served, if the workshop's files are missing.
    built: Result<(), String>,
    kept: String,
    shutdown: CancellationToken,
    server: JoinHandle<()>,
}

/// The two links a classroom prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Links {
    pub teacher: String,
    pub students: String,
}

impl Handle {
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    pub fn links(&self) -> &Links {
        &self.links
    }

    /// Where the room is kept, for the start-up text.
    pub fn kept(&self) -> &str {
        &self.kept
    }

    /// Closes every page's connection and stops serving.
    pub async fn shutdown(self) {
        self.shutdown.cancel();
        self.hub.close_all();
        let _ = self.server.await;
    }
}

/// A random code students type or scan: 6 letters and digits that cannot be mistaken for one
/// another on a projector (no 0/O, 1/I/L).
fn new_code() -> Result<String, String> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for the room's code: {e}"))?;
    Ok(bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

/// The teacher's token: 128 random bits in hex.
fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The base URL students reach: `--public-url`, else this machine's address on the network the
/// default route leaves by (for 0.0.0.0), else the listen address.
fn public_base(args: &ClassroomArgs, addr: SocketAddr) -> Result<String, String> {
    if let Some(u) = &args.public_url {
        let base = u.trim_end_matches('/');
        return normalize_origin(base)
            .map(|_| base.to_owned())
            .ok_or_else(|| {
                format!(
                    "--public-url {u:?}: expected http://HOST:PORT, e.g. http://192.168.1.20:7979"
                )
            });
    }
    let ip = if addr.ip().is_unspecified() {
        // Connecting a UDP socket sends nothing: it only asks the OS which address it would use.
        UdpSocket::bind("0.0.0.0:0")
            .and_then(|s| s.connect("192.0.2.1:9").map(|()| s))
            .and_then(|s| s.local_addr())
            .map(|a| a.ip())
            .unwrap_or_else(|_| [127, 0, 0, 1].into())
    } else {
        addr.ip()
    };
    Ok(format!("http://{}", SocketAddr::new(ip, addr.port())))
}

/// Opens the kept room (or makes a new one) and starts serving.
pub async fn run(args: ClassroomArgs) -> Result<Handle, String> {
    if args.max_students == 0 {
        return Err("--max-students must be at least 1".into());
    }
    let mut allow_origins = args
        .allow_origin
        .iter()
        .map(|o| {
            normalize_origin(o).ok_or_else(|| {
                format!("--allow-origin {o:?}: expected scheme://host[:port], e.g. http://localhost:8080")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| {
            format!(
                "cannot listen on {}: {e} (is another classroom running? try --listen 127.0.0.1:0)",
                args.listen
            )
        })?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let base = public_base(&args, addr)?;
    allow_origins.extend(normalize_origin(&base));

    let path = args.state.clone().or_else(store::default_path);
    let opened = path.as_deref().map(Store::open);
    let (kept, saver, kept_text) = match opened {
        Some(Ok(store)) => {
            let resumed = if args.new_room {
                None
            } else {
                match store.load() {
                    Ok(k) => k,
                    Err(e) => {
                        tracing::warn!("starting a new room: {e}");
                        None
                    }
                }
            };
            let text = match &resumed {
                Some(_) => format!("resumed from {}", store.path().display()),
                None => format!("kept in {}", store.path().display()),
            };
            let kept = match resumed {
                Some(k) => k,
                None => {
                    let k = Kept {
                        code: new_code()?,
                        token: new_token()?,
                        state: RoomState::default(),
                    };
                    store.create(&k).map_err(|e| e.to_string())?;
                    k
                }
            };
            (kept, Some(Saver::start(store)), text)
        }
        Some(Err(e)) => {
            let text = format!(
                "NOT kept across restarts: {e} (move that file away, or pass --state PATH)"
            );
            (
                Kept {
                    code: new_code()?,
                    token: new_token()?,
                    state: RoomState::default(),
                },
                None,
                text,
            )
        }
        None => (
            Kept {
                code: new_code()?,
                token: new_token()?,
                state: RoomState::default(),
            },
            None,
            "NOT kept across restarts: no data directory (pass --state PATH)".into(),
        ),
    };
    let links = Links {
        teacher: format!("{base}/?room={}&teacher={}", kept.code, kept.token),
        students: format!("{base}/?room={}", kept.code),
    };
    let room = Room::new(kept.code.clone(), links.students.clone(), kept.state);
    let hub = Arc::new(Hub::new(room, saver));
    let shutdown = CancellationToken::new();
    let assets = Assets::choose(args.dist.as_deref());
    let built = assets.has_workshop().then_some(()).ok_or_else(|| {
        format!(
            "the workshop's page is not in {}: {}",
            assets.describe(),
            crate::host::web::assets::how_to_build()
        )
    });
    let app = Arc::new(http::App {
        hub: Arc::clone(&hub),
        assets,
        listen: addr,
        allow_origins,
        token: kept.token,
        student_url: links.students.clone(),
        student_slots: Arc::new(tokio::sync::Semaphore::new(args.max_students)),
        shutdown: shutdown.clone(),
    });
    let router = http::router(app);
    // Each student holds a WebSocket, and a page loading opens a few connections for its files
    // (closed after each file): twice the students leaves a class arriving at once room to load.
    let listener = LimitedListener::new(listener, 2 * args.max_students + EXTRA_HTTP_CONNECTIONS);
    let stop = shutdown.clone();
    let server = tokio::spawn(async move {
        let served = axum::serve(listener, router)
            .with_graceful_shutdown(async move { stop.cancelled().await })
            .await;
        if let Err(e) = served {
            tracing::error!("the classroom's server stopped: {e}");
        }
    });
    Ok(Handle {
        addr,
        hub,
        links,
        built,
        kept: kept_text,
        shutdown,
        server,
    })
}

/// What the command prints at start: the two links, each on a line of its own, and who can reach
/// them.
pub fn startup_message(h: &Handle) -> String {
    let addr = h.local_addr();
    let reach = if addr.ip().is_loopback() {
        format!(
            "bound to {} only: students' laptops cannot connect (for a classroom network: --listen 0.0.0.0:{})",
            addr.ip(),
            addr.port()
        )
    } else {
        format!(
            "OPEN TO THE NETWORK on {addr}: anyone who can reach this port and knows the room's code can follow; \
             only the teacher's link can drive: keep it to yourself"
        )
    };
    let pages = match &h.built {
        Ok(()) => "the teacher's page shows the students' link and its QR code".to_owned(),
        Err(why) => format!("WARNING: {why}"),
    };
    format!(
        "routelab classroom: room {code}, {kept}\nteacher: {teacher}\nstudents: {students}\n  {reach}\n  {pages}",
        code = h.hub().code(),
        kept = h.kept(),
        teacher = h.links().teacher,
        students = h.links().students,
    )
}
