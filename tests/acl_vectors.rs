//! ACL signatures against vectors computed in Java by the steps of RocketMQ's `AclClientRPCHook`,
//! `AclUtils.combineRequestContent` and `AclSigner` (`tests/data/acl/AclVectors.java`, which says
//! how to run it): the same extFields, body and keys give the same `Signature`.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use routelab::remoting::acl::{sign, Credentials, ACCESS_KEY, SIGNATURE};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vector {
    name: String,
    access_key: String,
    secret_key: String,
    ext_fields: BTreeMap<String, String>,
    body_hex: String,
    signature: String,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn signatures_match_java() {
    let text = std::fs::read_to_string("tests/data/acl/vectors.json").unwrap();
    let vectors: Vec<Vector> = serde_json::from_str(&text).unwrap();
    assert_eq!(vectors.len(), 8);
    for v in vectors {
        let credentials = Credentials::new(&v.access_key, &v.secret_key).unwrap();
        let mut ext = v.ext_fields.clone();
        sign(&mut ext, &unhex(&v.body_hex), &credentials);
        assert_eq!(ext[SIGNATURE], v.signature, "{}", v.name);
        assert_eq!(ext[ACCESS_KEY], v.access_key, "{}", v.name);
        // Nothing else is added or changed.
        let mut others = ext.clone();
        others.remove(SIGNATURE);
        others.remove(ACCESS_KEY);
        let mut given = v.ext_fields.clone();
        given.remove(SIGNATURE);
        assert_eq!(others, given, "{}", v.name);
    }
}
