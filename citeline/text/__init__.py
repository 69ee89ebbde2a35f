"""The text kernel: what ingest and verify both need to read text, and neither owns.

* :mod:`~citeline.text.offsets`: the offset model (spans in code points, half-open; composable
  maps from cleaned text back to the raw stream);
* :mod:`~citeline.text.scripts`: scripts written without spaces, right-to-left text, word counts;
* :mod:`~citeline.text.lexicon`: a document's language and the word frequencies of its language;
* :mod:`~citeline.text.sentences`: the one sentence splitter, with each language's abbreviations;
* :mod:`~citeline.text.lang`: the word lists of each language (one module a language);
* :mod:`~citeline.text.geometry`: boxes on a page.

It imports neither :mod:`citeline.ingest` nor :mod:`citeline.verify`.
"""
