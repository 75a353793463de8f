"""The site kit: what the site modules share (the line grammar driver, the hand builder, the readers of
the lines most sites write alike, dates, stakes, tournaments, XML support). Nothing here is a site: a
site is a module of :mod:`hhtool.sites` outside this package."""
