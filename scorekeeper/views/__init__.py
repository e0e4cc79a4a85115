"""Function views by area: each admits the request (access.py fetches what it names, for this
visitor, before anything else), calls a service for a write or scorekeeper/reads/ for what the
page shows, adds its forms, and renders the page or, for htmx, the part that changed.

The table of a Knock Dummy night: table.py (scoreboard, game in play, seats, settle-up, history),
games.py (one game: its end, record, void, correction), offline.py (a game started without a
connection) and live.py (every phone kept up to date by a cheap poll). Score sheets of classic
Dummy and Gong Zhu: scoresheet.py. The night's money: costs.py (shared costs added and taken
back), pay.py (a transfer paid, received, carried), tabs.py (settling the tab), share.py (the
summary, its card and link). Around them: groups.py (a group's page and a player's), members.py,
accounts.py, exports.py, app.py (the installable app).
"""
