"""Settings for Scorekeeper.

Everything a deployment changes comes from the environment; the defaults are for a laptop or a
phone-tethered table: embedded SQLite, debug on.
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = os.environ.get("SCOREKEEPER_DEBUG", "1") == "1"
SECRET_KEY = os.environ.get(
    "SCOREKEEPER_SECRET_KEY", "dev-only-insecure-key-set-SCOREKEEPER_SECRET_KEY-in-production"
)
ALLOWED_HOSTS = os.environ.get("SCOREKEEPER_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(
    ","
)

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "scorekeeper",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

SQLITE_PATH = Path(os.environ.get("SCOREKEEPER_SQLITE", BASE_DIR / "db.sqlite3"))
SQLITE_OPTIONS = {
    # WAL lets the phones read while one of them writes; FULL survives a power cut mid-game.
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON",
    # Take the write lock at BEGIN, so two writers queue instead of failing on lock upgrade.
    "transaction_mode": "IMMEDIATE",
    # Seconds a writer waits for the lock before giving up (sqlite3's busy timeout).
    "timeout": 20,
}

if "DATABASE_URL" in os.environ:
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_PATH),
            "OPTIONS": SQLITE_OPTIONS,
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
STATIC_ROOT = BASE_DIR / "staticfiles"
