//! A run's text against its golden file, with the first line that differs in the failure. Include
//! with `#[path = "support/golden.rs"] mod golden;` (works on both targets: the file is compiled in
//! with `include_str!` by the caller).

/// Panics naming the first differing line of `actual` and `expected` (the contents of `file`),
/// and how to regenerate the file (`regenerate`), when they differ.
pub fn assert_matches(actual: &str, expected: &str, file: &str, regenerate: &str) {
    if actual == expected {
        return;
    }
    let line = actual
        .lines()
        .zip(expected.lines())
        .position(|(a, e)| a != e)
        .unwrap_or_else(|| actual.lines().count().min(expected.lines().count()));
    panic!(
        "output differs from {file} at line {}:\n  actual:   {:?}\n  expected: {:?}\n(if the change is intended, regenerate: {regenerate})",
        line + 1,
        actual.lines().nth(line),
        expected.lines().nth(line)
    );
}
