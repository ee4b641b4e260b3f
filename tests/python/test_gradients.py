"""GradientTape and register_gradient: the tape over the shipped ops and
their C gradients, gradients written in Python, and the numeric check."""
import threading

import numpy as np
import pytest

import opgen
from opgen import _opgen
from opgen.testing import compute_gradient, compute_gradient_error

ops = opgen.ops


def f32(values):
    return np.array(values, dtype=np.float32)


class PassThrough:
    """A gradient function that can be weakly referenced: grad as is."""

    def __call__(self, op, grad):
        return grad


@pytest.fixture
def python_gradient():
    """Registers Python gradients for a test (override=True) and restores
    what was there (the C gradient) afterwards."""
    names = []

    def register(op_name, fn):
        _opgen.register_gradient(op_name, fn, override=True)
        names.append(op_name)
        return fn

    yield register
    for name in names:
        _opgen.unregister_gradient(name)


# ---- the tape over the shipped ops ----

def test_example_gradient_is_two_per_element():
    x = f32([1, 2, 3])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    dx = tape.gradient(y, x)
    assert dx.dtype == np.float32
    np.testing.assert_array_equal(dx, [2, 2, 2])


def test_gradient_keeps_the_structure_of_sources():
    x, z = f32([1]), f32([2])
    with opgen.GradientTape(persistent=True) as tape:
        y = ops.add_n([ops.example(x), z])
    as_list = tape.gradient(y, [x, z])
    as_tuple = tape.gradient(y, (x, z))
    single = tape.gradient(y, z)
    assert isinstance(as_list, list) and len(as_list) == 2
    assert isinstance(as_tuple, tuple) and len(as_tuple) == 2
    assert isinstance(single, np.ndarray)
    np.testing.assert_array_equal(as_list[0], [2])
    np.testing.assert_array_equal(as_tuple[1], [1])


def test_add_n_sums_the_gradients_of_fan_out():
    x, z = f32([[1, 2]]), f32([[3, 4]])
    with opgen.GradientTape() as tape:
        y = ops.add_n([x, x, z, x])
    dx, dz = tape.gradient(y, [x, z])
    np.testing.assert_array_equal(dx, [[3, 3]])
    np.testing.assert_array_equal(dz, [[1, 1]])


def test_an_array_used_by_two_calls_sums_both_paths():
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        y = ops.add_n([ops.example(x), x])
    np.testing.assert_array_equal(tape.gradient(y, x), [3, 3])


def test_chain_multiplies_the_gradients():
    x = np.array([1.0, -1.0])
    with opgen.GradientTape() as tape:
        y = ops.example(ops.example(ops.example(x)))
    np.testing.assert_array_equal(tape.gradient(y, [x])[0], [8, 8])


def test_output_gradients_flow_into_the_target():
    x = f32([1, 2, 3])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    dx = tape.gradient(y, x, output_gradients=f32([1, 10, 100]))
    np.testing.assert_array_equal(dx, [2, 20, 200])


def test_output_gradients_as_a_list_take_the_target_dtype():
    x = np.array([1.0, 2.0])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    dx = tape.gradient(y, x, output_gradients=[3, 4])
    assert dx.dtype == np.float64
    np.testing.assert_array_equal(dx, [6, 8])


def test_output_gradients_of_another_shape_is_invalid_argument():
    x = f32([1, 2, 3])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    with pytest.raises(opgen.InvalidArgumentError) as e:
        tape.gradient(y, x, output_gradients=f32([1, 2]))
    assert str(e.value) == ("GradientTape.gradient: output_gradients[0] is "
                            "float [2], the target float [3]")


def test_several_targets_sum_their_gradients():
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        y1 = ops.example(x)
        y2 = ops.add_n([x, x, x])
    np.testing.assert_array_equal(tape.gradient([y1, y2], x), [5, 5])


def _pad_adjoint(x_shape, paddings, mode, dy):
    """numpy's pad of the element indexes: each output element's source;
    the gradient sums dy over the elements of one source."""
    index = np.arange(1, int(np.prod(x_shape)) + 1).reshape(x_shape)
    if mode == "CONSTANT":
        src = np.pad(index, paddings, mode="constant")
    else:
        src = np.pad(index, paddings, mode=mode.lower())
    dx = np.bincount(src.ravel(), weights=dy.ravel(),
                     minlength=index.size + 1)[1:]
    return dx.reshape(x_shape)


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_gradient_sums_what_each_element_became(mode):
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    paddings = np.array([[2, 1], [1, 3]], dtype=np.int32)
    with opgen.GradientTape() as tape:
        y = ops.pad(x, paddings, mode=mode)
    dy = np.arange(y.size, dtype=np.float64).reshape(y.shape)
    dx, dp = tape.gradient(y, [x, paddings], output_gradients=dy)
    np.testing.assert_array_equal(dx, _pad_adjoint(x.shape, paddings, mode,
                                                   dy))
    assert dp is None  # paddings are not differentiable


