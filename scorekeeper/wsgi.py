import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
application = get_wsgi_application()

# Everything loaded so far (Django, the apps, their models, the middleware) lives as long as the
# process: out of the collector's sight, a full collection no longer walks it. In a worker it took
# 60-83 ms, once every few hundred games, and held every request queued behind it
# (`uv run python bench/write_hold.py`, docs/performance.md).
gc.freeze()
