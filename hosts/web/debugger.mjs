// The debugger's model (docs/debugger.md): a run's JSON-lines trace, a cursor over its events and
// the breakpoints that stop it. No DOM: the page (page/debug.js) draws it, and the Node tests check
// it against the native CLI's traces. The bundle makes it a classic script for the page.

// A breakpoint's kinds, and what each matches in a trace event. `node` breakpoints name a node of
// the run's top file unless they name a `file`; `from` and `to` limit them to frames.
export const breakpointKinds = {
  enter: { node: true, matches: (b, e) => e.event === 'enter' },
  leave: { node: true, matches: (b, e) => e.event === 'leave' },
  update: { node: true, matches: (b, e) => e.event === 'update' && (!b.result || e.result === b.result) },
  written: { entry: true, matches: (b, e) => e.event === 'blackboard' && entryOf(e).name === b.name },
  equal: {
    entry: true,
    matches: (b, e) => e.event === 'blackboard' && entryOf(e).name === b.name && sameValue(entryOf(e).value, b.value),
  },
  command: { matches: (b, e) => e.event === 'command' && (!b.name || e.detail === b.name) },
  alert: { matches: (b, e) => e.event === 'alert' && (b.node === undefined || e.node === b.node) },
};

const results = ['Running', 'Success', 'Failure'];

// A blackboard event's `detail` ("name=value") as its parts.
function entryOf(e) {
  const at = (e.detail ?? '').indexOf('=');
  return at < 0 ? { name: e.detail ?? '', value: '' } : { name: e.detail.slice(0, at), value: e.detail.slice(at + 1) };
}

// A value as the trace writes it and as a person types it: equal as numbers when both are.
function sameValue(traced, typed) {
  const text = String(typed);
  if (traced === text) return true;
  const a = Number(traced), b = Number(text);
  return traced.trim() !== '' && text.trim() !== '' && Number.isFinite(a) && a === b;
}

// A breakpoint from its text in a link: `enter:N`, `leave:N`, `update:N[:RESULT]` (N, or FILE#N
// for a module's node), `written:NAME`, `equal:NAME:VALUE`, `command[:NAME]`, `alert[:N]`; before
// it a link may put `off,` (switched off) and `frames=F-T,` (either end may be left out), first
// because a value may hold any character. Throws an Error that says what is wrong.
export function parseBreakpoint(text) {
  const b = {};
  let rest = text;
  for (let m; (m = /^(off|frames=(\d*)-(\d*)),/.exec(rest)); rest = rest.slice(m[0].length)) {
    if (m[1] === 'off') b.enabled = false;
    else if (m[2] === '' && m[3] === '') throw new Error(`breakpoint "${text}": "frames=-" names no frame (frames=F-T, F- or -T)`);
    else {
      if (m[2] !== '') b.from = Number(m[2]);
      if (m[3] !== '') b.to = Number(m[3]);
      if (b.from > b.to) throw new Error(`breakpoint "${text}": frames ${b.from}-${b.to} end before they begin`);
    }
  }
  const [kind, ...args] = rest.split(':');
  const row = breakpointKinds[kind];
  if (!row) throw new Error(`breakpoint "${text}": unknown kind "${kind}" (expected one of: ${Object.keys(breakpointKinds).join(', ')})`);
  b.kind = kind;
  const node = (spec) => {
    const hash = spec.lastIndexOf('#');
    const number = hash < 0 ? spec : spec.slice(hash + 1);
    if (!/^\d+$/.test(number)) throw new Error(`breakpoint "${text}": "${spec}" is not a node number (N or FILE#N)`);
    if (hash >= 0) b.file = spec.slice(0, hash);
    b.node = Number(number);
  };
  if (row.node) {
    if (args.length < 1 || args.length > (kind === 'update' ? 2 : 1)) throw new Error(`breakpoint "${text}": expected ${kind}:N${kind === 'update' ? '[:RESULT]' : ''}`);
    node(args[0]);
    if (args[1] !== undefined) {
      if (!results.includes(args[1])) throw new Error(`breakpoint "${text}": "${args[1]}" is not a result (${results.join(', ')})`);
      b.result = args[1];
    }
  } else if (row.entry) {
    const wanted = kind === 'equal' ? 2 : 1;
    if (args.length < wanted) throw new Error(`breakpoint "${text}": expected ${kind}:NAME${kind === 'equal' ? ':VALUE' : ''}`);
    b.name = args[0];
    if (kind === 'equal') b.value = args.slice(1).join(':');
  } else if (kind === 'command' && args.length > 0) {
    b.name = args.join(':');
  } else if (kind === 'alert' && args.length > 0) {
    node(args[0]);
  }
  return b;
}

// A breakpoint as a person reads it (the list's lines, where its frames and switch are shown apart).
export function breakpointText(b) {
  const node = b.node === undefined ? '' : `${b.file ? `${b.file}#` : ''}${b.node}`;
  const args = { enter: [node], leave: [node], update: [node, b.result], written: [b.name], equal: [b.name, b.value], command: [b.name], alert: [node] }[b.kind] ?? [];
  return [b.kind, ...args.filter((a) => a !== undefined && a !== '')].join(':');
}

