//! The REGISTER_BROKER header's `bodyCrc32` (spec §6.4): computed by the client that sends a body
//! (`net`, the demo's brokers) and checked by the server that reads it (`routelab namesrv`).

/// `bodyCrc32`: CRC-32 (IEEE) of the body bytes masked to 31 bits, as `UtilAll.crc32` computes it.
/// The unmasked value does not fit the Java int the server parses.
pub fn body_crc32(body: &[u8]) -> i32 {
    // Masked to 31 bits, so the conversion cannot fail.
    i32::try_from(crc32fast::hash(body) & 0x7fff_ffff).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spec §6.4: the CRC is masked to a non-negative Java int.
    #[test]
    fn crc_is_masked() {
        assert_eq!(
            body_crc32(b"123456789"),
            0xCBF4_3926_u32 as i32 & 0x7fff_ffff
        );
        assert!(body_crc32(b"\xff\x00").is_positive());
    }
}
