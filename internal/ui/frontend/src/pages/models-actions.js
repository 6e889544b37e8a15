// The models table's actions on the selected models, through the same
// bulk operations the ClearML web app calls. Each asks first when it
// cannot be undone and says what it did.

import { call } from '../api.js';
import { confirmAction, promptText } from '../components/dialog.jsx';
import { runAction } from '../components/toast.jsx';

const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

// failed names the models an operation could not change, with its reason.
function failedNote(r) {
  const f = r?.failed || [];
  return f.length ? ` (${f.length} failed: ${f[0]?.error?.msg || 'refused'})` : '';
}

export const modelActions = {
  archive: {
    label: 'Archive',
    when: ({ archived }) => !archived,
    run: ids => runAction(() => call('models.archive_many', { ids }), r => `${plural(r?.succeeded?.length ?? ids.length, 'model')} archived${failedNote(r)}`),
  },
  restore: {
    label: 'Restore',
    when: ({ archived }) => archived,
    run: ids => runAction(() => call('models.unarchive_many', { ids }), r => `${plural(r?.succeeded?.length ?? ids.length, 'model')} restored${failedNote(r)}`),
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
      return runAction(() => call('models.publish_many', { ids }), r => `${plural(r?.succeeded?.length ?? ids.length, 'model')} published${failedNote(r)}`);
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
        body: 'The models are removed for good. Their files stay in storage.',
        confirm: 'Delete',
        danger: true,
      });
      if (!ok) return undefined;
      return runAction(() => call('models.delete_many', { ids }), r => `${plural(r?.succeeded?.length ?? ids.length, 'model')} deleted${failedNote(r)}`);
    },
  },
};
