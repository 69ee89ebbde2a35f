"""IsolatedPool with real worker processes: values, exceptions, hangs, crashes, cleanup."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citeline.ingest.isolate import IsolatedPool, PoolError, TaskTimeout, WorkerDied
from tests import isolate_tasks as tasks


def lingering(pid: int) -> bool:
    """Whether process ``pid`` still exists (a zombie counts)."""
    return Path(f"/proc/{pid}").exists()


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (orphans are reaped by init, if at all)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def pool_children() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name.startswith("citeline-isolate")]


def test_values_and_exceptions_come_back() -> None:
    work = [("a", ("ok", 3)), ("b", ("ok", 4)), ("c", ("ok", 5))]
    with IsolatedPool(tasks.mixed, workers=2) as pool:
        assert dict(pool.imap_unordered(work)) == {"a": 9, "b": 16, "c": 25}
        ((key, error),) = pool.imap_unordered([("bad", ("fail", 8))])  # the pool is reusable
    assert key == "bad"
    assert isinstance(error, ValueError)
    assert str(error) == "task 8 failed"
    assert "worker traceback" in "".join(error.__notes__)
    assert pool_children() == []


def test_unpicklable_exception_and_result_become_runtime_errors() -> None:
    with IsolatedPool(tasks.fail_unpicklable, workers=1) as pool:
        ((_, error),) = pool.imap_unordered([(1, "no pickles")])
    assert type(error) is RuntimeError
    assert str(error) == "UnpicklableError: no pickles"
    with IsolatedPool(tasks.return_unpicklable, workers=1) as pool:
        ((_, result),) = pool.imap_unordered([(1, None)])
    assert type(result) is RuntimeError
    assert "could not be pickled" in str(result)


def test_a_result_that_cannot_be_unpickled_is_that_tasks_error_and_the_pool_goes_on() -> None:
    # results are unpickled after the worker has its next task: a failure there stays with its task
    with IsolatedPool(tasks.unloadable_unless_ok, workers=1) as pool:
        results = dict(pool.imap_unordered([(1, "Übel"), (2, "ok"), (3, "schön")]))
    assert results[2] == "ok"
    for key in (1, 3):
        assert type(results[key]) is RuntimeError
        assert "could not be unpickled" in str(results[key])
    assert "kann 'schön' nicht laden" in str(results[3])


def test_hanging_task_times_out_and_pool_continues() -> None:
    started = time.monotonic()
    with IsolatedPool(tasks.mixed, workers=1, timeout=1.0) as pool:
        results = dict(pool.imap_unordered([("hang", ("hang", 0)), ("after", ("ok", 7))]))
    assert time.monotonic() - started < 5
    assert isinstance(results["hang"], TaskTimeout)
    assert results["hang"].seconds == 1.0
    assert str(results["hang"]) == "took longer than 1 s"
    assert results["after"] == 49


def test_segfault_is_retried_then_reported(tmp_path: Path) -> None:
    attempts = tmp_path / "attempts"
    with IsolatedPool(tasks.segfault, workers=1, crash_retries=2) as pool:
        ((_, error),) = pool.imap_unordered([("x", str(attempts))])
    assert isinstance(error, WorkerDied)
    assert error.exitcode == -signal.SIGSEGV
    assert str(error) == "worker process died (signal 11, SIGSEGV)"
    assert len(attempts.read_text().splitlines()) == 3  # first try + crash_retries


def test_exit_code_is_reported() -> None:
    with IsolatedPool(tasks.exit3, workers=1, crash_retries=0) as pool:
        ((_, error),) = pool.imap_unordered([("x", None)])
    assert isinstance(error, WorkerDied)
    assert str(error) == "worker process died (exit code 3)"


def test_crash_then_success_on_retry(tmp_path: Path) -> None:
    attempts = tmp_path / "attempts"
    with IsolatedPool(tasks.crash_once, workers=1, crash_retries=1) as pool:
        assert list(pool.imap_unordered([("x", str(attempts))])) == [("x", "recovered")]
    pids = attempts.read_text().split()
    assert len(pids) == 2
    assert pids[0] != pids[1]


def test_workers_are_recycled() -> None:
    with IsolatedPool(tasks.getpid, workers=1, max_tasks_per_worker=2) as pool:
        pids = [pid for _, pid in pool.imap_unordered((i, None) for i in range(6))]
    assert len(set(pids)) >= 3
    assert pool_children() == []


def test_initializer_runs_in_each_worker() -> None:
    with IsolatedPool(tasks.read_marker, workers=2, initializer=tasks.init_marker) as pool:
        assert {v for _, v in pool.imap_unordered((i, None) for i in range(4))} == {"initialised"}


def test_failing_initializer_stops_the_pool() -> None:
    pool: IsolatedPool[int, int] = IsolatedPool(tasks.square, workers=2, initializer=tasks.bad_init)
    with pytest.raises(PoolError, match="initializer failed: ValueError: cannot initialise"):
        list(pool.imap_unordered([(1, 1), (2, 2)]))
    assert pool_children() == []


def test_workers_ignore_sigint() -> None:
    with IsolatedPool(tasks.interrupt_self, workers=1) as pool:
        assert list(pool.imap_unordered([(1, None)])) == [(1, "survived")]


def test_tasks_are_consumed_lazily_and_early_stop_cleans_up() -> None:
    pulled: list[int] = []

    def endless() -> Iterator[tuple[int, int]]:
        for i in itertools.count():
            pulled.append(i)
            yield i, i

    pool: IsolatedPool[int, int] = IsolatedPool(tasks.getpid, workers=2)
    results = pool.imap_unordered(endless())
    pids = [pid for _, pid in itertools.islice(results, 5) if isinstance(pid, int)]
    assert len(pids) == 5
    # lazily: the tasks yielded, one in flight per worker, and the replacements pulled for a batch of
    # results that arrived together, handed out before the batch is yielded (the 5th result may be
    # the first of a batch of two): at most 5 + 2 + (2 - 1)
    assert len(pulled) <= 5 + 2 + 1
    results.close()  # what happens when a for loop breaks and the generator is dropped
    assert pool_children() == []
    assert not any(lingering(pid) for pid in pids)
    with pytest.raises(PoolError, match="closed"):
        next(pool.imap_unordered([(1, 1)]))


def test_mixed_batch_completes(tmp_path: Path) -> None:
    kinds = {3: "hang", 11: "hang", 5: "crash", 14: "crash", 8: "fail"}
    work = [(n, (kinds.get(n, "ok"), n)) for n in range(20)]
    started = time.monotonic()
    with IsolatedPool(tasks.mixed, workers=2, timeout=1.0, crash_retries=1) as pool:
        results = dict(pool.imap_unordered(work))
    assert time.monotonic() - started < 8
    assert sorted(results) == list(range(20))
    for n, result in results.items():
        kind = kinds.get(n, "ok")
        if kind == "hang":
            assert isinstance(result, TaskTimeout)
        elif kind == "crash":
            assert isinstance(result, WorkerDied)
            assert "SIGSEGV" in str(result)
        elif kind == "fail":
            assert isinstance(result, ValueError)
        else:
            assert result == n * n
    assert pool_children() == []


def _wait_for(path: Path) -> int:
    deadline = time.monotonic() + 5
    while not path.exists() or not path.read_text():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)
    return int(path.read_text())


def test_ctrl_c_in_consuming_loop_leaves_no_workers(tmp_path: Path) -> None:
    fast, slow = tmp_path / "fast", tmp_path / "slow"
    pool: IsolatedPool[tuple[str, bool], int] = IsolatedPool(tasks.pid_then_maybe_hang, workers=2)
    with pytest.raises(KeyboardInterrupt):  # noqa: PT012
        for _ in pool.imap_unordered([("slow", (str(slow), True)), ("fast", (str(fast), False))]):
            _wait_for(slow)
            os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C reaches the parent only
            time.sleep(5)  # not reached: the signal raises KeyboardInterrupt here
    assert pool_children() == []
    assert not lingering(_wait_for(fast))
    assert not lingering(_wait_for(slow))


def test_close_terminates_busy_workers(tmp_path: Path) -> None:
    fast, slow = tmp_path / "fast", tmp_path / "slow"
    pool: IsolatedPool[tuple[str, bool], int] = IsolatedPool(tasks.pid_then_maybe_hang, workers=2)
    results = pool.imap_unordered([("slow", (str(slow), True)), ("fast", (str(fast), False))])
    assert next(results) == ("fast", _wait_for(fast))
    slow_pid = _wait_for(slow)  # "slow" was dispatched first, so it is running by now
    pool.close()
    pool.close()  # idempotent
    assert pool_children() == []
    assert not lingering(slow_pid)
    with pytest.raises(PoolError, match="closed"):
        next(results)
    assert pool_children() == []


def test_workers_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    script = (
        "from citeline.ingest.isolate import IsolatedPool\n"
        "from tests import isolate_tasks\n"
        "with IsolatedPool(isolate_tasks.pid_then_hang, workers=1) as pool:\n"
        f"    list(pool.imap_unordered([(1, {str(pid_file)!r})]))\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).parent.parent)
    try:
        worker = _wait_for(pid_file)
    finally:
        parent.kill()  # no chance to close the pool
        parent.wait()
    deadline = time.monotonic() + 5
    while running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(worker)


def test_pool_errors_pickle() -> None:
    for error in (TaskTimeout(2.5), WorkerDied(-11), WorkerDied(None)):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error)
        assert str(copy) == str(error)
    assert str(WorkerDied(None)) == "worker process died (exit status unknown)"


@pytest.mark.parametrize("start_method", ["spawn", "fork"])
def test_other_start_methods(start_method: str, tmp_path: Path) -> None:
    work = [(n, ("exit" if n == 2 else "ok", n)) for n in range(4)]
    with IsolatedPool(tasks.mixed, workers=2, start_method=start_method, crash_retries=0) as pool:
        results = dict(pool.imap_unordered(work))
    assert isinstance(results.pop(2), WorkerDied)
    assert results == {0: 0, 1: 1, 3: 9}
    assert pool_children() == []


def test_a_forkserver_started_early_hands_its_imports_to_every_worker_and_not_to_the_parent() -> None:
    """``citeline ingest`` starts the workers' forkserver before it opens the store: the workers
    then start with the extraction modules and word frequencies loaded, the parent never imports
    them (the pdfium glyph reader and the English language module among them), and with
    ``--extractor pdfium`` pdfplumber is left out. A fresh interpreter, so that no
    forkserver of this test process is already running."""
    program = """
