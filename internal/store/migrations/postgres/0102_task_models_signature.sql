-- The input-model fingerprint column written with every task (see the
-- SQLite migration of the same number). PostgreSQL finds a model's tasks
-- through the expression index of migration 0022 and does not read the
-- column; it exists so that both stores keep the same task columns.
ALTER TABLE tasks ADD COLUMN models_sig text;
