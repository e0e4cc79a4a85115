# The two commands of the README: `make run` and `make test`. Everything else is set up on the way.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# pyenv picks Python from .python-version; uv must never try to download one (no network for it here).
export UV_PYTHON_DOWNLOADS := never
# Compile the venv once at install: this environment sets PYTHONDONTWRITEBYTECODE, so without it
# every `manage.py` start recompiles Django from source (about 0.5 s of each settle run).
export UV_COMPILE_BYTECODE := 1
# and our own modules and pytest's rewritten tests are cached too (__pycache__/, ignored by git):
# with the variable set, each test worker compiled every test module again, about 2.5 s of CPU.
unexport PYTHONDONTWRITEBYTECODE
UV := $(shell command -v uv 2>/dev/null || echo "python3 -m uv")

.PHONY: help uv gettext chromium sync run serve test test-soak test-postgres postgres redis bench check-examples lint fonts screens

help:
	@echo "make run    install, migrate and serve on http://127.0.0.1:8000 (embedded SQLite; streams on :9000)"
	@echo "make test   install what the tests need and run them (SQLite; DATABASE_URL for PostgreSQL)"
	@echo "make test-soak  load, crash and fuzz runs against a real server (CI runs them too)"
	@echo "make serve  production: granian + whitenoise, settings from the environment; streams on PORT+1000"
	@echo "make bench  the aims of docs/performance.md, this tree against c8ffc3b (about 5 minutes)"
	@echo "make screens  the README's phone screenshots in docs/screens/, made again by the screens test"

uv:
	@$(UV) --version >/dev/null 2>&1 || python3 -m pip install --quiet uv

