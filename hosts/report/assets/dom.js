// The page's DOM helpers (docs/report.md): elements, small tables, and the plot of a blackboard
// entry over the run. Plain functions the page's script calls; they hold no state. The page's
// script is this file, tracks.js and the page's parts (page.js first) in that order, so the
// directive below is for all.
"use strict";

const element = (tag, attributes = {}, text = "") => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text !== "") e.textContent = text;
  return e;
};
const svgElement = (tag, attributes = {}, title = "") => {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (title) {
    const t = document.createElementNS("http://www.w3.org/2000/svg", "title");
    t.textContent = title;
    e.append(t);
  }
  return e;
};
const table = (rows) => {
  const t = element("table");
  for (const [k, v] of rows) {
    const tr = element("tr");
    tr.append(element("td", {}, k), element("td", {}, v));
    t.append(tr);
  }
  return t;
};

const numeric = (v) => (v === "true" ? 1 : v === "false" ? 0 : /^-?[\d.]/.test(v) ? Number(v) : NaN);
// A step plot of an entry's numeric values (booleans as 0 and 1) over frames 0 to `frames`,
// starting at `fallback`; other values are marks at the frames they change.
const plot = (changes, fallback, frames) => {
  const svg = svgElement("svg", { viewBox: `0 0 ${Math.max(frames, 1)} 10`, preserveAspectRatio: "none" });
  let last = numeric(fallback);
  const values = changes.map(([, v]) => numeric(v)).concat([last]).filter((v) => !Number.isNaN(v));
  const lo = Math.min(...values), hi = Math.max(...values);
  const y = (v) => (hi === lo ? 5 : 9 - ((v - lo) / (hi - lo)) * 8);
  const points = Number.isNaN(last) ? [] : [`0,${y(last)}`];
  for (const [frame, v] of changes) {
    const n = numeric(v);
    if (Number.isNaN(n)) {
      svg.append(svgElement("line", { x1: frame, x2: frame, y1: 0, y2: 10, class: "change" }));
      continue;
    }
    if (!Number.isNaN(last)) points.push(`${frame},${y(last)}`);
    points.push(`${frame},${y(n)}`);
    last = n;
  }
  if (!Number.isNaN(last)) points.push(`${frames},${y(last)}`);
  if (points.length > 0) svg.append(svgElement("polyline", { points: points.join(" "), "vector-effect": "non-scaling-stroke" }));
  return svg;
};
