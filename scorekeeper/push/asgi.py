"""The push process's application, for granian's ASGI interface (`make serve`, `make run`)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django.setup()

from scorekeeper.push.app import Push  # noqa: E402 (the models need Django set up)

application = Push()
