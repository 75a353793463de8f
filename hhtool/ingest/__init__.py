"""The import, one direction: read → split → parse → replay → tabulate → write → judge across hands →
refresh facts. :func:`hhtool.ingest.loader.import_sources` is the one way in; each step is its own
module here."""
