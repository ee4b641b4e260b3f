"""The package as pip installs it (.ci/python-package sets
OPGEN_TEST_INSTALLED=1): opgen comes from site-packages, not from the
source tree or a build's staging directory, and carries its metadata and
the runtime's headers."""
import importlib.metadata
import os
import re
import sysconfig

import pytest

import opgen

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))

pytestmark = pytest.mark.skipif(
    os.environ.get("OPGEN_TEST_INSTALLED") != "1",
    reason="tests the installed package (OPGEN_TEST_INSTALLED=1, "
           ".ci/python-package)")


def test_opgen_is_imported_from_site_packages():
    here = os.path.realpath(os.path.dirname(opgen.__file__))
    sites = {os.path.realpath(sysconfig.get_paths()[k])
             for k in ("purelib", "platlib")}
    assert os.path.dirname(here) in sites
    assert not here.startswith(ROOT + os.sep)
    ext = os.path.realpath(opgen._opgen.__file__)
    assert os.path.dirname(ext) == here


def test_version_is_the_projects():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        version = re.search(r"project\(opgen VERSION ([0-9.]+)",
                            f.read()).group(1)
    assert importlib.metadata.version("opgen") == version


def test_get_include_holds_the_runtime_headers():
    include = opgen.get_include()
    assert os.path.isfile(os.path.join(include, "opr", "opr.h"))
    assert os.path.isfile(os.path.join(include, "opr", "dtypes.def"))
    assert os.path.realpath(include).startswith(
        os.path.realpath(os.path.dirname(opgen.__file__)))


def test_the_shipped_ops_are_in_the_installed_extension():
    assert "zero_out" in opgen.ops.__all__
    assert opgen.ops.zero_out([1, 2]).tolist() == [1, 0]
