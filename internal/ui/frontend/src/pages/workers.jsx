// The workers page (/workers): every registered worker (agent) with its
// current task, its queues, its last activity and its utilization charts
// from workers.get_stats over a chosen time range. Polls for live updates.

import { useMemo } from 'preact/hooks';
import { call } from '../api.js';
import { useApi, usePersisted } from '../hooks.js';
import { Link } from '../router.jsx';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { fmtAgo, fmtDate, fmtDuration, fmtNum } from '../format.js';
import { RangePicker, TimeChart } from './queues-chart.jsx';
import { chartsFor, loadStats } from './workers-stats.js';
import './workers.css';

const POLL_MS = 5000;
const STATS_POLL_MS = 15000;

export function WorkersPage() {
  const list = useApi(() => call('workers.get_all', {}), [], { poll: POLL_MS });
  const [range, setRange] = usePersisted('workers.range', 3600);
  const workers = useMemo(() => (list.data?.workers || []).slice().sort((a, b) => a.id.localeCompare(b.id)), [list.data]);
  const ids = workers.map(w => w.id).join('\n');
  const stats = useApi(() => (ids ? loadStats(range, ids.split('\n')) : Promise.resolve({ workers: [] })), [range, ids], { poll: STATS_POLL_MS });

  return (
    <div class="workers-page">
      <div class="page-head">
        <h1>Workers</h1>
        <span class="muted">{list.data ? `${workers.length} worker${workers.length === 1 ? '' : 's'}, ${workers.filter(w => w.task).length} busy` : ''}</span>
        <span class="spacer" />
        <label class="muted small workers-range">Utilization over <RangePicker value={range} onChange={setRange} /></label>
      </div>
      {list.error && <ErrorBox error={list.error} retry={list.reload} />}
      {list.data === undefined && !list.error && <Spinner />}
      {list.data && workers.length === 0 && (
        <div class="panel empty" data-testid="workers-empty">No worker is registered. Start one with <code>clearml-agent daemon --queue default</code>.</div>
      )}
      {stats.error && workers.length > 0 && <ErrorBox error={stats.error} retry={stats.reload} />}
      <div class="worker-list">
        {workers.map(w => <WorkerCard key={w.key || w.id} w={w} stats={stats.data} />)}
      </div>
    </div>
  );
}

function WorkerCard({ w, stats }) {
  const charts = useMemo(() => chartsFor(stats, w.id), [stats, w.id]);
  const task = w.task;
  const projectId = w.project?.id;
  return (
    <section class="panel worker-card" data-testid="worker" data-worker-id={w.id}>
      <header class="worker-head">
        <span class={`worker-dot ${task ? 'busy' : 'idle'}`} aria-hidden="true" />
        <h2 class="worker-name">{w.id}</h2>
        <span class={`badge ${task ? 'badge-green' : 'badge-grey'}`} data-worker-state={task ? 'busy' : 'idle'}>{task ? 'running' : 'idle'}</span>
        <span class="spacer" />
        <span class="muted small" title={fmtDate(w.last_activity_time)} data-testid="worker-last-activity">active {fmtAgo(w.last_activity_time)}</span>
      </header>
      <dl class="kv worker-kv">
        <dt>Task</dt>
        <dd data-testid="worker-task">{task
          ? <><Link href={`/projects/${encodeURIComponent(projectId || '*')}/experiments/${task.id}`}>{task.name || task.id}</Link>
            <span class="muted small"> · {task.running_time ? `running ${fmtDuration(task.running_time * 1000)}` : 'just started'}{task.last_iteration ? ` · iteration ${fmtNum(task.last_iteration)}` : ''}</span></>
          : <span class="muted">none</span>}</dd>
        <dt>Queues</dt>
        <dd data-testid="worker-queues">{(w.queues || []).length
          ? w.queues.map(q => <span class="tag" key={q.id} title={q.next_task ? `next: ${q.next_task.name || q.next_task.id}` : ''}>{q.display_name || q.name || q.id}{q.num_tasks ? ` (${q.num_tasks})` : ''}</span>)
          : <span class="muted">none</span>}</dd>
        {w.ip && <><dt>Address</dt><dd>{w.ip}</dd></>}
        {w.user?.name && <><dt>User</dt><dd>{w.user.name}</dd></>}
        <dt>Registered</dt><dd>{fmtDate(w.register_time)}</dd>
      </dl>
      {stats === undefined && <Spinner label="Loading utilization…" />}
      {stats !== undefined && charts.length === 0 && <div class="muted small worker-nostats">No utilization reported in this time range.</div>}
      {charts.length > 0 && (
        <div class="worker-charts" data-testid="worker-stats">
          {charts.map(c => (
            <div key={c.chart.key} data-chart={c.chart.key}>
              <h3>{c.chart.title}</h3>
              <TimeChart data={c.data} series={c.series} fmt={c.chart.fmt} height={150} testid="worker-chart" />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