def test_zero_out_gradient_keeps_the_preserved_element():
    x = f32([[1, 2], [3, 4]])
    with opgen.GradientTape() as tape:
        y = ops.zero_out(x, preserve_index=2)
    dx = tape.gradient(y, x, output_gradients=f32([[5, 6], [7, 8]]))
    np.testing.assert_array_equal(dx, [[0, 0], [7, 0]])


def test_zero_out_int32_gradient_is_int32():
    x = np.array([5, 4, 3], dtype=np.int32)
    with opgen.GradientTape() as tape:
        y = ops.zero_out(x)
    dx = tape.gradient(y, x)
    assert dx.dtype == np.int32
    np.testing.assert_array_equal(dx, [1, 0, 0])


def test_gradient_while_recording():
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
        np.testing.assert_array_equal(tape.gradient(y, x), [2])


# ---- what is not connected ----

def test_a_source_not_on_the_path_gets_none():
    x, z = f32([1]), f32([2])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
        ops.example(z)
    dx, dz = tape.gradient(y, [x, z])
    np.testing.assert_array_equal(dx, [2])
    assert dz is None


def test_a_source_never_used_gets_none():
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    assert tape.gradient(y, [f32([1]), x])[0] is None


def test_a_target_not_from_the_tape_gives_none():
    x = f32([1])
    with opgen.GradientTape() as tape:
        ops.example(x)
    assert tape.gradient(f32([2]), x) is None


def test_a_call_made_before_the_tape_is_not_recorded():
    x = f32([1])
    h = ops.example(x)
    with opgen.GradientTape() as tape:
        y = ops.example(h)
    dh, dx = tape.gradient(y, [h, x])
    np.testing.assert_array_equal(dh, [2])
    assert dx is None


def test_a_view_of_an_output_is_a_new_tensor():
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        h = ops.example(x)
        y = ops.example(h[:1])  # numpy slicing: not a recorded call
    assert tape.gradient(y, x) is None


# ---- missing gradients ----

def test_an_op_without_gradient_is_not_found():
    if _opgen.has_gradient("AddOne"):
        pytest.skip("AddOne has a gradient")
    x = np.array([1], dtype=np.int32)
    with opgen.GradientTape() as tape:
        y = ops.add_one(x)
    with pytest.raises(opgen.NotFoundError) as e:
        tape.gradient(y, x)
    assert str(e.value) == "no gradient is registered for op 'AddOne'"


def test_an_op_without_gradient_off_the_path_is_not_needed():
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
        ops.add_one(np.array([1], dtype=np.int32))
    np.testing.assert_array_equal(tape.gradient(y, x), [2])


# ---- gradients in Python ----

def test_python_gradient_overrides_and_unregister_restores_c():
    x = f32([1, 2])

    def grad_of_example(op, grad):
        return grad * 3

    _opgen.register_gradient("Example", grad_of_example, override=True)
    try:
        with opgen.GradientTape() as tape:
            y = ops.example(x)
        np.testing.assert_array_equal(tape.gradient(y, x), [3, 3])
    finally:
        _opgen.unregister_gradient("Example")
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    np.testing.assert_array_equal(tape.gradient(y, x), [2, 2])


def test_register_gradient_as_decorator_returns_the_function():
    try:
        @opgen.register_gradient("Example", override=True)
        def _grad(op, grad):
            return grad * 5

        assert _grad.__name__ == "_grad"
        x = f32([1])
        with opgen.GradientTape() as tape:
            y = ops.example(x)
        np.testing.assert_array_equal(tape.gradient(y, x), [5])
    finally:
        _opgen.unregister_gradient("Example")


def test_register_gradient_twice_is_already_exists():
    with pytest.raises(opgen.AlreadyExistsError) as e:
        opgen.register_gradient("Example", lambda op, grad: grad)
    assert str(e.value) == ("a gradient is already registered for op "
                            "'Example'")


