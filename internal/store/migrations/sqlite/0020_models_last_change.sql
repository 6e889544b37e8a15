-- models.get_all filters last_change as a date like last_update, so it
-- gets a real column; the SDK looks models up by uri, so that is indexed.
ALTER TABLE models ADD COLUMN last_change BIGINT NOT NULL DEFAULT 0;
UPDATE models SET last_change = last_update;
CREATE INDEX models_company_update ON models (company, last_update);
CREATE INDEX models_company_uri ON models (company, uri);
