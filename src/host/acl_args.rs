//! `--access-key` / `--secret-key`: the credentials of an ACL-protected cluster, for `routelab
//! bridge` and `routelab admin`. Both may come from the environment (`ROUTELAB_ACCESS_KEY`,
//! `ROUTELAB_SECRET_KEY`) so the secret need not appear in `ps`; their values are never shown in
//! `--help`, logs or errors.

use crate::remoting::acl::Credentials;

/// The ACL flags.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct AclArgs {
    /// With ACL on: the access key every request is signed with (as RocketMQ's AclClientRPCHook).
    /// Needs --secret-key. Also read from ROUTELAB_ACCESS_KEY.
    #[arg(
        long,
        value_name = "KEY",
        env = "ROUTELAB_ACCESS_KEY",
        hide_env_values = true,
        global = true
    )]
    pub access_key: Option<String>,
    /// The secret of --access-key. Prefer ROUTELAB_SECRET_KEY, which `ps` does not show.
    #[arg(
        long,
        value_name = "SECRET",
        env = "ROUTELAB_SECRET_KEY",
        hide_env_values = true,
        global = true
    )]
    pub secret_key: Option<String>,
}

impl AclArgs {
    /// `None` without either flag; both or an error saying which is missing.
    pub fn credentials(&self) -> Result<Option<Credentials>, String> {
        match (&self.access_key, &self.secret_key) {
            (None, None) => Ok(None),
            (Some(ak), Some(sk)) => Credentials::new(ak, sk)
                .map(Some)
                .map_err(|e| format!("--access-key/--secret-key: {e}")),
            (Some(_), None) => Err(
                "--access-key needs --secret-key (or ROUTELAB_SECRET_KEY in the environment)"
                    .into(),
            ),
            (None, Some(_)) => Err(
                "--secret-key needs --access-key (or ROUTELAB_ACCESS_KEY in the environment)"
                    .into(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(ak: Option<&str>, sk: Option<&str>) -> AclArgs {
        AclArgs {
            access_key: ak.map(str::to_owned),
            secret_key: sk.map(str::to_owned),
        }
    }

    #[test]
    fn both_or_neither() {
        assert_eq!(args(None, None).credentials(), Ok(None));
        let c = args(Some("ak"), Some("sk")).credentials().unwrap().unwrap();
        assert_eq!(c.access_key(), "ak");
        let e = args(Some("ak"), None).credentials().unwrap_err();
        assert!(e.contains("--secret-key"), "{e}");
        let e = args(None, Some("top-secret")).credentials().unwrap_err();
        assert!(
            e.contains("--access-key") && !e.contains("top-secret"),
            "{e}"
        );
    }
}
