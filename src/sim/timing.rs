//! The scenario's timers resolved to milliseconds, and the plain warnings about combinations that
//! make brokers flap or routes go stale.

use super::scenario::Scenario;
use super::REGISTER_PERIOD_MS;

/// Resolved timers, in ms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// `registerNameServerPeriod` (first repeat after 10 s).
    pub register_ms: u64,
    /// First scan after this.
    pub scan_first_ms: u64,
    /// Scan period.
    pub scan_ms: u64,
    /// Broker expiry (`BROKER_CHANNEL_EXPIRED_TIME`).
    pub expiry_ms: u64,
    /// `serverChannelMaxIdleTimeSeconds`.
    pub idle_close_ms: u64,
    /// `pollNameServerInterval`.
    pub route_poll_ms: u64,
    /// `sendMsgTimeout`: the budget of one message, retries included.
    pub send_timeout_ms: u64,
}

impl Timing {
    pub(super) fn resolve(s: &Scenario) -> Self {
        let ms = |v: Option<f64>, default: u64| v.map_or(default, |s| (s * 1000.0).round() as u64);
        let t = s.timing.clone().unwrap_or_default();
        let (scan_first_ms, scan_ms) = s.profile.scan_schedule_ms();
        Self {
            register_ms: ms(t.register_secs, REGISTER_PERIOD_MS),
            scan_first_ms,
            scan_ms: ms(t.scan_secs, scan_ms),
            expiry_ms: ms(
                t.expiry_secs,
                crate::namesrv::DEFAULT_BROKER_CHANNEL_EXPIRED_MS,
            ),
            idle_close_ms: ms(t.idle_close_secs, 120_000),
            route_poll_ms: ms(t.route_poll_secs, 30_000),
            send_timeout_ms: t.send_timeout_ms.unwrap_or(3_000),
        }
    }

    /// Plain warnings about combinations that make brokers flap or routes go stale, in English.
    pub fn warnings(&self) -> Vec<String> {
        self.warnings_in(crate::i18n::Lang::En)
    }

    /// The warnings in `lang`.
    pub fn warnings_in(&self, lang: crate::i18n::Lang) -> Vec<String> {
        use crate::decimal::secs_short;
        use crate::i18n::events as words;
        let mut w = Vec::new();
        if self.register_ms >= self.expiry_ms {
            w.push(lang.fill(
                words::WARN_REGISTER_VS_EXPIRY,
                &[
                    ("register", &secs_short(self.register_ms)),
                    ("expiry", &secs_short(self.expiry_ms)),
                ],
            ));
        }
        if self.idle_close_ms <= self.register_ms {
            w.push(lang.fill(
                words::WARN_IDLE_VS_REGISTER,
                &[
                    ("idle", &secs_short(self.idle_close_ms)),
                    ("register", &secs_short(self.register_ms)),
                ],
            ));
        }
        if !(10_000..=60_000).contains(&self.register_ms) {
            w.push(lang.t(words::WARN_REGISTER_CLAMPED).to_owned());
        }
        if self.route_poll_ms >= self.expiry_ms {
            w.push(lang.fill(
                words::WARN_POLL_VS_EXPIRY,
                &[
                    ("poll", &secs_short(self.route_poll_ms)),
                    ("expiry", &secs_short(self.expiry_ms)),
                ],
            ));
        }
        w
    }
}
