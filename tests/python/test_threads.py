"""Threads: calls from many Python threads at once give the results of
single-threaded calls; the GIL is released while a kernel runs; contexts
are per thread."""
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import opgen
from opgen import _opgen

example = _opgen.Op("Example")
pad = _opgen.Op("Pad")
add_n = _opgen.Op("AddN")


def _work(i):
    x = np.arange(i, i + 64, dtype=np.float32).reshape(8, 8)
    a = example(x)
    b = pad(a, [[i % 3, 1], [0, i % 2]], mode="REFLECT")
    c = add_n([b, b, b])
    return c


def test_a_pool_of_8_threads_matches_one_thread():
    expected = [_work(i) for i in range(200)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(_work, range(200)))
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype
        np.testing.assert_array_equal(e, g)


def test_errors_in_threads_are_their_own():
    def bad(i):
        with pytest.raises(opgen.InvalidArgumentError) as e:
            _opgen.Op("ZeroOut")(np.arange(3, dtype=np.int32),
                                 preserve_index=10 + i)
        return str(e.value)

    with ThreadPoolExecutor(max_workers=8) as pool:
        messages = list(pool.map(bad, range(32)))
    for i, m in enumerate(messages):
        assert str(10 + i) in m


def test_the_gil_is_released_while_a_kernel_runs():
    x = np.ones((3000, 3000), np.float32)
    paddings = [[600, 600], [600, 600]]
    stamps = []
    running = threading.Event()
    stop = threading.Event()

    def count():
        running.set()
        n = 0
        while not stop.is_set():
            n += 1
            if n % 200 == 0:
                stamps.append(time.perf_counter())

    def in_middle_of_a_call():
        start = time.perf_counter()
        pad(x, paddings, mode="REFLECT")
        end = time.perf_counter()
        # The middle half of the call is the kernel: with the GIL held
        # there, the other thread could not run a line of Python.
        lo, hi = start + (end - start) / 4, end - (end - start) / 4
        return any(lo < s < hi for s in list(stamps))

    t = threading.Thread(target=count)
    t.start()
    running.wait()
    try:
        with opgen.Context(threads=1):
            pad(x, paddings)  # warm up: memory mapped
            # A loaded machine may not schedule the other thread in time
            # once; with the GIL held no attempt could succeed.
            seen = any(in_middle_of_a_call() for _ in range(5))
    finally:
        stop.set()
        t.join()
    assert seen


def test_contexts_are_per_thread_and_nest():
    outer = opgen.Context(threads=1)
    inner = opgen.Context(threads=2)
    seen = {}

    def other():
        seen["other"] = _opgen.current_context()

    with outer:
        with inner:
            assert _opgen.current_context() is inner
            t = threading.Thread(target=other)
            t.start()
            t.join()
        assert _opgen.current_context() is outer
    assert _opgen.current_context() is None
    assert seen["other"] is None
    assert outer.threads == 1 and outer.device == "CPU"
    assert repr(inner) == 'opgen.Context(threads=2, device="CPU")'


def test_results_do_not_depend_on_the_thread_count():
    x = np.random.default_rng(0).standard_normal((300, 400)).astype(
        np.float32)
    with opgen.Context(threads=1):
        one = pad(x, [[3, 4], [5, 6]], mode="SYMMETRIC")
    with opgen.Context(threads=4):
        four = pad(x, [[3, 4], [5, 6]], mode="SYMMETRIC")
    np.testing.assert_array_equal(one, four)


def test_context_arguments_are_checked():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        opgen.Context(threads=-1)
    assert str(e.value) == ("Context: threads must be in [0, 1024] (0 or "
                            "None: one per core)")
    with pytest.raises(TypeError):
        opgen.Context(threads="2")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        opgen.Context(device="TPU")
    assert str(e.value) == 'Context: device must be "CPU" or "GPU"'
    assert opgen.Context().threads == 0


def test_exiting_out_of_order_is_an_error():
    a, b = opgen.Context(threads=1), opgen.Context(threads=1)
    a.__enter__()
    b.__enter__()
    with pytest.raises(RuntimeError):
        a.__exit__(None, None, None)
    b.__exit__(None, None, None)
    a.__exit__(None, None, None)
    assert _opgen.current_context() is None
