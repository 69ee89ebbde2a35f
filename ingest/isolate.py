"""Run a function over many inputs in worker processes that may hang, crash or leak memory.

One bad file must never stop a batch, and extracting one file must never take the indexer down.
:class:`IsolatedPool` therefore runs ``fn`` in separate processes, each with its own duplex pipe:

* the parent waits with :func:`multiprocessing.connection.wait` on every worker's pipe and process
  sentinel, with a timeout computed from the earliest task deadline, so a result, a dead worker
  and an overdue task are all noticed without polling or helper threads;
* an overdue task's worker is killed (SIGTERM, then SIGKILL after a short grace) and the task is
  reported as :class:`TaskTimeout`; a task whose worker dies is retried on a fresh worker
  ``crash_retries`` times, then reported as :class:`WorkerDied`; replacements start as needed;
* a worker is recycled after ``max_tasks_per_worker`` tasks, which bounds leaked memory;
* with ``max_memory``, each worker runs under that many bytes of data memory (``RLIMIT_DATA``:
  heap and private mappings, not the shared libraries), so a decompression bomb gets a
  :class:`MemoryError` (or dies, if a C library does not survive a failed allocation) instead of
  taking the machine;
* tasks are pulled from the iterable only when a worker is idle (at most ``workers`` in flight),
  and results are yielded as soon as they arrive;
* workers ignore SIGINT, so Ctrl-C reaches only the parent; whenever iteration ends abnormally
  (``break``, an exception, KeyboardInterrupt) the generator's ``finally`` closes the pool; a
  worker whose parent was killed outright (SIGKILL, OOM killer) exits on its own, even mid-task.

Values and exceptions travel pickled. An exception that does not survive a pickle round trip is
replaced by ``RuntimeError("ExcType: message")``; the worker's traceback rides along as a note
(``__notes__``) where the exception type keeps its ``__dict__`` when pickled.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")
K = TypeVar("K", bound=Hashable)

_GRACE = 0.25  # seconds between SIGTERM and SIGKILL
_MAX_START_FAILURES = 3  # workers dying before they are ready, in a row, before the pool gives up


def _preload(ctx: Any, preload: Sequence[str]) -> None:
    """Have the forkserver of ``ctx`` import ``preload`` (and ``__main__``) when it starts."""
    if preload:
        ctx.set_forkserver_preload(["__main__", *preload])


def start_forkserver(preload: Sequence[str] = ()) -> bool:
    """Start this process's forkserver now, importing ``preload`` (and ``__main__``), and return
    at once: the forkserver imports while this process goes on with other work, so the first
    :class:`IsolatedPool` worker forked later starts with them loaded instead of waiting for them.
    ``False`` (and nothing done) where the platform has no forkserver; ``preload`` is ignored when
    the forkserver is already running, as it is by :class:`IsolatedPool`."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    from multiprocessing import forkserver

    _preload(multiprocessing.get_context("forkserver"), preload)
    forkserver.ensure_running()
    return True


class PoolError(Exception):
    """Base of the failures the pool itself reports (as opposed to exceptions raised by ``fn``)."""


