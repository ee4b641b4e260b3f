/* The module opgen._opgen: its init. The functions live with their
 * topics (op_info.c, library.c, infer.c, dtypes.c, context.c, grad_*.c). */
#define OPY_IMPORT_ARRAY
#include "opy_numpy.h"

#include <dlfcn.h>

#include "shipped.h"

/* Op libraries loaded later call opr_* without linking a runtime: they
 * resolve against symbols in the global namespace. Python opened this
 * extension RTLD_LOCAL; opening it again with RTLD_NOLOAD | RTLD_GLOBAL
 * promotes the loaded copy. */
static int promote_global(void) {
  Dl_info info;
  if (!dladdr((void *)&promote_global, &info) || !info.dli_fname) {
    PyErr_SetString(PyExc_ImportError, "opgen._opgen: cannot find its own "
                    "path (dladdr)");
    return -1;
  }
  void *h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
  if (!h) {
    const char *e = dlerror();
    PyErr_Format(PyExc_ImportError, "opgen._opgen: cannot make its runtime "
                 "global: %s", e ? e : "dlopen failed");
    return -1;
  }
  /* The handle stays open: the extension is never unloaded anyway. */
  return 0;
}

static int register_shipped(void) {
  opr_status s = opgen_shipped_register();
  if (s) {
    PyErr_Format(PyExc_ImportError, "opgen._opgen: registering the shipped "
                 "ops failed: %s", opr_status_message(s));
    opr_status_free(s);
    return -1;
  }
  return opy_op_info_snapshot_shipped();
}

static int module_exec(PyObject *m) {
  if (PyArray_ImportNumPyAPI() < 0) return -1;
  if (promote_global() < 0 || register_shipped() < 0) return -1;
  if (opy_errors_init(m) < 0 || opy_dtypes_init(m) < 0 ||
      opy_context_init(m) < 0 || opy_tensor_out_init(m) < 0 ||
      opy_op_info_init(m) < 0 || opy_op_init(m) < 0 ||
      opy_library_init(m) < 0 || opy_infer_init(m) < 0 ||
      opy_grad_init(m) < 0)
    return -1;
  return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "opgen._opgen",
    .m_doc = "The opgen runtime from Python: op functions (Op), tensors as "
             "numpy arrays, errors (OpError and one subclass per status "
             "code), contexts, shape inference, op libraries.",
    .m_size = 0,
    .m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__opgen(void) { return PyModuleDef_Init(&module_def); }
