"""What a page shows, built in one place: each builder takes what the view admitted (the night,
the group, the visitor's membership, the group's usual close where a running settle-up assumes
it) and returns plain data for the template. Reads import rules and models, never services, views
or forms; a write that needs the same read imports it from here (tests/test_imports.py).

Pages and regions: table.py (a Knock Dummy night's table: scoreboard, game in play, running
settle-up, standing costs, latest games; its seats), settle.py (its settle-up: transfers with
how to pay them), history.py (the night as it reads later: games a page at a time, the running
balance), scoresheet.py (classic Dummy and Gong Zhu: the sheet, a hand, the end of the match,
its history; where a match stands and who deals next), share.py (the summary, its share text and
its card's data), group.py (a group's page: its nights, the debts owed, the tab), player.py (a
player's record), board.py (the Knock Dummy scoreboard every page shows).

What several read: money.py (a night's money as its settle-up reads it and the plan of who pays
whom, which the close writes), sums.py (each player's money part by part, in words), game.py (one
game: its page, seat order, who deals after it, the undo's minute), debts.py (debts carried
across nights and the settled tabs), costs.py (shared costs and the money lines in baht), pay.py
(PromptPay as the viewer may read it), charts.py (SVG line charts, a long run thinned),
paging.py (a page of rows in one statement).
"""