def test_the_same_function_again_is_a_no_op(python_gradient):
    def _grad(op, grad):
        return grad

    python_gradient("Example", _grad)
    assert opgen.register_gradient("Example", _grad) is _grad


def test_register_gradient_needs_a_callable():
    with pytest.raises(TypeError) as e:
        opgen.register_gradient("Example", 3, override=True)
    assert str(e.value) == ("register_gradient: the gradient of 'Example' "
                            "must be callable, not int")


def test_unregister_gradient_of_an_op_without_one_is_not_found():
    with pytest.raises(opgen.NotFoundError) as e:
        _opgen.unregister_gradient("NoSuchOpAnywhere")
    assert str(e.value) == ("no gradient is registered for op "
                            "'NoSuchOpAnywhere'")


def test_gradient_function_sees_the_call(python_gradient):
    seen = {}

    def _grad(op, grad):
        seen.update(type=op.type, name=op.name, attrs=dict(op.attrs),
                    index=op.get_attr("preserve_index"),
                    inputs=[a.copy() for a in op.inputs],
                    outputs=[a.copy() for a in op.outputs],
                    grad=grad.copy(), writeable=op.inputs[0].flags.writeable,
                    grad_writeable=grad.flags.writeable)
        return None

    python_gradient("ZeroOut", _grad)
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    with opgen.GradientTape() as tape:
        y = ops.zero_out(x, preserve_index=3)
    assert tape.gradient(y, x) is None
    assert seen["type"] == seen["name"] == "ZeroOut"
    assert seen["index"] == 3
    assert seen["attrs"] == {"T": np.dtype(np.float64), "preserve_index": 3}
    np.testing.assert_array_equal(seen["inputs"][0], x)
    np.testing.assert_array_equal(seen["outputs"][0], [[0, 0], [0, 4]])
    np.testing.assert_array_equal(seen["grad"], np.ones((2, 2)))
    assert seen["writeable"] is False and seen["grad_writeable"] is False


def test_get_attr_of_an_unknown_name_is_value_error(python_gradient):
    def _grad(op, grad):
        return op.get_attr("nope")

    python_gradient("Example", _grad)
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    with pytest.raises(ValueError) as e:
        tape.gradient(y, x)
    assert str(e.value) == "Operation 'Example' has no attr named 'nope'"


def test_list_input_gets_one_gradient_per_tensor(python_gradient):
    def _grad(op, grad):
        return [grad * (i + 1) for i in range(len(op.inputs))]

    python_gradient("AddN", _grad)
    x, z = f32([1]), f32([1])
    with opgen.GradientTape() as tape:
        y = ops.add_n([x, z, x])
    dx, dz = tape.gradient(y, [x, z])
    np.testing.assert_array_equal(dx, [4])  # 1 + 3
    np.testing.assert_array_equal(dz, [2])


def test_python_gradient_may_return_lists_and_scalars(python_gradient):
    python_gradient("Example", lambda op, grad: [[7, 8]])
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    dx = tape.gradient(y, x)
    assert dx.dtype == np.float32
    np.testing.assert_array_equal(dx, [7, 8])


def test_python_gradient_exception_comes_out_of_gradient(python_gradient):
    raised = []

    def _grad(op, grad):
        raised.append(KeyError("boom"))
        raise raised[0]

    python_gradient("Example", _grad)
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    with pytest.raises(KeyError) as e:
        tape.gradient(y, x)
    assert e.value is raised[0]


def test_python_gradient_of_wrong_shape_is_invalid_argument(
        python_gradient):
    python_gradient("Example", lambda op, grad: np.zeros(5, np.float32))
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    with pytest.raises(opgen.InvalidArgumentError) as e:
        tape.gradient(y, x)
    assert str(e.value) == ("Example: the gradient of input 'input' has "
                            "shape [5] and dtype float; the input has shape "
                            "[2] and dtype float")


def test_python_gradient_of_wrong_count_is_invalid_argument(
        python_gradient):
    python_gradient("AddN", lambda op, grad: [grad])
    x, z = f32([1]), f32([2])
    with opgen.GradientTape() as tape:
        y = ops.add_n([x, z])
    with pytest.raises(opgen.InvalidArgumentError) as e:
        tape.gradient(y, x)
    assert str(e.value) == ("AddN: the gradient function returned 1 value "
                            "for 2 inputs")


