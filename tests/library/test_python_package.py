# SPDX-License-Identifier: MIT
"""The Python package hegetcl as pip installs it: |M|^2 against MadGraph and against the C API,
a cross section against `hegetcl xsec` bit for bit, events in a Les Houches file, errors for bad
input, and no growth of memory over 1000 calls. Run by python_package.py (pytest, in a fresh
virtual environment); HEGETCL_REFS_DIR names the MadGraph points, HEGETCL_EXE the build's
command, HEGETCL_TEST_DEVICE the device under test."""
import json
import math
import os
import subprocess
import warnings

import numpy as np
import pytest

import hegetcl

DEVICE = os.environ.get("HEGETCL_TEST_DEVICE") or os.environ.get("HEGETCL_DEVICE") or "auto"
REFS = os.environ.get("HEGETCL_REFS_DIR", "")
EXE = os.environ.get("HEGETCL_EXE", "")
# a cross section that takes about a second on PoCL
SMALL = dict(events=20000, adapt_events=10000, adapt_iterations=1, min_iterations=2,
             max_iterations=2, seed=7, batch=8192)


def mg5_points(n):
    """MadGraph's points of ../shared/refs/mg5: momenta (points, n + 2, 4) and |M|^2."""
    return reference_points(os.path.join(REFS, f"me_points_n{n}.txt"))


def reference_points(path):
    """A MadGraph reference file's points: momenta (points, particles, 4) and |M|^2."""
    momenta, me, point = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "POINT":
                point = []
            elif words[0] == "ME":
                momenta.append(point)
                me.append(float(words[1]))
            else:
                point.append([float(w) for w in words])
    return np.array(momenta), np.array(me)


def process(n, quark="u"):
    return f"{quark} {quark}~ > " + " ".join(["a"] * n)


def test_version_is_the_c_librarys_and_the_commands():
    out = subprocess.run([EXE, "--version"], capture_output=True, text=True).stdout.strip()
    assert out == f"hegetcl {hegetcl.__version__}"


def test_devices_lists_the_device_under_test():
    found = hegetcl.devices()
    assert found and all(isinstance(d, hegetcl.Device) for d in found)
    if DEVICE == "cpu":
        assert any(not d.is_gpu for d in found)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_matrix_element_agrees_with_madgraph(n):
    momenta, reference = mg5_points(n)
    me = hegetcl.matrix_element(process(n), momenta, device=DEVICE)
    assert me.shape == (len(reference),) and me.dtype == np.float64
    # MadGraph's values carry 17 digits; both are double-precision sums of the same diagrams
    np.testing.assert_allclose(me, reference, rtol=1e-10, atol=0)


def test_float_precision_agrees_with_double_to_single_precision_rounding():
    momenta, reference = mg5_points(4)
    me = hegetcl.matrix_element(process(4), momenta, precision="float", device=DEVICE)
    np.testing.assert_allclose(me, reference, rtol=1e-4)  # float: ~1e-7 per operation, ~1e3 ops


@pytest.mark.parametrize("n", [3, 5])
def test_matrix_element_equals_the_c_api_for_the_same_momenta_bit_for_bit(n):
    momenta, _ = mg5_points(n)
    path = os.path.join(REFS, f"me_points_n{n}.txt")
    out = subprocess.run([EXE, "me", "--engine", "recursive", "--device", DEVICE, path],
                         capture_output=True, text=True, check=True).stdout
    c_values = [float(line.split("|M|^2")[1].split()[0]) for line in out.splitlines()
                if "|M|^2" in line and "point" in line]
    me = hegetcl.matrix_element(process(n), momenta, device=DEVICE)
    assert len(c_values) == len(me)
    assert [float(f"{v:.16e}") for v in me] == c_values  # printed with 17 digits: exact


def test_a_down_quark_scales_as_its_charge_to_the_power_2n():
    momenta, _ = mg5_points(3)
    up = hegetcl.matrix_element(process(3, "u"), momenta, device=DEVICE)
    down = hegetcl.matrix_element(process(3, "d"), momenta, device=DEVICE)
    np.testing.assert_allclose(down / up, 0.5 ** 6, rtol=1e-13)


