// Reordering a queue: the operations that move one entry from one place
// to another, and the same move applied locally so the list shows it at
// once. Trove and the reference take a positive count: forward moves
// towards the head of the queue, backward towards its tail.

import { call } from '../api.js';

// moveCall moves task from index `from` to index `to` of queue (of length n).
export function moveCall(queue, task, from, to, n) {
  if (to === from) return Promise.resolve(null);
  if (to <= 0) return call('queues.move_task_to_front', { queue, task });
  if (to >= n - 1) return call('queues.move_task_to_back', { queue, task });
  if (to < from) return call('queues.move_task_forward', { queue, task, count: from - to });
  return call('queues.move_task_backward', { queue, task, count: to - from });
}

// moved returns a copy of list with the item at `from` placed at `to`.
export function moved(list, from, to) {
  const out = list.slice();
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}
