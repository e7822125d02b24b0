// What the Node tests of the WebAssembly build share: where the build and the corpus are, and a
// loaded module per folder of files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webDir = path.resolve(root, process.env.AINB_WEB_DIR ?? 'build/wasm/web');
export const nativeAinb = path.resolve(root, process.env.AINB_NATIVE ?? 'build/release/hosts/cli/ainb');
export const corpus = path.resolve(root, process.env.AINB_CORPUS ?? '../shared/corpus');

export const api = await import(pathToFileURL(path.join(webDir, 'ainb.mjs')).href);

// The corpus's folders of real AI files; in CI a missing corpus fails rather than skips.
export function corpusFolders() {
  const folders = ['ainb', 'bulk/ainb', 'wide/ainb'].map((f) => path.join(corpus, f));
  const missing = folders.filter((f) => !fs.existsSync(f));
  if (missing.length > 0 && process.env.CI) throw new Error(`no corpus at ${missing.join(', ')}`);
  return missing.length > 0 ? [] : folders;
}

// A module holding every `.ainb` file of `folder`, by base name.
export async function loadFolder(folder) {
  const ainb = await api.load();
  for (const name of fs.readdirSync(folder).filter((n) => n.endsWith('.ainb')).sort())
    ainb.addFile(name, fs.readFileSync(path.join(folder, name)));
  return ainb;
}

export function example(name) {
  return fs.readFileSync(path.join(root, 'examples', name), 'utf8');
}
