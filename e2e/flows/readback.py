"""Read a finished training task back through the SDK, in a fresh process (flow 2).

Usage: python readback.py <task id>

Prints ``FLOW_READBACK {json}`` with what the SDK returned; downloaded files
are reported by local path, so the test compares their bytes itself. Each
read is wrapped so that one failing SDK call is reported by name (with its
exception) while the others still run.
"""

import json
import sys
import traceback


def main(task_id):
    from clearml import Model, StorageManager, Task

    out = {"errors": {}}

    def attempt(name, fn):
        try:
            out[name] = fn()
        except Exception as exc:  # reported to the test, which names the call
            out["errors"][name] = "%s: %s\n%s" % (type(exc).__name__, exc, traceback.format_exc(limit=4))

    task = Task.get_task(task_id=task_id)
    out["id"] = task.id
    out["name"] = task.name
    out["status"] = str(task.get_status())
    attempt("parameters", lambda: task.get_parameters())
    attempt("configuration", lambda: task.get_configuration_object_as_dict("model_cfg"))
    attempt("scalars", lambda: task.get_reported_scalars())
    attempt("all_scalars", lambda: task.get_all_reported_scalars())
    attempt("last_scalars", lambda: task.get_last_scalar_metrics())
    attempt("last_iteration", lambda: task.get_last_iteration())
    attempt("console", lambda: list(task.get_reported_console_output(number_of_reports=200)))
    attempt("single_values", lambda: task.get_reported_single_values())
    attempt("plots", lambda: [{"metric": p.get("metric"), "variant": p.get("variant"), "iter": p.get("iter"),
                               "plot_str": p.get("plot_str")} for p in task.get_reported_plots()])

    def artifacts():
        result = {}
        for name, art in task.artifacts.items():
            entry = {"type": art.type, "url": art.url, "size": art.size, "hash": art.hash}
            try:
                value = art.get()
                entry["get"] = value if isinstance(value, (dict, list, str, int, float)) else repr(value)
                entry["get_type"] = type(value).__name__
            except Exception as exc:
                entry["get_error"] = "%s: %s" % (type(exc).__name__, exc)
            try:
                entry["local_copy"] = art.get_local_copy()
            except Exception as exc:
                entry["local_copy_error"] = "%s: %s" % (type(exc).__name__, exc)
            result[name] = entry
        return result

    attempt("artifacts", artifacts)

    def models():
        result = []
        for m in task.models["output"]:
            result.append({"id": m.id, "name": m.name, "url": m.url, "published": m.published,
                           "labels": m.labels, "framework": m.framework, "task": m.task,
                           "local_copy": m.get_local_copy()})
        return result

    attempt("output_models", models)

    def query_models():
        found = Model.query_models(project_name=task.get_project_name(), model_name="flows model")
        return [{"id": m.id, "name": m.name, "task": m.task} for m in found]

    attempt("query_models", query_models)
    attempt("query_models_none", lambda: [m.id for m in Model.query_models(
        project_name=task.get_project_name(), model_name="no such model")])

    def debug_images():
        samples = task.get_debug_samples("samples", "gradient")
        return [{"iter": s.get("iter"), "url": s.get("url"),
                 "local_copy": StorageManager.get_local_copy(s.get("url"), force_download=True)}
                for s in samples]

    attempt("debug_images", debug_images)
    print("FLOW_READBACK " + json.dumps(out, default=str), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