def test_helicity_configurations_sum_to_the_summed_matrix_element():
    momenta, _ = mg5_points(3)
    n_particles = 5
    configurations = np.arange(1 << n_particles)
    events = np.repeat(momenta, len(configurations), axis=0)
    helicities = np.tile(configurations, len(momenta))
    per = hegetcl.matrix_element(process(3), events, helicities=helicities, device=DEVICE)
    summed = per.reshape(len(momenta), -1).sum(axis=1)
    np.testing.assert_allclose(summed, hegetcl.matrix_element(process(3), momenta,
                                                              device=DEVICE), rtol=1e-12)


def test_a_non_contiguous_array_gives_the_same_values():
    momenta, _ = mg5_points(2)
    strided = np.repeat(momenta, 2, axis=0)[::2]  # every other event: a view with strides
    assert not strided.flags.c_contiguous
    np.testing.assert_array_equal(hegetcl.matrix_element(process(2), strided, device=DEVICE),
                                  hegetcl.matrix_element(process(2), momenta, device=DEVICE))


def test_cross_section_equals_the_commands_bit_for_bit_with_the_same_seed(tmp_path):
    xs = hegetcl.cross_section("u u~ > a a", device=DEVICE, **SMALL)
    card = tmp_path / "run.yaml"
    card.write_text(xs.run_card)
    out = tmp_path / "run.json"
    subprocess.run([EXE, "xsec", "--card", str(card), "--device", DEVICE, "--json", str(out),
                    "--quiet", "--checkpoint", "none"], check=True, capture_output=True)
    result = json.loads(out.read_text())["result"]
    assert (xs.sigma_fb, xs.error_fb) == (result["sigma_fb"], result["error_fb"])
    assert xs.chi2_per_dof >= 0 and xs.iterations == 2
    assert [c.name for c in xs.channels] == ["u u~"]
    assert xs.channels[0].sigma_fb == pytest.approx(xs.sigma_fb, rel=1e-12)


def test_flavour_channels_add_up_to_sigma():
    xs = hegetcl.cross_section(n=2, flavours=["d", "u"], orientation="both", device=DEVICE,
                               **SMALL)
    assert [c.name for c in xs.channels] == ["d d~", "d~ d", "u u~", "u~ u"]
    assert sum(c.sigma_fb for c in xs.channels) == pytest.approx(xs.sigma_fb, rel=1e-12)


def test_generate_events_writes_a_les_houches_file(tmp_path):
    path = tmp_path / "events.lhe"
    xs = hegetcl.generate_events(path, 50, "u u~ > a a", device=DEVICE, **SMALL)
    assert xs.unweighted_events == 50 and xs.lhe == str(path)
    text = path.read_text()
    assert text.count("<event>") == 50 and "</LesHouchesEvents>" in text
    pylhe = pytest.importorskip("pylhe")
    lhe = pylhe.LHEFile.fromfile(str(path))
    assert lhe.init.procInfo[0].xSection == pytest.approx(xs.sigma_fb / 1000, rel=1e-12)  # pb
    events = list(lhe.events)
    assert len(events) == 50
    for event in events:
        ids = [int(p.id) for p in event.particles]
        assert ids[:2] in ([2, -2], [-2, 2]) and ids[2:] == [22, 22]


@pytest.mark.parametrize("shape", [(4, 5, 4), (4, 4, 3), (16,), (4, 4, 4, 1)])
def test_a_wrong_shape_is_an_input_error_naming_the_shape(shape):
    with pytest.raises(hegetcl.InputError) as failure:
        hegetcl.matrix_element("u u~ > a a", np.zeros(shape), device=DEVICE)
    assert str(shape) in str(failure.value) and "(events, 4, 4)" in str(failure.value)
    assert failure.value.status == "HEGETCL_ERR_INPUT"


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128])
def test_a_wrong_dtype_is_an_input_error_naming_it(dtype):
    momenta, _ = mg5_points(2)
    with pytest.raises(hegetcl.InputError, match=np.dtype(dtype).name):
        hegetcl.matrix_element("u u~ > a a", momenta.astype(dtype), device=DEVICE)


