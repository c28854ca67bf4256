// Writes live mode's page into a Trunk output directory: the bundle from wasm-bindgen (live.js,
// live_bg.wasm in SRC) and live mode's own style sheet (www/live.css, which the workshop does not
// load) renamed with a content hash, as Trunk names its files, so browsers never run a stale copy;
// and live.html, the workshop's index.html (same style sheet, icon and loader) with the workshop's
// bundle swapped for this one, live.css linked after style.css, and the integrity hashes recomputed.
//   node scripts/live-page.mjs SRC OUT
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [src, out] = process.argv.slice(2);
if (!src || !out) {
  console.error('usage: node scripts/live-page.mjs SRC OUT');
  process.exit(2);
}
const js = readFileSync(join(src, 'live.js'));
const wasm = readFileSync(join(src, 'live_bg.wasm'));
const stem = `live-${createHash('sha256').update(js).update(wasm).digest('hex').slice(0, 16)}`;
writeFileSync(join(out, `${stem}.js`), js);
writeFileSync(join(out, `${stem}_bg.wasm`), wasm);
const css = readFileSync(new URL('../www/live.css', import.meta.url));
const cssName = `live-${createHash('sha256').update(css).digest('hex').slice(0, 16)}.css`;
writeFileSync(join(out, cssName), css);

const index = readFileSync(join(out, 'index.html'), 'utf8');
const old = readdirSync(out).find((f) => /^dashboard-[0-9a-f]+\.js$/.test(f))?.replace(/\.js$/, '');
if (!old || !index.includes(old)) {
  console.error(`${out}/index.html does not load a dashboard-*.js bundle: build the workshop first`);
  process.exit(1);
}
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
// After the workshop's style sheet (Trunk's style-HASH.css), so live mode's rules win ties.
// A release build's index.html is minified: attribute values may come without quotes.
const styleTag = index.match(/<link\b[^>]*\bhref="?\/style-[0-9a-f]+\.css"?[^>]*>/)?.[0];
if (!styleTag) {
  console.error(`${out}/index.html links no style-*.css`);
  process.exit(1);
}
const page = index
  .replace(styleTag, `${styleTag}\n    <link rel="stylesheet" href="/${cssName}" integrity="${sri(css)}"/>`)
  .replaceAll(old, stem)
  .replace(/<title>[^<]*<\/title>/, '<title>RouteLab — live</title>')
  // Each tag naming one of our files carries that file's integrity hash, not the workshop's.
  .replace(/<link\b[^>]*>/g, (tag) => {
    const href = tag.match(/\bhref="?[^"\s>]*?([^"\s>/]+)"?/)?.[1];
    const bytes = href === `${stem}.js` ? js : href === `${stem}_bg.wasm` ? wasm : null;
    return bytes ? tag.replace(/\bintegrity=("[^"]*"|[^\s>]*)/, `integrity="${sri(bytes)}"`) : tag;
  });
writeFileSync(join(out, 'live.html'), page);
console.log(`live mode written to ${out}: live.html, ${stem}.js, ${stem}_bg.wasm`);
