-- organization.get_tags, projects.get_task_tags / get_model_tags,
-- tasks.get_types and projects.get_task_parents list the distinct tags,
-- system tags, types and parents of a company's tasks and models. Reading
-- every row took seconds on a store of 100,000 tasks, so triggers keep
-- them per (company, project, archived or not) with the number of records
-- holding each, in the statement of every write (as migration 0075 does
-- for hyper parameters). A row whose count falls to 0 stays (reads skip
-- it). project is '' for records without one; archived is 1 when the
-- record's system tags hold "archived". A JSON null in a tag list is no
-- tag.
-- PostgreSQL migration 0090 keeps the same table.
CREATE TABLE record_facets (
    entity   TEXT NOT NULL,
    company  TEXT NOT NULL,
    project  TEXT NOT NULL,
    facet    TEXT NOT NULL,
    value    TEXT NOT NULL,
    archived INTEGER NOT NULL,
    records  BIGINT NOT NULL
);
CREATE UNIQUE INDEX record_facets_key ON record_facets (entity, company, facet, project, value, archived);

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'tasks', t.company, coalesce(t.project, ''), 'tags', j.value, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM tasks t, json_each(t.tags) j
    WHERE j.value IS NOT NULL
    GROUP BY 2, 3, 5, 6;

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'tasks', t.company, coalesce(t.project, ''), 'system_tags', j.value, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM tasks t, json_each(t.system_tags) j
    WHERE j.value IS NOT NULL
    GROUP BY 2, 3, 5, 6;

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'tasks', t.company, coalesce(t.project, ''), 'type', t.type, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM tasks t
    WHERE t.type IS NOT NULL
    GROUP BY 2, 3, 5, 6;

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'tasks', t.company, coalesce(t.project, ''), 'parent', t.parent, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM tasks t
    WHERE t.parent IS NOT NULL
    GROUP BY 2, 3, 5, 6;

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'models', t.company, coalesce(t.project, ''), 'tags', j.value, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM models t, json_each(t.tags) j
    WHERE j.value IS NOT NULL
    GROUP BY 2, 3, 5, 6;

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'models', t.company, coalesce(t.project, ''), 'system_tags', j.value, EXISTS (SELECT 1 FROM json_each(t.system_tags) WHERE value = 'archived'), count(*)
    FROM models t, json_each(t.system_tags) j
    WHERE j.value IS NOT NULL
    GROUP BY 2, 3, 5, 6;

-- Upkeep: an insert adds its facets, a delete takes them away, an update
-- that changes any of them does both.

CREATE TRIGGER tasks_facets_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'tasks', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)
            UNION ALL SELECT 'type', NEW.type
            UNION ALL SELECT 'parent', NEW.parent) f
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
            UNION ALL SELECT 'parent', OLD.parent) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER tasks_facets_update AFTER UPDATE ON tasks
    WHEN OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project OR OLD.tags IS NOT NEW.tags OR OLD.system_tags IS NOT NEW.system_tags OR OLD.type IS NOT NEW.type OR OLD.parent IS NOT NEW.parent BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'tasks', OLD.company, coalesce(OLD.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(OLD.system_tags) WHERE value = 'archived'), -1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(OLD.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(OLD.system_tags)
            UNION ALL SELECT 'type', OLD.type
            UNION ALL SELECT 'parent', OLD.parent) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'tasks', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)
            UNION ALL SELECT 'type', NEW.type
            UNION ALL SELECT 'parent', NEW.parent) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER models_facets_insert AFTER INSERT ON models BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER models_facets_delete AFTER DELETE ON models BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', OLD.company, coalesce(OLD.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(OLD.system_tags) WHERE value = 'archived'), -1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(OLD.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(OLD.system_tags)) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;

CREATE TRIGGER models_facets_update AFTER UPDATE ON models
    WHEN OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project OR OLD.tags IS NOT NEW.tags OR OLD.system_tags IS NOT NEW.system_tags BEGIN
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', OLD.company, coalesce(OLD.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(OLD.system_tags) WHERE value = 'archived'), -1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(OLD.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(OLD.system_tags)) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
    INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
        SELECT 'models', NEW.company, coalesce(NEW.project, ''), f.facet, f.value, EXISTS (SELECT 1 FROM json_each(NEW.system_tags) WHERE value = 'archived'), 1
        FROM (
            SELECT 'tags' AS facet, value AS value FROM json_each(NEW.tags)
            UNION ALL SELECT 'system_tags', value FROM json_each(NEW.system_tags)) f
        WHERE f.value IS NOT NULL
        ON CONFLICT (entity, company, facet, project, value, archived) DO UPDATE SET records = records + excluded.records;
END;
