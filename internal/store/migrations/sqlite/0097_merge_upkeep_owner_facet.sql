-- Two changes to the count tables of migrations 0075 and 0090.
--
-- 1. projects.merge moved a project's tasks with one UPDATE, but the row
-- triggers redid every moved task's names and facets: about 0.9 s of work
-- for 5,000 tasks, holding the single writer. The store now moves the
-- count rows of the project in a few statements (store/project_merge.go)
-- and pauses the update triggers meanwhile: a row in upkeep_pauses, only
-- ever present inside the moving transaction, turns them off for its
-- entity (tested first, in a CASE: SQLite evaluates the cheaper side of an
-- AND first). The recreated update triggers keep migration 0096's
-- fingerprint comparisons. The views below give the names of stored
-- tasks, for the tasks a merge leaves behind (archived ones), whose share
-- moves back.
--
-- 2. projects.get_user_names read the owner of every task: record_facets
-- now also holds the facet 'user' (the user_id of tasks and models).
-- PostgreSQL migration 0097 does the same.
CREATE TABLE upkeep_pauses (entity TEXT NOT NULL);

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'tasks', t.company, coalesce(t.project, ''), 'user', t.user_id, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM tasks t
    GROUP BY 2, 3, 5, 6;
INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'models', t.company, coalesce(t.project, ''), 'user', t.user_id, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM models t
    GROUP BY 2, 3, 5, 6;

DROP TRIGGER tasks_facets_insert;
DROP TRIGGER tasks_facets_delete;
DROP TRIGGER tasks_facets_update;

CREATE TRIGGER tasks_facets_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'tasks', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)
            UNION ALL SELECT 'type', NEW.type
            UNION ALL SELECT 'parent', NEW.parent
            UNION ALL SELECT 'user', NEW.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER tasks_facets_delete AFTER DELETE ON tasks BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'tasks', OLD.company, coalesce(OLD.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(OLD.system_tags) WHERE value = 'archived'), -1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(OLD.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(OLD.system_tags)
            UNION ALL SELECT 'type', OLD.type
            UNION ALL SELECT 'parent', OLD.parent
            UNION ALL SELECT 'user', OLD.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER tasks_facets_update AFTER UPDATE ON tasks
    WHEN CASE WHEN EXISTS (SELECT 1 FROM upkeep_pauses WHERE entity = 'tasks') THEN 0 ELSE (OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project OR OLD.tags IS NOT NEW.tags OR OLD.system_tags IS NOT NEW.system_tags OR OLD.type IS NOT NEW.type OR OLD.parent IS NOT NEW.parent OR OLD.user_id IS NOT NEW.user_id) END BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'tasks', OLD.company, coalesce(OLD.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(OLD.system_tags) WHERE value = 'archived'), -1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(OLD.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(OLD.system_tags)
            UNION ALL SELECT 'type', OLD.type
            UNION ALL SELECT 'parent', OLD.parent
            UNION ALL SELECT 'user', OLD.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'tasks', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)
            UNION ALL SELECT 'type', NEW.type
            UNION ALL SELECT 'parent', NEW.parent
            UNION ALL SELECT 'user', NEW.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

DROP TRIGGER models_facets_insert;
DROP TRIGGER models_facets_delete;
DROP TRIGGER models_facets_update;

CREATE TRIGGER models_facets_insert AFTER INSERT ON models BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)
            UNION ALL SELECT 'user', NEW.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER models_facets_delete AFTER DELETE ON models BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', OLD.company, coalesce(OLD.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(OLD.system_tags) WHERE value = 'archived'), -1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(OLD.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(OLD.system_tags)
            UNION ALL SELECT 'user', OLD.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER models_facets_update AFTER UPDATE ON models
    WHEN CASE WHEN EXISTS (SELECT 1 FROM upkeep_pauses WHERE entity = 'models') THEN 0 ELSE (OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project OR OLD.tags IS NOT NEW.tags OR OLD.system_tags IS NOT NEW.system_tags OR OLD.user_id IS NOT NEW.user_id) END BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', OLD.company, coalesce(OLD.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(OLD.system_tags) WHERE value = 'archived'), -1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(OLD.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(OLD.system_tags)
            UNION ALL SELECT 'user', OLD.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)
            UNION ALL SELECT 'user', NEW.user_id) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

-- A move changes no input model (migration 0022): its side table stays.
DROP TRIGGER tasks_input_models_update;
CREATE TRIGGER tasks_input_models_update AFTER UPDATE OF doc ON tasks
    WHEN CASE WHEN EXISTS (SELECT 1 FROM upkeep_pauses WHERE entity = 'tasks') THEN 0
        ELSE (instr(OLD.doc, '"models":{"input":[]') = 0 OR instr(NEW.doc, '"models":{"input":[]') = 0) END BEGIN
    DELETE FROM task_input_models WHERE task = OLD.id;
    INSERT INTO task_input_models (task, model)
        SELECT NEW.id, json_extract(m.value, '$.model') FROM json_each(NEW.doc, '$.models.input') AS m
        WHERE json_extract(m.value, '$.model') IS NOT NULL;
END;

DROP TRIGGER tasks_params_update;
DROP TRIGGER tasks_metrics_update;

