// The big chart with a spike: seeding it through the API, zooming it by
// dragging as a person does, and reading what it draws from the chart's
// own data (the host element's troveChart(), internal/ui uplot-chart.jsx),
// not from pixels. Used by the UI suite's zoom case and by budget.mjs.

import {addEvents} from './server.mjs';

export const SPIKE_VALUE = 50;

// spikeValue is a big series' value: a slow wave between s and s+1, and
// the spike at one iteration of series 0.
export function spikeValue(it, s, spikeAt) {
  if (s === 0 && it === spikeAt) return SPIKE_VALUE;
  return Math.sin(it / 5000 + s) / 2 + s + 0.5;
}

// seedBig reports `series` series of `points` points each (metric "big",
// variants s0, s1, ...) to task, in batches of 20,000 events; series 0
// has a one-point spike at spikeAt.
export async function seedBig(server, task, {points, series, spikeAt}) {
  const per = 20000;
  const step = Math.max(1, Math.floor(per / series));
  for (let start = 0; start < points; start += step) {
    const chunk = [];
    for (let it = start; it < Math.min(points, start + step); it++) {
      for (let s = 0; s < series; s++) {
        chunk.push(`{"type":"training_stats_scalar","task":"${task}","metric":"big","variant":"s${s}","iter":${it},"value":${spikeValue(it, s, spikeAt).toFixed(5)},"timestamp":${1700000000000 + it}}`);
      }
    }
    await addEvents(server, chunk);
  }
}

// chartData reads what a scalar chart draws.
export function chartData(chart) {
  return chart.locator('.uplot-host').evaluate(el => el.troveChart && el.troveChart());
}

// spikeDrawn tells whether the chart's data holds the spike: as the
// largest value of a bucket (the band) or as a point of the line, with
// its x inside the x range shown. It returns what it found.
export function spikeDrawn(d, spikeAt) {
  if (!d) return {ok: false, found: 'no chart data'};
  const xs = d.data[0];
  let best = {value: -Infinity, x: null, kind: null};
  d.series.forEach((s, i) => {
    if (!s.show || (s.kind !== 'line' && s.kind !== 'max')) return;
    const ys = d.data[i + 1];
    for (let j = 0; j < ys.length; j++) {
      if (ys[j] !== null && ys[j] > best.value) best = {value: ys[j], x: xs[j], kind: s.kind};
    }
  });
  const inView = best.x !== null && best.x >= d.x.min && best.x <= d.x.max;
  // a bucket starts at or before the spike's iteration, within its width
  const ok = best.value === SPIKE_VALUE && inView && best.x <= spikeAt;
  return {ok, found: `largest drawn value ${best.value} (${best.kind}) at x ${best.x}; x shown ${d.x.min}..${d.x.max}; ${xs.length} x values`};
}

// dragZoom drags across the chart's plot area from fraction a to b of
// its width, as a person zooms.
export async function dragZoom(page, chart, a, b) {
  const over = chart.locator('.u-over');
  const box = await over.boundingBox();
  if (!box) throw new Error('the chart has no plot area');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * a, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * (a + b) / 2, y, {steps: 4});
  await page.mouse.move(box.x + box.width * b, y, {steps: 4});
  await page.mouse.up();
}

// fracOf is where x lies across the chart's plot area (0..1).
export function fracOf(d, x) {
  return (x - d.x.min) / (d.x.max - d.x.min);
}
