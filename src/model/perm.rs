//! Permission bits and topic system flags (`PermName`, `TopicSysFlag` in RocketMQ; spec §1.3).

/// Priority bit; `PermName.isValid` requires `0 <= perm < PERM_PRIORITY`.
pub const PERM_PRIORITY: i32 = 8;
/// Readable.
pub const PERM_READ: i32 = 4;
/// Writable.
pub const PERM_WRITE: i32 = 2;
/// May serve as the template of auto-created topics (TBW102 has perm 7).
pub const PERM_INHERIT: i32 = 1;
/// A topic's default perm: read and write.
pub const PERM_DEFAULT: i32 = PERM_READ | PERM_WRITE;

/// Unit topic flag (`TopicSysFlag.FLAG_UNIT`).
pub const FLAG_UNIT: i32 = 1;
/// Unit-subscription flag (`TopicSysFlag.FLAG_UNIT_SUB`).
pub const FLAG_UNIT_SUB: i32 = 2;

/// `PermName.isReadable`.
pub fn is_readable(perm: i32) -> bool {
    perm & PERM_READ == PERM_READ
}

/// `PermName.isWriteable`.
pub fn is_writeable(perm: i32) -> bool {
    perm & PERM_WRITE == PERM_WRITE
}

/// `PermName.isInherited`.
pub fn is_inherited(perm: i32) -> bool {
    perm & PERM_INHERIT == PERM_INHERIT
}

/// `PermName.isValid`: only the read, write and inherit bits.
pub fn is_valid(perm: i32) -> bool {
    (0..PERM_PRIORITY).contains(&perm)
}

/// `PermName.perm2String`: `R`, `W` and `X` (inherit) or `-`, e.g. 6 → `"RW-"`, 7 → `"RWX"`.
pub fn perm_to_string(perm: i32) -> String {
    let bit = |set: bool, c: char| if set { c } else { '-' };
    [
        bit(is_readable(perm), 'R'),
        bit(is_writeable(perm), 'W'),
        bit(is_inherited(perm), 'X'),
    ]
    .iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Spec §1.3: the bit values and their string form.
    #[test]
    fn perm_bits_and_string_form() {
        assert_eq!(
            (PERM_READ, PERM_WRITE, PERM_INHERIT, PERM_PRIORITY),
            (4, 2, 1, 8)
        );
        assert_eq!(perm_to_string(6), "RW-");
        assert_eq!(perm_to_string(7), "RWX");
        assert_eq!(perm_to_string(4), "R--");
        assert!(is_valid(7) && !is_valid(8) && !is_valid(-1));
    }
}
