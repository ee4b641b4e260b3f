"""opgen.load_op_library: a library's ops as a module, loaded once, and
the runtime's errors for what is no op library."""
import concurrent.futures
import inspect
import os
import pathlib
import shutil
import threading

import numpy as np
import pytest

import opgen


def test_a_library_is_a_module_of_its_ops(zero_out_lib_path):
    lib = opgen.load_op_library(zero_out_lib_path)
    assert isinstance(lib, type(opgen))
    assert lib.__name__ == "zero_out_lib"
    # The path of its first load (another test may have come first).
    assert os.path.samefile(lib.__file__, zero_out_lib_path)
    assert lib.__all__ == ["lib_zero_out"]
    assert "lib_zero_out" in dir(lib)
    fn = lib.lib_zero_out
    assert fn.op_name == "LibZeroOut"
    assert fn.__name__ == fn.__qualname__ == "lib_zero_out"
    assert fn.__module__ == "zero_out_lib"
    assert str(inspect.signature(fn)) == "(to_zero)"
    assert fn.__doc__.startswith(
        "Zeroes all elements of an int32 tensor but the first.\n\nArgs:\n"
        "  to_zero: A tensor of type int32.\n")


def test_a_library_op_runs(zero_out_lib_path):
    lib = opgen.load_op_library(zero_out_lib_path)
    out = lib.lib_zero_out(np.array([5, 6, 7], dtype=np.int32))
    np.testing.assert_array_equal(out, [5, 0, 0])
    np.testing.assert_array_equal(lib.lib_zero_out([[1, 2], [3, 4]]),
                                  [[1, 0], [0, 0]])


def test_library_ops_stay_out_of_opgen_ops(zero_out_lib_path):
    opgen.load_op_library(zero_out_lib_path)
    assert not hasattr(opgen.ops, "lib_zero_out")


def test_the_same_path_twice_is_the_same_object(zero_out_lib_path):
    a = opgen.load_op_library(zero_out_lib_path)
    assert opgen.load_op_library(zero_out_lib_path) is a
    assert opgen.load_op_library(pathlib.Path(zero_out_lib_path)) is a
    assert opgen.load_op_library(os.fsencode(zero_out_lib_path)) is a


def test_another_path_to_the_same_file_is_the_same_object(zero_out_lib_path,
                                                          tmp_path):
    a = opgen.load_op_library(zero_out_lib_path)
    link = tmp_path / "link.so"
    link.symlink_to(zero_out_lib_path)
    assert opgen.load_op_library(str(link)) is a
    rel = os.path.relpath(zero_out_lib_path)
    assert opgen.load_op_library(os.path.join(".", rel)) is a


def test_a_copy_of_a_loaded_library_is_the_same_object(zero_out_lib_path,
                                                       tmp_path):
    # The runtime knows libraries by name: a second file of the same
    # library is the library already loaded.
    a = opgen.load_op_library(zero_out_lib_path)
    copy = tmp_path / "zero_out_copy.so"
    shutil.copy(zero_out_lib_path, copy)
    assert opgen.load_op_library(str(copy)) is a


def test_a_missing_file_is_not_found(tmp_path):
    path = str(tmp_path / "missing.so")
    with pytest.raises(opgen.NotFoundError) as e:
        opgen.load_op_library(path)
    assert str(e.value) == "opr_load_library: '%s': no such file" % path
    assert e.value.code_name == "NOT_FOUND"
    # Not cached: it fails again the same way.
    with pytest.raises(opgen.NotFoundError):
        opgen.load_op_library(path)


def test_a_file_that_is_no_shared_object_is_invalid(tmp_path):
    path = tmp_path / "text.so"
    path.write_text("not a library\n")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        opgen.load_op_library(str(path))
    assert str(e.value).startswith(
        "opr_load_library: '%s' cannot be loaded: " % path)


def test_a_shared_object_that_is_no_op_library_is_invalid():
    try:  # numpy's own extension, a shared object loaded already
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # numpy 1
        from numpy.core import _multiarray_umath as umath
    path = umath.__file__
    with pytest.raises(opgen.InvalidArgumentError) as e:
        opgen.load_op_library(path)
    assert str(e.value) == ("opr_load_library: '%s' is no opgen op library "
                            "(it has no opr_library_entry)" % path)


def _load_in_thread(path):
    """Loads `path` on another thread; the exception it raised, or a
    failure if it did not return within 10 s (a load that blocks)."""
    result = []

    def run():
        try:
            opgen.load_op_library(path)
            result.append(None)
        except Exception as e:  # noqa: BLE001 (the test inspects it)
            result.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(10)
    assert result, "load_op_library(%r) blocked" % path
    return result[0]


def test_a_fifo_is_refused_without_blocking(tmp_path):
    path = str(tmp_path / "fifo.so")
    os.mkfifo(path)
    e = _load_in_thread(path)
    assert isinstance(e, opgen.InvalidArgumentError)
    assert str(e) == ("opr_load_library: '%s' cannot be loaded: not a "
                      "regular file" % path)


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/"])
def test_a_device_or_directory_is_refused(path):
    e = _load_in_thread(path)
    assert isinstance(e, opgen.InvalidArgumentError)
    assert str(e) == ("opr_load_library: '%s' cannot be loaded: not a "
                      "regular file" % path)


def test_a_path_of_the_wrong_type_is_a_type_error():
    with pytest.raises(TypeError):
        opgen.load_op_library(42)


def _oplib(build_dir, name):
    """A library of tests/oplib (built with the whole build, not by
    test_python's dependencies): skipped when absent."""
    path = os.path.join(build_dir, "tests", "oplib", name + ".so")
    if not os.path.exists(path):
        pytest.skip("%s is not built" % path)
    return path


@pytest.mark.parametrize("name, error, message", [
    ("conflict_lib", "AbortedError",
     "': op 'ZeroOut' is already registered with a different definition "
     "(input 0: names differ ('to_zero' vs 'x'))"),
    ("ctor_bad_abi", "FailedPreconditionError",
     "' was built for op library ABI version 999; this runtime loads "
     "version 2 (rebuild the library against this runtime)"),
    ("ctor_bad_hash", "DataLossError",
     "': its 1 op definitions hash to 0x"),
])
def test_a_refused_library_raises_the_runtimes_error(build_dir, name, error,
                                                     message):
    path = _oplib(build_dir, name)
    with pytest.raises(getattr(opgen, error)) as e:
        opgen.load_op_library(path)
    assert str(e.value).startswith("opr_load_library: '%s%s" % (path,
                                                                 message))
    # Nothing was kept: the same error again.
    with pytest.raises(getattr(opgen, error)):
        opgen.load_op_library(path)


def test_a_library_without_ops_is_an_empty_module(build_dir):
    lib = opgen.load_op_library(_oplib(build_dir, "empty_lib"))
    assert lib.__name__ == "empty_lib"
    assert lib.__all__ == []


def test_threads_loading_one_library_get_one_object(zero_out_lib_path,
                                                    tmp_path):
    # Each thread through its own symlink: the cache and the runtime's
    # identity both decide, concurrently.
    paths = []
    for i in range(8):
        link = tmp_path / ("t%d.so" % i)
        link.symlink_to(zero_out_lib_path)
        paths.append(str(link))
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        libs = list(pool.map(opgen.load_op_library, paths))
    assert all(lib is libs[0] for lib in libs)
    assert libs[0] is opgen.load_op_library(zero_out_lib_path)
