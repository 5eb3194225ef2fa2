#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hegetcl's unweighted u ubar -> n photon events (LHE 3.0) against the run's weighted histograms.

usage: check_events.py EVENTS.lhe[.gz] HISTOGRAMS.yoda[.gz] --events N --photons n
           --pt-min 20 --eta-max 2.5 --dr-min 0.4 --sqrt-s 14000
           --sigma-fb S --sigma-error-fb E [--tolerance 1e-9]

HISTOGRAMS may also be hegetcl's CSV (.csv[.gz]); both are read by plot/hegetcl_plot.py.

Reads the events with pylhe (the reference reader of the format) and prints TAP, one line per
property, exit status 0 when every line is ok, 1 otherwise (2 for a bad command line):

  1  the file parses as a Les Houches Event File version 3.0 (pylhe, parse errors made fatal)
  2  its <header> holds a non-empty <hegetcl_run_card>
  3  <init>: two 2212 beams of sqrt(s)/2, one process, XSECUP = S and XERRUP = E (fb -> pb)
  4  the file holds exactly N events
  5  every event: NUP = n + 2, IDPRUP = the process's LPRUP; particles 1 and 2 are u (2) and
     ubar (-2) in either order with ISTUP -1 and MOTHUP 0 0; particles 3 .. n + 2 are photons
     (IDUP 22) with ISTUP 1 and MOTHUP 1 2
  6  colour flow: ICOLUP of the quark (c, 0), of the antiquark (0, c), c > 0 (501 by custom), of
     the photons (0, 0)
  7  incoming partons along the beam axis (|px|, |py|, |E - |pz|| <= tol E), in opposite
     directions, 0 < E <= sqrt(s)/2
  8  momentum conservation: every component of p1 + p2 - sum of photons within tol sqrt(s-hat)
  9  massless photons: |E^2 - p^2| / E^2 < tol, and the same for the mass column m
  10 every photon passes the cuts: pT > pt_min, |eta| < eta_max, Delta R > dr_min for every
     pair (Delta phi wrapped into [-pi, pi]); each bound is relaxed by tol (relative) so that a
     value rounded on output at the boundary still passes
  11 every XWGTUP equals XSECUP / N (unweighted events)
  12 the sum of XWGTUP equals XSECUP
  13-16  pt_1, eta_1, dr_min, m_photons of the events agree with the weighted histograms:
     expected count per bin mu = N sumw / S, variance mu + (N sqrt(sumw2) / S)^2 (Poisson plus
     the histogram's own Monte Carlo error, taken as independent between bins, which slightly
     overstates it: the bins sum to the cross section), chi^2 over the bins (underflow and
     overflow included) with mu >= 10; ok when the chi^2 p-value > 1e-3. ndf = k - P for k bins
     used that expect the fraction P of the events (the counts sum to N: k - 1 when all are
     used, as is usual). Fewer than two usable bins: "ok N # SKIP" with the reason (too few
     events for a shape test).

