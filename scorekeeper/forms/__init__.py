"""The forms, one module per area of views/ that uses them.

fields: the fields, widgets and bounds they share; accounts, costs, games (events, the end of a
game, a tie), groups (the group, opening a night, the group's rules), members, scoresheet, table.
"""
