"""Settings for Scorekeeper.

Everything a deployment changes comes from the environment; the defaults are for a laptop or a
phone-tethered table: embedded SQLite, debug on.
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def flag(name: str, default: bool) -> bool:
    """A yes/no setting: 1/true/yes/on or 0/false/no/off, in any case; anything else refused."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value not in TRUE + FALSE:
        raise ImproperlyConfigured(
            f"{name}={raw!r}: give one of {'/'.join(TRUE)} or {'/'.join(FALSE)}"
        )
    return value in TRUE


def whole(name: str, default: int) -> int:
    """A whole-number setting of 0 or more; anything else refused."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    if not raw.strip().isdigit():
        raise ImproperlyConfigured(f"{name}={raw!r}: give a whole number, 0 or more")
    return int(raw.strip())


DEBUG = flag("SCOREKEEPER_DEBUG", True)
SECRET_KEY = os.environ.get("SCOREKEEPER_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("set SCOREKEEPER_SECRET_KEY: production needs its own secret")
    SECRET_KEY = "dev-only-insecure-key-set-SCOREKEEPER_SECRET_KEY-in-production"
ALLOWED_HOSTS = os.environ.get("SCOREKEEPER_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(
    ","
)
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("SCOREKEEPER_TRUSTED_ORIGINS", "").split(",") if o
]

# Production: HTTPS only, cookies that never travel in clear, a year of HSTS.
if not DEBUG:
    SECURE_SSL_REDIRECT = flag("SCOREKEEPER_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = whole("SCOREKEEPER_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    if flag("SCOREKEEPER_BEHIND_PROXY", False):  # the proxy terminates TLS
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # a phone stays joined to its table for a year
SESSION_COOKIE_SAMESITE = "Lax"
# Django's database store: a phone without an account is known by its night. Not cached_db: its
# cache is each worker's own memory, so a sign-out in one worker would go unseen in another.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "scorekeeper",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Polls of an unchanged table answered before anything else runs (views/live.py).
    "scorekeeper.views.live.UnchangedPollMiddleware",
    # Pages and swaps gzipped: a poll's 6 KB of HTML crosses a card table's Wi-Fi as about 1 KB.
    # Django pads each gzip header with random bytes and masks the CSRF token (BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]
if not DEBUG:  # runserver serves static files in development; whitenoise does in production
    # Before GZip: whitenoise answers static files itself, already compressed when collected.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

# Content Security Policy (Django 6): scripts only from here, with the page's nonce; htmx is
# configured in base.html not to inject styles or evaluate code.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}


def push_sources(port: int) -> list[str]:
    """Where a page may open its table's stream: its own origin, and with a push port the same
    host at that port (the stream carries the night's pass, no cookie)."""
    return [CSP.SELF, f"*:{port}"] if port else [CSP.SELF]


# The table's streams (scorekeeper/push) are served by the push process. Behind nginx it is
# routed by its prefix, /push/, on the app's own origin (README): 0, the default. Without a
# proxy (make run, make serve) it listens on a port of its own, which pages name.
PUSH_PORT = whole("SCOREKEEPER_PUSH_PORT", 0)
SECURE_CSP["connect-src"] = push_sources(PUSH_PORT)
# A stream sends a comment line after this many seconds without an event: proxies (nginx's
# proxy_read_timeout, README) and phones close a connection silent for longer.
PUSH_KEEPALIVE_SECONDS: float = whole("SCOREKEEPER_PUSH_KEEPALIVE", 25)
# A table page asks this often when its stream cannot be held (refused, or dropping): the
# stream tells every change, and the poll is only the fallback.
LIVE_POLL_SECONDS = 30

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a login after too many failures
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "scorekeeper.views.accounts.axes_username"
# A page in the visitor's language instead of axes' one English sentence.
AXES_LOCKOUT_CALLABLE = "scorekeeper.views.accounts.locked_out"
# Django's page for a refused CSRF token explains it to developers, in English: ours tells a
# player what to do, in their language (templates/403_csrf.html).
CSRF_FAILURE_VIEW = "scorekeeper.views.access.csrf_failure"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"
ASGI_APPLICATION = "scorekeeper.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

SQLITE_PATH = Path(os.environ.get("SCOREKEEPER_SQLITE", BASE_DIR / "db.sqlite3"))
SQLITE_OPTIONS = {
    # WAL lets the phones read while one of them writes; FULL survives a power cut mid-game.
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
    # Take the write lock at BEGIN, so two writers queue instead of failing on lock upgrade;
    # the services' writers queue before BEGIN too, woken in turn (services/writing.py).
    "transaction_mode": "IMMEDIATE",
    # Seconds a writer waits for SQLite's own lock before giving up (sqlite3's busy timeout).
    "timeout": 20,
}

if "DATABASE_URL" in os.environ:
    # A connection is kept a minute between requests, and checked before it is used again: one
    # the server cut meanwhile (a restart, a pooler's idle limit) is replaced, where it would
    # have failed the request with a 500 (tests/browser/test_kept_connection.py).
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True
        )
    }
    # Parameters bound by the server, and a statement run 5 times on a connection prepared there,
    # parsed and planned once: recording a game runs the same few statements again and again.
    # Behind a pooler in transaction mode without prepared statement support (PgBouncer before
    # 1.21), set SCOREKEEPER_PG_PREPARE=0.
    postgres = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    if postgres and flag("SCOREKEEPER_PG_PREPARE", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_PATH),
            "OPTIONS": SQLITE_OPTIONS,
            # Kept open between requests: opening one and running its PRAGMAs cost a request
            # about a tenth of its time.
            "CONN_MAX_AGE": 600,
        }
    }

# The table's region is built once for each version and kind of visitor and kept in the cache
# (views/live.py): in each process by default, which needs no server; with REDIS_URL set, in
# Redis, shared by every process and machine serving the app (README, "Serving it for real").
CACHES: dict[str, dict[str, Any]]
if "REDIS_URL" in os.environ:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": os.environ.get("SCOREKEEPER_CACHE_PREFIX", "scorekeeper"),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "th"
LANGUAGES = [("th", "ไทย"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "scorekeeper" / "locale"]
TIME_ZONE = "Asia/Bangkok"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("SCOREKEEPER_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files with year-long caching when collected; plain files in debug.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Behind a reverse proxy: how many proxies in front of the app add to X-Forwarded-For, so a rate
# limit counts each phone's own address rather than the proxy's (0: no proxy, REMOTE_ADDR).
TRUSTED_PROXIES = whole("SCOREKEEPER_TRUSTED_PROXIES", 0)
# New groups one address may make in an hour without an account (a club's Wi-Fi is one address).
GROUPS_AN_HOUR = whole("SCOREKEEPER_GROUPS_AN_HOUR", 30)
# New accounts one address may sign up in an hour (a whole club signing up on its Wi-Fi fits).
SIGNUPS_AN_HOUR = whole("SCOREKEEPER_SIGNUPS_AN_HOUR", 20)

# Every 500 is written with its traceback to the server's log (standard error), in production too:
# Django alone only mails it to ADMINS, which a table's server has none of.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}
