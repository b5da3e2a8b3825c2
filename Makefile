# `make test` and `make lab` do all set-up on a fresh machine: they create .venv and install.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# JupyterLab refuses to run as root without this flag (containers, CI).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: install test lab bench student site clean lock

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

lab: $(STAMP)
	cd notebooks && ../$(VENV)/bin/jupyter lab $(ROOT_FLAG) 00_index.ipynb

bench: $(STAMP)
	$(PY) benchmarks/run_benchmarks.py

# The student edition: answers replaced by placeholders, solutions removed (build/student/).
student: $(STAMP)
	$(PY) tools/student_edition.py --src notebooks --out build/student

# The course site (docs/, Sphinx): notebooks from their stored outputs, the API from the docstrings, offline;
# warnings are errors. Open build/site/index.html.
site: $(STAMP)
	$(PY) tools/build_site.py build/site

clean:
	rm -rf $(VENV) build
