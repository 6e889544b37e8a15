// One uPlot line chart: columns in, canvas out. The chart is built once per
// shape (series, axis mode, scale) and fed new data with setData, so a
// poll keeps the user's zoom; its width follows the container.
//
// uPlot gives the interactions: drag to zoom the x axis, double-click to
// reset, a legend with the values under the cursor, click a legend entry
// to hide or show its series. A zoom is handed to onZoom (the panel reads
// the range again at full resolution and passes it back with xRange); a
// double-click while zoomed to onReset. The host element's troveChart()
// returns what is drawn (the UI suite reads a spike from it, not from
// pixels).

import { useLayoutEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fmtNum, fmtDuration } from '../format.js';

// fmtRelative shows seconds since the start at the precision of step
// (the tick spacing, or a millisecond for the legend).
export function fmtRelative(sec, step = 0.001) {
  if (sec === null || sec === undefined) return '';
  const neg = sec < 0 ? '-' : '';
  const a = Math.abs(sec);
  if (a < 60 || step < 1) {
    const digits = step >= 1 ? 0 : Math.min(3, Math.ceil(-Math.log10(step) - 1e-9));
    if (a < 60) return `${neg}${a.toFixed(digits)}s`;
    const m = Math.floor(a / 60);
    return `${neg}${m}m ${(a - m * 60).toFixed(digits)}s`;
  }
  return neg + fmtDuration(a * 1000);
}

// Iterations are whole numbers: their ticks step by 1, 2 or 5 times a
// power of ten.
const wholeSteps = [];
for (let p = 1; p <= 1e12; p *= 10) wholeSteps.push(p, 2 * p, 5 * p);

function xAxis(mode) {
  if (mode === 'relative') return { values: (u, ticks, axis, space, incr) => ticks.map(v => fmtRelative(v, incr)) };
  if (mode === 'wall') return {};
  return { incrs: wholeSteps, values: (u, ticks) => ticks.map(v => fmtNum(v)) };
}

function xValue(mode) {
  if (mode === 'wall') return (u, v) => (v === null || v === undefined ? '' : new Date(v * 1000).toLocaleString());
  if (mode === 'relative') return (u, v) => fmtRelative(v);
  return (u, v) => (v === null || v === undefined ? '' : fmtNum(v));
}

const xLabel = { iter: 'Iteration', wall: 'Time', relative: 'Since start' };

