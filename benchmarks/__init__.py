"""Benchmarks (run as scripts); a package so that a test can share a helper (cputime.family_of)."""
