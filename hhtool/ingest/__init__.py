"""The import, one direction: read → split → parse → replay → tabulate → write → judge across hands →
refresh facts. :func:`hhtool.ingest.importer.import_sources` is the one way in; each step is its own
module here."""