def test_python_gradient_of_unconvertible_value_is_invalid_argument(
        python_gradient):
    python_gradient("Example", lambda op, grad: {"a": 1})
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    with pytest.raises(opgen.InvalidArgumentError) as e:
        tape.gradient(y, x)
    assert str(e.value) == ("Example: input 'input': cannot convert dict to "
                            "a tensor")


def test_replacing_a_python_gradient_releases_the_old_one():
    import weakref

    old = PassThrough()
    ref = weakref.ref(old)
    _opgen.register_gradient("Example", old, override=True)
    try:
        _opgen.register_gradient("Example", PassThrough(), override=True)
        del old
        assert ref() is None
    finally:
        _opgen.unregister_gradient("Example")
    assert _opgen.has_gradient("Example")  # the C one is back


# ---- persistent, nested, watched tapes ----

def test_non_persistent_tape_can_be_asked_once():
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    tape.gradient(y, x)
    with pytest.raises(RuntimeError) as e:
        tape.gradient(y, x)
    assert "non-persistent" in str(e.value)


def test_persistent_tape_can_be_asked_again():
    x = f32([1])
    with opgen.GradientTape(persistent=True) as tape:
        y = ops.example(x)
        z = ops.example(y)
    np.testing.assert_array_equal(tape.gradient(y, x), [2])
    np.testing.assert_array_equal(tape.gradient(z, x), [4])
    assert tape.persistent


def test_nested_tapes_record_what_runs_inside_each():
    x = f32([1])
    with opgen.GradientTape() as outer:
        h = ops.example(x)
        with opgen.GradientTape(persistent=True) as inner:
            y = ops.example(h)
        assert not inner.recording and outer.recording
    np.testing.assert_array_equal(inner.gradient(y, h), [2])
    assert inner.gradient(y, x) is None
    np.testing.assert_array_equal(outer.gradient(y, x), [4])


def test_an_array_converted_under_the_outer_tape_is_known_to_the_inner():
    x = f32([1, 2])
    with opgen.GradientTape() as outer:
        a = ops.example(x)
        with opgen.GradientTape() as inner:
            b = ops.add_n([x, a])
    np.testing.assert_array_equal(inner.gradient(b, x), [1, 1])
    np.testing.assert_array_equal(outer.gradient(b, x), [3, 3])


def test_entering_a_recording_tape_is_failed_precondition():
    tape = opgen.GradientTape()
    with tape:
        with pytest.raises(opgen.FailedPreconditionError):
            tape.__enter__()


def test_tapes_stop_in_reverse_order():
    outer, inner = opgen.GradientTape(), opgen.GradientTape()
    outer.__enter__()
    inner.__enter__()
    with pytest.raises(opgen.FailedPreconditionError):
        outer.__exit__(None, None, None)
    inner.__exit__(None, None, None)
    outer.__exit__(None, None, None)
    assert not outer.recording and not inner.recording


def test_watch_makes_an_array_known_before_its_use():
    x = f32([1, 2])
    tape = opgen.GradientTape()
    tape.watch(x)
    with tape:
        y = ops.example(x)
    np.testing.assert_array_equal(tape.gradient(y, x), [2, 2])


def test_a_watched_source_is_its_own_target():
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        tape.watch(x)
    np.testing.assert_array_equal(tape.gradient(x, x), [1, 1])


def test_watch_of_a_python_number_is_type_error():
    with opgen.GradientTape() as tape:
        with pytest.raises(TypeError) as e:
            tape.watch(1.5)
    assert "cannot watch a float" in str(e.value)


def test_a_used_non_persistent_tape_entered_again_starts_afresh():
    x = f32([1])
    tape = opgen.GradientTape()
    with tape:
        y = ops.example(x)
    tape.gradient(y, x)
    with tape:
        z = ops.example(ops.example(x))
    np.testing.assert_array_equal(tape.gradient(z, x), [4])


# ---- threads ----

def test_a_tape_does_not_record_another_threads_calls():
    x = f32([1])
    other = {}
    started, done = threading.Event(), threading.Event()

    def work():
        started.wait()
        other["y"] = ops.example(x)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    with opgen.GradientTape(persistent=True) as tape:
        mine = ops.example(x)
        started.set()
        done.wait()
    t.join()
    np.testing.assert_array_equal(tape.gradient(mine, x), [2])
    assert tape.gradient(other["y"], x) is None


