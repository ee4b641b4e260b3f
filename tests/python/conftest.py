"""Fixtures shared by the tests of tests/python: the paths of the op
libraries the build made (set by CTest's test_python; tests that need one
skip without it)."""
import os

import pytest


def _env_path(name):
    path = os.environ.get(name, "")
    if not path or not os.path.exists(path):
        pytest.skip("%s is not set to an existing path (run through CTest's "
                    "test_python)" % name)
    return path


@pytest.fixture
def zero_out_lib_path():
    """build's zero_out_lib.so (the guide's ZeroOut as LibZeroOut)."""
    return _env_path("OPGEN_TEST_ZERO_OUT_LIB")


@pytest.fixture
def oplibs_dir():
    """The directory of the test op libraries of tests/python/oplibs."""
    return _env_path("OPGEN_TEST_OPLIBS_DIR")


@pytest.fixture
def build_dir():
    return _env_path("OPGEN_BUILD_DIR")


@pytest.fixture(scope="session")
def call_lib():
    """tests/python/calllib's ops, loaded: {op name: opgen._opgen.Op}."""
    path = os.environ.get("OPGEN_TEST_CALL_LIB", "")
    if not path or not os.path.exists(path):
        pytest.skip("OPGEN_TEST_CALL_LIB is not set to an existing path (run "
                    "through CTest's test_python)")
    from opgen import _opgen
    _, _, names = _opgen.load_library(path)
    return {name: _opgen.Op(name) for name in names}
