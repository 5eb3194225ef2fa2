/* SPDX-License-Identifier: MIT */
/* hegetcl._core: the CPython binding of the C API, thin on purpose. Arrays arrive through the
 * buffer protocol (C-contiguous, no copy; hegetcl/__init__.py checks shapes and dtypes with
 * numpy first), contexts and amplitudes are capsules, and a failed call raises
 * _core.Error(code, status name, message), which the Python layer turns into its exceptions. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "hegetcl/hegetcl.h"

static PyObject *core_error; /* _core.Error */

static PyObject *raise_status(hegetcl_status status, const char *message) {
  PyObject *args =
      Py_BuildValue("(iss)", (int)status, hegetcl_status_name(status),
                    message != NULL && message[0] ? message : hegetcl_status_meaning(status));
  if (args != NULL) {
    PyErr_SetObject(core_error, args);
    Py_DECREF(args);
  }
  return NULL;
}

static const char context_name[] = "hegetcl.context";
static const char amplitude_name[] = "hegetcl.amplitude";

static void context_free(PyObject *capsule) {
  hegetcl_context_destroy(PyCapsule_GetPointer(capsule, context_name));
}

/* An amplitude keeps its context's capsule alive (the capsule's context holds the reference). */
static void amplitude_free(PyObject *capsule) {
  hegetcl_amplitude_destroy(PyCapsule_GetPointer(capsule, amplitude_name));
  Py_XDECREF((PyObject *)PyCapsule_GetContext(capsule));
}

static PyObject *device_dict(const hegetcl_device_info *d) {
  return Py_BuildValue(
      "{s:I,s:I,s:s,s:s,s:s,s:s,s:s,s:s,s:O,s:O,s:I,s:K,s:K,s:K}", "platform_index",
      d->platform_index, "device_index", d->device_index, "platform", d->platform, "name", d->name,
      "vendor", d->vendor, "driver_version", d->driver_version, "device_version", d->device_version,
      "opencl_c_version", d->opencl_c_version, "is_gpu", d->is_gpu ? Py_True : Py_False, "has_fp64",
      d->has_fp64 ? Py_True : Py_False, "compute_units", d->compute_units, "global_memory_bytes",
      d->global_memory_bytes, "local_memory_bytes", d->local_memory_bytes, "max_buffer_bytes",
      d->max_buffer_bytes);
}

static PyObject *py_devices(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  hegetcl_device_info infos[64];
  size_t count = 0;
  char message[1024] = "";
  hegetcl_status status;
  PyThreadState *saved = PyEval_SaveThread(); /* other Python threads run meanwhile */
  status = hegetcl_device_list(infos, 64, &count, message, sizeof message);
  PyEval_RestoreThread(saved);
  if (status != HEGETCL_OK) return raise_status(status, message);
  PyObject *list = PyList_New(0);
  for (size_t i = 0; list != NULL && i < count && i < 64; ++i) {
    PyObject *d = device_dict(&infos[i]);
    if (d == NULL || PyList_Append(list, d) != 0) Py_CLEAR(list);
    Py_XDECREF(d);
  }
  return list;
}

static PyObject *py_context(PyObject *self, PyObject *args) {
  (void)self;
  const char *spec = NULL;
  if (!PyArg_ParseTuple(args, "z", &spec)) return NULL;
  hegetcl_context *ctx = NULL;
  hegetcl_status status;
  PyThreadState *saved = PyEval_SaveThread();
  status = hegetcl_context_create(spec, &ctx);
  PyEval_RestoreThread(saved);
  if (status != HEGETCL_OK) {
    raise_status(status, hegetcl_last_error(ctx));
    hegetcl_context_destroy(ctx);
    return NULL;
  }
  PyObject *capsule = PyCapsule_New(ctx, context_name, context_free);
  if (capsule == NULL) hegetcl_context_destroy(ctx);
  return capsule;
}

