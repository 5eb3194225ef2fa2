#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Example: hegetcl from Python, notebook style, checking its own numbers.

1. |M|^2 of u u~ -> a a for numpy momenta over the scattering angle, against the analytic
   (eQ)^4/3 (t/u + u/t).
2. |M|^2 of u u~ -> a a a at 1000 random massless points (RAMBO in numpy), checked against
   the photons' symmetry: permuting them leaves |M|^2 unchanged.
3. sigma(p p -> a a) with VEGAS and 2000 unweighted events to a Les Houches file; read back
   with pylhe, the photons' pT plotted with mplhep (photons_pt.png), the file's <init> sigma
   checked against the call's.

usage: python3 examples/photons.py [OUTPUT_FOLDER]   (default out/; made if missing;
       HEGETCL_DEVICE picks the device, default auto)
"""
import os
import sys

import numpy as np

import hegetcl

out_dir = sys.argv[1] if len(sys.argv) > 1 else "out"
os.makedirs(out_dir, exist_ok=True)
device = os.environ.get("HEGETCL_DEVICE") or None
failures = []


def check(ok, what):
    print(f"{'ok' if ok else 'FAILED'}: {what}")
    if not ok:
        failures.append(what)


# 1. u u~ -> a a at sqrt(s) = 500 GeV over cos(theta)
energy = 250.0
cos_theta = np.linspace(-0.95, 0.95, 39)
sin_theta = np.sqrt(1 - cos_theta**2)
momenta = np.zeros((len(cos_theta), 4, 4))  # (events, particles, (E, px, py, pz))
momenta[:, 0] = [energy, 0, 0, energy]
momenta[:, 1] = [energy, 0, 0, -energy]
momenta[:, 2, 0], momenta[:, 2, 1], momenta[:, 2, 3] = energy, energy * sin_theta, energy * cos_theta
momenta[:, 3, 0], momenta[:, 3, 1], momenta[:, 3, 3] = energy, -energy * sin_theta, -energy * cos_theta
me = hegetcl.matrix_element("u u~ > a a", momenta, device=device)
e_q = np.sqrt(4 * np.pi / 132.507) * 2 / 3
t, u = -2 * energy**2 * (1 - cos_theta), -2 * energy**2 * (1 + cos_theta)
analytic = e_q**4 / 3 * (t / u + u / t)
worst = np.max(np.abs(me / analytic - 1))
check(worst < 1e-12, f"u u~ -> a a over 39 angles: |M|^2 = (eQ)^4/3 (t/u + u/t) to {worst:.1e}")

# 2. u u~ -> a a a at random massless points balancing the beams (RAMBO: Kleiss, Stirling, Ellis)
rng = np.random.default_rng(5)
n_events, n = 1000, 3
c = 2 * rng.random((n_events, n)) - 1
phi = 2 * np.pi * rng.random((n_events, n))
q0 = -np.log(rng.random((n_events, n)) * rng.random((n_events, n)))
q = np.stack([q0, q0 * np.sqrt(1 - c**2) * np.cos(phi), q0 * np.sqrt(1 - c**2) * np.sin(phi),
              q0 * c], axis=-1)
total = q.sum(axis=1)
mass = np.sqrt(total[:, 0] ** 2 - np.sum(total[:, 1:] ** 2, axis=1))
b = -total[:, 1:] / mass[:, None]
x = 2 * energy / mass
gamma = total[:, 0] / mass
a = 1 / (1 + gamma)
bq = np.einsum("ej,eij->ei", b, q[:, :, 1:])
photons = np.empty_like(q)
photons[:, :, 0] = x[:, None] * (gamma[:, None] * q[:, :, 0] + bq)
photons[:, :, 1:] = x[:, None, None] * (q[:, :, 1:] + b[:, None, :] * (q[:, :, :1] + a[:, None, None] * bq[:, :, None]))
points = np.concatenate([np.tile([[energy, 0, 0, energy], [energy, 0, 0, -energy]],
                                 (n_events, 1, 1)), photons], axis=1)
me3 = hegetcl.matrix_element("u u~ > a a a", points, device=device)
swapped = points[:, [0, 1, 4, 2, 3]]
me3_swapped = hegetcl.matrix_element("u u~ > a a a", swapped, device=device)
worst = np.max(np.abs(me3_swapped / me3 - 1))
check(np.all(me3 > 0) and worst < 1e-11,  # the engines sum the orderings in another order
      f"u u~ -> a a a at 1000 random points: positive, and unchanged by permuting the photons "
      f"(to {worst:.1e})")

# 3. sigma and events; the distribution from the Les Houches file
lhe_path = os.path.join(out_dir, "photons.lhe")
xs = hegetcl.generate_events(lhe_path, 2000, "u u~ > a a", device=device, events=100000,
                             adapt_events=50000, adapt_iterations=2, min_iterations=2,
                             max_iterations=3, seed=1)
print(f"sigma(p p -> a a, u u~ channel) = {xs.sigma_fb:.5g} +- {xs.error_fb:.2g} fb "
      f"(chi2/dof {xs.chi2_per_dof:.2f}) on {xs.device.name}")
check(xs.error_fb < 0.05 * xs.sigma_fb, "sigma has a relative error below 5 %")

import matplotlib  # noqa: E402  (after the checks that need no plotting)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import mplhep  # noqa: E402
import pylhe  # noqa: E402

lhe = pylhe.LHEFile.fromfile(lhe_path)
pt = []
for event in lhe.events:
    for particle in event.particles:
        if int(particle.id) == 22:
            pt.append(np.hypot(particle.px, particle.py))
pt = np.array(pt)
check(len(pt) == 2 * 2000 and np.all(pt > 20),
      f"the file holds 2000 events of two photons, every pT above the 20 GeV cut (min "
      f"{pt.min():.1f} GeV)")
check(abs(lhe.init.procInfo[0].xSection * 1000 / xs.sigma_fb - 1) < 1e-12,
      "the file's <init> sigma (pb) is the call's")
# every photon's pT, as dsigma/dpT: each unweighted event carries sigma / 2000
top = np.quantile(pt, 0.99)  # the axis follows the data; the last 1 % goes to the overflow
counts, edges = np.histogram(pt, bins=30, range=(20, top))
width = np.diff(edges)
per_event = xs.sigma_fb / 2000
plt.style.use(mplhep.style.ROOT)
fig, ax = plt.subplots()
mplhep.histplot(counts * per_event / width, edges, yerr=np.sqrt(counts) * per_event / width,
                ax=ax, histtype="errorbar", label="hegetcl, 2000 unweighted events")
ax.set_xlabel(r"photon $p_\mathrm{T}$ (both photons) [GeV]")
ax.set_ylabel(r"$d\sigma/dp_\mathrm{T}$ [fb/GeV]")
ax.set_yscale("log")
ax.set_xlim(edges[0], edges[-1])
ax.set_title("$pp \\to \\gamma\\gamma$ via $u\\bar{u}$ (u from proton 1), \u221as = 14 TeV\n"
             "cuts: $p_\\mathrm{T}^\\gamma > 20$ GeV, $|\\eta^\\gamma| < 2.5$, "
             "$\\Delta R_{\\gamma\\gamma} > 0.4$", loc="left", fontsize="small")
ax.legend(fontsize="small")
png = os.path.join(out_dir, "photons_pt.png")
fig.savefig(png, bbox_inches="tight")
check(os.path.getsize(png) > 1000 and counts[0] > counts[-1],
      f"{png} written; the pT spectrum falls (first bin {counts[0]}, last {counts[-1]})")
sys.exit(1 if failures else 0)
