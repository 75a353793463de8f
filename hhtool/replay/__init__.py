"""Replay Stud Hi/Lo hands under configurable rules: hand evaluation, rule profiles and checks."""
