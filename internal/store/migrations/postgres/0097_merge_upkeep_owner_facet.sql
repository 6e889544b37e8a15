-- Two changes to the count tables of migrations 0075, 0090 and 0091.
--
-- 1. projects.merge moved a project's tasks with one UPDATE, and the
-- statement triggers recomputed the names and facets of every moved task
-- (old and new rows): about 1.7 s for 5,000 tasks. The store now moves the
-- count rows of the project in a few statements (store/project_merge.go)
-- and pauses the update triggers meanwhile: a row in upkeep_pauses, only
-- ever present inside the moving transaction (which locks the table
-- against other writers first), turns them off for its entity. The views
-- below give the names of stored tasks, for the tasks a merge leaves
-- behind (archived ones), whose share moves back.
--
-- 2. projects.get_user_names read the owner of every task: record_facets
-- now also holds the facet 'user' (the user_id of tasks and models).
-- SQLite migration 0097 does the same.
CREATE TABLE upkeep_pauses (entity TEXT NOT NULL);

CREATE FUNCTION trove_upkeep_paused(entity text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM upkeep_pauses p WHERE p.entity = $1)
$$;

-- The facets of one record (type and parent are NULL for models).
CREATE FUNCTION trove_record_facets(tags jsonb, system_tags jsonb, type text, parent text, owner text)
    RETURNS TABLE (facet text, value text) LANGUAGE sql IMMUTABLE AS $$
    SELECT f.facet, f.value FROM (
        SELECT 'tags' AS facet, t AS value
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(tags) = 'array' THEN tags ELSE '[]' END) t
        UNION ALL SELECT 'system_tags', t
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(system_tags) = 'array' THEN system_tags ELSE '[]' END) t
        UNION ALL SELECT 'type', type
        UNION ALL SELECT 'parent', parent
        UNION ALL SELECT 'user', owner) f
    WHERE f.value IS NOT NULL
$$;

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'tasks', t.company, coalesce(t.project, ''), 'user', t.user_id, trove_archived(t.system_tags), count(*)
    FROM tasks t
    GROUP BY 2, 3, 5, 6;
INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'models', t.company, coalesce(t.project, ''), 'user', t.user_id, trove_archived(t.system_tags), count(*)
    FROM models t
    GROUP BY 2, 3, 5, 6;

CREATE OR REPLACE FUNCTION trove_task_facets_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'tasks', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, n.type, n.parent, n.user_id) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'tasks', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, o.type, o.parent, o.user_id) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSE
        -- A one-row update that changes none of them (most do) is done.
        IF (SELECT count(*) FROM new_rows) = 1 AND NOT EXISTS (
            SELECT 1 FROM old_rows o, new_rows n WHERE (o.company, o.project, o.tags, o.system_tags, o.type, o.parent, o.user_id) IS DISTINCT FROM (n.company, n.project, n.tags, n.system_tags, n.type, n.parent, n.user_id)) THEN
            RETURN NULL;
        END IF;
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'tasks', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, o.type, o.parent, o.user_id) f
                UNION ALL
                SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, n.type, n.parent, n.user_id) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION trove_model_facets_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'models', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, NULL, NULL, n.user_id) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'models', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, NULL, NULL, o.user_id) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSE
        -- A one-row update that changes none of them (most do) is done.
        IF (SELECT count(*) FROM new_rows) = 1 AND NOT EXISTS (
            SELECT 1 FROM old_rows o, new_rows n WHERE (o.company, o.project, o.tags, o.system_tags, o.user_id) IS DISTINCT FROM (n.company, n.project, n.tags, n.system_tags, n.user_id)) THEN
            RETURN NULL;
        END IF;
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'models', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, NULL, NULL, o.user_id) f
                UNION ALL
                SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, NULL, NULL, n.user_id) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    END IF;
    RETURN NULL;
END
$$;

DROP FUNCTION trove_record_facets(jsonb, jsonb, text, text);

DROP TRIGGER tasks_facets_update ON tasks;
CREATE TRIGGER tasks_facets_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (NOT trove_upkeep_paused('tasks')) EXECUTE FUNCTION trove_task_facets_upkeep();

DROP TRIGGER models_facets_update ON models;
CREATE TRIGGER models_facets_update AFTER UPDATE ON models REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (NOT trove_upkeep_paused('models')) EXECUTE FUNCTION trove_model_facets_upkeep();

DROP TRIGGER tasks_params_update ON tasks;
CREATE TRIGGER tasks_params_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (NOT trove_upkeep_paused('tasks')) EXECUTE FUNCTION trove_task_params_upkeep();

DROP TRIGGER tasks_metrics_update ON tasks;
CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (NOT trove_upkeep_paused('tasks')) EXECUTE FUNCTION trove_task_metrics_upkeep();

-- The names each task holds, as the triggers count them (project is the
-- column: NULL for none).
CREATE VIEW task_param_name_rows AS
    SELECT t.id, t.company, t.project, x.section, x.name FROM tasks t, trove_param_names(t.doc) x;
CREATE VIEW task_param_value_rows AS
    SELECT t.id, t.company, t.project, x.section, x.name, x.value FROM tasks t, trove_param_values(t.doc) x;
CREATE VIEW task_metric_variant_rows AS
    SELECT t.id, t.company, t.project, x.metric_hash, x.variant_hash, x.metric, x.variant FROM tasks t, trove_metric_variants(t.doc) x;

-- A merge reads a project's values; the key leads with the name.
CREATE INDEX task_param_values_project ON task_param_values (company, project);
