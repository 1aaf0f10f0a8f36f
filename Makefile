# Make is how people work here: `make run` and `make test` from a fresh clone need only Node.js and npm.
# Bun itself comes from the npm registry, pinned in tools/package-lock.json.

BUN_DIR  := tools/node_modules/.bin
BUN      := $(BUN_DIR)/bun
export PATH := $(CURDIR)/$(BUN_DIR):$(CURDIR)/node_modules/.bin:$(PATH)

SOURCES := $(shell find src public -type f 2>/dev/null)

.PHONY: all run serve build test test-deps typecheck lint migrations check-migrations check-architecture bench clean deps

all: build

$(BUN): tools/package.json tools/package-lock.json
	cd tools && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

node_modules/.deps-installed: package.json bun.lock $(BUN)
	$(BUN) install --frozen-lockfile
	@touch $@

deps: node_modules/.deps-installed

# --bytecode: the executable carries JavaScriptCore's bytecode, not only the source to parse at
# every start; --splitting (ES modules only): each command's import() is a chunk of its own, loaded
# when the command runs, so `version` and the client commands never load the server
# (docs/architecture.md "Start-up", bench/RESULTS.md "Start-up").
dist/phrasebook: node_modules/.deps-installed $(SOURCES)
	$(BUN) build --compile --bytecode --splitting --format=esm --minify-whitespace --minify-syntax src/main.ts --outfile dist/phrasebook

build: dist/phrasebook

# Starts the server with a demo project in ./data (created on first run).
run: build
	./dist/phrasebook demo

serve: build
	./dist/phrasebook serve

typecheck: deps
	tsc --noEmit -p .

# Type check, migrations in step with the schema, and no import cycle between the folders of src/.
lint: typecheck check-migrations check-architecture

check-architecture: deps
	@$(BUN) scripts/check-architecture.ts

# Chromium, nginx, curl, openssl: installed from Debian's packages when missing (see the script).
test-deps:
	@bash scripts/install-test-deps.sh

# Every test against the compiled executable; files named *.slow.test.ts run beside the rest (see the script).
test: test-deps lint build
	PHRASEBOOK_BIN=$(CURDIR)/dist/phrasebook BUN=$(BUN) bash scripts/run-tests.sh --timeout 60000

# Regenerates SQL migrations from src/storage/schema.ts and the embedded index beside them
# (NAME=what_changed names the new migration file).
migrations: deps
	drizzle-kit generate --config drizzle.config.ts $(if $(NAME),--name $(NAME))
	$(BUN) scripts/embed-migrations.ts

# Fails when the committed migrations do not match the schema.
check-migrations: deps
	@$(BUN) scripts/check-migrations.ts

bench: build
	bash bench/run.sh

clean:
	rm -rf dist node_modules tools/node_modules
