package domain

// MLflow's experiment ids are project ids, but for its Default
// experiment: id "0" is the company's root project named "Default". The
// records kept per experiment (traces, scorers, evaluation dataset links)
// name it "0", so a cascade over projects needs this rule too.
const (
	MLflowDefaultExperimentID   = "0"
	MLflowDefaultExperimentName = "Default"
)

// MLflowExperimentID is the MLflow experiment id of the project id with
// parent and name.
func MLflowExperimentID(id, parent, name string) string {
	if parent == "" && name == MLflowDefaultExperimentName {
		return MLflowDefaultExperimentID
	}
	return id
}