import sys
from citeline.ingest.workers import warm_workers
from citeline.ingest.isolate import IsolatedPool
from tests import isolate_tasks as tasks
assert warm_workers("pdfium")
names = [
    "pypdfium2", "citeline.ingest.pipeline", "citeline.ingest.worker_warmup", "wordfreq",
    "citeline.ingest.extract.pdfium_glyphs", "citeline.text.lang.en", "pdfplumber",
]
with IsolatedPool(tasks.loaded, workers=1) as pool:
    seen = dict(pool.imap_unordered([(n, n) for n in names]))
print(" ".join(n for n in names if seen[n]))
print(" ".join(n for n in names if n in sys.modules))
"""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr
    in_worker, in_parent = done.stdout.splitlines()
    assert in_worker.split() == [
        "pypdfium2", "citeline.ingest.pipeline", "citeline.ingest.worker_warmup", "wordfreq",
        "citeline.ingest.extract.pdfium_glyphs", "citeline.text.lang.en",
    ]  # fmt: skip
    assert in_parent == ""


def test_worker_preload_leaves_pdfplumber_out_only_for_pdfium() -> None:
    from citeline.ingest.workers import COMMON_PRELOAD, worker_preload

    assert worker_preload("pdfium") == COMMON_PRELOAD
    assert "pdfplumber" not in COMMON_PRELOAD
    for extractor in ("auto", "pdfplumber"):
        assert worker_preload(extractor) == (*COMMON_PRELOAD, "pdfplumber")
