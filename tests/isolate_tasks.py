"""Task functions for tests/test_isolate.py, importable by forkserver and spawn workers."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

_MARKER = "not initialised"


class UnpicklableError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.lock = threading.Lock()


def _attempt(path: str) -> int:
    """Record one attempt in ``path``; return how many attempts there were so far."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(f"{os.getpid()}\n")
    return len(Path(path).read_text(encoding="utf-8").splitlines())


def square(x: int) -> int:
    return x * x


def fail(message: str) -> int:
    raise ValueError(message)


def fail_unpicklable(message: str) -> int:
    raise UnpicklableError(message)


def return_unpicklable(_: object) -> Callable[[], None]:
    return lambda: None


def _refuse_to_load(message: str) -> None:
    raise ValueError(message)


class LoadsNowhere:
    """Pickles fine, but unpickling it raises (as a class missing on the reading side would)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __reduce__(self) -> tuple[Callable[[str], None], tuple[str]]:
        return _refuse_to_load, (self.message,)


def unloadable_unless_ok(text: str) -> str | LoadsNowhere:
    return text if text == "ok" else LoadsNowhere(f"kann {text!r} nicht laden")


def hang(_: object) -> None:
    time.sleep(60)


def pid_then_hang(path: str) -> None:
    Path(path).write_text(str(os.getpid()), encoding="utf-8")
    time.sleep(60)


def pid_then_maybe_hang(spec: tuple[str, bool]) -> int:
    path, hangs = spec
    Path(path).write_text(str(os.getpid()), encoding="utf-8")
    if hangs:
        time.sleep(60)
    return os.getpid()


def segfault(path: str) -> None:
    _attempt(path)
    os.kill(os.getpid(), signal.SIGSEGV)


def exit3(_: object) -> None:
    os._exit(3)


def crash_once(path: str) -> str:
    if _attempt(path) == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return "recovered"


def getpid(_: object) -> int:
    return os.getpid()


def interrupt_self(_: object) -> str:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.1)
    return "survived"


def init_marker() -> None:
    global _MARKER
    _MARKER = "initialised"


def bad_init() -> None:
    raise ValueError("cannot initialise")


def read_marker(_: object) -> str:
    return _MARKER


def mixed(spec: tuple[str, int]) -> int:
    kind, n = spec
    if kind == "hang":
        time.sleep(60)
    elif kind == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif kind == "exit":
        os._exit(3)
    elif kind == "fail":
        raise ValueError(f"task {n} failed")
    return n * n


def loaded(name: str) -> bool:
    """Whether module ``name`` was imported in this worker before its task ran."""
    import sys

    return name in sys.modules
