"""Extraction, offset maps, cleaning transforms and chunking. Pure: no database, no click."""
