"""Stud Hi/Lo equity: every completion of a spot (or a seeded sample), judged many hands at once.

:mod:`.deals` deals and values the completions, :mod:`.spot` turns them into each player's
equity, scoop, high and low chances. Imports only the model and :mod:`hhtool.evaluation`; numpy is
loaded when a calculation starts, never at import.

:mod:`.allin` splits each completion of an all-in spot by the replay's rule into each player's
all-in EV (docs/allin-ev.md); it alone imports the replay as well.
"""