static PyObject *py_context_device(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *capsule;
  if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
  hegetcl_context *ctx = PyCapsule_GetPointer(capsule, context_name);
  if (ctx == NULL) return NULL;
  hegetcl_device_info info;
  const hegetcl_status status = hegetcl_context_device(ctx, &info);
  if (status != HEGETCL_OK) return raise_status(status, hegetcl_last_error(ctx));
  return device_dict(&info);
}

/* process_particles(text): (the number of external particles of a process string, their
 * masses in GeV in the order written), or the library's message as an exception (unknown
 * particle, charge not conserved, ...). */
static PyObject *py_process_particles(PyObject *self, PyObject *args) {
  (void)self;
  const char *text;
  if (!PyArg_ParseTuple(args, "s", &text)) return NULL;
  hegetcl_process process;
  char message[1024];
  const hegetcl_status status = hegetcl_process_from_text(&process, text, message, sizeof message);
  if (status != HEGETCL_OK) return raise_status(status, message);
  const unsigned n = hegetcl_process_particles(&process);
  PyObject *masses = PyList_New((Py_ssize_t)n);
  for (unsigned i = 0; masses != NULL && i < n; ++i) {
    PyObject *m = PyFloat_FromDouble(hegetcl_process_mass(&process, i));
    if (m == NULL)
      Py_CLEAR(masses);
    else
      PyList_SET_ITEM(masses, (Py_ssize_t)i, m);
  }
  if (masses == NULL) return NULL;
  return Py_BuildValue("(IN)", n, masses);
}

/* chi2_probability(chi2_per_dof, iterations): hegetcl_vegas_chi2_probability */
static PyObject *py_chi2_probability(PyObject *self, PyObject *args) {
  (void)self;
  double chi2;
  unsigned iterations;
  if (!PyArg_ParseTuple(args, "dI", &chi2, &iterations)) return NULL;
  return PyFloat_FromDouble(hegetcl_vegas_chi2_probability(chi2, iterations));
}

static PyObject *py_amplitude(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *capsule;
  unsigned n_photons;
  const char *engine_name, *precision_name, *text = "";
  double alpha, charge;
  if (!PyArg_ParseTuple(args, "OIssdd|s", &capsule, &n_photons, &engine_name, &precision_name,
                        &alpha, &charge, &text))
    return NULL;
  hegetcl_context *ctx = PyCapsule_GetPointer(capsule, context_name);
  if (ctx == NULL) return NULL;
  hegetcl_process process;
  char message[1024];
  /* a process string other than the photon family: the library's parser and its defaults */
  if (text[0] != '\0') {
    const hegetcl_status parsed =
        hegetcl_process_from_text(&process, text, message, sizeof message);
    if (parsed != HEGETCL_OK) return raise_status(parsed, message);
  } else {
    hegetcl_process_defaults(&process, n_photons);
  }
  /* "default": the engine hegetcl_process_from_text chose (recursive colour where it applies) */
  if (strcmp(engine_name, "default") != 0 &&
      hegetcl_engine_parse(engine_name, &process.engine) != HEGETCL_OK)
    return raise_status(HEGETCL_ERR_INPUT, "engine: use permutation, unrolled, diagrams or "
                                           "recursive");
  if (hegetcl_precision_parse(precision_name, &process.precision) != HEGETCL_OK)
    return raise_status(HEGETCL_ERR_INPUT, "precision: use 'double' or 'float'");
  process.alpha = alpha;
  if (text[0] == '\0') process.quark_charge = charge;
  hegetcl_amplitude *amp = NULL;
  hegetcl_status status;
  PyThreadState *saved = PyEval_SaveThread();
  status = hegetcl_amplitude_create(ctx, &process, &amp);
  PyEval_RestoreThread(saved);
  if (status != HEGETCL_OK) return raise_status(status, hegetcl_last_error(ctx));
  PyObject *out = PyCapsule_New(amp, amplitude_name, amplitude_free);
  if (out == NULL) {
    hegetcl_amplitude_destroy(amp);
    return NULL;
  }
  Py_INCREF(capsule);
  PyCapsule_SetContext(out, capsule);
  return out;
}

