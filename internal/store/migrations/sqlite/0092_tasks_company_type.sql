-- reports.get_tags lists the tags of a company's tasks of type report:
-- without an index on type it read every task of the company (2.7 s on a
-- store of 100,000 tasks under load, found by trove-bench hostile).
CREATE INDEX tasks_company_type ON tasks (company, type);
