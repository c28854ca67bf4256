// Writes NAME.br (brotli, quality 11) and NAME.gz (gzip -9) beside every compressible file of a
// built dashboard, so RouteLab's servers send each browser the smallest copy it accepts without
// compressing anything per request (src/bridge/delivery.rs). A copy is written only when it is
// smaller than the file; copies left from an earlier build are replaced or removed.
// Run by Trunk's post_build hook on release builds (TRUNK_STAGING_DIR); by hand:
//   node scripts/precompress.mjs DIR
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join, extname } from 'node:path';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('usage: node scripts/precompress.mjs DIR');
  process.exit(2);
}
const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.ts', '.txt', '.map']);
const BINARY = new Set(['.wasm']);
// Below this a compressed copy saves less than a packet's headers.
const MIN_BYTES = 512;

function* files(d) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

let raw = 0, br = 0, gz = 0, n = 0;
for (const path of [...files(dir)]) {
  const ext = extname(path);
  if (ext === '.br' || ext === '.gz') continue;
  const text = TEXT.has(ext);
  if (!text && !BINARY.has(ext)) continue;
  const bytes = readFileSync(path);
  const copies = [
    ['.br', () => brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: text ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    })],
    ['.gz', () => gzipSync(bytes, { level: 9 })],
  ];
  for (const [suffix, make] of copies) {
    const out = bytes.length >= MIN_BYTES ? make() : null;
    const kept = out && out.length < bytes.length;
    if (kept) writeFileSync(path + suffix, out);
    else rmSync(path + suffix, { force: true });
    // What a client accepting this encoding downloads: the copy, or the file itself.
    const sent = kept ? out.length : bytes.length;
    if (suffix === '.br') br += sent; else gz += sent;
  }
  raw += bytes.length;
  n += 1;
}
const kb = (b) => (b / 1024).toFixed(1);
console.log(`precompressed ${n} files in ${dir}: ${kb(raw)} KB → brotli ${kb(br)} KB, gzip ${kb(gz)} KB (compressible files only)`);
