"""Runs the pytest suite tests/python for CTest (test_python): exit 77
(skipped) when numpy or pytest is missing."""
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print("test_python skipped: %s" % e)
    sys.exit(77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "tests/python"]))
