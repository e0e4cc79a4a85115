"""Told, not asked: each phone at an open table holds one stream of its table's versions.

A small ASGI application (app.py), served by granian's ASGI interface in a process of its own
beside the WSGI app (`make serve`, `make run`): an open stream costs a socket and a few
kilobytes there, where Django's request handler would hold a thread for it. One watcher a
process (watch.py) learns which tables moved from the database, without a query per phone, and
wakes their streams; the phone then fetches the table's region as its poll always did
(views/live.py), built once per version.
"""
