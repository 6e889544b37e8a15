-- MLflow history kept once (issue 38): a run whose document says so keeps
-- its finite points in its scalar series (event_scalars), and only the
-- rest in mlflow_metrics: NaN and ±Infinity, a step's earlier points, and
-- points with links. in_scalars = 1 marks a row whose point is also the
-- series' stored point at its step (a linked point): the history reads
-- the row there instead of the scalar point.
ALTER TABLE mlflow_metrics ADD COLUMN in_scalars INTEGER NOT NULL DEFAULT 0;
