// The models table's actions on the selected models, through the same
// bulk operations the ClearML web app calls. Each asks first when it
// cannot be undone and says what it did.

import { call } from '../api.js';
import { confirmAction, promptText } from '../components/dialog.jsx';
import { runAction, toast } from '../components/toast.jsx';

const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

// failedNote names how many models an operation could not change, with
// the first reason.
function failedNote(r) {
  const f = r?.failed || [];
  return f.length ? ` (${f.length} failed: ${f[0]?.error?.msg || 'refused'})` : '';
}

// bulk runs a *_many operation and toasts its outcome: an error when no
// model changed. It resolves to the answer, or undefined when the call failed.
async function bulk(op, body, verb) {
  const r = await runAction(() => call(op, body));
  if (r === undefined) return undefined;
  const done = r.succeeded?.length ?? body.ids.length;
  toast(`${plural(done, 'model')} ${verb}${failedNote(r)}`, done === 0 && r.failed?.length ? 'error' : 'info');
  return r;
}

export const modelActions = {
  archive: {
    label: 'Archive',
    when: ({ archived }) => !archived,
    run: ids => bulk('models.archive_many', { ids }, 'archived'),
  },
  restore: {
    label: 'Restore',
    when: ({ archived }) => archived,
    run: ids => bulk('models.unarchive_many', { ids }, 'restored'),
  },
  publish: {
    label: 'Publish',
    when: () => true,
    run: async ids => {
      const ok = await confirmAction({
        title: `Publish ${plural(ids.length, 'model')}?`,
        body: 'A published model cannot be edited any more.',
        confirm: 'Publish',
      });
      if (!ok) return undefined;
      return bulk('models.publish_many', { ids }, 'published');
    },
  },
  tag: {
    label: 'Tag',
    when: () => true,
    run: async ids => {
      const tag = await promptText({ title: `Tag ${plural(ids.length, 'model')}`, label: 'Tag to add', confirm: 'Add tag' });
      if (!tag) return undefined;
      return runAction(() => call('models.update_tags', { ids, add_tags: [tag] }), `Tagged ${plural(ids.length, 'model')} "${tag}"`);
    },
  },
  delete: {
    label: 'Delete',
    danger: true,
    when: () => true,
    run: async ids => {
      const ok = await confirmAction({
        title: `Delete ${plural(ids.length, 'model')}?`,
        body: 'The models and the files Trove stores for them are removed for good.',
        confirm: 'Delete',
        danger: true,
      });
      if (!ok) return undefined;
      // force, as the ClearML web app sends once the user confirmed: a model
      // whose creating task is published is deleted too.
      return bulk('models.delete_many', { ids, force: true }, 'deleted');
    },
  },
};
