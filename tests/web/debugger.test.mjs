// The debugger's model (hosts/web/debugger.mjs) over the native CLI's traces: where breakpoints
// stop, how the cursor steps, what is open at the cursor, and the breakpoints' text.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

import { corpus, corpusFolders, example, nativeAinb, webDir } from './support.mjs';

const { Session, parseBreakpoint, breakpointText, breakpointLink } = await import(pathToFileURL(path.join(webDir, 'debugger.mjs')).href);

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ainb-debugger-'));
const native = (...args) => {
  const r = spawnSync(nativeAinb, args, { cwd: folder, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};
native('convert', path.resolve('examples/patrol.root.json'), 'patrol.root.ainb', '--force');
fs.writeFileSync(path.join(folder, 'patrol.scenario.json'), example('patrol.scenario.json'));
// The bundled example's run: 59 events over frames 0 to 10 (docs/simulation.md's scenario).
const patrol = native('run', 'patrol.root.ainb', '--scenario', 'patrol.scenario.json', '--trace', '-');
const stops = (session, breakpoints) => {
  const at = [];
  for (let hit = session.find(breakpoints, -1); hit; hit = session.find(breakpoints, hit.at)) at.push(hit.at);
  return at;
};

test('breakpoints stop at the events of the native trace: each kind', () => {
  const s = new Session(patrol, 'patrol.root.ainb');
  assert.equal(s.size, 59);
  const at = (text) => stops(s, [parseBreakpoint(text)]);
  assert.deepEqual(at('enter:4'), [4, 31]);
  assert.deepEqual(at('leave:4'), [14, 34]);
  assert.deepEqual(at('update:1'), [7, 11, 17, 21, 26, 38, 41]);
  assert.deepEqual(at('update:1:Failure'), [41]);
  assert.deepEqual(at('written:IsEnemyNear'), [33]);
  assert.deepEqual(at('equal:IsEnemyNear:true'), [33]);
  assert.deepEqual(at('equal:IsEnemyNear:false'), []);
  assert.deepEqual(at('command'), [0, 46]);
  assert.deepEqual(at('command:Alert'), [46]);
  assert.deepEqual(at('enter:patrol.root.ainb#9'), [55]);
  assert.deepEqual(at('enter:other.module.ainb#9'), []);
  // Frames limit them; a disabled one never stops; the first of several in trace order.
  assert.deepEqual(stops(s, [{ ...parseBreakpoint('update:4'), from: 2, to: 3 }]), [9, 13]);
  assert.deepEqual(stops(s, [{ ...parseBreakpoint('enter:4'), enabled: false }]), []);
  assert.deepEqual(at('frames=2-3,update:4'), [9, 13]);
  assert.deepEqual(at('off,enter:4'), []);
  const hit = s.find([parseBreakpoint('update:2'), parseBreakpoint('enter:2')], -1);
  assert.deepEqual(hit, { at: 36, breakpoint: parseBreakpoint('enter:2') });
});

test('the cursor: events, frames, run to a frame, and the status the page shows', () => {
  const s = new Session(patrol, 'patrol.root.ainb');
  assert.equal(s.status(), 'frame 0 event 0');
  assert.equal(s.nextEvent(), 1);
  assert.equal(s.nextFrame(), 5);
  assert.equal(s.status(), 'frame 1 event 5');
  assert.equal(s.nextFrame(), 9);
  assert.equal(s.nextEvent(), 10);
  assert.equal(s.previousFrame(), 9, 'from inside a frame: its first event');
  assert.equal(s.previousFrame(), 5, 'from a frame\'s first event: the frame before');
  // Frames without events (8 and 9) lead to the next that has some.
  assert.equal(s.toFrame(8), 46);
  assert.equal(s.status(), 'frame 10 event 46');
  assert.equal(s.previousFrame(), 40);
  assert.equal(s.toFrame(600), 58, 'past the run: its last event');
  assert.equal(s.nextEvent(), 58);
  assert.equal(s.nextFrame(), 58);
  assert.equal(s.go(-5), 0);
  assert.equal(s.previousEvent(), 0);
  assert.equal(s.previousFrame(), 0);
  assert.equal(s.last, 10);
});

test('at the cursor: nodes open, their last results, the blackboard written so far', () => {
  const s = new Session(patrol, 'patrol.root.ainb');
  const view = (at) => {
    const { open, results, blackboard } = s.stateAt(at);
    return {
      open: open.map((e) => `#${e.node} ${results.get(`${e.file}#${e.node}`) ?? '-'}`),
      blackboard: blackboard.map((b) => `${b.name}=${b.value}@${b.frame}`),
    };
  };
  assert.deepEqual(view(0), { open: [], blackboard: [] });
  assert.deepEqual(view(15), { open: ['#0 Running', '#1 Running', '#3 Running', '#5 -'], blackboard: [] });
  assert.deepEqual(view(33), { open: ['#0 Running', '#1 Success', '#3 Success', '#4 Success'], blackboard: ['IsEnemyNear=true@6'] });
  assert.deepEqual(view(45), { open: [], blackboard: ['IsEnemyNear=true@6'] });
});

test('breakpoints as text: read, written back, and what is wrong with a bad one', () => {
  for (const text of ['enter:4', 'leave:Mod.module.ainb#3', 'update:1:Failure', 'written:IsEnemyNear', 'equal:Name:a:b', 'command', 'command:Alert', 'alert', 'alert:7'])
    assert.equal(breakpointText(parseBreakpoint(text)), text);
  assert.deepEqual(parseBreakpoint('equal:Speed:2.5'), { kind: 'equal', name: 'Speed', value: '2.5' });
  // A link's form keeps the frames and the switch, which the list shows apart from the text.
  for (const text of ['off,enter:4', 'frames=2-3,update:4', 'off,frames=5-,equal:Name:off,frames=1-2', 'frames=-9,command'])
    assert.equal(breakpointLink(parseBreakpoint(text)), text);
  assert.deepEqual(parseBreakpoint('off,frames=2-3,update:4:Success'), { kind: 'update', node: 4, result: 'Success', enabled: false, from: 2, to: 3 });
  assert.equal(breakpointText(parseBreakpoint('off,frames=2-3,enter:4')), 'enter:4');
  assert.throws(() => parseBreakpoint('frames=-,enter:4'), { message: 'breakpoint "frames=-,enter:4": "frames=-" names no frame (frames=F-T, F- or -T)' });
  assert.throws(() => parseBreakpoint('frames=9-3,enter:4'), { message: 'breakpoint "frames=9-3,enter:4": frames 9-3 end before they begin' });
  assert.throws(() => parseBreakpoint('on,enter:4'), { message: 'breakpoint "on,enter:4": unknown kind "on,enter" (expected one of: enter, leave, update, written, equal, command, alert)' });
  assert.throws(() => parseBreakpoint('stop:3'), { message: 'breakpoint "stop:3": unknown kind "stop" (expected one of: enter, leave, update, written, equal, command, alert)' });
  assert.throws(() => parseBreakpoint('enter:x'), { message: 'breakpoint "enter:x": "x" is not a node number (N or FILE#N)' });
  assert.throws(() => parseBreakpoint('enter'), { message: 'breakpoint "enter": expected enter:N' });
  assert.throws(() => parseBreakpoint('update:3:Done'), { message: 'breakpoint "update:3:Done": "Done" is not a result (Running, Success, Failure)' });
  assert.throws(() => parseBreakpoint('equal:Speed'), { message: 'breakpoint "equal:Speed": expected equal:NAME:VALUE' });
  // A number is equal to the trace's however it is typed.
  const s = new Session('{"frame":2,"event":"blackboard","file":"a.ainb","detail":"Speed=2.5"}\n', 'a.ainb');
  assert.equal(s.find([parseBreakpoint('equal:Speed:2.50')], -1)?.at, 0);
  assert.equal(s.find([parseBreakpoint('equal:Speed:')], -1), null);
});

// Real files: every enter, update and leave a breakpoint stops at is a line of the native trace
// naming that event, file and node, and none is missed (the lines found by their text alone).
test('real files: node breakpoints stop at exactly the trace lines of their node', () => {
  const folders = corpusFolders();
  if (folders.length === 0) return;
  const file = path.join(corpus, 'wide/ainb/Lynel_EscapeSmoke.actionseq.root.ainb');
  const trace = native('run', file, '--stub-missing-modules', '--frames', '600', '--trace', '-');
  const top = path.basename(file);
  const s = new Session(trace, top);
  assert.ok(s.size > 30000, `${s.size} events`);
  const nodes = [...new Set(s.events.filter((e) => e.file === top && e.node !== undefined).map((e) => e.node))];
  assert.ok(nodes.length > 10);
  for (const node of nodes.slice(0, 12)) {
    for (const kind of ['enter', 'update', 'leave']) {
      const marker = `"event":"${kind}","file":"${top}","node":${node},`;
      const expected = s.lines.flatMap((line, i) => (line.includes(marker) ? [i] : []));
      assert.deepEqual(stops(s, [parseBreakpoint(`${kind}:${node}`)]), expected, `${kind}:${node}`);
    }
  }
});

// A module's nodes by FILE#N, and node numbers of the file run meaning its own nodes only.
test('real files: a module node\'s breakpoints', () => {
  if (corpusFolders().length === 0) return;
  const file = path.join(corpus, 'wide/ainb/Sandworm.utility.root.ainb');
  const module = 'Sandworm.utility.UpdateSafetyPos.module.ainb';
  const trace = native('run', file, '--stub-missing-modules', '--frames', '60', '--trace', '-');
  const s = new Session(trace, path.basename(file));
  const marker = `"event":"update","file":"${module}","node":38,`;
  const expected = s.lines.flatMap((line, i) => (line.includes(marker) ? [i] : []));
  assert.ok(expected.length >= 2);
  assert.deepEqual(stops(s, [parseBreakpoint(`update:${module}#38`)]), expected);
  // Node 38 of the file run is another node: none of the module's lines.
  const own = stops(s, [parseBreakpoint('update:38')]);
  assert.ok(own.every((i) => s.events[i].file === path.basename(file)));
});

// The state at the cursor comes from checkpoints: anywhere in a long run, in any order, it is the
// state of the events up to the cursor, counted from the start.
test('real files: the state at the cursor is the same from checkpoints as counted from the start', () => {
  if (corpusFolders().length === 0) return;
  const file = path.join(corpus, 'wide/ainb/Lynel_EscapeSmoke.actionseq.root.ainb');
  const s = new Session(native('run', file, '--stub-missing-modules', '--frames', '120', '--trace', '-'), path.basename(file));
  const counted = (at) => {
    const open = new Map(), results = new Map();
    for (const e of s.events.slice(0, at + 1)) {
      const key = `${e.file}#${e.node}`;
      if (e.event === 'enter') open.set(key, e.node);
      else if (e.event === 'leave') open.delete(key);
      else if (e.event === 'update') results.set(key, e.result);
    }
    return { open: [...open.values()], results: [...results] };
  };
  for (const at of [s.size - 1, 0, 1023, 1024, 1025, 5000, 2047, 3, s.size - 2]) {
    const { open, results } = s.stateAt(at);
    assert.deepEqual({ open: open.map((e) => e.node), results: [...results] }, counted(at), `event ${at}`);
  }
});

test('a live stream: a run appended a frame at a time is the run read whole', () => {
  if (corpusFolders().length === 0) return;
  const file = path.join(corpus, 'wide/ainb/Lynel_EscapeSmoke.actionseq.root.ainb');
  const trace = native('run', file, '--stub-missing-modules', '--frames', '120', '--trace', '-');
  const whole = new Session(trace, path.basename(file));
  const live = new Session('', path.basename(file));
  // Frames as ainb-game --serve sends them; the state asked for between them (checkpoints made
  // early must stay right as events are added).
  const byFrame = new Map();
  for (const line of trace.split('\n').filter(Boolean)) {
    const frame = JSON.parse(line).frame;
    byFrame.set(frame, `${byFrame.get(frame) ?? ''}${line}\n`);
  }
  for (const lines of byFrame.values()) {
    live.append(lines);
    live.go(live.size - 1);
    assert.deepEqual(live.stateAt(), whole.stateAt(live.cursor));
  }
  assert.deepEqual(live.lines, whole.lines);
  assert.equal(live.append(''), 0);
});
