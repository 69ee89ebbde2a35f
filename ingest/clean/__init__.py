"""Offset-mapping cleaning transforms and the pipeline that composes them."""