export function buildOptions({ width, height, series, bands, xMode = 'iter', xName, logY = false, onToggle, onZoom, onReset }) {
  return {
    width,
    height,
    pxAlign: 0,
    bands: bands && bands.length ? bands : undefined,
    scales: {
      x: { time: xMode === 'wall' },
      y: logY ? { distr: 3, log: 10 } : { distr: 1 },
    },
    series: [
      { label: (xMode === 'iter' && xName) || xLabel[xMode] || 'x', value: xValue(xMode) },
      ...series.map(s => ({
        label: s.label,
        class: s.raw ? 'u-raw' : undefined,
        stroke: s.color,
        width: s.extreme ? 0.75 : s.raw ? 1 : 1.5,
        dash: s.dash,
        show: s.show !== false,
        spanGaps: true,
        points: { show: false },
        value: (u, v) => (v === null || v === undefined ? '–' : fmtNum(v)),
      })),
    ],
    axes: [
      { ...xAxis(xMode), stroke: '#667085', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#e3e6eb' } },
      { stroke: '#667085', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#e3e6eb' }, size: 56, values: (u, ticks) => ticks.map(v => fmtNum(v)) },
    ],
    cursor: {
      // with onZoom the selection is turned into a zoom here (setSelect)
      drag: { x: true, y: false, setScale: !onZoom },
      focus: { prox: 24 },
      bind: onReset ? {
        dblclick: (u, targ, handler) => e => (onReset() ? null : handler(e)),
      } : undefined,
    },
    focus: { alpha: 0.35 },
    legend: { live: true },
    hooks: {
      setSeries: [(u, i, opts) => {
        if (i === null || !opts || !('show' in opts)) return;
        // A smoothed line's raw line and a line's extremes (legend-less)
        // follow it.
        const raw = series[i - 1]?.rawIndex;
        if (raw !== undefined) u.setSeries(raw + 1, { show: opts.show }, false);
        const line = raw !== undefined ? raw : i - 1;
        series.forEach((s, j) => { if (s.extreme && s.line === line) u.setSeries(j + 1, { show: opts.show }, false); });
        onToggle?.(i - 1, opts.show);
      }],
      setSelect: onZoom ? [u => {
        const { left, width } = u.select;
        if (width < 2) return;
        const min = u.posToVal(left, 'x'), max = u.posToVal(left + width, 'x');
        u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        // the points at hand, zoomed at once; the range read again follows
        u.setScale('x', { min, max });
        onZoom(min, max);
      }] : [],
    },
  };
}

// zoomed tells whether the user narrowed the x axis below the data range.
function zoomed(u) {
  const xs = u.data?.[0];
  if (!xs || !xs.length) return false;
  const min = u.scales.x.min, max = u.scales.x.max;
  return min > xs[0] || max < xs[xs.length - 1];
}

export function UPlotChart({ data, series, bands, xMode, xName, logY, height = 260, onToggle, xRange, onZoom, onReset }) {
  const host = useRef(null);
  const plot = useRef(null);
  const cb = useRef({});
  cb.current = { onToggle, onZoom, onReset };
  const range = useRef(xRange);
  range.current = xRange;
  const shape = JSON.stringify([series.map(s => [s.label, s.color, s.dash]), bands, xMode, xName, logY, height, !!onZoom]);

  // Layout effects: the chart is built in the same task as its card, not
  // after a frame, so a busy page (plotly parsing) does not hold it back.
  useLayoutEffect(() => {
    const el = host.current;
    const width = Math.max(200, el.clientWidth);
    const opts = buildOptions({
      width, height, series, bands, xMode, xName, logY,
      onToggle: (i, show) => cb.current.onToggle?.(i, show),
      onZoom: onZoom ? (min, max) => cb.current.onZoom?.(min, max) : undefined,
      onReset: onReset ? () => cb.current.onReset?.() : undefined,
    });
    const u = new uPlot(opts, data, el);
    plot.current = u;
    if (range.current) u.setScale('x', { min: range.current[0], max: range.current[1] });
    // What is drawn, for tests: the columns, the x range shown and each
    // series' label and kind (line, max, min).
    el.troveChart = () => ({
      data: u.data.map(col => Array.from(col || [])),
      series: u.series.slice(1).map((s, i) => ({ label: s.label, kind: series[i]?.extreme || (series[i]?.raw ? 'raw' : 'line'), show: s.show })),
      x: { min: u.scales.x.min, max: u.scales.x.max },
      width: u.width,
    });
    const ro = new ResizeObserver(() => {
      const w = Math.max(200, el.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height });
    });
    ro.observe(el);
    return () => { ro.disconnect(); u.destroy(); plot.current = null; delete el.troveChart; };
  }, [shape]); // eslint-disable-line react-hooks/exhaustive-deps

  useLayoutEffect(() => {
    const u = plot.current;
    if (!u || u.data === data) return;
    if (xRange) {
      u.setData(data, false);
      u.setScale('x', { min: xRange[0], max: xRange[1] });
    } else if (zoomed(u)) {
      const { min, max } = u.scales.x;
      u.setData(data, false);
      u.setScale('x', { min, max });
    } else {
      u.setData(data);
    }
  }, [data]); // eslint-disable-line react-hooks/exhaustive-deps

  // A reset (xRange gone) shows the whole series again.
  useLayoutEffect(() => {
    const u = plot.current;
    if (!u || xRange) return;
    const xs = u.data?.[0];
    if (xs && xs.length) u.setScale('x', { min: xs[0], max: xs[xs.length - 1] });
  }, [xRange && xRange.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps

  return <div class="uplot-host" ref={host} />;
}
