"""Function views by area: each admits the request (access.py fetches what it names, for this
visitor, before anything else), reads, and renders the page or, for htmx, the part that changed.

The table of a Knock Dummy night: table.py (scoreboard, game in play, seats, settle-up) with
board.py (the scoreboard), games.py (one game: its end, record, void, correction), offline.py (a
game started without a connection) and live.py (every phone kept up to date by a cheap poll).
Score sheets of classic Dummy and Gong Zhu: scoresheet.py. The night's money: costs.py (shared
costs and the baht lines), pay.py (PromptPay, paid and received, carried debts), sums.py (each
player's money in words), tabs.py (settling the tab), share.py (the summary, its card and link).
Around them: groups.py, members.py, accounts.py, exports.py, app.py (the installable app) and
paging.py (long lists a page at a time).
"""
