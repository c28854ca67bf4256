// Shrinks a release build's wasm-bindgen bundles (the workshop's and live mode's: every NAME_bg.wasm
// with its NAME.js at the top of DIR) before they are precompressed. What a learner's first load
// weighs is the workshop's budget (BENCHMARKS.md), and two things in it are not code:
//  - wasm-bindgen names each import after a Rust function plus a 16-digit hash, e.g.
//    `__wbg_message_43d8c8f1d543a349`, once in the wasm and once in the JavaScript; hashes do not
//    compress. Binaryen's `--minify-imports-and-exports-and-modules` renames imports, exports and
//    the import module to one or two letters and prints the map, which is applied to the
//    JavaScript (the import object's keys, `wasm.NAME` for exports). It runs with `-Oz`: wasm-opt
//    writing the module without optimising makes it about 1 KB larger.
//  - Trunk cannot minify wasm-bindgen's ES module ("Failed to minify JS"); Terser can.
// Then the pages' Subresource Integrity hashes (Trunk's `integrity=` attributes) are written anew.
// Run by Trunk's post_build hook on release builds (TRUNK_STAGING_DIR); by hand:
//   node scripts/shrink-bundle.mjs DIR
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/shrink-bundle.mjs DIR');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
// The features rustc's wasm32 target uses (as Trunk passes them), so wasm-opt reads the module.
const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue'];

const sri = (bytes) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');
const integrity = new Map(); // old attribute value → new one

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const name of readdirSync(dir)) {
  const m = name.match(/^(.*)_bg\.wasm$/);
  if (!m) continue;
  const wasmPath = join(dir, name);
  const jsPath = join(dir, `${m[1]}.js`);
  const oldWasm = readFileSync(wasmPath);
  const oldJs = readFileSync(jsPath, 'utf8');
  const tmp = wasmPath + '.min';
  const out = execFileSync(wasmOpt,
    // `--low-memory-unused` as Trunk's pass has it (index.html says why).
    [...FEATURES, '-Oz', '--low-memory-unused', '--minify-imports-and-exports-and-modules', wasmPath, '-o', tmp],
    { encoding: 'utf8' });
  // The map is the JSON object wasm-opt prints: {"imports": [[module, old, new], …], "exports":
  // [[old, new], …]}; the new module name is read from the module itself.
  const map = JSON.parse(out.slice(out.indexOf('{')));
  const fail = (what) => {
    throw new Error(`${jsPath}: ${what}; the bundle is left as it was`);
  };
  const modules = new Set(map.imports.map(([module]) => module));
  const renamed = new Set(WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(tmp))).map((i) => i.module));
  if (modules.size !== 1 || renamed.size !== 1) fail(`imports from ${modules.size} modules`);
  let js = oldJs;
  const swap = (pattern, to, what) => {
    if (!pattern.test(js)) fail(`${what} not found`);
    js = js.replace(pattern, to);
  };
  // wasm-bindgen's import object: `NAME: function(…` under the key "./NAME_bg.js".
  swap(new RegExp(`(["'])${escape([...modules][0])}\\1(\\s*:)`), `${JSON.stringify([...renamed][0])}$2`, 'the import module');
  for (const [, from, to] of map.imports) {
    swap(new RegExp(`(^|[\\s{,])${escape(from)}(\\s*:)`, 'm'), `$1${JSON.stringify(to)}$2`, `the import ${from}`);
  }
  // Exports, as wasm-bindgen's glue reads them: `wasm.NAME`.
  for (const [from, to] of map.exports) {
    const use = new RegExp(`\\bwasm\\.${escape(from)}\\b`, 'g');
    if (use.test(js)) js = js.replace(use, `wasm[${JSON.stringify(to)}]`);
  }
  const min = await minify(js, { module: true, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  renameSync(tmp, wasmPath);
  writeFileSync(jsPath, min.code);
  const newWasm = readFileSync(wasmPath);
  integrity.set(sri(oldWasm), sri(newWasm));
  integrity.set(sri(Buffer.from(oldJs)), sri(Buffer.from(min.code)));
  console.log(`shrank ${m[1]}: ${map.imports.length} imports renamed; wasm ${oldWasm.length} → ${newWasm.length} B, js ${oldJs.length} → ${min.code.length} B`);
}

for (const name of readdirSync(dir)) {
  if (!name.endsWith('.html')) continue;
  const path = join(dir, name);
  const html = readFileSync(path, 'utf8');
  let next = html;
  for (const [from, to] of integrity) next = next.split(from).join(to);
  if (next !== html) writeFileSync(path, next);
}
