// Writes the self-contained page (docs/web.md): the template hosts/web/page/ainb.html with its
// style, the module (base64), the option table, the engine (the module's JavaScript and the API,
// one classic script that the page and its worker both run), the worker's script and the page's.
// Build step of hosts/web.
//   node bundle.mjs OUT TEMPLATE STYLE MODULE_JS WASM API_JS WORKER_JS DEBUGGER_MJS DEBUG_JS WHATIF_JS PAGE_JS LIVE_JS
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [out, template, style, moduleJs, wasm, apiJs, workerJs, debuggerMjs, debugJs, whatIfJs, pageJs, liveJs] = process.argv.slice(2);
const text = (path) => readFileSync(path, 'utf8');

// The module and the API as one classic script: no `import`/`export`, and no import.meta. Its
// URL only locates the module's bytes, which the page hands over; a blob worker's own URL
// cannot be a base for it, so a fixed one stands in.
function classic(source, path) {
  const stripped = source
    .replace(/^import .*$/gm, '')
    .replace(/^export default \w+;$/gm, '')
    .replace(/^export (?=(async )?(class|function|const|let) )/gm, '')
    .replaceAll('import.meta.url', '"file:///ainb-page/"');
  if (/^\s*import\s+[\w{*]|^\s*export\s/m.test(stripped)) throw new Error(`${path}: an import or export is left`);
  return stripped;
}
const engine = `(() => {
${classic(text(moduleJs), moduleJs)}
${classic(text(apiJs), apiJs)}
self.AinbEngine = { load, loadSync, Ainb, AinbError };
})();`;
// The debugger's model, its panel and the what-if panel: one classic script, for the page only.
const debuggerScript = `(() => {
${classic(text(debuggerMjs), debuggerMjs)}
${text(debugJs)}
${text(whatIfJs)}
self.AinbDebugger = { Session, parseBreakpoint, breakpointText, breakpointLink, debugPanel, whatIfPanel, intervened };
})();`;

// The option table as the module itself reports it, each row with its name in the JavaScript
// API (`key`).
const { load } = await import(pathToFileURL(`${apiJs}`).href);
const ainb = await load({ wasmBinary: readFileSync(wasm) });
const options = JSON.stringify([...ainb.options].map(([key, row]) => ({ ...row, key })));

const parts = {
  STYLE: text(style),
  // Not compressed: the URL mode needs the bytes at once, and the browsers' decompression is
  // asynchronous (docs/web.md, "How the page is made").
  WASM: readFileSync(wasm).toString('base64'),
  OPTIONS: options,
  ENGINE: engine,
  WORKER: text(workerJs),
  DEBUGGER: debuggerScript,
  LIVE: text(liveJs),  // an engine's stream (page/live.js)
  PAGE: text(pageJs),
};
for (const [name, part] of Object.entries(parts)) {
  // Inside a <script> or <style>, these would end it early (or change how it is read).
  if (/<\/(script|style)|<!--/i.test(part)) throw new Error(`bundle: the ${name} part holds </script, </style or <!--`);
}
let page = text(template);
for (const [name, part] of Object.entries(parts)) {
  const marker = `@@${name}@@`;
  if (!page.includes(marker)) throw new Error(`bundle: ${template} has no ${marker}`);
  page = page.replace(marker, () => part);
}
writeFileSync(out, page);
const megabytes = (Buffer.byteLength(page) / 1e6).toFixed(2);
console.log(`bundle: ${out}, ${megabytes} MB`);
