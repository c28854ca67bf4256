//! The scenarios that ship with RouteLab (files in `scenarios/`). Natively they are all compiled in,
//! so the CLI has them without a file system. In the browser only the dashboard's default is: the
//! others would weigh down every page load for a preset a class may never open, so the dashboard
//! fetches them from `scenarios/` beside the page (Trunk copies the folder into dist/).

/// A shipped scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Its name (`routelab sim --preset NAME`, the file `scenarios/NAME.json`).
    pub name: &'static str,
    /// Its title, as in the file (for lists of presets that do not parse every file).
    pub title: &'static str,
    pub title_zh: &'static str,
    /// The scenario file, where it is compiled in: always natively, in the browser only for
    /// [`BUNDLED_IN_BROWSER`].
    pub json: Option<&'static str>,
}

/// The one preset the browser build carries: the dashboard opens on it.
pub const BUNDLED_IN_BROWSER: &str = "crash-hang-stop";

/// The file of a preset by name, compiled in where this build carries it.
macro_rules! file {
    ($name:literal) => {{
        #[cfg(target_arch = "wasm32")]
        let json = if const_eq($name, BUNDLED_IN_BROWSER) {
            Some(include_str!(concat!("../../scenarios/", $name, ".json")))
        } else {
            None
        };
        #[cfg(not(target_arch = "wasm32"))]
        let json = Some(include_str!(concat!("../../scenarios/", $name, ".json")));
        json
    }};
}

/// `a == b` in a constant (str's `==` is not const), so the browser build leaves out the other files.
#[cfg(target_arch = "wasm32")]
const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const PRESETS: &[Preset] = &[
    Preset {
        name: "2m-2s",
        title: "Two masters, two slaves",
        title_zh: "两主两从",
        json: file!("2m-2s"),
    },
    Preset {
        name: "crash-hang-stop",
        title: "Crash vs hang vs graceful stop",
        title_zh: "崩溃、挂起与优雅关闭",
        json: file!("crash-hang-stop"),
    },
    Preset {
        name: "fault-tolerance",
        title: "Fault tolerance on and off while a broker hangs",
        title_zh: "broker 挂起时，故障规避的开与关",
        json: file!("fault-tolerance"),
    },
    Preset {
        name: "namesrv-divergence",
        title: "NameServer divergence after a partition",
        title_zh: "网络分区后 NameServer 的数据不一致",
        json: file!("namesrv-divergence"),
    },
    Preset {
        name: "wipe-write-perm",
        title: "Draining a broker with wipeWritePerm",
        title_zh: "用 wipeWritePerm 摘除 broker 的流量",
        json: file!("wipe-write-perm"),
    },
    Preset {
        name: "dledger-failover",
        title: "DLedger: the brokers elect their master",
        title_zh: "DLedger：broker 自己选出 master",
        json: file!("dledger-failover"),
    },
    Preset {
        name: "big-heartbeat",
        title: "A big heartbeat: 1,000 topics on 4 brokers",
        title_zh: "大心跳：4 个 broker 上的 1,000 个 topic",
        json: file!("big-heartbeat"),
    },
    Preset {
        name: "big-cluster",
        title: "A big cluster: 200 brokers, 10,000 topics",
        title_zh: "大集群：200 个 broker，10,000 个 topic",
        json: file!("big-cluster"),
    },
];

/// Every shipped scenario.
impl Preset {
    /// The title in `lang`.
    pub fn title_in(&self, lang: crate::i18n::Lang) -> &'static str {
        match lang {
            crate::i18n::Lang::En => self.title,
            crate::i18n::Lang::Zh => self.title_zh,
        }
    }
}

impl LessonFile {
    /// The title in `lang`.
    pub fn title_in(&self, lang: crate::i18n::Lang) -> &'static str {
        match lang {
            crate::i18n::Lang::En => self.title_en,
            crate::i18n::Lang::Zh => self.title_zh,
        }
    }
}

pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// A shipped scenario by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// A shipped scenario's file where this build carries it (natively: every preset's and every
/// lesson's).
pub fn preset_json(name: &str) -> Option<&'static str> {
    preset(name)
        .and_then(|p| p.json)
        .or_else(|| lesson(name).and_then(|l| l.json))
}

