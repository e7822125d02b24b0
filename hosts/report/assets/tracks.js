// A node's events in a run, read at a frame (docs/report.md, "The page's data"): its spans of
// activity and its runs of results, indexed for binary search at their first use.
const RESULT = { S: "Success", F: "Failure", R: "Running" };

// The index of the last element of sorted array `a` at or below `f` (-1: none).
const lastAtOrBelow = (a, f) => {
  let lo = 0, hi = a.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= f) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
  }
  return found;
};

// A track's spans indexed for lookups by frame, made at its first use: the enter frames (in
// order), the latest leave among the spans so far (a span still open never leaves), and the
// leave frames sorted.
const spanIndex = (track) => {
  if (track.index) return track.index;
  const enters = [], reach = [], leaves = [];
  let furthest = -Infinity;
  for (let i = 0; i < track.spans.length; i += 2) {
    const leave = track.spans[i + 1] < 0 ? Infinity : track.spans[i + 1];
    enters.push(track.spans[i]);
    furthest = Math.max(furthest, leave);
    reach.push(furthest);
    if (leave !== Infinity) leaves.push(leave);
  }
  leaves.sort((a, b) => a - b);
  track.index = { enters, reach, leaves, starts: track.updates.map((u) => u[0]) };
  return track.index;
};
// What a node did in frame f: active at its end, entered or left in it, its result if updated.
const nodeAt = (track, f) => {
  const at = { active: false, entered: false, left: false, visited: false, result: "" };
  if (!track) return at;
  const { enters, reach, leaves, starts } = spanIndex(track);
  const k = lastAtOrBelow(enters, f);
  if (k >= 0) {
    at.visited = true;
    at.entered = enters[k] === f;
    at.active = reach[k] > f;
    const l = lastAtOrBelow(leaves, f);
    at.left = l >= 0 && leaves[l] === f;
  }
  const u = lastAtOrBelow(starts, f);
  if (u >= 0 && f < track.updates[u][0] + track.updates[u][1]) at.result = track.updates[u][2];
  return at;
};

const describeAt = (at, track) => {
  const words = [];
  if (at.entered) words.push("entered");
  if (at.result) words.push(`updated: ${RESULT[at.result]}`);
  if (at.left) words.push("left");
  if (at.active) words.push("active");
  if (words.length) return words.join(", ");
  return !track ? "never entered" : at.visited ? "inactive" : "not entered yet";
};
const classesAt = (at, track) => {
  const classes = [];
  if (!track) classes.push("never");
  else if (at.visited) classes.push("visited");
  if (at.active) classes.push("active");
  if (at.entered) classes.push("entered");
  if (at.left) classes.push("left");
  if (at.result) classes.push(`r-${at.result}`);
  return classes;
};

const updatesOf = (track) => (track ? track.updates.reduce((n, run) => n + run[1], 0) : 0);

const eventRows = (track) => {
  const events = [];
  // A node entered and left in each of many frames (a tree that runs every frame) is one row.
  const spans = track.spans;
  for (let i = 0; i < spans.length; i += 2) {
    const enter = spans[i], leave = spans[i + 1];
    if (leave === enter) {
      let j = i;
      while (j + 2 < spans.length && spans[j + 2] === spans[j] + 1 && spans[j + 3] === spans[j + 2]) j += 2;
      events.push(j === i ? [`frame ${enter}`, "entered and left"] : [`frames ${enter}\u2013${spans[j]}`, "entered and left in each"]);
      i = j;
      continue;
    }
    events.push([`frames ${enter}\u2013${leave < 0 ? "end" : leave}`, leave < 0 ? "active to the end" : "active"]);
  }
  for (const [first, count, result] of track.updates) events.push([count === 1 ? `frame ${first}` : `frames ${first}\u2013${first + count - 1}`, RESULT[result] || result]);
  for (const [f, what] of track.xlinks || []) events.push([`frame ${f}`, `XLink ${what}`]);
  return events;
};
