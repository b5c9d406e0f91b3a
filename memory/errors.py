"""The one exception tree. Every error carries a stable ``code`` and an ``exit_code``.

    MemoryStoreError                      (never shadows the builtin MemoryError)
    ├── UsageError             exit 2     bad options, dates, empty query, missing scope
    ├── InputError             exit 3     malformed input: JSON, UTF-8, schema, caps
    ├── PolicyError            exit 4     a policy file that fails to load or validate
    ├── RefusedError           exit 5     an envelope the mutation policy or lifecycle refuses
    ├── NotFoundError          exit 6     a record outside the caller's scope or absent (a mutation
    │                                     naming one is refused with this code, and exits 6 too)
    ├── StoreError             exit 7     the store on disk: missing, locked, corrupt
    ├── DatasetError           exit 8     a benchmark or import file of the wrong shape
    ├── RemoteError            exit 9     the LLM planner's endpoint: no key, timeout, garbage
    └── GateError              exit 10    a benchmark gate failed

Messages are for people and never echo memory content, so any error can be
logged safely. The CLI maps errors to output and exit status in one place.
"""
from __future__ import annotations


class MemoryStoreError(Exception):
    code = "memory_error"
    exit_code = 1

    def __init__(self, message: str, *, code: str | None = None, details: list | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details or []

    @staticmethod
    def from_os_error(exc: OSError, root=None) -> "MemoryStoreError":
        """The error an ``OSError`` on a store file stands for (``StoreIOError``: exit 7, named)."""
        return StoreIOError.of(exc, root)

    def to_json(self) -> dict:
        out = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class UsageError(MemoryStoreError):
    code = "usage_error"
    exit_code = 2


class InputError(MemoryStoreError):
    code = "invalid_input"
    exit_code = 3


class PolicyError(MemoryStoreError):
    code = "policy_invalid"
    exit_code = 4


class RefusedError(MemoryStoreError):
    code = "refused"
    exit_code = 5


class NotFoundError(MemoryStoreError):
    code = "record_not_found"
    exit_code = 6


class StoreError(MemoryStoreError):
    code = "store_error"
    exit_code = 7


class StoreIOError(StoreError):
    """The operating system refused a store file (disk full, file-size limit, read-only,
    permission, immutable): exit 7 naming the cause (``ENOSPC``, ...) and the path inside the store."""
    code = "io_error"

    @classmethod
    def of(cls, exc: OSError, root=None) -> "StoreIOError":
        import errno as errno_names
        import os
        name = errno_names.errorcode.get(exc.errno or 0, "EIO")
        where = exc.filename or ""
        if where and root is not None:
            try:
                where = os.path.relpath(where, root)
            except ValueError:
                pass
        hint = {"ENOSPC": "the disk is full", "EDQUOT": "the disk quota is exhausted",
                "EFBIG": "a file reached the file-size limit", "EROFS": "the store is on a read-only file system",
                "EACCES": "permission denied", "EPERM": "the operation is not permitted (an immutable file?)"
                }.get(name, exc.strerror or "an I/O error")
        return cls(f"{name}: {hint}" + (f" ({where})" if where else "") +
                   "; nothing of the failed write is readable", code="io_error")


class DatasetError(MemoryStoreError, ValueError):
    code = "dataset_invalid"
    exit_code = 8


class RemoteError(MemoryStoreError):
    code = "remote_error"
    exit_code = 9


class GateError(MemoryStoreError):
    code = "gate_failed"
    exit_code = 10


EXIT_CODES = {cls.__name__: cls.exit_code for cls in (
    MemoryStoreError, UsageError, InputError, PolicyError, RefusedError,
    NotFoundError, StoreError, DatasetError, RemoteError, GateError)}
