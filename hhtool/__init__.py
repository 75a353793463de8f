"""hhtool: import, replay and audit Seven Card Stud Hi/Lo hand histories."""

__version__ = "0.1.0"
