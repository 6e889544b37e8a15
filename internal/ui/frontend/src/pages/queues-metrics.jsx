// The queue-length and wait-time charts, from queues.get_queue_metrics
// over a chosen time range, for all queues together or one queue.

import { useMemo } from 'preact/hooks';
import { call } from '../api.js';
import { useApi, usePersisted } from '../hooks.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { fmtDuration, fmtNum } from '../format.js';
import { RangePicker, TimeChart, intervalFor } from './queues-chart.jsx';

// toSeconds: the server's dates are epoch milliseconds; uPlot wants seconds.
const toSeconds = d => (d > 1e11 ? d / 1000 : d);

function loadMetrics(range, queue) {
  const now = Math.floor(Date.now() / 1000);
  const body = { from_date: now - range, to_date: now, interval: intervalFor(range, 150, queue ? 10 : 40) };
  if (queue) body.queue_ids = [queue.id];
  return call('queues.get_queue_metrics', body);
}

// fmtWait shows a wait in seconds: fractions for short ones, h/m/s for long.
const fmtWait = v => (v < 60 ? `${fmtNum(Number(v.toFixed(2)))}s` : fmtDuration(v * 1000));

// seriesOf turns the answer into one [xs, lengths, waits] set per queue.
function seriesOf(data) {
  return (data?.queues || []).map(q => ({
    queue: q.queue,
    xs: (q.dates || []).map(toSeconds),
    lengths: q.queue_lengths || [],
    waits: q.avg_waiting_times || [],
  }));
}

export function QueueMetrics({ queue, queues, onClear }) {
  const [range, setRange] = usePersisted('queues.range', 3 * 3600);
  const state = useApi(() => loadMetrics(range, queue), [range, queue?.id], { poll: 30000 });
  const sets = useMemo(() => seriesOf(state.data), [state.data]);
  const name = id => (id === 'all' ? 'all queues' : queues.find(q => q.id === id)?.name || id);

  // One line per queue answered; the x axis is the union of their dates.
  const { lengthData, waitData, series } = useMemo(() => {
    const xs = [...new Set(sets.flatMap(s => s.xs))].sort((a, b) => a - b);
    const pick = (s, key) => { const m = new Map(s.xs.map((x, i) => [x, s[key][i]])); return xs.map(x => (m.has(x) ? m.get(x) : null)); };
    return {
      lengthData: [xs, ...sets.map(s => pick(s, 'lengths'))],
      waitData: [xs, ...sets.map(s => pick(s, 'waits'))],
      series: sets.map(s => ({ label: name(s.queue), fill: sets.length === 1 })),
    };
  }, [sets]); // eslint-disable-line react-hooks/exhaustive-deps

  const empty = sets.every(s => s.xs.length === 0);
  return (
    <section class="panel panel-pad queue-metrics" data-testid="queue-metrics" data-queue={queue?.id || 'all'}>
      <div class="queue-metrics-head">
        <h2>{queue ? <>Queue <em>{queue.name}</em></> : 'All queues'}</h2>
        {queue && <button class="btn btn-ghost btn-small" onClick={onClear}>Show all queues</button>}
        <span class="spacer" />
        <RangePicker value={range} onChange={setRange} />
      </div>
      {state.error && <ErrorBox error={state.error} retry={state.reload} />}
      {state.data === undefined && !state.error && <Spinner />}
      {state.data !== undefined && (empty
        ? <div class="empty">No queue activity in this time range.</div>
        : (
          <div class="queue-charts">
            <div>
              <h3>Queued tasks</h3>
              <TimeChart data={lengthData} series={series} fmt={fmtNum} testid="queue-length-chart" />
            </div>
            <div>
              <h3>Average wait</h3>
              <TimeChart data={waitData} series={series} fmt={fmtWait} testid="queue-wait-chart" />
            </div>
          </div>
        ))}
    </section>
  );
}
