"""What a page shows, built in one place: each builder takes what the view admitted and returns
plain data for the template. Reads import rules and models only, never services, views or forms;
a write that needs the same read imports it from here (tests/test_imports.py).

money.py (a night's money as its settle-up reads it: Choices, the plan of who pays whom), sums.py
(each player's money part by part, and in words), board.py (a Knock Dummy night's scoreboard).
"""
