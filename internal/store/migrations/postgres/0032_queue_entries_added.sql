-- Queue metrics sum the entries' added times at every change: a covering
-- index keeps that an index-only read.
CREATE INDEX queue_entries_added ON queue_entries (queue, added);
