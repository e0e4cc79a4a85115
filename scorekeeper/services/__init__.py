"""Every write Scorekeeper makes (keyword-only, one transaction, validating before writing), and
the audits that check the ledgers from scratch. What a page shows is read in scorekeeper/reads/;
a write that needs the same read (the close's plan, who deals next, where a score sheet stands,
the debts still owed) imports it from there.

A night and its games: nights.py (groups, players, nights, seats, closing the night, transfers
paid and received), games.py (Knock Dummy games and their events: start, finish, tie, void,
correct, undo, paid at the table), scoresheet.py (classic Dummy to 500 and Gong Zhu score sheets:
open, hands, void, close).

The ledgers: ledger.py (the append-only points ledger and the running totals it keeps in step),
settle_up.py (the close in baht: the host's choices checked, the plan written as fee and rounding
lines and transfers), costs.py (shared costs of the night), debts.py (transfers carried to next
time, and paid later), tabs.py (settling the tab of carried debts), ledger_audit.py and
debts_audit.py (both ledgers checked from scratch).

Around them: access.py (devices, memberships, invites, the audit trail), payments.py (which player
a member is, their PromptPay number), group_rules.py (the group's own rules, kept and read back
through the same checks: usual_of), sharing.py (a night's share link), exports/ (CSV and JSON
out, JSON in), once.py (a retried form writes nothing twice), writing.py (a write's transaction,
its writers woken in turn on the embedded database), errors.py (the error a service raises when
it refuses).
"""
