# Sourced by the scripts: PATH and the environment Trunk and the wasm test runner need.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$ROOT/node_modules/.bin:$PATH"   # wasm-opt from binaryen
export TRUNK_SKIP_VERSION_CHECK=true      # Trunk's booleans must be "true", never "1"
# Trunk reads NO_COLOR as a boolean flag and rejects "1"; "true" still means no colour to others.
if [[ -n "${NO_COLOR:-}" ]]; then export NO_COLOR=true; fi
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$ROOT/webdriver.json"
export WASM_BINDGEN_TEST_TIMEOUT=120
# The wasm bundles name a dependency's source file in its panic messages: as crates/…, not by where
# this machine keeps the registry.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src=crates"