// A breakpoint as a link writes it: its text after its switch and frames, which parseBreakpoint reads.
export function breakpointLink(b) {
  const off = b.enabled === false ? 'off,' : '';
  const frames = b.from !== undefined || b.to !== undefined ? `frames=${b.from ?? ''}-${b.to ?? ''},` : '';
  return off + frames + breakpointText(b);
}

// A run's trace and a cursor over it. The cursor is an event's position in the trace (its line,
// from 0): that event has just happened. `top` is the file run: node breakpoints without a file
// name its nodes.
export class Session {
  constructor(trace, top) {
    this.lines = trace.split('\n').filter((line) => line !== '');
    this.events = this.lines.map((line) => JSON.parse(line));
    this.top = top;
    this.cursor = 0;
  }

  // More events at the end (a live stream's frame, page/live.js); returns how many. The
  // checkpoints made so far stay valid: they only cover events before these.
  append(trace) {
    const lines = trace.split('\n').filter((line) => line !== '');
    for (const line of lines) {
      this.events.push(JSON.parse(line));
      this.lines.push(line);
    }
    return lines.length;
  }

  get size() {
    return this.events.length;
  }
  get frame() {
    return this.size === 0 ? 0 : this.events[this.cursor].frame;
  }
  get last() {
    return this.size === 0 ? 0 : this.events[this.size - 1].frame;
  }
  // What the page writes into #ainb-status.
  status() {
    return `frame ${this.frame} event ${this.cursor}`;
  }

  // Whether `b` stops at event `e` (disabled ones never do).
  matches(b, e) {
    if (b.enabled === false) return false;
    if (b.from !== undefined && e.frame < b.from) return false;
    if (b.to !== undefined && e.frame > b.to) return false;
    const row = breakpointKinds[b.kind];
    if (!row || !row.matches(b, e)) return false;
    if (row.node || (b.kind === 'alert' && b.node !== undefined)) return e.node === b.node && e.file === (b.file || this.top);
    if (row.entry && b.file) return e.file === b.file;
    return true;
  }
  // The first event after `after` that a breakpoint stops at: its position and the breakpoint,
  // or null.
  find(breakpoints, after = this.cursor) {
    for (let i = after + 1; i < this.size; ++i) {
      const hit = breakpoints.find((b) => this.matches(b, this.events[i]));
      if (hit) return { at: i, breakpoint: hit };
    }
    return null;
  }

  // The first event of the first frame at or after `frame` (the last event when none is).
  frameStart(frame) {
    let lo = 0, hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid].frame < frame) lo = mid + 1;
      else hi = mid;
    }
    return Math.min(lo, Math.max(0, this.size - 1));
  }

  // Cursor moves; each returns the new position.
  go(at) {
    this.cursor = Math.min(Math.max(0, at), Math.max(0, this.size - 1));
    return this.cursor;
  }
  nextEvent() {
    return this.go(this.cursor + 1);
  }
  previousEvent() {
    return this.go(this.cursor - 1);
  }
  // The first event of the next frame that has events (the last event when none has).
  nextFrame() {
    return this.go(this.frameStart(this.frame + 1));
  }
  // The first event of the frame before the cursor's (of its own frame, from inside one).
  previousFrame() {
    const start = this.frameStart(this.frame);
    if (start < this.cursor) return this.go(start);
    return this.go(start === 0 ? 0 : this.frameStart(this.events[start - 1].frame));
  }
  toFrame(frame) {
    return this.go(this.frameStart(frame));
  }
  // The run at the cursor: the nodes entered and not left (by file, in order of entering), each
  // node's last result, and the blackboard entries written so far (`name=value` as traced).
  // From the nearest checkpoint (every kCheckpoint events, made once), so a move costs the same
  // anywhere in a long run.
  stateAt(at = this.cursor) {
    const end = Math.min(at, this.size - 1) + 1;  // events [0, end) happened
    const k = Math.floor(end / kCheckpoint);
    this.checkpoints ??= [new RunState()];
    for (let c = this.checkpoints.length; c <= k; ++c) {
      const state = this.checkpoints[c - 1].copy();
      for (let i = (c - 1) * kCheckpoint; i < c * kCheckpoint; ++i) state.apply(this.events[i]);
      this.checkpoints.push(state);
    }
    const state = this.checkpoints[k].copy();
    for (let i = k * kCheckpoint; i < end; ++i) state.apply(this.events[i]);
    return { open: [...state.open.values()], results: state.results, blackboard: [...state.blackboard.values()] };
  }
}

const kCheckpoint = 1024;

// What stateAt() keeps, event by event (checkpoint k: after the first k * kCheckpoint events).
class RunState {
  constructor(open = new Map(), results = new Map(), blackboard = new Map()) {
    Object.assign(this, { open, results, blackboard });
  }
  copy() {
    return new RunState(new Map(this.open), new Map(this.results), new Map(this.blackboard));
  }
  apply(e) {
    const key = `${e.file}#${e.node}`;
    if (e.event === 'enter') this.open.set(key, e);
    else if (e.event === 'leave') this.open.delete(key);
    else if (e.event === 'update') this.results.set(key, e.result);
    else if (e.event === 'blackboard') {
      const { name, value } = entryOf(e);
      this.blackboard.set(`${e.file}:${name}`, { file: e.file, name, value, frame: e.frame });
    }
  }
}

export default Session;
