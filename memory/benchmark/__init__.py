"""Benchmarks: score the memory's retrieval on public datasets, beside reference baselines.

- ``metrics``: pure recall@k / MRR / NDCG / abstention arithmetic and LoCoMo
  evidence-id normalization.
- ``baselines``: BM25 over single turns and a ReFind-style pair retriever,
  run in the same process as ours.
- ``datasets``: ``evaluate_locomo`` / ``evaluate_longmemeval`` take any
  ``search(scope_user, question, as_of) -> SearchOutcome`` and return the
  DESIGN §7 report dict.
- ``report``: that dict as a terminal table or a self-contained HTML page.

Nothing here opens a store: the caller (the CLI) imports the dataset into a
store and passes the query engine in as ``search``.
"""
