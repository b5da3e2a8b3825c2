"""Inside the sandbox: execute the prepared notebook top to bottom with nbclient (the last cell, added by the
grader, exports the answers as plain JSON). Reads ``job.json`` beside it; writes ``status.json``.

Nothing here decides a grade: status.json only feeds the feedback's reasons (a submission can overwrite it,
and gains nothing by that). Standard library, nbformat and nbclient only.
"""
import json
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError


def main() -> int:
    with open("job.json") as handle:
        job = json.load(handle)
    nb = nbformat.read(job["notebook"], as_version=4)
    timed_out = []

    def executed(cell, cell_index, execute_reply):
        if execute_reply.get("content", {}).get("ename") == "CellTimeout" and not cell.metadata.get("obcd_export"):
            # the student's numbering: the grader's export cells do not count
            timed_out.append(cell_index - sum(bool(c.metadata.get("obcd_export")) for c in nb.cells[:cell_index]))

    client = NotebookClient(nb, timeout=job["cell_timeout"], interrupt_on_timeout=True, allow_errors=True,
                            error_on_timeout={"ename": "CellTimeout", "evalue": "", "traceback": []},
                            kernel_name="python3", startup_timeout=300, on_cell_executed=executed,
                            # the answers are on disk once the last cell ran, and the sandbox kills every process
                            # at the end anyway: no graceful shutdown to wait for (about 0.7 s a notebook)
                            shutdown_kernel="immediate",
                            resources={"metadata": {"path": job["workdir"]}})
    status = {"dead_kernel": False}
    try:
        client.execute()
    except DeadKernelError:
        status["dead_kernel"] = True
    status["timed_out_cells"] = timed_out
    with open("status.json", "w") as handle:
        json.dump(status, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
