"""Stud Hi/Lo equity and all-in EV (:mod:`.allin`). numpy is loaded only when a calculation starts."""
