-- Every batch of scalars updates its series' rows (max_iter, last_wts,
-- ...), a training run's every series every few seconds. With full pages a
-- new row version cannot stay on its page, so the update is not HOT and
-- inserts into both indexes of the table as well: 85% of the updates of a
-- 1,000-experiment fleet run. Half-empty pages leave room for the new
-- versions on the same page. It applies to pages written from now on (a
-- table rewrite, e.g. VACUUM FULL, moves the old rows).
ALTER TABLE event_series SET (fillfactor = 50);