def test_tapes_on_two_threads_are_independent():
    results = {}

    def work(k):
        x = f32([k])
        with opgen.GradientTape() as tape:
            y = x
            for _ in range(k):
                y = ops.example(y)
        results[k] = tape.gradient(y, x)

    threads = [threading.Thread(target=work, args=(k,)) for k in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in (1, 2, 3):
        np.testing.assert_array_equal(results[k], [2 ** k])


def test_gradient_of_a_tape_recording_on_another_thread_is_refused():
    tape = opgen.GradientTape()
    entered, leave = threading.Event(), threading.Event()

    def work():
        with tape:
            entered.set()
            leave.wait()

    t = threading.Thread(target=work)
    t.start()
    entered.wait()
    try:
        with pytest.raises(RuntimeError) as e:
            tape.gradient(f32([1]), f32([1]))
        assert "another thread" in str(e.value)
    finally:
        leave.set()
        t.join()


# ---- the numeric check ----

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compute_gradient_error_of_example(dtype):
    x = np.array([[1.0, -2.0], [0.5, 3.0]], dtype=dtype)
    assert compute_gradient_error(ops.example, [x]) < 1e-2


def test_compute_gradient_error_of_add_n():
    xs = [np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.0, 4.0])]
    error = compute_gradient_error(lambda a, b: ops.add_n([a, b, a]), xs)
    assert error < 1e-6


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_compute_gradient_error_of_pad(mode):
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    paddings = np.array([[1, 1], [2, 2]], dtype=np.int32)
    if mode == "REFLECT":
        paddings = np.array([[1, 1], [2, 1]], dtype=np.int32)
    error = compute_gradient_error(
        lambda a: ops.pad(a, paddings, mode=mode), [x])
    assert error < 1e-6


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compute_gradient_error_of_zero_out(dtype):
    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=dtype)
    error = compute_gradient_error(
        lambda a: ops.zero_out(a, preserve_index=1), [x])
    assert error < 1e-2


def test_compute_gradient_jacobians_are_y_size_by_x_size():
    x = np.array([1.0, 2.0, 3.0])
    paddings = np.array([[1, 0]], dtype=np.int32)
    theoretical, numerical = compute_gradient(
        lambda a: ops.pad(a, paddings), [x])
    expected = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(theoretical[0], expected)
    np.testing.assert_allclose(numerical[0], expected, atol=1e-6)


def test_compute_gradient_does_not_change_the_inputs():
    x = np.array([1.0, 2.0])
    compute_gradient(ops.example, [x])
    np.testing.assert_array_equal(x, [1.0, 2.0])


def test_compute_gradient_catches_a_wrong_gradient(python_gradient):
    python_gradient("Example", lambda op, grad: grad * 3)
    x = np.array([1.0, 2.0])
    assert abs(compute_gradient_error(ops.example, [x]) - 1.0) < 1e-6


def test_compute_gradient_of_an_integer_input_is_type_error():
    with pytest.raises(TypeError) as e:
        compute_gradient(ops.zero_out, [np.array([1, 2], dtype=np.int32)])
    assert "xs[0] is int32" in str(e.value)


def test_tapes_and_python_gradients_from_a_thread_pool(python_gradient):
    from concurrent.futures import ThreadPoolExecutor

    python_gradient("ZeroOut", lambda op, grad: grad * 5)

    def work(k):
        x = np.full((3, 4), float(k))
        for _ in range(20):
            with opgen.GradientTape() as tape:
                y = ops.add_n([ops.zero_out(ops.example(x)), x])
            dx = tape.gradient(y, x)
            np.testing.assert_array_equal(dx, np.full((3, 4), 11.0))
        return k

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert sorted(pool.map(work, range(16))) == list(range(16))


def test_gradients_release_what_they_hold():
    import gc
    import sys
    import weakref

    fn = PassThrough()
    before = sys.getrefcount(fn)
    _opgen.register_gradient("Example", fn, override=True)
    try:
        x = f32([1, 2])
        for _ in range(100):
            with opgen.GradientTape() as tape:
                y = ops.example(x)
            tape.gradient(y, x)
        del tape, y
        gc.collect()
        assert sys.getrefcount(fn) == before + 1  # the registry's
        assert sys.getrefcount(x) == 2
    finally:
        _opgen.unregister_gradient("Example")
    assert sys.getrefcount(fn) == before
    ref = weakref.ref(fn)
    del fn
    assert ref() is None


def test_a_python_number_converts_anew_under_a_tape():
    s = 1.5  # the op chooses its dtype at each use
    with opgen.GradientTape():
        a = ops.add_n([np.array(1.0, np.float32), s])
        b = ops.add_n([np.array(1.0, np.float64), s])
    assert (a.dtype, b.dtype) == (np.float32, np.float64)
    assert float(a) == float(b) == 2.5


