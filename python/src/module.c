/* The module opgen._opgen: its init and its functions. */
#include "opgen_py.h"

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
  /* Keeps the count one higher: the extension is never unloaded anyway. */
  return 0;
}

static int module_exec(PyObject *m) {
  if (promote_global() < 0) return -1;
  opr_status s = opgen_shipped_register();
  if (s) {
    PyErr_Format(PyExc_ImportError, "opgen._opgen: registering the shipped "
                 "ops failed: %s", opr_status_message(s));
    opr_status_free(s);
    return -1;
  }
  (void)m;
  return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "opgen._opgen",
    .m_doc = "The opgen runtime: ops, tensors, errors, shapes.",
    .m_size = 0,
    .m_slots = module_slots,
};

PyMODINIT_FUNC PyInit__opgen(void) { return PyModuleDef_Init(&module_def); }
