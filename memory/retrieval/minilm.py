"""all-MiniLM-L6-v2's forward pass in numpy, from the files the model package ships.

The same sentence vectors as sentence-transformers (BERT uncased WordPiece, 6 layers, mean
pooling, unit length; measured max |difference| ~1e-6 per component), without importing torch:
a process that embeds only one question per query starts in a fraction of the time. Reads
``model.safetensors`` (its documented layout: a u64 header length, a JSON header of
dtype/shape/offsets, raw little-endian tensors) and ``vocab.txt``; needs numpy alone.
"""
from __future__ import annotations

import json
import math
import struct
import unicodedata
from pathlib import Path

MAX_TOKENS = 256          # sentence_bert_config.json: max_seq_length (a caller may ask fewer)
MAX_WORD_CHARS = 100      # a longer word is [UNK], as in BERT's WordPiece
BATCH_SIZE = 32


def _is_punctuation(char: str) -> bool:
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


class WordPiece:
    """BERT's uncased tokenizer: clean, lowercase, strip accents, split on whitespace and
    punctuation (CJK characters alone), then greedy longest-match word pieces."""

    def __init__(self, vocab_path: Path) -> None:
        words = Path(vocab_path).read_text(encoding="utf-8").split("\n")
        self.vocab = {word: number for number, word in enumerate(words) if word or number == 0}
        self.unk, self.cls, self.sep = self.vocab["[UNK]"], self.vocab["[CLS]"], self.vocab["[SEP]"]
        self._pieces: dict[str, list[int]] = {}

    def ids(self, text: str, limit: int = MAX_TOKENS) -> list[int]:
        out = [self.cls]
        for word in self._words(text):
            out += self._word_ids(word)
            if len(out) >= limit - 1:
                break
        return out[:limit - 1] + [self.sep]

    def _words(self, text: str) -> list[str]:
        chars = []
        for char in text:
            cp = ord(char)
            if cp == 0 or cp == 0xFFFD or (unicodedata.category(char).startswith("C") and char not in "\t\n\r"):
                continue
            if char in " \t\n\r" or unicodedata.category(char) == "Zs":
                chars.append(" ")
            elif _is_cjk(cp):
                chars.append(f" {char} ")
            else:
                chars.append(char)
        text = unicodedata.normalize("NFD", "".join(chars).lower())
        text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        words = []
        for token in text.split():
            current = ""
            for char in token:
                if _is_punctuation(char):
                    if current:
                        words.append(current)
                    words.append(char)
                    current = ""
                else:
                    current += char
            if current:
                words.append(current)
        return words

    def _word_ids(self, word: str) -> list[int]:
        cached = self._pieces.get(word)
        if cached is not None:
            return cached
        if len(word) > MAX_WORD_CHARS:
            pieces = [self.unk]
        else:
            pieces, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.vocab:
                        pieces.append(self.vocab[piece])
                        break
                    end -= 1
                if end == start:
                    pieces = [self.unk]
                    break
                start = end
        if len(self._pieces) < 100_000:
            self._pieces[word] = pieces
        return pieces


def read_safetensors(path: Path) -> dict:
    """name -> float32 array, from a safetensors file (only the F32 tensors a BERT needs).

    Memory-mapped: a query touches only the embedding rows of its own word pieces, so most of
    the 47 MB word-embedding table is never read from disk."""
    import numpy as np
    with open(path, "rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
    body = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length)
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__" or spec["dtype"] != "F32":
            continue
        begin, end = spec["data_offsets"]
        tensors[name] = body[begin:end].view("<f4").reshape(spec["shape"])
    return tensors


def _erf(x):
    """erf to ~1.5e-7 (Abramowitz & Stegun 7.1.26): numpy has none, and exact GELU needs it."""
    import numpy as np
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-x * x))


def _layer_norm(x, weight, bias, eps: float = 1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / (var + eps) ** 0.5 * weight + bias


class MiniLM:
    """The 6-layer encoder and mean pooling; ``encode(texts)`` gives unit float32 rows."""

    heads = 12

    def __init__(self, model_dir: Path, max_tokens: int = MAX_TOKENS) -> None:
        import numpy as np
        model_dir = Path(model_dir)
        self.max_tokens = max_tokens
        self.tokenizer = WordPiece(model_dir / "vocab.txt")
        w = read_safetensors(model_dir / "model.safetensors")
        self.word = w["embeddings.word_embeddings.weight"]
        self.position = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"][0]
        self.embed_norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []
        for n in range(6):
            p = f"encoder.layer.{n}."
            qkv = np.concatenate([w[p + f"attention.self.{x}.weight"] for x in ("query", "key", "value")]).T
            qkv_bias = np.concatenate([w[p + f"attention.self.{x}.bias"] for x in ("query", "key", "value")])
            self.layers.append((qkv, qkv_bias,
                                w[p + "attention.output.dense.weight"].T,
                                w[p + "attention.output.dense.bias"],
                                (w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"]),
                                w[p + "intermediate.dense.weight"].T,
                                w[p + "intermediate.dense.bias"],
                                w[p + "output.dense.weight"].T, w[p + "output.dense.bias"],
                                (w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])))
        self.dim = self.word.shape[1]

    def encode(self, texts: list[str]):
        import numpy as np
        ids = [self.tokenizer.ids(text, self.max_tokens) for text in texts]
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))  # batches of similar length pad little
        for start in range(0, len(order), BATCH_SIZE):
            rows = order[start:start + BATCH_SIZE]
            out[rows] = self._forward([ids[i] for i in rows])
        return out

    def _forward(self, batch: list[list[int]]):
        import numpy as np
        length = max(len(ids) for ids in batch)
        tokens = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, ids in enumerate(batch):
            tokens[row, :len(ids)] = ids
            mask[row, :len(ids)] = 1.0
        # tokens as rows of one 2-D array: each dense layer is one large matrix product
        x = (self.word[tokens] + self.position[:length] + self.token_type).reshape(-1, self.dim)
        x = _layer_norm(x, *self.embed_norm)
        bias = ((1.0 - mask) * -1e9)[:, None, None, :]
        size, head = len(batch), self.dim // self.heads
        for qkv, qkv_b, out_w, out_b, norm1, up_w, up_b, down_w, down_b, norm2 in self.layers:
            q, k, v = (t.reshape(size, length, self.heads, head).transpose(0, 2, 1, 3)
                       for t in np.split(x @ qkv + qkv_b, 3, axis=-1))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attention = (scores / scores.sum(-1, keepdims=True)) @ v
            attention = attention.transpose(0, 2, 1, 3).reshape(-1, self.dim)
            x = _layer_norm(attention @ out_w + out_b + x, *norm1)
            hidden = x @ up_w + up_b
            hidden = 0.5 * hidden * (1.0 + _erf(hidden / math.sqrt(2.0)))
            x = _layer_norm(hidden @ down_w + down_b + x, *norm2)
        x = x.reshape(size, length, self.dim)
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