@pytest.mark.parametrize("name, why", [
    ("u d~ > a a", "electric charge is not conserved"),
    ("u u~ > a", "fewer than two outgoing particles"),
    ("g g > top t~", "unknown particle 'top'"),
    ("g g t t~", "no '>'"),
    ("", "no '>'")])
def test_an_unknown_process_is_an_input_error(name, why):
    with pytest.raises(hegetcl.InputError, match=why):
        hegetcl.matrix_element(name, np.zeros((1, 4, 4)), device=DEVICE)


def qcd_points(name):
    """MadGraph's points of ../shared/refs/mg5-qcd/NAME: momenta (points, particles, 4), |M|^2."""
    return reference_points(os.path.join(REFS, "..", "mg5-qcd", name))


@pytest.mark.parametrize("text, name", [("g g > t t~ g", "me_gg_ttxg_WT0.txt"),
                                        ("u u~ > d d~ g", "me_uux_ddxg.txt"),
                                        ("u u~ > t t~", "me_uux_ttx.txt"),
                                        ("g g > g g g", "me_gg_ggg.txt")])
def test_a_qcd_process_agrees_with_madgraph(text, name):
    momenta, reference = qcd_points(name)
    me = hegetcl.matrix_element(text, momenta, device=DEVICE)
    np.testing.assert_allclose(me, reference, rtol=1e-12, atol=0)
    particles = momenta.shape[1]
    with pytest.raises(hegetcl.InputError, match=f"needs \\(events, {particles}, 4\\)"):
        hegetcl.matrix_element(text, momenta[:, :-1, :], device=DEVICE)


def test_no_matching_device_is_a_no_device_error_listing_the_devices():
    with pytest.raises(hegetcl.NoDeviceError) as failure:
        hegetcl.matrix_element("u u~ > a a", mg5_points(2)[0], device="no-such-device-xyz")
    assert failure.value.status == "HEGETCL_ERR_NO_DEVICE" and "matches no" in str(failure.value)


def test_helicities_out_of_range_or_of_the_wrong_kind_are_input_errors():
    momenta, _ = mg5_points(2)
    with pytest.raises(hegetcl.InputError, match="0..15"):
        hegetcl.matrix_element("u u~ > a a", momenta, helicities=[0, 1, 2, 16], device=DEVICE)
    with pytest.raises(hegetcl.InputError, match="dtype float64"):
        hegetcl.matrix_element("u u~ > a a", momenta, helicities=np.zeros(4), device=DEVICE)


def test_bad_run_card_keys_carry_the_librarys_message():
    with pytest.raises(hegetcl.InputError, match="pt-min -5: must be > 0"):
        hegetcl.cross_section("u u~ > a a", pt_min=-5, device=DEVICE)
    with pytest.raises(hegetcl.InputError, match="unknown"):
        hegetcl.cross_section("u u~ > a a", no_such_key=1, device=DEVICE)
    with pytest.raises(hegetcl.FileError, match="no-such-pdf-set"):
        hegetcl.cross_section("u u~ > a a", pdf="no-such-pdf-set", device=DEVICE, **SMALL)


def resident_bytes():
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_a_thousand_calls_leave_memory_where_it_was():
    momenta = np.repeat(mg5_points(3)[0], 64, axis=0)
    for _ in range(50):  # warm-up: programs, buffers and numpy's pools settle
        hegetcl.matrix_element("u u~ > a a a", momenta, device=DEVICE)
    before = resident_bytes()
    for _ in range(1000):
        hegetcl.matrix_element("u u~ > a a a", momenta, device=DEVICE)
    grown = resident_bytes() - before
    # 1000 calls of 256 events move ~40 MB through the buffers; a leak of one event's worth per
    # call would show as > 1 MB
    assert grown < 1 << 20, f"resident memory grew by {grown} bytes over 1000 calls"


# p p > t t~ at 14 TeV as MadEvent ran it (CTEQ6L1, MadGraph's alpha_s, mu = 173 GeV, four
# flavours, no cuts), small enough for a few seconds on PoCL
TTBAR = dict(scale=173, alpha_s_running="madgraph", events=60000,
             adapt_events=20000, adapt_iterations=2, min_iterations=2, max_iterations=2,
             target_error=0, seed=11, batch=16384)


@pytest.fixture(scope="module")
def ttbar():
    return hegetcl.cross_section(process="p p > t t~", device=DEVICE, **TTBAR)


