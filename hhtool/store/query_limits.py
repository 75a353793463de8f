"""What a user's SQL query (`hhtool sql`) gets unless the command asks for more or less: the seconds
before it is stopped and the DuckDB memory it may use. The store's confined runner
(:mod:`hhtool.store.confined`) applies them; a module of its own so the command line's help can name
them without loading the store (DuckDB)."""

DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY = "1GiB"
