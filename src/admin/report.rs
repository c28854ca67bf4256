//! What a command leaves to print ([`Report`]) and how a NameServer's failure is told ([`explain`]):
//! shared by the NameServer commands (`run`) and the backlog commands (`backlog`), which `run`
//! hands the backlog commands to, so neither needs the other for them.

use crate::net::ClientError;

/// What to print, and whether any NameServer failed (exit code 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Standard output.
    pub stdout: String,
    /// Standard error: one line per failure, naming the NameServer and what to do.
    pub stderr: String,
    /// True when a NameServer could not be reached or refused the command.
    pub failed: bool,
}

/// The error line for a NameServer that failed, with what to try.
pub(super) fn explain(addr: &str, err: &ClientError) -> String {
    let hint = match err {
        ClientError::Connect { .. } => {
            "; is it running? If the address is wrong, fix -n (host:port, several separated by ';')"
        }
        ClientError::Timeout { .. } | ClientError::Closed { .. } | ClientError::Frame(_) => {
            "; is that address a RocketMQ NameServer?"
        }
        _ => "",
    };
    match err {
        // Already names the address.
        ClientError::Connect { .. } => format!("error: {err}{hint}"),
        _ => format!("error: NameServer {addr}: {err}{hint}"),
    }
}