def madevent(run_id):
    """MadEvent's recommended sigma and error (pb) of a run in ../shared/refs/mg5-next/xsec.txt."""
    with open(os.path.join(os.environ["HEGETCL_REFS_NEXT_DIR"], "xsec.txt")) as f:
        for line in f:
            words = line.split()
            if words[:1] == [run_id] and "combined" in words:
                at = words.index("combined")
                return float(words[at + 1]), float(words[at + 2])
    raise AssertionError(f"no combined line for {run_id} in xsec.txt")


def test_a_process_run_agrees_with_madevent(ttbar):
    sigma_pb, error_pb = madevent("B1a")  # 603.17 +- 0.30 pb
    pull = (ttbar.sigma_fb / 1e3 - sigma_pb) / math.hypot(ttbar.error_fb / 1e3, error_pb)
    assert abs(pull) < 3, (ttbar.sigma_fb, ttbar.error_fb, sigma_pb, error_pb)
    assert ttbar.error_fb / ttbar.sigma_fb < 0.005
    assert ttbar.process == "p p > t t~" and ttbar.alpha_s_power == 2
    assert ttbar.details["process"]["alpha_s_mu_r"] == pytest.approx(0.1180125, abs=2e-7)
    # the groups (MadGraph's subprocesses) and the partonic channels add up to sigma
    assert [g.text for g in ttbar.groups] == ["g g > t t~", "u u~ > t t~", "d d~ > t t~"]
    assert sum(g.sigma_fb for g in ttbar.groups) == pytest.approx(ttbar.sigma_fb, rel=1e-12)
    assert sum(g.n_channels for g in ttbar.groups) == len(ttbar.process_channels) == 9
    for i, g in enumerate(ttbar.groups):
        members = [c for c in ttbar.process_channels if c.group == i]
        assert len(members) == g.n_channels
        assert sum(c.sigma_fb for c in members) == pytest.approx(g.sigma_fb, rel=1e-9)
    assert ttbar.variations is None and ttbar.channels == []


def test_a_process_run_equals_the_commands_bit_for_bit(ttbar, tmp_path):
    card = tmp_path / "run.yaml"
    card.write_text(ttbar.run_card)
    assert 'process: "p p > t t~"' in ttbar.run_card
    out = tmp_path / "run.json"
    subprocess.run([EXE, "xsec", "--card", str(card), "--device", DEVICE, "--json", str(out),
                    "--quiet", "--checkpoint", "none"], check=True, capture_output=True)
    result = json.loads(out.read_text())["result"]
    assert (ttbar.sigma_fb, ttbar.error_fb) == (result["sigma_fb"], result["error_fb"])
    assert ttbar.events == result["events"]


def test_process_events_carry_variations_with_their_envelope(tmp_path):
    path = tmp_path / "tt.lhe"
    xs = hegetcl.generate_events(process="p p > t t~", n=20, path=path, device=DEVICE,
                                 **dict(TTBAR, events=8000, adapt_events=4000, adapt_iterations=1,
                                        min_iterations=1, max_iterations=1))
    assert xs.unweighted_events == 20
    text = path.read_text()
    assert text.count("<event>") == 20 and "</LesHouchesEvents>" in text
    # written by default with events: the 7-point scale variations and the set's members
    v = xs.variations
    assert v is not None and v.n_scales == 7 and len(v.scales) == 7
    factors = [(s.mu_r_factor, s.mu_f_factor) for s in v.scales]
    assert factors[0] == (1, 1) and set(factors) == {(1, 1), (1, 2), (1, 0.5), (2, 1), (0.5, 1),
                                                     (2, 2), (0.5, 0.5)}
    assert "MUR=2.0 MUF=2.0" in v.names and "MUR=0.5" in [n.strip() for n in v.names]
    assert v.scales[0].sigma_fb == pytest.approx(xs.sigma_fb, rel=1e-12)
    sigmas = [s.sigma_fb for s in v.scales]
    assert (v.scale_min_fb, v.scale_max_fb) == (min(sigmas), max(sigmas))
    # alpha_s^2 falls with mu_R: mu_R x 2 below the nominal, mu_R x 1/2 above
    by_factors = dict(zip(factors, sigmas))
    assert by_factors[(2, 1)] < xs.sigma_fb < by_factors[(0.5, 1)]
    for s in v.variations:
        assert f'<weight id="{s.id}"' in text or f"<weight id='{s.id}'" in text
    # CTEQ6L1 is one member: no PDF variations, no PDF uncertainty
    assert v.pdf_members == [] and (v.pdf_error_type, v.pdf_error_fb) == ("none", 0.0)
    # no scale variations asked for: none
    quiet = hegetcl.cross_section(process="p p > t t~", device=DEVICE,
                                  **dict(TTBAR, events=8000, adapt_events=4000,
                                         adapt_iterations=1, min_iterations=1, max_iterations=1))
    assert quiet.variations is None


