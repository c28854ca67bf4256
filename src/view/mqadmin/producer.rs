//! `producerConnection -g G -t T` as mqadmin 4.9.8 prints it (`ProducerConnectionSubCommand`):
//! `%04d  %-32s %-22s %-8s %s` per member, numbered from 1, in the order the broker listed them.

use std::fmt::Write as _;

use crate::model::broker_stats::ProducerConnection;

/// The lines mqadmin prints.
pub fn producer_connection(pc: &ProducerConnection) -> String {
    let mut out = String::new();
    for (i, c) in pc.connection_set.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:04}  {:<32} {:<22} {:<8} {}",
            i + 1,
            c.client_id,
            c.client_addr,
            c.language,
            crate::view::mq_version::desc(c.version)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::broker_stats::Connection;

    /// Spec: ProducerConnectionSubCommand's printf, a line per member.
    #[test]
    fn mqadmin_layout() {
        let pc = ProducerConnection {
            connection_set: vec![
                Connection {
                    client_id: "10.0.0.5@12345#0".into(),
                    client_addr: "10.0.0.5:50123".into(),
                    language: "JAVA".into(),
                    version: 395,
                },
                Connection {
                    client_id: "10.0.0.6@7".into(),
                    client_addr: "10.0.0.6:40000".into(),
                    language: "NODE".into(),
                    version: 0,
                },
            ],
        };
        let text = producer_connection(&pc);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!(
                "0001  {:<32} {:<22} {:<8} {}",
                "10.0.0.5@12345#0",
                "10.0.0.5:50123",
                "JAVA",
                crate::view::mq_version::desc(395)
            )
        );
        assert!(lines[1].starts_with("0002  10.0.0.6@7"), "{text}");
        assert_eq!(lines.len(), 2);
    }
}
