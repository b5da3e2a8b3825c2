"""The grader of the notebooks' exercises (tools/assign.py is its command line; docs/course.md).

bundle: the hidden tests and points read from the instructor notebooks; sandbox: bubblewrap or a
process-group fallback with rlimits; driver: runs inside the sandbox (nbclient); grade: one notebook,
its answers exported as plain JSON and tested in the grader's process; classroom: a class in parallel;
written: the written (manual) answers, one sanitized PDF per student for hand grading.
"""