def test_empty_sources_give_an_empty_result():
    x = f32([1])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    assert tape.gradient(y, []) == []


def test_compute_gradient_error_of_half():
    x = np.array([0.5, 2.0, -3.0], dtype=np.float16)
    assert compute_gradient_error(ops.example, [x]) < 1e-2


def test_compute_gradient_error_of_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([0.5, 2.0, -3.0], dtype=ml_dtypes.bfloat16)
    assert compute_gradient_error(ops.example, [x]) < 1e-2


def test_compute_gradient_refuses_a_delta_below_the_resolution():
    x = np.array([1000.0], dtype=np.float16)
    with pytest.raises(ValueError) as e:
        compute_gradient(ops.example, [x], delta=1e-3)
    assert str(e.value) == ("compute_gradient: delta 0.001 is below the "
                            "resolution of float16 at 1000.0")


@pytest.mark.parametrize("op_name,dtype", [
    ("zero_out_float_int32", np.float32),
    ("zero_out_real_number", np.float32),
    ("zero_out_real_number", np.float64),
])
def test_compute_gradient_error_of_the_first_element_zero_outs(op_name,
                                                               dtype):
    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=dtype)
    assert compute_gradient_error(getattr(ops, op_name), [x]) < 1e-2


def test_zero_out_int32_gradient_keeps_the_first_element():
    x = np.array([[1, 2], [3, 4]], dtype=np.int32)
    with opgen.GradientTape() as tape:
        y = ops.zero_out_int32(x)
    dx = tape.gradient(y, x, output_gradients=[[5, 6], [7, 8]])
    np.testing.assert_array_equal(dx, [[5, 0], [0, 0]])


def test_every_shipped_gradient_is_registered():
    for name in ("ZeroOut", "ZeroOutInt32", "ZeroOutFloatInt32",
                 "ZeroOutRealNumber", "Example", "AddN", "Pad"):
        assert _opgen.has_gradient(name), name


def test_python_gradient_returning_none_leaves_every_input_unconnected(
        python_gradient):
    python_gradient("AddN", lambda op, grad: None)
    x, z = f32([1]), f32([2])
    with opgen.GradientTape() as tape:
        y = ops.add_n([x, z])
    assert tape.gradient(y, [x, z]) == [None, None]


def test_python_gradient_of_another_dtype_is_invalid_argument(
        python_gradient):
    python_gradient("Example", lambda op, grad: np.zeros(2))
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        y = ops.example(x)
    with pytest.raises(opgen.InvalidArgumentError) as e:
        tape.gradient(y, x)
    assert str(e.value) == ("Example: the gradient of input 'input' has "
                            "shape [2] and dtype double; the input has shape "
                            "[2] and dtype float")


def test_a_gradient_function_cannot_ask_its_own_tape(python_gradient):
    x = f32([1])
    with opgen.GradientTape(persistent=True) as tape:
        y = ops.example(x)
    python_gradient("Example", lambda op, grad: tape.gradient(y, x))
    with pytest.raises(RuntimeError) as e:
        tape.gradient(y, x)
    assert str(e.value) == ("GradientTape.gradient: the tape is computing "
                            "a gradient")


def test_watch_of_a_deep_list_is_recursion_error():
    deep = []
    for _ in range(100000):
        deep = [deep]
    with pytest.raises(RecursionError):
        opgen.GradientTape().watch(deep)


def test_registry_helpers_need_a_name():
    with pytest.raises(TypeError) as e:
        _opgen.has_gradient(3)
    assert str(e.value) == "has_gradient() argument must be str, not int"
    with pytest.raises(opgen.InvalidArgumentError) as e:
        opgen.register_gradient("", lambda op, grad: grad)
    assert str(e.value) == "opr_register_gradient: the op name is empty"


def test_a_gradient_function_may_use_a_tape_of_its_own(python_gradient):
    def _grad(op, grad):
        a = np.array(op.inputs[0])
        with opgen.GradientTape() as inner:
            z = ops.example(a)
        return inner.gradient(z, a) * grad  # 2 * grad

    python_gradient("ZeroOut", _grad)
    x = f32([1, 2])
    with opgen.GradientTape() as tape:
        y = ops.zero_out(x)
    np.testing.assert_array_equal(tape.gradient(y, x), [2, 2])
