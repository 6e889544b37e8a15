// The chart benchmark's page code (bundled by run.mjs, never by the app):
// draws synthetic series through the same options and column code the
// scalars panel uses, and times a histogram read + draw of a stored series.

import uPlot from 'uplot';
import { buildOptions } from '../uplot-chart.jsx';
import { align, fetchScalars, smooth } from '../scalar-data.js';
import { colorAt } from '../palette.js';

function host() {
  const el = document.createElement('div');
  el.style.width = '1200px';
  document.body.appendChild(el);
  return el;
}

const nextFrame = () => new Promise(r => requestAnimationFrame(() => r()));

// drawTimed builds one chart and returns the milliseconds until uPlot's
// draw hook fired, and until the next animation frame (painted).
async function drawTimed(series, cols) {
  const el = host();
  const opts = buildOptions({ width: 1200, height: 400, series });
  let drawn = 0;
  const t0 = performance.now();
  opts.hooks = { draw: [() => { if (!drawn) drawn = performance.now(); }] };
  const u = new uPlot(opts, cols, el);
  await nextFrame();
  const painted = performance.now();
  const out = { draw_ms: +(drawn - t0).toFixed(1), painted_ms: +(painted - t0).toFixed(1) };
  u.destroy();
  el.remove();
  return out;
}

// synthetic draws `k` series of `n` points each (a noisy decay each).
window.benchSynthetic = async (n, k) => {
  const build0 = performance.now();
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = i;
  const list = [];
  for (let s = 0; s < k; s++) {
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) y[i] = Math.exp(-i / (n / (2 + s))) + 0.05 * Math.sin(i / 500 + s) + 0.02 * Math.random();
    list.push({ x, y });
  }
  const built = performance.now() - build0;
  const a0 = performance.now();
  const cols = align(list);
  const alignMs = performance.now() - a0;
  const series = list.map((_, i) => ({ label: `series ${i + 1}`, color: colorAt(i) }));
  const timed = await drawTimed(series, cols);
  const s0 = performance.now();
  for (const s of list) smooth(s.y, 0.9);
  const smoothMs = performance.now() - s0;
  return { points: n * k, generate_ms: +built.toFixed(1), align_ms: +alignMs.toFixed(1), ...timed, smooth_all_ms: +smoothMs.toFixed(1) };
};

// histogram reads a stored task's scalars as the panel does (histogram
// samples) and draws its first metric.
window.benchHistogram = async task => {
  const t0 = performance.now();
  const metrics = await fetchScalars([task], 'iter');
  const fetched = performance.now() - t0;
  const m = metrics[0];
  const cols = align(m.series.map(s => ({ x: s.x, y: s.y })));
  const timed = await drawTimed(m.series.map((s, i) => ({ label: s.variant, color: colorAt(i) })), cols);
  return { metric: m.metric, samples: cols[0].length, fetch_ms: +fetched.toFixed(1), ...timed, total_ms: +(performance.now() - t0).toFixed(1) };
};
