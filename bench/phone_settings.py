"""Settings for bench/phone_profile.py: the app's own settings, with static files served.

granian with SCOREKEEPER_DEBUG=1 serves no static file (only runserver does: every /static/ URL
answers 404), so a browser would load the table page without its CSS and without htmx.

- debug on (SCOREKEEPER_DEBUG=1): WhiteNoise serves the files from the finders, as it does in
  development: uncompressed, revalidated on every load (max-age 0).
- debug off (SCOREKEEPER_DEBUG=0): as `make serve`, collectstatic into BENCH_STATIC_ROOT (a
  temporary directory: hashed, gzipped, cached for a year) and WhiteNoise, but plain HTTP on
  127.0.0.1: no redirect to HTTPS, cookies not marked Secure, no HSTS.
"""

import os
from pathlib import Path

from scorekeeper.settings import *  # noqa: F403
from scorekeeper.settings import DEBUG, MIDDLEWARE

WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"

if DEBUG:
    MIDDLEWARE = [MIDDLEWARE[0], WHITENOISE, *MIDDLEWARE[1:]]
else:
    STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])
    SECURE_SSL_REDIRECT = False
    SESSION_COOKIE_SECURE = False
    CSRF_COOKIE_SECURE = False
    SECURE_HSTS_SECONDS = 0
