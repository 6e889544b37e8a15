// The big chart with a spike: seeding it through the API, zooming it by
// dragging as a person does, and reading what it draws from the chart's
// own data (the host element's troveChart(), internal/ui uplot-chart.jsx),
// not from pixels. Used by the UI suite's zoom case and by budget.mjs.

import path from 'node:path';
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

// measureZoom opens url (an experiment's scalars with the chart "big") in
// page and, runs times: waits for the whole series with its extremes,
// zooms to a tenth around the spike, then to a twentieth of that (the raw
// points), then double-clicks back, timing each from the mouse release
// (or the double-click) until the chart shows the range read again
// (data-zoom) and the frame after, and checking the spike is drawn each
// time. Screenshots of the first run go to shotDir (zoom-*.png).
export async function measureZoom(page, url, {spikeAt, runs, shotDir, stats}) {
  const chart = page.locator('[data-testid=scalar-chart][data-metric="big"]');
  const frame = () => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  const waitState = state => page.locator(`[data-testid=scalar-chart][data-metric="big"][data-zoom="${state}"]`).waitFor({timeout: 60000});
  const check = async what => {
    const got = spikeDrawn(await chartData(chart), spikeAt);
    if (!got.ok) throw new Error(`${what}: the spike is not drawn: ${got.found}`);
    return got.found;
  };
  const zoom = async (width, shot) => {
    const d = await chartData(chart);
    const at = fracOf(d, spikeAt);
    const t0 = Date.now();
    await dragZoom(page, chart, Math.max(0, at - width / 2), Math.min(1, at + width / 2));
    await waitState('zoomed');
    await frame();
    const ms = Date.now() - t0;
    if (shot && shotDir) await page.screenshot({path: path.join(shotDir, shot)});
    return ms;
  };
  const first = [], second = [], reset = [], found = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(url);
    await waitState('full');
    await frame();
    found.push(await check('whole series'));
    if (i === 0 && shotDir) await page.screenshot({path: path.join(shotDir, 'zoom-0-whole.png')});
    first.push(await zoom(0.1, i === 0 ? 'zoom-1-tenth.png' : ''));
    found.push(await check('zoomed to a tenth'));
    second.push(await zoom(0.05, i === 0 ? 'zoom-2-raw.png' : ''));
    found.push(await check('zoomed to the raw points'));
    const box = await chart.locator('.u-over').boundingBox();
    const t0 = Date.now();
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    await waitState('full');
    await frame();
    reset.push(Date.now() - t0);
    found.push(await check('after the reset'));
  }
  return {firstZoom: stats(first), secondZoom: stats(second), reset: stats(reset), spike: found.slice(0, 4)};
}
