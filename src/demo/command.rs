//! The demo's command language, typed on the terminal or sent from the page. Pure.

/// What a broker process can be made to do, as the simulator's four ways to fail (and back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Die: the connection closes at once, so the NameServer removes the broker at once.
    Kill,
    /// Hang: no more registrations, the connection stays open; the broker leaves only when its
    /// heartbeat expires (or the idle connection is closed).
    Freeze,
    /// Shut down gracefully: UNREGISTER_BROKER, then close.
    Stop,
    /// Start again (killing it first if it still runs): register now, after 10 s, then periodically.
    Restart,
}

impl Action {
    /// The command word.
    pub fn word(self) -> &'static str {
        match self {
            Self::Kill => "kill",
            Self::Freeze => "freeze",
            Self::Stop => "stop",
            Self::Restart => "restart",
        }
    }
}

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An action on the broker process named.
    Broker(Action, String),
    List,
    Help,
    Quit,
}

/// What `help` prints.
pub const HELP: &str = "\
commands:
  kill NAME      the broker dies: its connection closes and the NameServer drops it at once
  freeze NAME    the broker hangs: it stops registering but keeps its connection open, so it
                 stays until its heartbeat expires (120 s, or --expiry)
  stop NAME      graceful shutdown: UNREGISTER_BROKER, then close
  restart NAME   start it again (registers at once, after 10 s, then every 30 s)
  list           the brokers and what they are doing
  help           this text
  quit           stop the demo (also Ctrl-C)
NAME is a master's group name (broker-a), GROUP/ID for a slave (broker-a/1), or the broker's
address (127.0.0.1:10911); see `list`.";

/// Parses a line. Blank lines are `Ok(None)`; anything else unknown is an error that says what
/// would work.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Ok(None);
    };
    let name = words.next();
    if let Some(extra) = words.next() {
        return Err(format!(
            "{word}: one name at a time (got {extra:?} too); `help` lists the commands"
        ));
    }
    let action = match word.to_ascii_lowercase().as_str() {
        "kill" => Action::Kill,
        "freeze" => Action::Freeze,
        "stop" => Action::Stop,
        "restart" | "start" => Action::Restart,
        other => {
            let command = match other {
                "list" | "ls" => Command::List,
                "help" | "?" => Command::Help,
                "quit" | "exit" => Command::Quit,
                _ => {
                    return Err(format!(
                    "unknown command {word:?}: try kill, freeze, stop, restart, list, help or quit"
                ))
                }
            };
            if name.is_some() {
                return Err(format!("{word} takes no name"));
            }
            return Ok(Some(command));
        }
    };
    match name {
        Some(n) => Ok(Some(Command::Broker(action, n.to_owned()))),
        None => Err(format!(
            "{} needs a broker name, e.g. `{} broker-a` (`list` shows them)",
            action.word(),
            action.word()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(
            parse("  kill broker-a ").unwrap(),
            Some(Command::Broker(Action::Kill, "broker-a".into()))
        );
        assert_eq!(
            parse("FREEZE broker-a/1").unwrap(),
            Some(Command::Broker(Action::Freeze, "broker-a/1".into()))
        );
        assert_eq!(parse("list").unwrap(), Some(Command::List));
        assert_eq!(parse("quit").unwrap(), Some(Command::Quit));
        assert_eq!(parse("   ").unwrap(), None);
    }

    #[test]
    fn mistakes_say_what_would_work() {
        assert!(parse("kil broker-a").unwrap_err().contains("try kill"));
        assert!(parse("kill").unwrap_err().contains("kill broker-a"));
        assert!(parse("kill a b").unwrap_err().contains("one name"));
        assert!(parse("list x").unwrap_err().contains("no name"));
    }
}
