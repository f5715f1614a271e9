# Set-up and the main jobs. Everything installs into .venv from the project's own files.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# pytest workers: 2 cores on the reference machine
WORKERS ?= 2

.PHONY: setup setup-demo demo test test-python-core test-kernels wheel-smoke lint strength bench clean

# Two levels of set-up share .venv, each with its marker file: `setup-demo` (what `make demo`
# needs) is torch and the project's base dependencies; `setup` (make test and the rest) adds the
# dev extra (pytest, ruff, mypy, and the heavy ray[rllib], rlcard, pygame of the peer benchmarks
# and the RLlib example) on top, so a venv set up for the demo is upgraded by `make test`.
setup-demo: $(VENV)/.installed-base
setup: $(VENV)/.installed-dev

$(VENV)/.installed-base: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# torch first, pinned to the CPU wheel (a plain "torch" would pull a multi-GB CUDA build)
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed-base
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

# Train a small flip6 agent by self-play and rank it against the baselines: 2.5 minutes on a quiet
# 2-core machine, set-up included (docs/results/training_time.md); the config's 4-minute limit
# caps the training on a busy one. The last line is the new agent's verdict in words. Each run
# starts over (--overwrite, --fresh: the earlier results are kept as results/demo.jsonl.bak1, ...).
demo: setup-demo
	$(BIN)/python train.py --config configs/flip6_demo.yaml --overwrite
	$(BIN)/python evaluate.py --game flip6 --num-players 4 --deals 300 \
		--agents runs/flip6_demo/final.zip zoo:flip6 ev threshold random --rank-by win-rate \
		--out results/demo.json --fresh

# Two runs: everything but the timing-sensitive tests on $(WORKERS) workers, then the "serial"
# ones (tests/test_throughput.py) alone in one process, so that no other test skews their timings.
test: setup
	$(BIN)/python -m pytest -q -n $(WORKERS) -m "not serial" --durations=15
	$(BIN)/python -m pytest -q -m serial -p no:xdist

# The generic harness (conservation, masks, rewards, leaks, round trips) and the from_dict fuzz on
# the Python core too: make test checks the native core wherever it is built (CI runs both).
test-python-core: setup
	CARDARENA_CORE=python $(BIN)/python -m pytest -q -n $(WORKERS) tests/test_harness.py \
		tests/test_from_dict.py

# The numerically sensitive tests again under other OpenBLAS kernels than the machine's own: a
# network's decisions must not depend on the kernel (CI runs this after make test).
KERNELS ?= Haswell Sandybridge
test-kernels: setup
	for k in $(KERNELS); do \
		OPENBLAS_CORETYPE=$$k $(BIN)/python -m pytest -q -p no:xdist tests/test_evaluate.py \
			tests/test_policy_agent.py tests/test_zoo_logits.py || exit 1; \
	done

# Build the wheel, install it in a fresh virtual environment and run tests/wheel_smoke.py there,
# from a folder with a user's own agents/ and envs/ packages (CI runs this after make test).
SMOKE ?= /tmp/cardarena-wheel-smoke
wheel-smoke: setup
	rm -rf build dist $(SMOKE)
	$(BIN)/python -m pip wheel -q --no-deps -w dist .
	$(PYTHON) -m venv $(SMOKE)/venv
	$(SMOKE)/venv/bin/python -m pip install -q torch==2.13.0
	$(SMOKE)/venv/bin/python -m pip install -q dist/cardarena-*.whl
	mkdir -p $(SMOKE)/user/agents $(SMOKE)/user/envs
	echo 'OWNER = "user"' > $(SMOKE)/user/agents/__init__.py
	echo 'OWNER = "user"' > $(SMOKE)/user/envs/__init__.py
	cd $(SMOKE)/user && $(SMOKE)/venv/bin/python -c \
		'import runpy, sys; runpy.run_path(sys.argv[1], run_name="__main__")' $(CURDIR)/tests/wheel_smoke.py
	rm -rf build

# mypy reads the packages under their installed names from a tree of links (pyproject.toml
# [tool.mypy] says why)
MYPY_TREE := build/mypy/cardarena
lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check .
	rm -rf $(MYPY_TREE) && mkdir -p $(MYPY_TREE)
	ln -s $(CURDIR)/cardarena/*.py $(CURDIR)/envs $(CURDIR)/agents $(CURDIR)/configs $(MYPY_TREE)/
	$(BIN)/python -m mypy

# The suite's strength claims (zoo agents, baseline ladders, baseline settings), re-measured on the
# evaluation range of deck seeds (from 1,000,000,000; settings are chosen below it: see
# agents/evaluation/seeds.py): about an hour on 2 shared cores; exit status 1 if a claim the docs
# make does not hold. The search claims take hours: bench/strength.py --only search --check.
strength: setup
	$(BIN)/python bench/strength.py --check

bench: setup
	$(BIN)/python bench/throughput.py

clean:
	rm -rf runs results .pytest_cache .ruff_cache
