// The page's worker (docs/web.md): holds the runtime and the opened files, and runs the page's
// commands off its main thread, so that the page never freezes; the page cancels a command by
// ending the worker and starting another. Messages: {id, op, args} in; {id, result},
// {id, error: {message, stderr}} or {id, progress: {done, total, label}} out. `AinbEngine` is the
// page's engine script, which the page puts before this one.
"use strict";
let started = null;

// A file's one-line error, when it is an AI file the runtime refuses (not AINB, truncated,
// compressed): the page shows it beside the file's name.
function refusal(ainb, name) {
  if (!/\.(ainb|zs)$/i.test(name)) return "";
  try {
    ainb.info(name);
    return "";
  } catch (e) {
    return e.message;
  }
}

const ops = {
  add: (ainb, name, bytes) => ({ name, error: (ainb.addFile(name, bytes), refusal(ainb, name)) }),
  remove: (ainb, name) => ainb.removeFile(name),
  run: (ainb, name, options) => ainb.run(name, options),
  report: (ainb, trace, name, options) => ainb.report(trace, name, options),
  regress: (ainb, original, edited, options) => ainb.regress(original, edited, options),
  explore: (ainb, name, options, id) =>
    ainb.explore(name, { ...options, progress: (done, total, label) => postMessage({ id, progress: { done, total, label } }) }),
  options: (ainb) => [...ainb.options.values()],
};

self.onmessage = async ({ data: { id, op, args } }) => {
  try {
    if (op === "start") {
      started = AinbEngine.load({ wasmBinary: args[0] });
      await started;
      postMessage({ id, result: true });
      return;
    }
    const ainb = await started;  // messages sent before the module started wait for it, in order
    if (!Object.hasOwn(ops, op)) throw new Error(`ainb worker: no operation ${op}`);
    postMessage({ id, result: ops[op](ainb, ...args, id) });
  } catch (e) {
    postMessage({ id, error: { message: e.message, stderr: e.stderr ?? "" } });
  }
};
