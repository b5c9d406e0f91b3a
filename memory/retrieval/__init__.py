"""Retrieval: tokenization, BM25 scoring and the persistent per-scope index.

Pure with respect to the store: records arrive as ``(doc_id, text)`` pairs and
nothing here imports ``memory.store``. ``tokenize`` turns text into terms (the
same function for documents and queries), ``bm25.BM25Index`` scores terms
exactly as rank-bm25's ``BM25Okapi`` does, and ``index.ScopeIndex`` persists
one scope's index as derived, rebuildable files with a sidecar.
"""