def test_close_releases_and_later_calls_rebuild():
    momenta, reference = mg5_points(2)
    hegetcl.close()
    np.testing.assert_allclose(hegetcl.matrix_element("u u~ > a a", momenta, device=DEVICE),
                               reference, rtol=1e-10)


# Every refusal is one of the library's exceptions (hegetcl.Error), never a bare Python one.
@pytest.mark.parametrize("call, kind, words", [
    # a process run: the library's messages, before any integration
    (lambda: hegetcl.cross_section("g g > g g", device=DEVICE), hegetcl.InputError,
     "without a pT cut; give one, e.g. --ptj 20"),
    (lambda: hegetcl.cross_section(process="p p > t t~ x", device=DEVICE), hegetcl.InputError,
     "'x'"),
    (lambda: hegetcl.cross_section(process="p p > t t~", ptj=-5, device=DEVICE),
     hegetcl.InputError, "ptj"),
    (lambda: hegetcl.cross_section(process=3, device=DEVICE), hegetcl.InputError,
     "not a string"),
    (lambda: hegetcl.cross_section(device=DEVICE), hegetcl.InputError, "no process"),
    (lambda: hegetcl.cross_section("u u~ > a a", device=3), hegetcl.InputError, "device = 3"),
    (lambda: hegetcl.generate_events("x.lhe", 0, "u u~ > a a", device=DEVICE),
     hegetcl.InputError, "n_events = 0: give a whole number of events >= 1"),
    (lambda: hegetcl.generate_events("x.lhe", 2.5, "u u~ > a a", device=DEVICE),
     hegetcl.InputError, "n_events = 2.5"),
    (lambda: hegetcl.generate_events(None, 10, "u u~ > a a", device=DEVICE), hegetcl.InputError,
     "path = None"),
    (lambda: hegetcl.generate_events("x.lhe", process="p p > t t~", device=DEVICE),
     hegetcl.InputError, "n_events = None: give a whole number of events"),
    (lambda: hegetcl.generate_events("x.lhe", 5, process="p p > t t~", n=5, device=DEVICE),
     hegetcl.InputError, "with a process, n is the number of events; give it once"),
    (lambda: hegetcl.matrix_element(3, np.zeros((1, 4, 4)), device=DEVICE), hegetcl.InputError,
     "not a string"),
    (lambda: hegetcl.matrix_element("u u~ > a a", [[["x"] * 4] * 4], device=DEVICE),
     hegetcl.InputError, "cannot be read as an array"),
    (lambda: hegetcl.matrix_element("u u~ > a a", mg5_points(2)[0], precision=3, device=DEVICE),
     hegetcl.InputError, "precision = 3"),
    (lambda: hegetcl.matrix_element("u u~ > a a", mg5_points(2)[0], precision="half",
                                    device=DEVICE), hegetcl.InputError, "precision = 'half'"),
    (lambda: hegetcl.matrix_element("u u~ > a a", mg5_points(2)[0], engine="fast",
                                    device=DEVICE), hegetcl.InputError, "engine = 'fast'"),
    (lambda: hegetcl.matrix_element("u u~ > a a", mg5_points(2)[0], alpha="x", device=DEVICE),
     hegetcl.InputError, "alpha = 'x'"),
    (lambda: hegetcl.matrix_element("u u~ > a a", mg5_points(2)[0], helicities=[[0]] * 4,
                                    device=DEVICE), hegetcl.InputError, "helicities has shape")])
