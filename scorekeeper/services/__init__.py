"""Every write Scorekeeper makes (keyword-only, atomic, validating before writing), with the reads
and audits that must agree with them.

A night and its games: nights.py (groups, players, nights, seats, closing the night, transfers
paid and received), games.py (Knock Dummy games and their events: start, finish, tie, void,
correct, undo, paid at the table), scoresheet.py (classic Dummy to 500 and Gong Zhu score sheets).

The ledgers: ledger.py (the append-only points ledger and the running totals it keeps in step),
settle_up.py (the settle-up in baht: plan, write, check), costs.py (shared costs of the night),
debts.py (transfers carried to next time, and paid later), tabs.py (settling the tab of carried
debts), sums.py (a night's money summed up per player: the one reader of it for every page),
ledger_audit.py and debts_audit.py (both ledgers checked from scratch).

Around them: access.py (devices, memberships, invites, the audit trail), payments.py (which player
a member is, their PromptPay number), group_rules.py (the group's own rules), sharing.py (a
night's share link), exports/ (CSV and JSON out, JSON in), once.py (a retried form writes
nothing twice), errors.py (the error a service raises when it refuses).
"""