/* evaluate(amplitude, momenta, helicity or None, me): momenta a C-contiguous float64 buffer of
 * events x (n + 2) x 4, helicity uint32 of events, me a writable float64 buffer of events. */
static PyObject *py_evaluate(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *capsule, *momenta_obj, *helicity_obj, *me_obj;
  if (!PyArg_ParseTuple(args, "OOOO", &capsule, &momenta_obj, &helicity_obj, &me_obj)) return NULL;
  hegetcl_amplitude *amp = PyCapsule_GetPointer(capsule, amplitude_name);
  PyObject *ctx_capsule = (PyObject *)PyCapsule_GetContext(capsule);
  if (amp == NULL || ctx_capsule == NULL) return NULL;
  hegetcl_context *ctx = PyCapsule_GetPointer(ctx_capsule, context_name);
  if (ctx == NULL) return NULL;
  Py_buffer momenta = {0}, helicity = {0}, me = {0};
  PyObject *result = NULL;
  if (PyObject_GetBuffer(momenta_obj, &momenta, PyBUF_C_CONTIGUOUS) != 0) return NULL;
  if (PyObject_GetBuffer(me_obj, &me, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) != 0) goto done;
  const int with_helicity = helicity_obj != Py_None;
  if (with_helicity && PyObject_GetBuffer(helicity_obj, &helicity, PyBUF_C_CONTIGUOUS) != 0)
    goto done;
  const size_t n_events = (size_t)me.len / sizeof(double);
  if (n_events == 0) {
    result = Py_None;
    Py_INCREF(result);
    goto done;
  }
  hegetcl_status status;
  PyThreadState *saved = PyEval_SaveThread();
  status = hegetcl_amplitude_evaluate_events(amp, n_events, momenta.buf,
                                             with_helicity ? helicity.buf : NULL, me.buf);
  PyEval_RestoreThread(saved);
  if (status != HEGETCL_OK) {
    raise_status(status, hegetcl_last_error(ctx));
    goto done;
  }
  result = Py_None;
  Py_INCREF(result);
done:
  if (momenta.obj != NULL) PyBuffer_Release(&momenta);
  if (helicity.obj != NULL) PyBuffer_Release(&helicity);
  if (me.obj != NULL) PyBuffer_Release(&me);
  return result;
}

/* The variations of a process run (hegetcl_variation_result) as a dict of lists, or None. */
static PyObject *variations_dict(const hegetcl_variation_result *v) {
  if (v == NULL) Py_RETURN_NONE;
  PyObject *list = PyList_New(0);
  for (unsigned k = 0; list != NULL && k < v->list.n; ++k) {
    const hegetcl_variation *x = &v->list.v[k];
    PyObject *d = Py_BuildValue("{s:s,s:s,s:s,s:s,s:d,s:d,s:i,s:d,s:d}", "id", x->id, "group",
                                x->group, "combine", x->combine, "description", x->description,
                                "mu_r_factor", x->mu_r_factor, "mu_f_factor", x->mu_f_factor,
                                "pdf_lhapdf_id", x->pdf_lhapdf_id, "sigma_fb", v->sigma_fb[k],
                                "error_fb", v->error_fb[k]);
    if (d == NULL || PyList_Append(list, d) != 0) Py_CLEAR(list);
    Py_XDECREF(d);
  }
  if (list == NULL) return NULL;
  return Py_BuildValue("{s:N,s:I,s:I,s:I,s:d,s:d,s:s,s:d}", "variations", list, "n_scales",
                       v->n_scales, "first_pdf", v->first_pdf, "n_pdf", v->n_pdf, "scale_min_fb",
                       v->scale_min_fb, "scale_max_fb", v->scale_max_fb, "pdf_error_type",
                       v->pdf_error_type, "pdf_error_fb", v->pdf_error_fb);
}

