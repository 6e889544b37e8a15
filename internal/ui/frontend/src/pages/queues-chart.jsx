// A small time-series chart on uPlot, shared by the queues and workers
// pages: x is wall time in seconds, one line per series. It follows its
// container's width and redraws when its data changes.

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

// axisWidth makes room for the longest y tick label (about 8 px a character).
const axisWidth = (u, values) => Math.max(40, ...(values || []).map(v => String(v).length * 8 + 24));

export const palette = ['#1f6feb', '#e8590c', '#2f9e44', '#9c36b5', '#c92a2a', '#0c8599', '#5c7cfa', '#f08c00'];

// TimeChart draws data = [xs, ys1, ys2, ...] (xs in seconds) with series =
// [{label}], formatting the y values with fmt.
export function TimeChart({ data, series, height = 200, fmt = v => String(v), testid, ...rest }) {
  const host = useRef(null);
  const plot = useRef(null);

  useEffect(() => {
    const el = host.current;
    const opts = {
      width: Math.max(el.clientWidth, 200),
      height,
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      axes: [
        { stroke: '#667085', grid: { stroke: '#eef0f3' } },
        { stroke: '#667085', grid: { stroke: '#eef0f3' }, size: axisWidth, values: (u, ticks) => ticks.map(fmt) },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.color || palette[i % palette.length],
          width: 1.6,
          fill: s.fill ? (s.color || palette[i % palette.length]) + '1a' : undefined,
          points: { show: data[0].length < 40 },
          value: (u, v) => (v === null || v === undefined ? '–' : fmt(v)),
          spanGaps: true,
        })),
      ],
    };
    plot.current = new uPlot(opts, data, el);
    const ro = new ResizeObserver(() => {
      if (plot.current && el.clientWidth) plot.current.setSize({ width: el.clientWidth, height });
    });
    ro.observe(el);
    return () => { ro.disconnect(); plot.current.destroy(); plot.current = null; };
  }, [series.map(s => s.label).join('\n'), height]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => { if (plot.current) plot.current.setData(data); }, [data]);

  return <div class="timechart" ref={host} data-testid={testid} {...rest} />;
}

// rangeChoices are the time ranges the pages offer, in seconds.
export const rangeChoices = [
  { label: '30 min', value: 1800 },
  { label: '1 hour', value: 3600 },
  { label: '3 hours', value: 3 * 3600 },
  { label: '12 hours', value: 12 * 3600 },
  { label: '1 day', value: 86400 },
  { label: '1 week', value: 7 * 86400 },
];

// intervalFor picks a bucket size giving about `points` buckets over range,
// never finer than `min` seconds.
export function intervalFor(range, points = 120, min = 10) {
  return Math.max(Math.floor(range / points), min);
}

export function RangePicker({ value, onChange }) {
  return (
    <select value={value} onChange={e => onChange(Number(e.target.value))} aria-label="Time range" data-testid="time-range">
      {rangeChoices.map(r => <option key={r.value} value={r.value}>{r.label}</option>)}
    </select>
  );
}
