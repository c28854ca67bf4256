//! `MQVersion.getVersionDesc` of RocketMQ 4.9.8: a client's version number as mqadmin prints it (the
//! enum's names in `mq_versions.txt`, one per ordinal).

/// The name at a version's ordinal, the last name past the end, nothing for a negative one (Java
/// throws there; mqadmin prints nothing for that client).
pub fn desc(version: i32) -> &'static str {
    let Ok(i) = usize::try_from(version) else {
        return "";
    };
    include_str!("mq_versions.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .nth(i)
        .unwrap_or("HIGHER_VERSION")
}

#[cfg(test)]
mod tests {
    use super::desc;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Ordinals from 4.9.8's enum: V3_0_0_SNAPSHOT is 0, V4_9_4_SNAPSHOT 400, V5_3_3 479, and
    /// anything past the end is the last name.
    #[test]
    fn versions_by_ordinal() {
        assert_eq!(desc(0), "V3_0_0_SNAPSHOT");
        assert_eq!(desc(400), "V4_9_4_SNAPSHOT");
        assert_eq!(desc(479), "V5_3_3");
        assert_eq!(desc(611), "V5_9_9");
        assert_eq!(desc(612), "HIGHER_VERSION");
        assert_eq!(desc(100_000), "HIGHER_VERSION");
        assert_eq!(desc(-1), "");
    }
}