tol (--tolerance, default 1e-9) is the relative bound of 3, 7 to 12: LHE numbers are decimal text,
so a writer that prints 17 significant digits of a double computation meets 1e-9 with room to
spare, while one printing 7 digits or momenta computed in float does not (float momenta need
about 1e-5: pass it explicitly and say why). N in 11 is the number of events read, in 13-16 the
number that passed 5 (the others cannot be histogrammed). Observables come from
plot/hegetcl_observables.py, the histogram reader from plot/hegetcl_plot.py. A failing line
names the first failing events with both numbers and their ratio; '#' lines below it add the
worst bins of a chi^2.
"""
import argparse
import array
import math
import os
import sys
import warnings

CHI2_NAMES = ("pt_1", "eta_1", "dr_min", "m_photons")
MIN_EXPECTED = 10.0  # bins with fewer expected events are left out of the chi^2 (not Gaussian)
P_VALUE_MIN = 1e-3
CHUNK = 20000  # events per vectorised batch: bounded memory for any N
EXAMPLES = 3  # failing events quoted per check

CHECKS = [
    ("parse", "the events file parses as a Les Houches Event File version 3.0"),
    ("run_card", "the header holds the run card (<hegetcl_run_card>)"),
    ("init", "<init>: 2212 2212 beams of sqrt(s)/2, one process, XSECUP and XERRUP equal the "
             "cross section and its error"),
    ("count", "the file holds exactly N events"),
    ("structure", "every event has u and ubar incoming (ISTUP -1) and n photons (ISTUP 1, "
                  "MOTHUP 1 2)"),
    ("colour", "colour flows from the quark (c, 0) to the antiquark (0, c); photons (0, 0)"),
    ("beams", "incoming partons lie along the beam axis, opposite, with 0 < E <= sqrt(s)/2"),
    ("momentum", "momentum is conserved in every event (to tol sqrt(s-hat))"),
    ("massless", "photons are massless (|m^2| / E^2 < tol, momenta and mass column)"),
    ("cuts", "every photon passes the cuts (pT, |eta|, Delta R of every pair)"),
    ("weight_each", "every event weight XWGTUP equals XSECUP / N"),
    ("weight_sum", "the event weights sum to XSECUP"),
] + [(f"chi2_{name}", f"{name} of the unweighted events agrees with the weighted histogram")
     for name in CHI2_NAMES]


class Failures:
    """Events failing one check: how many, and the first few described."""

    def __init__(self):
        self.count = 0
        self.examples = []

    def add(self, event, message):
        self.count += 1
        if len(self.examples) < EXAMPLES:
            self.examples.append(f"event {event}: {message}")

    def result(self, checked):
        """(passed, detail) for a check run on `checked` events."""
        if self.count == 0:
            return True, f"{checked} events"
        return False, f"{self.count} of {checked} events fail; " + "; ".join(self.examples)


def relative_difference(a, b):
    """|a - b| / max(|a|, |b|), 0 when both are 0."""
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale > 0 else 0.0


def chi2_survival(chi2, ndf):
    """P(X > chi2) for a chi^2 variable with ndf degrees of freedom: the regularized upper
    incomplete gamma function Q(ndf / 2, chi2 / 2), by its series below a + 1 and its continued
    fraction (modified Lentz) above (Numerical Recipes, section 6.2)."""
    a, x = 0.5 * ndf, 0.5 * chi2
    if x <= 0:
        return 1.0
    log_prefactor = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        denominator = a
        for _ in range(10000):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_prefactor) * h


def check_chunk(np, obs, chunk, args, state):
    """Vectorised kinematic checks of a batch of structurally valid events; fills the counts."""
    tol = args.tolerance
    events = np.array(chunk["event"])
    incoming = np.array(chunk["incoming"])  # (events, 2, 4): px py pz E
    photons = np.array(chunk["photons"])  # (events, n, 4)
    mass_column = np.array(chunk["mass"])  # (events, n)
    for key in chunk:
        chunk[key].clear()
    finite = (np.isfinite(incoming).all(axis=(1, 2)) & np.isfinite(photons).all(axis=(1, 2))
              & np.isfinite(mass_column).all(axis=1))
    for i in np.flatnonzero(~finite):
        state["momentum"].add(events[i], "a momentum or mass is not finite")
    state["non_finite"] += int((~finite).sum())
    events, incoming, photons, mass_column = (a[finite] for a in (events, incoming, photons,
                                                                  mass_column))

    px, py, pz, energy = (incoming[:, :, c] for c in range(4))
    half_sqrt_s = 0.5 * args.sqrt_s
    beam_bad = ((np.abs(px) > tol * energy) | (np.abs(py) > tol * energy)
                | (np.abs(energy - np.abs(pz)) > tol * energy) | (energy <= 0)
                | (energy > half_sqrt_s * (1 + tol))).any(axis=1) | (pz[:, 0] * pz[:, 1] >= 0)
    for i in np.flatnonzero(beam_bad):
        first, second = (tuple(incoming[i, j].tolist()) for j in (0, 1))
        state["beams"].add(events[i], f"incoming (px, py, pz, E) = {first}, {second} GeV "
                           f"(sqrt(s)/2 = {half_sqrt_s:g} GeV)")

    p_in = incoming.sum(axis=1)
    p_out = photons.sum(axis=1)
    s_hat = p_in[:, 3] ** 2 - p_in[:, 0] ** 2 - p_in[:, 1] ** 2 - p_in[:, 2] ** 2
    sqrt_s_hat = np.sqrt(np.maximum(s_hat, 0.0))
    residual = np.abs(p_in - p_out).max(axis=1)
    for i in np.flatnonzero(~(residual <= tol * sqrt_s_hat)):
        ratio = residual[i] / sqrt_s_hat[i] if sqrt_s_hat[i] > 0 else math.inf
        state["momentum"].add(events[i], f"max |p_in - p_out| = {residual[i]:.3e} GeV, "
                              f"sqrt(s-hat) = {sqrt_s_hat[i]:.6g} GeV, ratio {ratio:.3e} > {tol:g}")

    e_photon = photons[:, :, 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        m2_ratio = np.abs(e_photon ** 2 - (photons[:, :, :3] ** 2).sum(axis=2)) / e_photon ** 2
        column_ratio = mass_column ** 2 / e_photon ** 2
    bad = ~((m2_ratio < tol) & (column_ratio < tol) & (e_photon > 0))
    for i in np.flatnonzero(bad.any(axis=1)):
        k = int(np.flatnonzero(bad[i])[0])
        state["massless"].add(events[i], f"photon {k + 3}: |m^2| / E^2 = {m2_ratio[i, k]:.3e} "
                              f"from the momenta, m^2 / E^2 = {column_ratio[i, k]:.3e} from the "
                              f"mass column, E = {e_photon[i, k]:.6g} GeV")

    values = obs.photon_observables(photons)
    pt = np.hypot(photons[:, :, 0], photons[:, :, 1])
    eta = np.arcsinh(np.divide(photons[:, :, 2], pt, out=np.full_like(pt, np.inf), where=pt > 0))
    dr_min = values["dr_min"][:, 0]
    pt_bad = ~(pt > args.pt_min * (1 - tol))
    eta_bad = ~(np.abs(eta) < args.eta_max * (1 + tol))
    dr_bad = ~(dr_min > args.dr_min * (1 - tol))
    for i in np.flatnonzero(pt_bad.any(axis=1) | eta_bad.any(axis=1) | dr_bad):
        reasons = []
        for k in np.flatnonzero(pt_bad[i]):
            reasons.append(f"photon {k + 3} pT = {float(pt[i, k])!r} GeV (ratio to the cut "
                           f"{pt[i, k] / args.pt_min:.12g})")
        for k in np.flatnonzero(eta_bad[i]):
            reasons.append(f"photon {k + 3} |eta| = {float(abs(eta[i, k]))!r} (ratio to the cut "
                           f"{abs(eta[i, k]) / args.eta_max:.12g})")
        if dr_bad[i]:
            reasons.append(f"smallest Delta R = {float(dr_min[i])!r} (ratio to the cut "
                           f"{dr_min[i] / args.dr_min:.12g})")
        state["cuts"].add(events[i], ", ".join(reasons))

    for name, counts in state["counts"].items():
        index = obs.bin_index(values[name][:, 0], state["edges"][name])
        counts += np.bincount(index, minlength=len(counts))
    state["kinematic_events"] += len(events)


def read_events(pylhe, np, obs, args, results, state):
    """Reads the events once, checking 1 to 10 and gathering what 11 to 16 need."""
    n = args.photons
    chunk = {"event": [], "incoming": [], "photons": [], "mass": []}
    for key in ("structure", "colour", "beams", "momentum", "massless", "cuts"):
        state[key] = Failures()
    read = 0
    parse_error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # pylhe reports an XML error as a warning and stops
        try:
            lhe = pylhe.LHEFile.fromfile(args.events_file)
        except Exception as error:  # a missing file, no <init>, ...: nothing else can be checked
            why = [str(w.message) for w in caught if str(w.message).startswith("Parse Error")]
            results["parse"] = (False, f"{args.events_file}: {type(error).__name__}: {error}"
                                + "".join(f" ({w})" for w in why))
            return None
        lprup = lhe.init.procInfo[0].procId if lhe.init.procInfo else None
        events = iter(lhe.events)
        while True:
            try:
                event = next(events)
            except StopIteration:
                break
            except Exception as error:  # pylhe's ValueError, IndexError on malformed event text
                parse_error = f"event {read + 1}: {type(error).__name__}: {error}"
                break
            read += 1
            check_event_structure(event, read, n, lprup, state, chunk)
            if len(chunk["event"]) >= CHUNK:
                check_chunk(np, obs, chunk, args, state)
        if chunk["event"]:
            check_chunk(np, obs, chunk, args, state)
    for warning in caught:
        if parse_error is None and str(warning.message).startswith("Parse Error"):
            parse_error = f"after event {read}: {warning.message}"
    state["read"] = read
    if parse_error:
        results["parse"] = (False, f"{args.events_file}: {parse_error}")
    elif lhe.version != "3.0":
        results["parse"] = (False, f'<LesHouchesEvents version="{lhe.version}">: expected 3.0')
    else:
        results["parse"] = (True, f"{read} events")
    for key in ("structure", "colour", "beams", "momentum", "massless", "cuts"):
        checked = {"structure": read, "colour": read - state["structure"].count,
                   "momentum": state["kinematic_events"] + state["non_finite"]}
        results[key] = state[key].result(checked.get(key, state["kinematic_events"]))
    return lhe


def check_event_structure(event, number, n, lprup, state, chunk):
    """Checks 5 and 6 of one event; queues a valid event for the vectorised checks."""
    particles = event.particles
    info = event.eventinfo
    state["weights"].append(info.weight)  # every event's, valid or not
    problems = []
    if info.nparticles != n + 2 or len(particles) != n + 2:
        problems.append(f"NUP = {info.nparticles} with {len(particles)} particle lines, "
                        f"expected {n + 2}")
    if lprup is not None and info.pid != lprup:
        problems.append(f"IDPRUP = {info.pid}, the process is LPRUP = {lprup}")
    if len(particles) >= 2:
        ids = sorted((particles[0].id, particles[1].id))
        if ids != [-2, 2]:
            problems.append(f"incoming IDUP {particles[0].id}, {particles[1].id}: expected 2 "
                            "and -2")
        for i in (0, 1):
            p = particles[i]
            if p.status != -1 or p.mother1 != 0 or p.mother2 != 0:
                problems.append(f"particle {i + 1}: ISTUP {p.status}, MOTHUP {p.mother1} "
                                f"{p.mother2}: expected -1, 0 0")
    for i, p in enumerate(particles[2:], 3):
        if p.id != 22 or p.status != 1 or p.mother1 != 1 or p.mother2 != 2:
            problems.append(f"particle {i}: IDUP {p.id}, ISTUP {p.status}, MOTHUP {p.mother1} "
                            f"{p.mother2}: expected 22, 1, 1 2")
    if problems:
        state["structure"].add(number, "; ".join(problems[:3]))
        return

    quark, antiquark = (particles[0], particles[1]) if particles[0].id == 2 else \
        (particles[1], particles[0])
    photon_colours = [(p.color1, p.color2) for p in particles[2:] if (p.color1, p.color2) != (0, 0)]
    if (quark.color1 <= 0 or quark.color2 != 0 or antiquark.color1 != 0
            or antiquark.color2 != quark.color1 or photon_colours):
        state["colour"].add(number, f"ICOLUP u ({quark.color1}, {quark.color2}), ubar "
                            f"({antiquark.color1}, {antiquark.color2})"
                            + (f", a photon {photon_colours[0]}" if photon_colours else "")
                            + ": expected (c, 0), (0, c), photons (0, 0)")
    chunk["event"].append(number)
    chunk["incoming"].append([(p.px, p.py, p.pz, p.e) for p in particles[:2]])
    chunk["photons"].append([(p.px, p.py, p.pz, p.e) for p in particles[2:]])
    chunk["mass"].append([p.m for p in particles[2:]])


def check_header_and_init(lhe, args, results):
    """Checks 2 and 3 from the header and <init> pylhe read."""
    tol = args.tolerance
    cards = [] if lhe.header is None else [
        e for e in lhe.header.extra_elements if e.tag == "hegetcl_run_card"]
    if not cards:
        results["run_card"] = (False, "no <hegetcl_run_card> element in <header>"
                               + (" (no <header> at all)" if lhe.header is None else ""))
    elif not (cards[0].text or "").strip():
        results["run_card"] = (False, "<hegetcl_run_card> is empty")
    else:
        results["run_card"] = (True, f"{len(cards[0].text.strip().splitlines())} lines")

    init, problems = lhe.init.initInfo, []
    if (init.beamA, init.beamB) != (2212, 2212):
        problems.append(f"IDBMUP {init.beamA} {init.beamB}: expected 2212 2212")
    for energy in (init.energyA, init.energyB):
        if relative_difference(energy, 0.5 * args.sqrt_s) > tol:
            problems.append(f"EBMUP {energy!r} GeV: expected sqrt(s)/2 = {0.5 * args.sqrt_s!r}")
    processes = lhe.init.procInfo
    if init.numProcesses != 1 or len(processes) != 1:
        problems.append(f"NPRUP {init.numProcesses} with {len(processes)} process lines: "
                        "expected 1")
    if processes:
        for what, value, expected in (("XSECUP", processes[0].xSection, args.sigma_fb / 1000),
                                      ("XERRUP", processes[0].error, args.sigma_error_fb / 1000)):
            if relative_difference(value, expected) > tol:
                problems.append(f"{what} = {value!r} pb, expected {expected!r} pb, ratio "
                                f"{value / expected if expected else math.inf:.12g}")
    results["init"] = (not problems, "; ".join(problems) if problems else
                       f"XSECUP = {processes[0].xSection!r} pb")


def check_weights(args, results, state, xsecup):
    """Checks 4, 11 and 12: event count, each weight and their sum against XSECUP."""
    read = state["read"]
    results["count"] = (read == args.events, f"{read} events, expected {args.events}")
    if xsecup is None or read == 0:
        reason = "no process line in <init>" if xsecup is None else "no events"
        results["weight_each"] = (False, f"not checked: {reason}")
        results["weight_sum"] = (False, f"not checked: {reason}")
        return
    tol = args.tolerance
    weights = state["weights"]
    per_event = xsecup / read
    worst = max(range(read), key=lambda i: abs(weights[i] - per_event))
    ok = relative_difference(weights[worst], per_event) <= tol
    results["weight_each"] = (
        ok, f"XWGTUP in [{min(weights)!r}, {max(weights)!r}] pb, XSECUP / N = {per_event!r} pb"
            + ("" if ok else f"; event {worst + 1}: {weights[worst]!r} pb, ratio "
                             f"{weights[worst] / per_event:.12g}"))
    total = math.fsum(state["weights"])
    ok = relative_difference(total, xsecup) <= tol
    results["weight_sum"] = (ok, f"sum {total!r} pb, XSECUP {xsecup!r} pb, ratio "
                                 f"{total / xsecup if xsecup else math.inf:.12g}")


def chi2_test(np, observed, sumw, sumw2, n_events, sigma):
    """(chi2, ndf, p-value, used, expected, variance) of event counts against a weighted
    histogram (bins + 2 arrays); ndf is None when fewer than two bins expect >= MIN_EXPECTED."""
    expected = n_events * sumw / sigma
    variance = expected + (n_events * np.sqrt(sumw2) / sigma) ** 2
    used = expected >= MIN_EXPECTED
    k = int(used.sum())
    if k < 2:
        return None, None, None, used, expected, variance
    chi2 = float(((observed[used] - expected[used]) ** 2 / variance[used]).sum())
    # The counts are multinomial (they sum to N): over the bins used, the Pearson chi^2 is
    # chi^2(k - 1) plus (1 - P) chi^2(1), P the fraction of events they expect; its mean k - P
    # serves as the (fractional) number of degrees of freedom.
    ndf = k - min(1.0, float(expected[used].sum()) / n_events)
    return chi2, ndf, chi2_survival(chi2, ndf), used, expected, variance


def check_distributions(np, args, results, state, notes):
    """Checks 13 to 16: chi^2 of the event counts against the weighted histograms."""
    n_events = state["kinematic_events"]
    sigma = args.sigma_fb
    for name in CHI2_NAMES:
        key = f"chi2_{name}"
        if key in results:  # the histogram was not available
            continue
        if n_events == 0:
            results[key] = (False, f"not checked: no valid events ({state['read']} read, see 4 "
                                   "and 5)")
            continue
        histogram = state["histograms"][name]
        observed = state["counts"][name]
        chi2, ndf, p_value, used, expected, variance = chi2_test(
            np, observed, histogram.sumw, histogram.sumw2, n_events, sigma)
        k = int(used.sum())
        if ndf is None:
            results[key] = (None, f"only {k} bins expect >= {MIN_EXPECTED:g} of the "
                                  f"{n_events} events: too few events for a shape test")
            continue
        results[key] = (p_value > P_VALUE_MIN,
                        f"chi2/ndf = {chi2:.1f}/{ndf:.1f}, p = {p_value:.3g} over {k} bins of "
                        f"{len(used)} with >= {MIN_EXPECTED:g} expected of {n_events} events")
        edges = histogram.edges
        labels = ["underflow"] + [f"[{edges[i]:g}, {edges[i + 1]:g})" for i in
                                  range(len(edges) - 1)] + ["overflow"]
        pulls = (observed - expected) / np.sqrt(np.where(variance > 0, variance, 1.0))
        worst = np.flatnonzero(used)[np.argsort(-np.abs(pulls[used]))[:3]]
        notes[key] = [f"{name} bin {labels[b]}: observed {observed[b]:.0f}, expected "
                      f"{expected[b]:.1f} +- {math.sqrt(variance[b]):.1f}, pull {pulls[b]:+.2f}"
                      for b in worst]
        mirrored = np.allclose(edges, -edges[::-1], rtol=0, atol=1e-9 * (edges[-1] - edges[0]))
        if name.startswith("eta_") and p_value <= P_VALUE_MIN and mirrored:
            # A symmetric collider (quark from either proton) has eta -> -eta symmetric
            # distributions; a histogram filled in one orientation only is not.
            m_chi2, m_ndf, m_p, *_ = chi2_test(
                np, observed, 0.5 * (histogram.sumw + histogram.sumw[::-1]),
                0.25 * (histogram.sumw2 + histogram.sumw2[::-1]), n_events, sigma)
            inner = histogram.sumw[1:-1]
            half = len(inner) // 2
            notes[key].append(
                f"{name}: the histogram has sigma(eta > 0) / sigma(eta < 0) = "
                f"{inner[len(inner) - half:].sum() / inner[:half].sum():.4f}; averaged with its "
                f"mirror image it gives chi2/ndf = {m_chi2:.1f}/{m_ndf:.1f}, p = {m_p:.3g}: if "
                "that agrees, the histogram was filled in one beam orientation while the events "
                "take the quark from either proton")
        total = histogram.sumw.sum()
        notes[key].append(f"{name}: the histogram's integral {total:.10g} fb over the cross "
                          f"section {sigma:.10g} fb = {total / sigma:.8f}")


def load_histograms(np, reader, args, results, state):
    """The four histograms of the chi^2 tests from the YODA file; their edges for the counts."""
    state["histograms"], state["edges"], state["counts"] = {}, {}, {}
    try:
        histograms, _ = reader.read_histogram_file(args.histograms_file)
    except reader.InputError as error:
        for name in CHI2_NAMES:
            results[f"chi2_{name}"] = (False, f"not checked: {error}")
        return
    for name in CHI2_NAMES:
        if name not in histograms:
            results[f"chi2_{name}"] = (False, f"{args.histograms_file} has no histogram {name}")
            continue
        state["histograms"][name] = histograms[name]
        state["edges"][name] = histograms[name].edges
        state["counts"][name] = np.zeros(len(histograms[name].sumw))


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.split("\n")[2:]))
    parser.add_argument("events_file", metavar="EVENTS.lhe[.gz]")
    parser.add_argument("histograms_file", metavar="HISTOGRAMS.yoda")
    parser.add_argument("--events", type=int, required=True, metavar="N")
    parser.add_argument("--photons", type=int, required=True, metavar="n")
    parser.add_argument("--pt-min", type=float, required=True, metavar="GEV")
    parser.add_argument("--eta-max", type=float, required=True)
    parser.add_argument("--dr-min", type=float, required=True)
    parser.add_argument("--sqrt-s", type=float, required=True, metavar="GEV")
    parser.add_argument("--sigma-fb", type=float, required=True, metavar="S")
    parser.add_argument("--sigma-error-fb", type=float, required=True, metavar="E")
    parser.add_argument("--tolerance", type=float, default=1e-9)
    args = parser.parse_args(argv)
    if args.photons < 2:
        parser.error(f"--photons {args.photons}: u ubar -> photons needs at least 2")
    if args.events < 0 or not args.sigma_fb > 0 or args.sigma_error_fb < 0 or args.sqrt_s <= 0:
        parser.error("--events must be >= 0, --sigma-fb > 0, --sigma-error-fb >= 0, --sqrt-s > 0")
    return args


def main(argv=None):
    args = parse_arguments(argv)
    plot_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plot")
    sys.path.insert(0, os.path.normpath(plot_dir))
    try:
        import numpy as np
        import pylhe

        import hegetcl_observables as obs
        import hegetcl_plot as reader
    except ImportError as error:
        print("1..1")
        print(f"not ok 1 - pylhe, numpy and plot/hegetcl_observables.py can be imported "
              f"({error}): pip install pylhe numpy")
        return 1

    results, notes = {}, {}
    state = {"kinematic_events": 0, "non_finite": 0, "weights": array.array("d"), "read": 0}
    load_histograms(np, reader, args, results, state)
    lhe = read_events(pylhe, np, obs, args, results, state)
    if lhe is not None:
        check_header_and_init(lhe, args, results)
        xsecup = lhe.init.procInfo[0].xSection if lhe.init.procInfo else None
        check_weights(args, results, state, xsecup)
        check_distributions(np, args, results, state, notes)

    print(f"1..{len(CHECKS)}")
    print(f"# {args.events_file} against {args.histograms_file}: n = {args.photons}, "
          f"sigma = {args.sigma_fb!r} +- {args.sigma_error_fb!r} fb, tol = {args.tolerance:g}")
    failed = 0
    for number, (key, description) in enumerate(CHECKS, 1):
        passed, detail = results.get(key, (False, "not checked: the events file could not be "
                                                  "read (see 1)"))
        if passed is None:  # skipped; cmocka's form "ok N # SKIP", which summary.sh counts
            print(f"ok {number} # SKIP {description}: {detail}")
            continue
        failed += not passed
        print(f"{'ok' if passed else 'not ok'} {number} - {description} ({detail})")
        for note in notes.get(key, []) if not passed else notes.get(key, [])[-1:]:
            print(f"# {note}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
