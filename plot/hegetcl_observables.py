# SPDX-License-Identifier: MIT
"""The photon observables hegetcl histograms, computed from event momenta, and their binning.

One definition shared by hegetcl_plot.py (histograms of unweighted LHE events) and
tests/events/check_events.py (those against the generator's weighted histograms), so that both
fill exactly what host/ fills:

  pt_k       pT of the photon ranked k in pT (pt_1 the largest), GeV
  eta_k      pseudorapidity of that same photon (ranked by pT, not by eta)
  dr_min     the smallest Delta R over the photon pairs
  dr_pairs   Delta R of every photon pair: n (n - 1) / 2 values per event
  m_photons  invariant mass of the photon system, GeV

with Delta R = sqrt(Delta eta^2 + Delta phi^2), Delta phi wrapped into [-pi, pi].

Momenta are numpy arrays of shape (events, photons, 4) holding (px, py, pz, E) in GeV, the order of
a Les Houches particle line. Binning follows include/hegetcl/histogram.h: bins [edge_i, edge_i+1),
an underflow (x < first edge) and an overflow (x >= last edge) bin; arrays of bin contents have
bins + 2 entries, [0] the underflow and [-1] the overflow.
"""
import re

import numpy as np

_RANKED = re.compile(r"^(pt|eta)_([1-9][0-9]*)$")


def is_known(name):
    """True for the names photon_observables can give, for some number of photons."""
    return name in ("dr_min", "dr_pairs", "m_photons") or _RANKED.match(name) is not None


def photons_needed(name):
    """The fewest photons an event needs for the observable `name` (pt_3 needs 3)."""
    ranked = _RANKED.match(name)
    if ranked:
        return int(ranked.group(2))
    return 2  # dr_min, dr_pairs (a pair) and m_photons (a photon system with a mass)


def photon_observables(momenta):
    """Every observable of the events' photons: a dict name -> array of shape (events, fills).

    momenta: (events, n, 4) array of (px, py, pz, E) in GeV, n >= 2. fills is 1 except for dr_pairs
    (n (n - 1) / 2). Photons with pT = 0 have eta = +-inf (they cannot pass any eta cut).
    """
    momenta = np.asarray(momenta, dtype=float)
    if momenta.ndim != 3 or momenta.shape[2] != 4 or momenta.shape[1] < 2:
        raise ValueError(f"momenta must have shape (events, n >= 2, 4), not {momenta.shape}")
    n = momenta.shape[1]
    px, py, pz, energy = (momenta[:, :, c] for c in range(4))
    pt = np.hypot(px, py)
    with np.errstate(divide="ignore"):
        eta = np.arcsinh(np.divide(pz, pt, out=np.copysign(np.full_like(pz, np.inf), pz),
                                   where=pt > 0))
    phi = np.arctan2(py, px)

    # Rank by pT, largest first; a stable sort keeps equal pT in particle order.
    order = np.argsort(-pt, axis=1, kind="stable")
    pt_ranked = np.take_along_axis(pt, order, axis=1)
    eta_ranked = np.take_along_axis(eta, order, axis=1)

    first, second = np.triu_indices(n, k=1)
    delta_eta = eta[:, first] - eta[:, second]
    delta_phi = wrap_phi(phi[:, first] - phi[:, second])
    dr_pairs = np.hypot(delta_eta, delta_phi)

    total = momenta.sum(axis=1)
    m2 = total[:, 3] ** 2 - total[:, 0] ** 2 - total[:, 1] ** 2 - total[:, 2] ** 2
    # m^2 < 0 only by rounding (a sum of massless momenta has m^2 >= 0): count it as m = 0.
    m_photons = np.sqrt(np.maximum(m2, 0.0))

    result = {}
    for k in range(n):
        result[f"pt_{k + 1}"] = pt_ranked[:, k:k + 1]
        result[f"eta_{k + 1}"] = eta_ranked[:, k:k + 1]
    result["dr_min"] = dr_pairs.min(axis=1, keepdims=True)
    result["dr_pairs"] = dr_pairs
    result["m_photons"] = m_photons[:, None]
    return result


def wrap_phi(delta_phi):
    """An azimuthal difference wrapped into [-pi, pi]."""
    return (np.asarray(delta_phi) + np.pi) % (2.0 * np.pi) - np.pi


def bin_index(values, edges):
    """Index in a bins + 2 array of each value: 0 underflow, 1 .. bins the bins, bins + 1 overflow.

    NaN raises ValueError: a NaN observable is a bug upstream, not an overflow.
    """
    values = np.asarray(values, dtype=float)
    if np.isnan(values).any():
        raise ValueError("an observable is NaN")
    # searchsorted(side="right") counts the edges <= x: 0 below the first edge (underflow),
    # len(edges) at or above the last one (overflow), i + 1 in [edge_i, edge_i+1).
    return np.searchsorted(np.asarray(edges, dtype=float), values, side="right")


def fill(values, weights, edges):
    """Histogram of values (events, fills) with one weight per event.

    Returns sumw, sumw2, sumwx, sumwx2, entries (the columns of histogram.h), each an array of
    len(edges) + 1 (underflow, bins, overflow): sumw2 the sum of squared weights (the statistical
    variance of sumw), sumwx and sumwx2 the sums of w x and w x^2, entries the number of fills.
    """
    values = np.asarray(values, dtype=float)
    weights = np.broadcast_to(np.asarray(weights, dtype=float)[:, None], values.shape).ravel()
    index = bin_index(values, edges).ravel()
    x = values.ravel()
    size = len(edges) + 1
    sumw = np.bincount(index, weights=weights, minlength=size)
    sumw2 = np.bincount(index, weights=weights ** 2, minlength=size)
    # x is +-inf only for pT = 0 eta, which lands in the underflow or overflow: keep sums finite.
    finite_x = np.where(np.isfinite(x), x, 0.0)
    sumwx = np.bincount(index, weights=weights * finite_x, minlength=size)
    sumwx2 = np.bincount(index, weights=weights * finite_x ** 2, minlength=size)
    entries = np.bincount(index, minlength=size).astype(float)
    return sumw, sumw2, sumwx, sumwx2, entries