/// A shipped lesson (a scenario with `lesson.steps`, the file `scenarios/NAME.json`). The browser
/// build carries none of the files (the workshop fetches the one opened), only the list with its
/// titles in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonFile {
    /// `lesson-N-NAME` (the URL `#lesson=NAME`, `routelab sim --preset NAME`).
    pub name: &'static str,
    /// Its `lesson.title`, as in the file.
    pub title_en: &'static str,
    pub title_zh: &'static str,
    /// The file, natively.
    pub json: Option<&'static str>,
}

/// A lesson's file: compiled in natively, fetched in the browser.
macro_rules! lesson_file {
    ($name:literal) => {{
        #[cfg(target_arch = "wasm32")]
        let json = None;
        #[cfg(not(target_arch = "wasm32"))]
        let json = Some(include_str!(concat!("../../scenarios/", $name, ".json")));
        json
    }};
}

const LESSONS: &[LessonFile] = &[
    LessonFile {
        name: "lesson-1-route-tables",
        title_en: "The four route tables and a first registration",
        title_zh: "四张路由表与首次注册",
        json: lesson_file!("lesson-1-route-tables"),
    },
    LessonFile {
        name: "lesson-2-heartbeats",
        title_en: "Heartbeats and the 120 s expiry",
        title_zh: "心跳与 120 秒过期",
        json: lesson_file!("lesson-2-heartbeats"),
    },
    LessonFile {
        name: "lesson-3-route-lookup",
        title_en: "Route lookup and the producer's cached copy",
        title_zh: "路由查询与生产者的缓存副本",
        json: lesson_file!("lesson-3-route-lookup"),
    },
    LessonFile {
        name: "lesson-4-round-robin",
        title_en: "Round-robin, and avoiding the last broker",
        title_zh: "轮询，以及重试时避开上一个 broker",
        json: lesson_file!("lesson-4-round-robin"),
    },
    LessonFile {
        name: "lesson-5-fault-tolerance",
        title_en: "Latency fault avoidance, off and on",
        title_zh: "延迟故障规避：关闭与开启",
        json: lesson_file!("lesson-5-fault-tolerance"),
    },
    LessonFile {
        name: "lesson-6-divergence",
        title_en: "NameServers never talk to each other",
        title_zh: "NameServer 之间从不通信",
        json: lesson_file!("lesson-6-divergence"),
    },
    LessonFile {
        name: "lesson-7-flapping",
        title_en: "Flapping brokers",
        title_zh: "反复上下线的 broker",
        json: lesson_file!("lesson-7-flapping"),
    },
    LessonFile {
        name: "lesson-8-drain",
        title_en: "Draining a broker with wipeWritePerm",
        title_zh: "用 wipeWritePerm 摘除 broker 的流量",
        json: lesson_file!("lesson-8-drain"),
    },
    LessonFile {
        name: "lesson-9-rebalance",
        title_en: "Consumers share the queues: rebalance and duplicates",
        title_zh: "消费者分摊队列：重平衡与重复消费",
        json: lesson_file!("lesson-9-rebalance"),
    },
    LessonFile {
        name: "lesson-10-backlog",
        title_en: "Where is my backlog?",
        title_zh: "我的消息积压在哪里？",
        json: lesson_file!("lesson-10-backlog"),
    },
    LessonFile {
        name: "lesson-11-controller",
        title_en: "The master died: who takes writes?",
        title_zh: "master 宕机了：谁来接管写入？",
        json: lesson_file!("lesson-11-controller"),
    },
    LessonFile {
        name: "lesson-12-acting-master",
        title_en: "The acting master: read-only, not leaderless",
        title_zh: "代理主节点：只读，而不是群龙无首",
        json: lesson_file!("lesson-12-acting-master"),
    },
    LessonFile {
        name: "lesson-13-zones",
        title_en: "Zones: near routes, and reading across",
        title_zh: "zone：就近路由，以及跨机房读取",
        json: lesson_file!("lesson-13-zones"),
    },
    LessonFile {
        name: "lesson-14-cut-off",
        title_en: "A master cut off",
        title_zh: "被隔离的 master",
        json: lesson_file!("lesson-14-cut-off"),
    },
    LessonFile {
        name: "lesson-15-dledger",
        title_en: "Raft among the brokers",
        title_zh: "broker 之间的 Raft",
        json: lesson_file!("lesson-15-dledger"),
    },
];

/// Every shipped lesson, in order.
pub fn lessons() -> &'static [LessonFile] {
    LESSONS
}

/// A shipped lesson by name.
pub fn lesson(name: &str) -> Option<&'static LessonFile> {
    LESSONS.iter().find(|l| l.name == name)
}
