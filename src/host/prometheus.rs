//! The Prometheus text exposition format (0.0.4), written by hand in one place for every `/metrics`
//! RouteLab serves (the live page server's and `routelab namesrv`'s): a family's HELP and TYPE
//! lines, then its samples, with label values and HELP text escaped and numbers written as
//! Prometheus's Go code writes them. Plain functions over a `String`, so each caller's families are
//! tested without a server.

use std::fmt::Write as _;

/// A family's `# HELP` and `# TYPE` lines: what Prometheus reads before the family's samples.
pub fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {}", escape_help(help));
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// One sample line: `name{k="v",…} value`.
pub fn sample(out: &mut String, name: &str, labels: &[(&str, String)], value: f64) {
    out.push_str(name);
    if !labels.is_empty() {
        out.push('{');
        for (i, (k, v)) in labels.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{k}=\"{}\"", escape_label(v));
        }
        out.push('}');
    }
    let _ = writeln!(out, " {}", format_float(value));
}

/// One histogram's samples for one set of labels: a cumulative `_bucket` per bound (`counts[i]`
/// observations at most `bounds[i]`), the `+Inf` bucket, `_sum` and `_count`.
pub fn histogram(
    out: &mut String,
    name: &str,
    labels: &[(&str, String)],
    bounds: &[f64],
    counts: &[u64],
    sum: f64,
    count: u64,
) {
    let bucket = format!("{name}_bucket");
    let with_le = |le: String| {
        let mut l = labels.to_vec();
        l.push(("le", le));
        l
    };
    for (bound, n) in bounds.iter().zip(counts) {
        sample(out, &bucket, &with_le(format_float(*bound)), *n as f64);
    }
    sample(out, &bucket, &with_le("+Inf".to_owned()), count as f64);
    sample(out, &format!("{name}_sum"), labels, sum);
    sample(out, &format!("{name}_count"), labels, count as f64);
}

/// Label values escape `\`, `"` and newlines.
pub fn escape_label(v: &str) -> String {
    v.replace('\\', r"\\")
        .replace('"', "\\\"")
        .replace('\n', r"\n")
}

/// HELP text escapes `\` and newlines (not quotes).
fn escape_help(v: &str) -> String {
    v.replace('\\', r"\\").replace('\n', r"\n")
}

/// Go-style float text: integers without a fraction, infinities as `+Inf`/`-Inf`.
pub fn format_float(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "+Inf" } else { "-Inf" }.into()
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped() {
        assert_eq!(escape_label("a\\b\"c\nd"), r#"a\\b\"c\nd"#);
        let mut out = String::new();
        sample(
            &mut out,
            "m",
            &[("k", "x\"y".into()), ("j", "z".into())],
            2.0,
        );
        assert_eq!(out, "m{k=\"x\\\"y\",j=\"z\"} 2\n");
    }

    #[test]
    fn help_escapes_backslash_and_newline_only() {
        let mut out = String::new();
        family(&mut out, "m", "gauge", "a \"b\" c\\d\ne");
        assert_eq!(out, "# HELP m a \"b\" c\\\\d\\ne\n# TYPE m gauge\n");
    }

    #[test]
    fn histogram_buckets_then_sum_and_count() {
        let mut out = String::new();
        let l = [("code", "105".to_owned())];
        histogram(&mut out, "h", &l, &[0.5, 1.0], &[1, 2], 1.25, 3);
        assert_eq!(
            out,
            "h_bucket{code=\"105\",le=\"0.5\"} 1\nh_bucket{code=\"105\",le=\"1\"} 2\n\
             h_bucket{code=\"105\",le=\"+Inf\"} 3\nh_sum{code=\"105\"} 1.25\nh_count{code=\"105\"} 3\n"
        );
    }

    #[test]
    fn floats() {
        assert_eq!(format_float(1.0), "1");
        assert_eq!(format_float(0.005), "0.005");
        assert_eq!(format_float(f64::INFINITY), "+Inf");
        assert_eq!(format_float(f64::NEG_INFINITY), "-Inf");
        assert_eq!(format_float(f64::NAN), "NaN");
    }
}