class TaskTimeout(PoolError):
    """The task ran longer than the pool's timeout; its worker was killed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds

    def __str__(self) -> str:
        return f"took longer than {self.seconds:g} s"


class WorkerDied(PoolError):
    """The worker process died while running the task (segfault, ``os._exit``, OOM kill)."""

    def __init__(self, exitcode: int | None, max_memory: int | None = None) -> None:
        super().__init__(exitcode, max_memory)
        self.exitcode = exitcode
        self.max_memory = max_memory  # the worker's cap: a C library may die where Python would raise

    def __str__(self) -> str:
        cap = "" if self.max_memory is None else f"; under its {self.max_memory / (1 << 20):,.0f} MB memory cap"
        return f"worker process died ({_describe_exit(self.exitcode)}{cap})"


def _describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "exit status unknown"
    if exitcode < 0:
        try:
            return f"signal {-exitcode}, {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"


def _lost(what: str, exc: BaseException) -> RuntimeError:
    return RuntimeError(f"{what}{type(exc).__name__}: {exc}")


def _kill(processes: list[BaseProcess]) -> None:
    """SIGTERM, then SIGKILL what is still alive after a short grace; reap everything."""
    for p in processes:
        p.terminate()
    deadline = time.monotonic() + _GRACE
    for p in processes:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in processes:
        if p.exitcode is None:
            p.kill()
            p.join()


#: A worker's message is one tag byte and the pickled value: the parent reads the tag at once and
#: unpickles a result only after it has handed the worker its next task.
_TAGS = {"ready": b"r", "initfail": b"i", "ok": b"o", "err": b"e"}


def _send(conn: Connection, tag: str, value: object) -> None:
    try:
        data = pickle.dumps(value)
    except Exception as exc:  # an unpicklable return value becomes the task's error
        tag, data = "err", pickle.dumps(_lost("result could not be pickled: ", exc))
    conn.send_bytes(_TAGS[tag] + data)


@dataclass(frozen=True, slots=True)
class _Pickled:
    """A result as received: unpickled when the caller takes it."""

    data: bytes

    def load(self, ok: bool) -> tuple[bool, Any]:
        try:
            return ok, pickle.loads(memoryview(self.data)[1:])
        except Exception as exc:
            return False, _lost("result could not be unpickled: ", exc)


def _failure(exc: BaseException) -> BaseException:
    """``exc`` with the worker's traceback as a note, or a RuntimeError if it does not survive pickling."""
    exc.add_note("worker traceback:\n" + "".join(traceback.format_exception(exc)).rstrip())
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return _lost("", exc)
    return exc


def _exit_with_parent(parent: BaseProcess) -> None:
    parent.join()  # returns when the parent's end of the sentinel pipe closes, i.e. the parent is gone
    os._exit(1)


def limit_memory(max_memory: int) -> None:
    """Cap this process's data memory (heap and private mappings) at ``max_memory`` bytes: beyond
    it an allocation fails (Python raises :class:`MemoryError`). ``RLIMIT_DATA`` rather than
    ``RLIMIT_AS``: the address space also counts shared libraries and reservations never used."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    soft = max_memory if hard == resource.RLIM_INFINITY else min(max_memory, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


class OverMemory(PoolError):
    """The task needed more than the pool's memory cap per worker."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit

    def __str__(self) -> str:
        return f"needed more than the {self.limit / (1 << 20):,.0f} MB memory cap per worker"