/* A process run's groups, partonic channels, alpha_s and variations as a dict, or None for a
 * photon run. */
static PyObject *process_dict(const hegetcl_xsec_result *r) {
  if (r->groups == NULL) Py_RETURN_NONE;
  PyObject *groups = PyList_New(0), *channels = PyList_New(0);
  for (unsigned i = 0; groups != NULL && i < r->n_groups; ++i) {
    const hegetcl_xsec_group *g = &r->groups[i];
    PyObject *d = Py_BuildValue("{s:s,s:I,s:d,s:d,s:d,s:K}", "text", g->text, "n_channels",
                                g->n_channels, "sigma_fb", g->sigma_fb, "error_fb", g->error_fb,
                                "chi2_per_dof", g->chi2_per_dof, "events",
                                (unsigned long long)g->events);
    if (d == NULL || PyList_Append(groups, d) != 0) Py_CLEAR(groups);
    Py_XDECREF(d);
  }
  for (unsigned i = 0; channels != NULL && i < r->n_process_channels; ++i) {
    const hegetcl_xsec_process_channel *c = &r->process_channels[i];
    PyObject *d = Py_BuildValue("{s:s,s:I,s:d,s:d}", "text", c->text, "group", c->group,
                                "sigma_fb", c->sigma_fb, "error_fb", c->error_fb);
    if (d == NULL || PyList_Append(channels, d) != 0) Py_CLEAR(channels);
    Py_XDECREF(d);
  }
  PyObject *variations = groups != NULL && channels != NULL ? variations_dict(r->variations) : NULL;
  if (groups == NULL || channels == NULL || variations == NULL) {
    Py_XDECREF(groups);
    Py_XDECREF(channels);
    Py_XDECREF(variations);
    return NULL;
  }
  return Py_BuildValue("{s:N,s:N,s:d,s:d,s:I,s:i,s:s,s:N}", "groups", groups, "channels",
                       channels, "alpha_s", r->alpha_s, "alpha_s_mu_r", r->alpha_s_mu_r,
                       "alpha_s_power", r->alpha_s_power, "pdf_lhapdf_id", r->pdf_lhapdf_id,
                       "pdf_path", r->pdf_path, "variations", variations);
}

static PyObject *result_dict(const hegetcl_xsec_result *r) {
  PyObject *channels = PyList_New(0);
  for (unsigned i = 0; channels != NULL && i < r->n_channels; ++i) {
    const hegetcl_xsec_channel *c = &r->channels[i];
    PyObject *d =
        Py_BuildValue("{s:s,s:(ii),s:d,s:d,s:d}", "name", c->name, "pid", c->pid[0], c->pid[1],
                      "charge", c->charge, "sigma_fb", c->sigma_fb, "error_fb", c->error_fb);
    if (d == NULL || PyList_Append(channels, d) != 0) Py_CLEAR(channels);
    Py_XDECREF(d);
  }
  if (channels == NULL) return NULL;
  PyObject *process = process_dict(r);
  if (process == NULL) {
    Py_DECREF(channels);
    return NULL;
  }
  const hegetcl_unweighting_result *u = &r->unweighting;
  return Py_BuildValue(
      "{s:d,s:d,s:d,s:I,s:K,s:K,s:d,s:d,s:s,s:s,s:N,s:K,s:K,s:d,s:d,s:N}", "sigma_fb",
      r->vegas.estimate, "error_fb", r->vegas.error, "chi2_per_dof", r->vegas.chi2_per_dof,
      "iterations", r->vegas.iterations, "events", (unsigned long long)r->vegas.events,
      "events_total", (unsigned long long)r->vegas.events_total, "wall_seconds",
      r->vegas.wall_seconds, "build_seconds", r->build_seconds, "amplitude_options",
      r->amplitude_options, "sampler_options", r->sampler_options, "channels", channels,
      "unweighted_written", (unsigned long long)u->written, "unweighted_tried",
      (unsigned long long)u->tried, "unweighting_efficiency", u->efficiency, "max_weight_fb",
      u->max_weight_fb, "process", process);
}

