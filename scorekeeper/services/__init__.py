"""Every write Scorekeeper makes: keyword-only, atomic, validating before writing.

sessions.py: groups, players, sessions, seats, settle-up. games.py: games and their events.
ledger.py: the append-only ledger and the running totals it keeps in step.
"""
