# `make test` and `make lab` do all set-up on a fresh machine: they create .venv and install.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# JupyterLab refuses to run as root without this flag (containers, CI).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: install test lab bench student assign grade slides site clean lock

install: $(STAMP)

# Exactly the locked versions (requirements-lock.txt: what the stored outputs were recorded with),
# then the package itself without resolving again.
$(STAMP): pyproject.toml requirements-lock.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-lock.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

# Re-resolve the lock after a change to pyproject.toml (other pins kept); UPGRADE=1 moves every pin to
# the newest release pyproject allows. Then re-record the notebooks and review the diff (README).
lock: $(STAMP)
	$(PY) tools/lock.py $(if $(UPGRADE),--upgrade)

# Unit and property tests, strict nbval over every notebook, and the real-browser tests
# (tests/browser: skipped with a reason where /usr/bin/chromium is missing, except under CI), i.e.
# pytest --nbval --nbval-sanitize-with notebooks/sanitize.cfg tests notebooks; beside it, in a second
# process, strict nbval of the notebooks under the CPU configurations that change rounding
# (tools/run_tests.py; skipped with a printed reason off x86-64).
test: $(STAMP)
	$(PY) tools/run_tests.py

# Compiles OBCD's numba kernels first (tools/warm_cache.py: once per environment, then cached), so that
# the first solve in a notebook does not stall. A student's install without make: docs/install.md.
lab: $(STAMP)
	$(PY) tools/warm_cache.py
	cd notebooks && ../$(VENV)/bin/jupyter lab $(ROOT_FLAG) 00_index.ipynb

bench: $(STAMP)
	$(PY) benchmarks/run_benchmarks.py

# The student edition: answers replaced by placeholders, solutions removed (build/student/).
student: $(STAMP)
	$(PY) tools/student_edition.py --src notebooks --out build/student

# Hand out and grade (tools/assign.py, tools/grading/, docs/course.md): `make assign` writes build/assign/student/
# (hand this out) and build/assign/grader/ (one JSON bundle per notebook: the hidden tests; keep it). `make grade
# SUBMISSIONS=<dir>` runs each <dir>/<student>/NN_name.ipynb in a sandbox (bubblewrap where it works, else a process
# group with rlimits), offline, all cores in parallel, and grades its answers (exported as plain JSON) in the
# grader's own process: build/grades/grades.csv (points per question), build/grades/feedback/<student>.md.
# GRADE_OPTIONS passes options on, e.g. GRADE_OPTIONS="--workers 4 --wall 1200", or "--scheduler tcp://host:8786" to
# grade on the workers of a dask cluster (each in its own bwrap sandbox; what they need: docs/course.md). Written
# (manual) questions: an empty column in grades.csv; `make grade` then writes build/grades/written/<student>.pdf
# (every written question's prompt and the student's answer, read from the notebook's JSON, never run; sanitized;
# printed by headless chromium, offline; HTML only without chromium) and build/grades/written/manifest.csv, for hand
# grading (docs/course.md).
assign: $(STAMP)
	$(PY) tools/assign.py assign --out build/assign

grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || (echo "usage: make grade SUBMISSIONS=<folder of <student>/NN_name.ipynb>" && exit 2)
	$(PY) tools/assign.py grade "$(SUBMISSIONS)" --bundle build/assign/grader --out build/grades $(GRADE_OPTIONS)
	$(PY) tools/assign.py export-written "$(SUBMISSIONS)" --bundle build/assign/grader --out build/grades/written --if-any

# reveal.js slides from the cells of 01-03 tagged `slide` (tools/build_slides.py; only Python: reveal.js and
# its speaker notes from the sphinx-revealjs wheel, copied into build/slides/, so nothing is loaded from outside
# when they are shown), and build/slides/live/: the notebooks with RISE slide types for live slides in JupyterLab.
slides: $(STAMP)
	$(PY) tools/build_slides.py build/slides

# The course site (docs/, Sphinx): notebooks from their stored outputs, the API from the docstrings, offline;
# warnings are errors. Open build/site/index.html. The student edition by default (no solutions, no hidden
# tests, no answers); EDITION=instructor builds the full one.
EDITION ?= student
site: $(STAMP)
	$(PY) tools/build_site.py build/site --edition $(EDITION)

clean:
	rm -rf $(VENV) build