/* xsec(context or None, card path): reads the card (hegetcl_run_card_read), creates a context
 * on its device unless one is given, integrates, and writes the card's LHE file when it asks for
 * unweighted events. Returns (result dict, device dict). */
static PyObject *py_xsec(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *capsule;
  const char *path;
  if (!PyArg_ParseTuple(args, "Os", &capsule, &path)) return NULL;
  hegetcl_run_card *card = PyMem_Calloc(1, sizeof *card);
  hegetcl_xsec_result *r = PyMem_Calloc(1, sizeof *r);
  PyObject *out = NULL;
  hegetcl_context *own = NULL, *ctx = NULL;
  if (card == NULL || r == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  char message[4096] = "";
  hegetcl_status status = hegetcl_run_card_read(path, card, message, sizeof message);
  if (status != HEGETCL_OK) {
    raise_status(status, message);
    goto done;
  }
  if (capsule != Py_None) {
    ctx = PyCapsule_GetPointer(capsule, context_name);
    if (ctx == NULL) goto done;
  } else {
    PyThreadState *saved = PyEval_SaveThread();
    status = hegetcl_context_create(card->device, &own);
    PyEval_RestoreThread(saved);
    ctx = own;
    if (status != HEGETCL_OK) {
      raise_status(status, hegetcl_last_error(own));
      goto done;
    }
  }
  PyThreadState *saved = PyEval_SaveThread();
  status = card->lhe[0] != '\0' ? hegetcl_xsec_write_lhe(ctx, &card->config, card->lhe, r)
                                : hegetcl_xsec_run(ctx, &card->config, NULL, NULL, r);
  PyEval_RestoreThread(saved);
  if (status != HEGETCL_OK) {
    raise_status(status, hegetcl_last_error(ctx));
    goto done;
  }
  hegetcl_device_info info;
  hegetcl_context_device(ctx, &info);
  out = Py_BuildValue("(NN)", result_dict(r), device_dict(&info));
done:
  if (r != NULL) hegetcl_xsec_result_free(r);
  hegetcl_context_destroy(own);
  PyMem_Free(r);
  PyMem_Free(card);
  return out;
}

static PyObject *py_version(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(hegetcl_version());
}

static PyMethodDef methods[] = {
    {"devices", py_devices, METH_NOARGS, "Every OpenCL device, as dicts."},
    {"context", py_context, METH_VARARGS, "context(spec or None) -> capsule"},
    {"context_device", py_context_device, METH_VARARGS, "context_device(ctx) -> dict"},
    {"process_particles", py_process_particles, METH_VARARGS,
     "process_particles(text) -> (particles, masses) of a process string"},
    {"chi2_probability", py_chi2_probability, METH_VARARGS,
     "chi2_probability(chi2_per_dof, iterations) -> the chance of so large a chi2"},
    {"amplitude", py_amplitude, METH_VARARGS,
     "amplitude(ctx, n, engine, precision, alpha, charge) -> capsule"},
    {"evaluate", py_evaluate, METH_VARARGS, "evaluate(amp, momenta, helicity or None, me)"},
    {"xsec", py_xsec, METH_VARARGS, "xsec(ctx or None, card_path) -> (result, device)"},
    {"version", py_version, METH_NOARGS, "The C library's version."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
  PyObject *m = PyModule_Create(&module);
  if (m == NULL) return NULL;
  core_error = PyErr_NewException("hegetcl._core.Error", NULL, NULL);
  if (core_error == NULL || PyModule_AddObject(m, "Error", core_error) != 0) {
    Py_XDECREF(core_error);
    Py_DECREF(m);
    return NULL;
  }
  Py_INCREF(core_error);
  if (PyModule_AddObject(m, "CHI2_SUSPECT", PyFloat_FromDouble(HEGETCL_VEGAS_CHI2_SUSPECT)) != 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