def test_every_refusal_is_a_hegetcl_error_naming_the_problem(call, kind, words):
    with pytest.raises(kind, match=words) as failure:
        call()
    assert isinstance(failure.value, hegetcl.Error) and failure.value.status.startswith(
        "HEGETCL_ERR_")


def test_momenta_off_shell_or_not_conserved_are_refused_unless_unchecked():
    momenta, reference = qcd_points("me_gg_ttxg_WT0.txt")
    # a top at zero mass: off its mass shell (173 GeV), named with the particle
    massless = momenta.copy()
    massless[:, 2, 0] = np.sqrt(np.sum(massless[:, 2, 1:] ** 2, axis=1))
    with pytest.raises(hegetcl.InputError, match=r"particle 2 \(t\) is off the mass shell"):
        hegetcl.matrix_element("g g > t t~ g", massless, device=DEVICE)
    # the gluon's momentum scaled by 1.001: on shell still, but not conserved
    unbalanced = momenta.copy()
    unbalanced[:, 4] *= 1.001
    with pytest.raises(hegetcl.InputError, match="momentum not conserved"):
        hegetcl.matrix_element("g g > t t~ g", unbalanced, device=DEVICE)
    with pytest.raises(hegetcl.InputError, match="energy .* is not positive"):
        hegetcl.matrix_element("g g > t t~ g", -momenta, device=DEVICE)
    # check=False evaluates whatever it is given (the caller vouches for the momenta)
    me = hegetcl.matrix_element("g g > t t~ g", unbalanced, device=DEVICE, check=False)
    assert me.shape == reference.shape and np.all(np.isfinite(me))
    np.testing.assert_allclose(hegetcl.matrix_element("g g > t t~ g", momenta, device=DEVICE,
                                                      check=False), reference, rtol=1e-12)


def test_the_chi2_probability_is_the_closed_forms():
    from hegetcl import _core
    cases = [(3.0, 3, np.exp(-3.0)),  # 2 degrees of freedom: exp(-chi2 / 2)
             (1.5, 2, math.erfc(math.sqrt(0.75))),  # 1: erfc(sqrt(chi2 / 2))
             (2.0, 4, math.erfc(math.sqrt(3.0)) + math.sqrt(12.0 / math.pi) * math.exp(-3.0)),
             (1.0, 5, np.exp(-2.0) * (1 + 2.0)),  # 4: exp(-x)(1 + x), x = chi2 / 2
             (0.0, 3, 1.0), (5.0, 1, 1.0)]  # one iteration: no test, probability 1
    for chi2_per_dof, iterations, expected in cases:
        assert _core.chi2_probability(chi2_per_dof, iterations) == pytest.approx(expected,
                                                                                 rel=1e-12)


@pytest.mark.parametrize("keys, trusted", [
    # three photons, iterations of 3000 events: iterations that agree (chi2/dof 0.42)
    (dict(process="u u~ > a a a", events=3000, batch=4096, min_iterations=6), True),
    # four photons, iterations of 1000 events without grid training: each iteration misses the
    # weight's peaks its own way, and their errors do not say so (chi2/dof 4.4 over 3 iterations,
    # a 1 % chance: flagged; 10 such iterations, chi2/dof 6.8, stop the run as unreliable)
    (dict(process="u u~ > a a a a", events=1000, batch=1024, min_iterations=3, helicity="sampled",
          phase_space="collider"), False)])
def test_an_untrustworthy_error_is_flagged_with_what_to_do(keys, trusted):
    keys = dict(keys, adapt_iterations=0, max_iterations=keys["min_iterations"], seed=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        xs = hegetcl.cross_section(keys.pop("process"), device=DEVICE, **keys)
    assert xs.chi2_probability == pytest.approx(hegetcl._core.chi2_probability(
        xs.chi2_per_dof, xs.iterations), rel=1e-15)
    assert xs.error_trustworthy == trusted == (xs.chi2_probability >= 0.05)
    flagged = [w for w in caught if issubclass(w.category, hegetcl.UntrustworthyErrorWarning)]
    assert bool(flagged) == (not trusted)
    for w in flagged:
        assert "not to be trusted" in str(w.message) and "more events= per iteration" in str(
            w.message)
