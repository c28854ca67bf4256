//! GET_NAMESRV_CONFIG (319) and UPDATE_NAMESRV_CONFIG (318).

use super::{Handled, Req};
use crate::java_order::PropertiesOrder;
use crate::namesrv::RouteManager;
use crate::remoting::ResponseCode;
use crate::server::config::ServerConfig;
use crate::server::config_text::config_body;

/// 319: every item as `key=value` lines, in the order the profile's NameServer writes them
/// (`config_body`; a 4.x server is taken to run on Java 8).
pub fn get(config: &ServerConfig, req: &Req) -> Handled {
    let body = config_body(
        &config.all_items(),
        req.profile.is_v5(),
        PropertiesOrder::Java8,
    );
    Ok(req.ok_body(body.into_bytes()))
}

/// 318: applies the items of the properties body; a black-listed key refuses the whole update with
/// NO_PERMISSION. Values that do not parse, and keys neither known nor kept from the `-c` file, are
/// skipped, as Java's `Configuration.update` skips them.
pub fn update(config: &mut ServerConfig, routes: &mut RouteManager, req: &Req) -> Handled {
    if req.body.is_empty() {
        return Ok(req.ok());
    }
    // Java decodes the body with `new String(body, UTF-8)`, which replaces bad bytes.
    let props = crate::remoting::properties::parse(&String::from_utf8_lossy(req.body));
    let black = config.settings.black_list();
    if props.keys().any(|k| black.contains(&k.as_str())) {
        return Err(req.reply(
            ResponseCode::NO_PERMISSION,
            Some("Can not update config in black list.".into()),
        ));
    }
    for (key, value) in &props {
        if let Err(e) = config.settings.set(key, value) {
            tracing::warn!(key, value, "UPDATE_NAMESRV_CONFIG: {e}; skipped");
        }
    }
    routes.set_config(config.settings.namesrv.clone());
    Ok(req.ok())
}
