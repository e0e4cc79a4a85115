"""The rules of the games Scorekeeper keeps: pure Python, no Django, no I/O, no floats.

The games: knock_dummy.py (Knock Dummy 2025 settlement, docs/rules/knock-dummy.md) with
knock_dummy_formulas.py (what each loser hands the knocker, rules 86-87); dummy_points.py (classic
Dummy to 500) and gong_zhu.py (Gong Zhu), docs/rules/other-games.md, added up deal by deal by
scoresheet.py and hand.py. Each game's settle contract document: knock_dummy_document.py,
dummy_points_document.py, gong_zhu_document.py, read strictly through document.py.

The money: money.py (points times a Decimal rate, rounded in one place), settle_up.py (the night's
settle-up in baht: costs, table fee, rounding, transfers), transfers.py (nets into payments),
tab.py (debts carried across nights, netted and settled). And names.py (what a player's name may
be), errors.py (the errors the rules raise, each with a stable code).
"""