def _worker_main(
    conn: Connection,
    fn: Callable[[Any], Any],
    initializer: Callable[[], None] | None,
    max_memory: int | None = None,
) -> None:
    """Worker loop: receive ``(arg,)``, answer ``("ok", value)`` or ``("err", exc)``; ``None`` stops."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if max_memory is not None:
        limit_memory(max_memory)
    parent = multiprocessing.parent_process()
    if parent is not None:  # a parent killed outright (SIGKILL, OOM) cannot close the pool: leave anyway
        threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    try:
        if initializer is not None:
            initializer()
    except BaseException as exc:
        _send(conn, "initfail", _failure(exc))
        return
    _send(conn, "ready", None)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        out_of_memory = False
        try:
            message = pickle.loads(data)
            if message is None:
                return
            result = fn(message[0])
        except MemoryError:
            out_of_memory = True  # said below, once the task's frames (and what they held) are gone
        except Exception as exc:  # SystemExit and the like end the worker: reported as WorkerDied
            _send(conn, "err", _failure(exc))
        else:
            _send(conn, "ok", result)
        if out_of_memory:
            result = message = None
            _send(conn, "err", OverMemory(max_memory) if max_memory is not None else MemoryError())


@dataclass
class _Task:
    key: Any
    arg: Any
    crashes: int = 0


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    ready: bool = False
    task: _Task | None = None
    deadline: float | None = None
    done: int = 0


_Out = list[tuple[Any, bool, Any]]  # (key, ok, value or exception)


class IsolatedPool(Generic[T, R]):
    """Run ``fn`` (a picklable top-level function) over tasks in crash- and hang-proof workers."""

    def __init__(
        self,
        fn: Callable[[T], R],
        *,
        workers: int,
        timeout: float | None = None,
        max_tasks_per_worker: int = 200,
        crash_retries: int = 1,
        start_method: str = "forkserver",
        initializer: Callable[[], None] | None = None,
        preload: Sequence[str] = (),
        max_memory: int | None = None,
    ) -> None:
        """``preload`` names modules the forkserver imports once, so every worker forked from it
        starts with them loaded (ignored when the forkserver of this process is already running)."""
        if workers < 1 or max_tasks_per_worker < 1 or crash_retries < 0:
            raise ValueError("workers and max_tasks_per_worker must be >= 1, crash_retries >= 0")
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        if max_memory is not None and max_memory <= 0:
            raise ValueError(f"max_memory must be positive, got {max_memory}")
        self.max_memory = max_memory
        if start_method == "forkserver" and start_method not in multiprocessing.get_all_start_methods():
            start_method = "spawn"
        self._ctx: Any = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            _preload(self._ctx, preload)
        self._fn, self._initializer = fn, initializer
        self._nworkers, self._timeout = workers, timeout
        self._max_tasks, self._crash_retries = max_tasks_per_worker, crash_retries
        self._workers: list[_Worker] = []
        self._retiring: list[BaseProcess] = []
        self._spawned = self._start_failures = 0
        self._closed = self._running = False

    def __enter__(self) -> IsolatedPool[T, R]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def imap_unordered(self, tasks: Iterable[tuple[K, T]]) -> Generator[tuple[K, R | BaseException], None, None]:
        """Yield ``(key, result)`` as tasks finish; ``result`` is the exception for failed tasks.

        A generator: ``close()`` it (or break out of a ``for`` loop) to stop early; that closes the pool.
        """
        with contextlib.closing(self._run(tasks)) as results:
            for key, _, value in results:
                yield key, value

    def close(self) -> None:
        """Terminate every worker (SIGTERM, then SIGKILL) and reap it. Idempotent."""
        self._closed = True
        processes = [w.process for w in self._workers] + self._retiring
        for w in self._workers:
            w.conn.close()
        self._workers, self._retiring = [], []
        _kill(processes)
        for p in processes:
            p.close()

    def _run(self, tasks: Iterable[tuple[K, T]]) -> Generator[tuple[K, bool, Any], None, None]:
        if self._closed or self._running:
            raise PoolError("pool is closed" if self._closed else "pool is already iterating")
        self._running, finished = True, False
        source: Iterator[tuple[K, T]] | None = iter(tasks)
        queue = deque[_Task]()  # pulled or crashed tasks waiting for a worker; len(queue) + busy <= workers
        try:
            while True:
                if self._closed:
                    raise PoolError("pool was closed while iterating")
                out: _Out = []
                self._reap_retiring()
                source = self._feed(source, queue, out)
                busy = [w for w in self._workers if w.task is not None]
                if not busy and not queue and source is None and not out:
                    finished = True
                    return
                while len(self._workers) < self._nworkers and len(self._workers) - len(busy) < len(queue):
                    self._spawn()
                deadlines = [w.deadline for w in busy if w.deadline is not None]
                timeout = 0.0 if out else max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
                objects: list[Any] = [w.conn for w in self._workers] + [w.process.sentinel for w in self._workers]
                ready = set(wait(objects, timeout))
                for w in list(self._workers):
                    if w.conn in ready or w.process.sentinel in ready:
                        self._service(w, out, queue)
                now = time.monotonic()
                for w in list(self._workers):
                    if w.task is not None and w.deadline is not None and w.deadline <= now:
                        self._service(w, out, queue)  # a result that arrived just in time still counts
                        if w.task is not None and w in self._workers:
                            out.append((w.task.key, False, TaskTimeout(cast(float, self._timeout))))
                            self._stop(w, kill=True)
                # hand idle workers their next task before the caller handles these results, so the
                # workers keep working while the caller (say, a database writer) is busy
                source = self._feed(source, queue, out)
                for key, ok, value in out:
                    yield (key, *value.load(ok)) if isinstance(value, _Pickled) else (key, ok, value)
        finally:
            self._running = False
            if not finished:
                self.close()

    def _feed(
        self, source: Iterator[tuple[K, T]] | None, queue: deque[_Task], out: _Out
    ) -> Iterator[tuple[K, T]] | None:
        """Pull tasks up to the number of workers and dispatch them to idle, ready workers."""
        while source is not None and len(queue) + sum(w.task is not None for w in self._workers) < self._nworkers:
            if (item := next(source, None)) is None:
                source = None
            else:
                queue.append(_Task(*item))
        for w in self._workers:
            if w.ready and w.task is None and queue:
                self._dispatch(w, queue.popleft(), out)
        return source

    def _spawn(self) -> None:
        parent_conn, child_conn = self._ctx.Pipe(duplex=True)
        self._spawned += 1
        process = self._ctx.Process(
            target=_worker_main,
            args=(child_conn, self._fn, self._initializer, self.max_memory),
            name=f"citeline-isolate-{self._spawned}",
            daemon=True,
        )
        process.start()
        child_conn.close()
        self._workers.append(_Worker(process, parent_conn))

    def _dispatch(self, w: _Worker, task: _Task, out: _Out) -> None:
        try:
            data = pickle.dumps((task.arg,))
        except Exception as exc:
            out.append((task.key, False, _lost("task could not be pickled: ", exc)))
            return
        w.task = task
        w.deadline = None if self._timeout is None else time.monotonic() + self._timeout
        with contextlib.suppress(OSError):  # the worker died: its sentinel reports it, the task is retried
            w.conn.send_bytes(data)

    def _service(self, w: _Worker, out: _Out, queue: deque[_Task]) -> None:
        """Read what ``w`` sent; bury it if it died."""
        try:
            while w in self._workers and w.conn.poll():
                data = w.conn.recv_bytes()
                tag = data[:1]
                if tag == _TAGS["ready"]:
                    w.ready, self._start_failures = True, 0
                elif tag == _TAGS["initfail"]:
                    _, value = _Pickled(data).load(False)
                    raise PoolError(f"worker initializer failed: {_lost('', value)}") from value
                elif w.task is not None:
                    out.append((w.task.key, tag == _TAGS["ok"], _Pickled(data)))
                    w.task, w.deadline, w.done = None, None, w.done + 1
                    if w.done >= self._max_tasks:
                        self._stop(w, kill=False)
            if w not in self._workers or w.process.is_alive():
                return
        except (EOFError, OSError):
            pass
        self._stop(w, kill=True)
        if not w.ready:
            self._start_failures += 1
            if self._start_failures >= _MAX_START_FAILURES:
                raise PoolError(f"worker processes die on start ({_describe_exit(w.process.exitcode)})")
        if w.task is not None:
            w.task.crashes += 1
            if w.task.crashes <= self._crash_retries:
                queue.appendleft(w.task)
            else:
                out.append((w.task.key, False, WorkerDied(w.process.exitcode, self.max_memory)))

    def _stop(self, w: _Worker, *, kill: bool) -> None:
        """Take ``w`` out of service: kill it now, or ask it to exit and reap it later."""
        self._workers.remove(w)
        if not kill:
            with contextlib.suppress(OSError):
                w.conn.send_bytes(pickle.dumps(None))
            w.conn.close()
            self._retiring.append(w.process)
            return
        w.conn.close()
        _kill([w.process])

    def _reap_retiring(self) -> None:
        for p in list(self._retiring):
            if p.exitcode is not None:
                p.join()
                p.close()
                self._retiring.remove(p)
