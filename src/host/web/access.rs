//! Who may open /ws: the Origin rule and the token rule. Pure.
//!
//! Browsers let any page open a WebSocket to any address, including 127.0.0.1, and send the page's
//! origin along. Checking it keeps a web page the user happens to visit from reading the routes
//! through the user's browser (including via DNS rebinding, where the page's host name points at
//! 127.0.0.1 but its origin stays foreign). Clients that are not browsers send no Origin and are
//! let in: they could connect anyway.
#![warn(clippy::indexing_slicing)]

use std::net::SocketAddr;

/// Why an upgrade was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The page's origin is neither the bridge's own nor allowed with `--allow-origin` (HTTP 403).
    Origin(String),
    /// `--token` is set and `?token=` is missing or wrong (HTTP 401).
    Token,
}

/// Lower-cases scheme and host, drops a trailing `/`, and checks the shape `scheme://host[:port]`.
/// `None` for anything else (a path, a wildcard, `null`).
pub fn normalize_origin(origin: &str) -> Option<String> {
    let o = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    let (scheme, rest) = o.split_once("://")?;
    let scheme_ok = matches!(scheme, "http" | "https");
    let host_ok = !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]_".contains(&b));
    (scheme_ok && host_ok).then_some(o)
}

/// The origins of pages the bridge itself serves: `http://127.0.0.1:PORT`, `http://localhost:PORT`
/// and `http://` + the listen address.
pub fn own_origins(listen: SocketAddr) -> Vec<String> {
    let port = listen.port();
    let mut own = vec![
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://{listen}"),
    ];
    if listen.is_ipv6() {
        own.push(format!("http://[::1]:{port}"));
    }
    own.dedup();
    own
}

/// Whether a WebSocket upgrade carrying `origin` (the header, if any) may proceed.
pub fn check_origin(
    origin: Option<&str>,
    listen: SocketAddr,
    allowed: &[String],
) -> Result<(), Refusal> {
    let Some(raw) = origin else {
        return Ok(());
    };
    let ok = normalize_origin(raw)
        .is_some_and(|o| own_origins(listen).contains(&o) || allowed.contains(&o));
    if ok {
        Ok(())
    } else {
        Err(Refusal::Origin(raw.to_owned()))
    }
}

/// Whether the query string (without `?`) carries the token, when one is required.
pub fn check_token(query: Option<&str>, token: Option<&str>) -> Result<(), Refusal> {
    let Some(expected) = token else {
        return Ok(());
    };
    let given = query
        .unwrap_or("")
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == "token")
        .map(|(_, v)| percent_decode(v));
    match given {
        Some(g) if constant_time_eq(g.as_bytes(), expected.as_bytes()) => Ok(()),
        _ => Err(Refusal::Token),
    }
}

/// Decodes `%XX` and `+` as a browser encodes a query value; invalid escapes stay as they are.
fn percent_decode(v: &str) -> String {
    let mut rest = v.as_bytes();
    let mut out = Vec::with_capacity(rest.len());
    // Slice patterns rather than indexes: the query is the client's, of any shape.
    while let [first, tail @ ..] = rest {
        rest = tail;
        match (first, tail) {
            (b'+', _) => out.push(b' '),
            (b'%', [hi, lo, after @ ..]) => {
                match std::str::from_utf8(&[*hi, *lo])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(b) => {
                        out.push(b);
                        rest = after;
                    }
                    None => out.push(b'%'),
                }
            }
            (b, _) => out.push(*b),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Compares without stopping at the first difference, so response time does not reveal how much
/// of a guessed token was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listen(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn own_origins_are_accepted() {
        let l = listen("127.0.0.1:7878");
        for o in [
            "http://127.0.0.1:7878",
            "http://localhost:7878",
            "HTTP://LOCALHOST:7878/",
        ] {
            assert_eq!(check_origin(Some(o), l, &[]), Ok(()), "{o}");
        }
        let any = listen("0.0.0.0:7878");
        assert_eq!(check_origin(Some("http://0.0.0.0:7878"), any, &[]), Ok(()));
        let v6 = listen("[::1]:7878");
        assert_eq!(check_origin(Some("http://[::1]:7878"), v6, &[]), Ok(()));
    }

    #[test]
    fn other_origins_are_refused_unless_allowed() {
        let l = listen("127.0.0.1:7878");
        for o in [
            "http://127.0.0.1:8080",
            "https://127.0.0.1:7878",
            "http://evil.example:7878",
            "http://localhost.evil.example:7878",
            "null",
            "",
        ] {
            assert_eq!(
                check_origin(Some(o), l, &[]),
                Err(Refusal::Origin(o.into())),
                "{o}"
            );
        }
        let allowed = vec![normalize_origin("http://localhost:8080/").unwrap()];
        assert_eq!(
            check_origin(Some("http://localhost:8080"), l, &allowed),
            Ok(())
        );
        assert!(check_origin(Some("http://localhost:8081"), l, &allowed).is_err());
    }

    #[test]
    fn no_origin_is_a_non_browser_client() {
        assert_eq!(check_origin(None, listen("127.0.0.1:1"), &[]), Ok(()));
    }

    #[test]
    fn normalize() {
        assert_eq!(
            normalize_origin(" HTTPS://A.b:1/ ").as_deref(),
            Some("https://a.b:1")
        );
        assert_eq!(normalize_origin("*"), None);
        assert_eq!(normalize_origin("http://a/b"), None);
        assert_eq!(normalize_origin("ftp://a"), None);
        assert_eq!(normalize_origin("http://"), None);
    }

    #[test]
    fn percent_decoding_takes_any_shape() {
        for (raw, decoded) in [
            ("a+b", "a b"),
            ("%41", "A"),
            ("x%41y", "xAy"),
            ("%", "%"),
            ("%4", "%4"),
            ("%zz1", "%zz1"),
            ("%%41", "%A"),
            ("%e2%82%ac", "\u{20ac}"),
            ("%ff", "\u{fffd}"),
        ] {
            assert_eq!(percent_decode(raw), decoded, "{raw}");
        }
    }

    #[test]
    fn tokens() {
        assert_eq!(check_token(None, None), Ok(()));
        assert_eq!(check_token(Some("x=1"), None), Ok(()));
        assert_eq!(check_token(Some("token=s3cret"), Some("s3cret")), Ok(()));
        assert_eq!(
            check_token(Some("a=1&token=s%33cret"), Some("s3cret")),
            Ok(())
        );
        assert_eq!(
            check_token(Some("token=s3cre"), Some("s3cret")),
            Err(Refusal::Token)
        );
        assert_eq!(
            check_token(Some("token="), Some("s3cret")),
            Err(Refusal::Token)
        );
        assert_eq!(check_token(None, Some("s3cret")), Err(Refusal::Token));
        assert_eq!(
            check_token(Some("tok=s3cret"), Some("s3cret")),
            Err(Refusal::Token)
        );
    }

    #[test]
    fn percent_decoding_keeps_bad_escapes() {
        assert_eq!(percent_decode("a%2Fb+c"), "a/b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%4"), "%4");
    }
}