CREATE TRIGGER tasks_params_update AFTER UPDATE ON tasks
    WHEN CASE WHEN EXISTS (SELECT 1 FROM upkeep_pauses WHERE entity = 'tasks') THEN 0 ELSE (OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project
        OR OLD.params_sig IS NULL OR NEW.params_sig IS NULL OR OLD.params_sig IS NOT NEW.params_sig) END BEGIN
    INSERT INTO task_param_names (company, project, section, name, tasks)
        SELECT c, pr, sec, nam, 0 FROM (
            SELECT OLD.company AS c, coalesce(OLD.project, '') AS pr, s.key AS sec, p.key AS nam
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            EXCEPT
            SELECT NEW.company, coalesce(NEW.project, ''), s.key, p.key
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p)
        WHERE true
        ON CONFLICT (company, project, section, name) DO UPDATE SET tasks = tasks - 1;
    INSERT INTO task_param_names (company, project, section, name, tasks)
        SELECT c, pr, sec, nam, 1 FROM (
            SELECT NEW.company AS c, coalesce(NEW.project, '') AS pr, s.key AS sec, p.key AS nam
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            EXCEPT
            SELECT OLD.company, coalesce(OLD.project, ''), s.key, p.key
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p)
        WHERE true
        ON CONFLICT (company, project, section, name) DO UPDATE SET tasks = tasks + 1;
    INSERT INTO task_param_values (company, project, section, name, value, tasks)
        SELECT c, pr, sec, nam, val, 0 FROM (
            SELECT OLD.company AS c, coalesce(OLD.project, '') AS pr, s.key AS sec, p.key AS nam, json_extract(p.value, '$.value') AS val
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text'
            EXCEPT
            SELECT NEW.company, coalesce(NEW.project, ''), s.key, p.key, json_extract(p.value, '$.value')
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text')
        WHERE true
        ON CONFLICT (company, section, name, value, project) DO UPDATE SET tasks = tasks - 1;
    INSERT INTO task_param_values (company, project, section, name, value, tasks)
        SELECT c, pr, sec, nam, val, 1 FROM (
            SELECT NEW.company AS c, coalesce(NEW.project, '') AS pr, s.key AS sec, p.key AS nam, json_extract(p.value, '$.value') AS val
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text'
            EXCEPT
            SELECT OLD.company, coalesce(OLD.project, ''), s.key, p.key, json_extract(p.value, '$.value')
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text')
        WHERE true
        ON CONFLICT (company, section, name, value, project) DO UPDATE SET tasks = tasks + 1;
END;

CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks
    WHEN CASE WHEN EXISTS (SELECT 1 FROM upkeep_pauses WHERE entity = 'tasks') THEN 0 ELSE (OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project
        OR OLD.metrics_sig IS NULL OR NEW.metrics_sig IS NULL OR OLD.metrics_sig IS NOT NEW.metrics_sig) END BEGIN
    INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)
        SELECT c, pr, mh, vh, met, var, 0 FROM (
            SELECT OLD.company AS c, coalesce(OLD.project, '') AS pr, m.key AS mh, v.key AS vh,
                coalesce(json_extract(v.value, '$.metric'), '') AS met, coalesce(json_extract(v.value, '$.variant'), '') AS var
            FROM json_each(OLD.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object'
            EXCEPT
            SELECT NEW.company, coalesce(NEW.project, ''), m.key, v.key,
                coalesce(json_extract(v.value, '$.metric'), ''), coalesce(json_extract(v.value, '$.variant'), '')
            FROM json_each(NEW.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object')
        WHERE true
        ON CONFLICT (company, project, metric_hash, variant_hash, metric, variant) DO UPDATE SET tasks = tasks - 1;
    INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)
        SELECT c, pr, mh, vh, met, var, 1 FROM (
            SELECT NEW.company AS c, coalesce(NEW.project, '') AS pr, m.key AS mh, v.key AS vh,
                coalesce(json_extract(v.value, '$.metric'), '') AS met, coalesce(json_extract(v.value, '$.variant'), '') AS var
            FROM json_each(NEW.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object'
            EXCEPT
            SELECT OLD.company, coalesce(OLD.project, ''), m.key, v.key,
                coalesce(json_extract(v.value, '$.metric'), ''), coalesce(json_extract(v.value, '$.variant'), '')
            FROM json_each(OLD.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object')
        WHERE true
        ON CONFLICT (company, project, metric_hash, variant_hash, metric, variant) DO UPDATE SET tasks = tasks + 1;
END;

-- The names each task holds, as the triggers count them (project is the
-- column: NULL for none).
CREATE VIEW task_param_name_rows AS
    SELECT t.id, t.company, t.project, s.key AS section, p.key AS name
    FROM tasks t, json_each(t.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p;

CREATE VIEW task_param_value_rows AS
    SELECT t.id, t.company, t.project, s.key AS section, p.key AS name, json_extract(p.value, '$.value') AS value
    FROM tasks t, json_each(t.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
    WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text';

CREATE VIEW task_metric_variant_rows AS
    SELECT t.id, t.company, t.project, m.key AS metric_hash, v.key AS variant_hash,
        coalesce(json_extract(v.value, '$.metric'), '') AS metric, coalesce(json_extract(v.value, '$.variant'), '') AS variant
    FROM tasks t, json_each(t.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
    WHERE v.type = 'object';

-- A merge reads a project's values; the key leads with the name.
CREATE INDEX task_param_values_project ON task_param_values (company, project);
