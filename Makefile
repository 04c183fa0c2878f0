# Two commands do all set-up: `make run` and `make test` (see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: run test quick test-packages lint messages bench bench-http prod prod-stop prod-status venv dev-venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed

venv: $(VENV)/.installed
dev-venv: $(VENV)/.installed-dev

run: venv
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo
	@echo "Serving on http://127.0.0.1:$(PORT)/"
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The Debian packages the tests need: installed when root, else named in one line (tests/debian-packages.sh).
# Listed first in `test` so that python3-venv is there before dev-venv makes the virtualenv.
test-packages:
	tests/debian-packages.sh

test: test-packages dev-venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	DEBUG=1 $(BIN)/mypy .
	$(BIN)/python -m pytest -n 2

# The developer's loop: the tests that are neither browser nor slow, on two processes (about a minute).
# `make test` (and CI) still runs every test, the slow and browser ones included.
quick: dev-venv
	$(BIN)/python -m pytest -n 2 -m "not browser and not slow"

lint: dev-venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Translations (docs/translations.md): collect new strings into locale/zh_Hans, translate them, then compile
# the catalogue (gettext's msgfmt); the .mo is committed so the site runs without gettext.
messages: venv
	DEBUG=1 $(BIN)/python manage.py makemessages -l zh_Hans --no-obsolete -i "staticfiles/*" -i "bench/*" -i "deploy/*" -i "docs/*" -i "fixtures/*"
	DEBUG=1 $(BIN)/python manage.py compilemessages -l zh_Hans

bench: dev-venv
	$(BIN)/python bench/run_all.py

# HTTP load on loopback: gunicorn (4 workers) + wrk on a generated 400-player event (bench/http_load.py --help).
bench-http: venv
	$(BIN)/python bench/http_load.py

# Production stack on this machine: PostgreSQL + Redis (Debian packages, loopback), both gunicorns, the worker
# and nginx (NGINX_PORT, default 8080), supervised (restarted when one dies). See docs/deployment.md.
prod:
	deploy/serve start

prod-stop:
	deploy/serve stop

prod-status:
	deploy/serve status

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-wal db.sqlite3-shm staticfiles
