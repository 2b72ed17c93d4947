# Two entry points for a fresh machine: `make demo` and `make test`.
# Each creates the virtual environment, builds the Rust extension and installs what it needs.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.deps-stamp
BUILD  := $(VENV)/.build-stamp
RUST_SOURCES := $(shell find rust -name '*.rs') Cargo.toml pyproject.toml

.PHONY: demo test test-rust test-python bench bench-rust develop clean

$(STAMP): pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

$(BUILD): $(STAMP) $(RUST_SOURCES)
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --quiet
	touch $@

develop: $(BUILD)

demo: $(BUILD)
	$(PY) -m genial demo --seed 2026

test-rust:
	cargo test --release --quiet

test-python: $(BUILD)
	$(PY) -m pytest -q

test: test-rust test-python

bench-rust:
	cargo bench --bench core

bench: $(BUILD)
	$(PY) -m pytest benches --benchmark-enable -q

clean:
	rm -rf $(VENV) target
