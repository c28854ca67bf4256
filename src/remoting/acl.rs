//! ACL signatures: what RocketMQ's `AclClientRPCHook` adds to every request of a client given an
//! access key and a secret key, so an ACL-protected broker (4.x's plain ACL, 5.x's ACL 2.0 over
//! Remoting) accepts it.
//!
//! The hook (client `acl/common/AclClientRPCHook.java`, 5.3.3; `acl/…` in 4.9.8) puts `AccessKey`
//! into the extFields, sorts them as a Java `TreeMap`, concatenates every value but `Signature`'s
//! (UTF-8) and appends the body (`AclUtils.combineRequestContent`); the signature is that signed
//! with HmacSHA1 keyed by the secret key's UTF-8 bytes, Base64-encoded (`AclSigner`), sent as
//! `Signature`. A `BTreeMap<String, _>` sorts as Java's `TreeMap<String, _>` for every key that has
//! no character above U+FFFF; RocketMQ's keys are ASCII.
//!
//! The vectors in `tests/data/acl/vectors.json` were computed by the same steps in Java
//! (`tests/data/acl/AclVectors.java`, JDK only).

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;
use hmac::{Hmac, KeyInit as _, Mac as _};
use sha1::Sha1;

/// The extField naming the access key.
pub const ACCESS_KEY: &str = "AccessKey";
/// The extField carrying the signature.
pub const SIGNATURE: &str = "Signature";

/// An access key and its secret. Its `Debug` never shows the secret, so a configuration that
/// holds it can be logged.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    access_key: String,
    secret_key: String,
}

impl Credentials {
    /// Both must be given and non-empty (a broker refuses an empty key anyway, with a less
    /// helpful message).
    pub fn new(access_key: &str, secret_key: &str) -> Result<Self, String> {
        match (access_key.trim().is_empty(), secret_key.is_empty()) {
            (false, false) => Ok(Self {
                access_key: access_key.trim().to_owned(),
                secret_key: secret_key.to_owned(),
            }),
            (true, false) => Err("an access key is needed with the secret key".into()),
            (false, true) => Err("a secret key is needed with the access key".into()),
            (true, true) => Err("the access key and the secret key are empty".into()),
        }
    }

    /// The access key (not secret: brokers log it).
    pub fn access_key(&self) -> &str {
        &self.access_key
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key", &self.access_key)
            .field("secret_key", &"<hidden>")
            .finish()
    }
}

/// `AclUtils.calSignature(combineRequestContent(…), secretKey)` over `ext_fields` as they are
/// (`AccessKey` included by the caller) and `body`.
pub fn signature(ext_fields: &BTreeMap<String, String>, body: &[u8], secret_key: &str) -> String {
    #[allow(clippy::expect_used)] // HMAC takes a key of any length: new_from_slice cannot fail.
    let mut mac = Hmac::<Sha1>::new_from_slice(secret_key.as_bytes())
        .expect("HMAC accepts keys of any length");
    for (key, value) in ext_fields {
        if key != SIGNATURE {
            mac.update(value.as_bytes());
        }
    }
    mac.update(body);
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// `AclClientRPCHook.doBeforeRequest`: adds `AccessKey`, then `Signature` over the fields and body.
pub fn sign(ext_fields: &mut BTreeMap<String, String>, body: &[u8], credentials: &Credentials) {
    ext_fields.insert(ACCESS_KEY.to_owned(), credentials.access_key.clone());
    let signature = signature(ext_fields, body, &credentials.secret_key);
    ext_fields.insert(SIGNATURE.to_owned(), signature);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_secret() {
        let c = Credentials::new("rocketmq2", "s3cret-value").unwrap();
        let shown = format!("{c:?}");
        assert!(shown.contains("rocketmq2"), "{shown}");
        assert!(!shown.contains("s3cret"), "{shown}");
    }

    #[test]
    fn both_keys_are_needed() {
        assert!(Credentials::new("", "x").is_err());
        assert!(Credentials::new("ak", "").is_err());
        assert!(Credentials::new(" ", "").is_err());
        assert_eq!(Credentials::new(" ak ", "sk").unwrap().access_key(), "ak");
    }

    #[test]
    fn sign_adds_the_key_and_a_signature_over_it() {
        let c = Credentials::new("ak", "sk").unwrap();
        let mut ext = BTreeMap::from([("topic".to_owned(), "T".to_owned())]);
        sign(&mut ext, b"", &c);
        assert_eq!(ext[ACCESS_KEY], "ak");
        // Signing again over the signed fields gives the same signature: Signature is skipped.
        let again = signature(&ext, b"", "sk");
        assert_eq!(ext[SIGNATURE], again);
        // Another secret, another signature.
        assert_ne!(signature(&ext, b"", "other"), again);
    }
}
