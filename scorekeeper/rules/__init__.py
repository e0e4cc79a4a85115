"""The rules of the games Scorekeeper keeps: pure Python, no Django, no I/O, no floats."""
