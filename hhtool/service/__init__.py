"""The application layer: the only part of hhtool the command line calls.

Each module owns one kind of work a command asks for and hides which lower modules do it:
:mod:`.stores` (opening the store, the lock and upgrade policy), :mod:`.importing` (the one way into
the importer), :mod:`.stats_cache` (when the stats cache, the player facts, is refreshed), :mod:`.filters` (the one
:class:`HandFilter` every command selects hands with), :mod:`.judging` (the profile and replay of a
stored hand), :mod:`.verdicts` (the verdict and violation queries), :mod:`.audit`, :mod:`.export`,
:mod:`.sql`, :mod:`.reports` (stats and graph), :mod:`.simulate`, :mod:`.config` (the user's config
file: default database, watch folders) and :mod:`.aliases` (one person's names on several sites).
A service function takes plain values and returns data; it never prints (but for a warning it is
handed a function for) and never exits: a request that cannot be done as asked raises
:class:`~.errors.UsageError`.
"""