# Thai is the first language: its catalogue is compiled from scorekeeper/locale at install, and
# again whenever its .po is newer than its .mo, by msgfmt as Django's compilemessages runs it
# (which took half a second of every `make test` to start Django and find nothing to do).
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard scorekeeper/locale/*/LC_MESSAGES/*.po))
sync: uv $(CATALOGUES)
	@$(UV) sync --frozen --quiet

%.mo: %.po | gettext
	@msgfmt --check-format -o $@ $<

gettext:
	@command -v msgfmt >/dev/null || { apt-get update -qq && apt-get install -y -qq gettext; }

# Browser tests drive Debian's Chromium (Playwright cannot download browsers here), with Thai fonts
# so screenshots show Thai rather than boxes: its headless shell for the tests (the browser without
# the desktop around it, as Playwright runs headless Chromium), the whole browser for the bench's
# throttled phone.
chromium:
	@command -v chromium >/dev/null && command -v chromium-headless-shell >/dev/null \
	  && dpkg -s fonts-thai-tlwg >/dev/null 2>&1 || { apt-get update -qq \
	  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell fonts-thai-tlwg; }

# The push process (scorekeeper/push) serves each open table's stream of versions beside the app:
# granian's ASGI interface, one worker, sockets and coroutines rather than threads, its backlog
# and backpressure above the streams expected (docs/performance.md: 10,000 on one core). Pages
# open streams on their own host at PUSH_PORT; behind nginx, which routes /push/ on the app's
# origin to it (README), set SCOREKEEPER_PUSH_PORT=0. The two run together and stop together:
# when either ends, the other is stopped. A stream's request is one line and a few cookies: its
# connection's buffer is held to 8 KB (nginx's own header buffers), 24 KB a stream in all rather
# than 34 (docs/performance.md).
PUSH_PORT ?= $(shell echo $$(( $(or $(PORT),8000) + 1000 )))
SCOREKEEPER_PUSH_PORT ?= $(PUSH_PORT)
PUSH_STREAMS ?= 65536
PUSH = $(UV) run granian --interface asgi --workers 1 --port $(PUSH_PORT) \
  --backlog $(PUSH_STREAMS) --backpressure $(PUSH_STREAMS) --http1-header-read-timeout 10000 \
  --http1-buffer-size 8192 \
  --no-ws scorekeeper.push.asgi:application
TOGETHER = trap 'kill $$(jobs -p) 2>/dev/null' EXIT INT TERM; wait -n

run: sync
	$(UV) run python manage.py migrate --noinput
	ulimit -n $$(ulimit -Hn) 2>/dev/null; export SCOREKEEPER_PUSH_PORT=$(SCOREKEEPER_PUSH_PORT); \
	  $(PUSH) --host 127.0.0.1 & \
	  $(UV) run python manage.py runserver 127.0.0.1:8000 & \
	  $(TOGETHER)

# Production: settings from the environment (README, Deployment), static files collected for
# whitenoise (hashed names, compressed, cached for a year), migrations applied, granian serving:
# WORKERS processes, each running the app on THREADS threads. A phone that sends its form slowly
# holds a thread until the last byte: behind a proxy that buffers requests, use
# WORKERS=<cores> THREADS=1 (README, "Serving it for real"). The access log writes a path's
# control characters out (scorekeeper/access_log.py): a crafted path cannot fake a line of it.
PORT ?= 8000
WORKERS ?= 3
THREADS ?= 4
serve: sync
	@# granian would share a port another server listens on, and split the writes between two
	@# databases: refuse to start instead.
	@for port in $(PORT) $(PUSH_PORT); do python3 -c "import socket; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0', $$port))" 2>/dev/null \
	  || { echo "make serve: port $$port is in use (another server?): stop it, or choose PORT=… (PUSH_PORT=…)" >&2; exit 1; }; done
	SCOREKEEPER_DEBUG=0 $(UV) run python manage.py collectstatic --noinput -v0
	SCOREKEEPER_DEBUG=0 $(UV) run python manage.py migrate --noinput
	SCOREKEEPER_DEBUG=0 $(UV) run python manage.py optimize_database
	ulimit -n $$(ulimit -Hn) 2>/dev/null; export SCOREKEEPER_DEBUG=0 SCOREKEEPER_PUSH_PORT=$(SCOREKEEPER_PUSH_PORT); \
	  $(PUSH) --host 0.0.0.0 --respawn-failed-workers & \
	  $(UV) run granian --interface wsgi --host 0.0.0.0 --port $(PORT) \
	  --workers $(WORKERS) --blocking-threads $(THREADS) --respawn-failed-workers --access-log \
	  --log-config scorekeeper/access_log.json \
	  --http1-header-read-timeout 10000 \
	  scorekeeper.wsgi:application & \
	  $(TOGETHER)

# With DATABASE_URL pointing at PostgreSQL, the local server is started first if it is down. A
# test that hangs past every bound leaves the stacks of its threads in test-artifacts/hung.txt
# (tests/conftest.py): printed here, since the process that wrote them is gone.
# The quick suite runs on one worker more than the cores (pytest-xdist), each worker with its own
# test database, live server and Chromium: a browser test waits on its Chromium and live server
# much of the time, and the extra worker computes meanwhile (on 2 cores: 3 min 8 s with 3 workers,
# 3 min 30 s with 2, 3 min 38 s with 4). The longest tests are handed out first, the browser
# tests spread among the rest (tests/conftest.py); a group of tests that go in order (the
# migrations') goes to one worker (loadgroup). TEST_WORKERS=0 runs it in one process (WORKERS is
# granian's, for make serve).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: sync chromium redis
	@if [[ "$${DATABASE_URL:-}" == postgres* ]]; then $(MAKE) --no-print-directory postgres; fi
	@rm -f test-artifacts/hung.txt
	$(UV) run pytest -m "not soak" -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS) || { status=$$?; cat test-artifacts/hung.txt 2>/dev/null; exit $$status; }

# Beyond the quick suite, three runs at once on the machine's cores. The runs against a real
# server, one after another: 20 writers for a minute on SQLite and on PostgreSQL, a SIGKILL in the
# middle of writes, nginx in front, two servers on one database. Beside them the fuzz, thousands
# of malformed posts in-process on the test database, on SQLite and on PostgreSQL (which refuses
# what SQLite lets by: NUL characters, over-long text), each a run of its own: the fuzz only
# computes, and run one database after the other it went on alone for a minute after the servers'
# runs had ended, a core idle (docs/performance.md). The minute-long soaks go first
# (tests/soak/conftest.py). Each fuzz's output follows the servers'; PYTEST_ARGS go to all three.
POSTGRES_URL := postgres://postgres@127.0.0.1:5432/scorekeeper
SOAK = $(UV) run pytest -m soak -p no:cacheprovider $(PYTEST_ARGS)
test-soak: sync postgres
	@rm -f test-artifacts/hung.txt
	@on_sqlite=$$(mktemp); on_postgres=$$(mktemp); \
	env -u DATABASE_URL $(SOAK) tests/soak/test_fuzz.py >$$on_sqlite 2>&1 & sqlite=$$!; \
	DATABASE_URL=$(POSTGRES_URL) $(SOAK) tests/soak/test_fuzz.py >$$on_postgres 2>&1 & postgres=$$!; \
	DATABASE_URL=$(POSTGRES_URL) $(SOAK) tests/soak --ignore=tests/soak/test_fuzz.py; servers=$$?; \
	wait $$sqlite; fuzz_sqlite=$$?; wait $$postgres; fuzz_postgres=$$?; \
	echo "== beside them, the fuzz on SQLite"; cat $$on_sqlite; \
	echo "== and the fuzz on PostgreSQL"; cat $$on_postgres; rm -f $$on_sqlite $$on_postgres; \
	if (( servers || fuzz_sqlite || fuzz_postgres )); then cat test-artifacts/hung.txt 2>/dev/null; exit 1; fi

test-postgres:
	DATABASE_URL=$(POSTGRES_URL) $(MAKE) --no-print-directory test

# The machine's Redis, for the cache's tests (tests/views/test_built_once.py) and REDIS_URL:
# installed and started if it is down, as PostgreSQL is below.
redis:
	@command -v redis-server >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; }
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || { \
	  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no >/dev/null; \
	  for i in $$(seq 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done; \
	  redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null; }

postgres:
	@pg_isready -q -h 127.0.0.1 -p 5432 || { \
	  for v in $$(ls /etc/postgresql 2>/dev/null); do pg_ctlcluster --skip-systemctl-redirect $$v main start || true; done; \
	  for i in $$(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done; \
	  pg_isready -h 127.0.0.1 -p 5432; }

# HEAD against commit c8ffc3b through granian on SQLite and PostgreSQL, plus a throttled phone:
# each figure beside its aim (docs/performance.md). BENCH_ARGS="--only cpu,poll --db sqlite".
# c8ffc3b is checked out in .bench/, a folder of this checkout that git ignores.
bench: sync postgres redis chromium
	$(UV) run python bench/bench.py $(BENCH_ARGS)

# The worked examples of docs/rules/knock-dummy.md through `manage.py settle --lines`, as a table's
# tool would send them (tests/rules/test_knock_dummy_examples.py checks them through the engine).
check-examples: sync
	$(UV) run python tests/rules/check_examples.py

lint: sync
	$(UV) run ruff check .
	$(UV) run ruff format --check .
	$(UV) run mypy

# The README's phone screenshots (docs/screens/*.jpg), committed: the screens test writes them only
# when SCOREKEEPER_SCREENS_TO_DOCS=1, so that an ordinary run leaves them alone; and every screen,
# light and dark, as test-artifacts/screens/*.png (SCOREKEEPER_SCREENSHOTS=1, which any test run
# takes to save the screens it passes through).
screens: sync chromium
	SCOREKEEPER_SCREENS_TO_DOCS=1 SCOREKEEPER_SCREENSHOTS=1 $(UV) run pytest -q -p no:cacheprovider tests/browser/test_screens.py

# The card's fonts, committed: subsets of Noto made again only to change what they cover
# (scorekeeper/fonts/README.md).
fonts: sync
	bash scorekeeper/fonts/subset.sh
