//! The scenarios that ship with RouteLab (files in `scenarios/`, compiled in so the dashboard and the
//! CLI have them without a file system).

/// A shipped scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Its name (`routelab sim --preset NAME`).
    pub name: &'static str,
    /// The scenario file.
    pub json: &'static str,
}

const PRESETS: &[Preset] = &[
    Preset {
        name: "2m-2s",
        json: include_str!("../../scenarios/2m-2s.json"),
    },
    Preset {
        name: "crash-hang-stop",
        json: include_str!("../../scenarios/crash-hang-stop.json"),
    },
    Preset {
        name: "fault-tolerance",
        json: include_str!("../../scenarios/fault-tolerance.json"),
    },
    Preset {
        name: "namesrv-divergence",
        json: include_str!("../../scenarios/namesrv-divergence.json"),
    },
    Preset {
        name: "wipe-write-perm",
        json: include_str!("../../scenarios/wipe-write-perm.json"),
    },
    Preset {
        name: "big-heartbeat",
        json: include_str!("../../scenarios/big-heartbeat.json"),
    },
    Preset {
        name: "big-cluster",
        json: include_str!("../../scenarios/big-cluster.json"),
    },
];

/// Every shipped scenario.
pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// A shipped scenario by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}
