# SPDX-License-Identifier: MIT
"""PDF sets the variation tests assemble in a temporary folder from the cteq6l1 grid. They are NOT
physical sets, only tests of the machinery:

hgtest_cteq6l1_var (make_set; ErrorType hessian, SetIndex 990000, 5 members)
  member 0    cteq6l1 itself
  members 1/2 the gluon times 1 +- eps and every quark and antiquark times 1 -+ eps M_g(Q)/M_q(Q)
              at each Q knot (M: the momentum fractions, trapezoid sums over the x knots), so the
              momentum sum of the grid is kept knot by knot; eps = 0.05
  members 3/4 the cteq6l1 grid with the member's own alpha_s (its header's AlphaS_Vals: the
              .info's times 1.01 and 0.99), as LHAPDF lets a member override the .info

hgtest_cteq6l1_alt (make_alt_set; one member, SetIndex 990100): every value of the cteq6l1 grid
times ALT_PDF_FACTOR = 1.1 and the .info's AlphaS_Vals times ALT_ALPHA_S_FACTOR = 1.02. The grid
and alpha_s interpolations are linear in the values, so with it every event weight is the
cteq6l1 one times 1.1^2 (q qbar -> photons) or 1.1^2 1.02^2 (u u~ > t t~, alpha_s^2), exactly
but for rounding: an alternative central set with a known answer.
"""
import os
import shutil

import numpy as np

SOURCE = os.path.join(os.environ.get("LHAPDF_DATA_PATH", "").split(":")[0], "cteq6l1")
SET = "hgtest_cteq6l1_var"
ALT_SET = "hgtest_cteq6l1_alt"
ALT_PDF_FACTOR = 1.1
ALT_ALPHA_S_FACTOR = 1.02
EPS = 0.05


def read_dat(path):
    with open(path) as f:
        lines = f.read().split("\n")
    x = np.array(lines[3].split(), float)
    q = np.array(lines[4].split(), float)
    flavours = [int(v) for v in lines[5].split()]
    rows = np.array([r.split() for r in lines[6:6 + len(x) * len(q)]], float)
    return x, q, flavours, rows.reshape(len(x), len(q), len(flavours))


def write_dat(path, x, q, flavours, values, digits=8):
    with open(path, "w") as f:
        f.write("PdfType: error\nFormat: lhagrid1\n---\n")
        f.write(" ".join("%.*e" % (digits, v) for v in x) + "\n")
        f.write(" ".join("%.*e" % (digits, v) for v in q) + "\n")
        f.write(" ".join(str(v) for v in flavours) + "\n")
        for ix in range(len(x)):
            for iq in range(len(q)):
                f.write(" ".join("%.*e" % (digits, v) for v in values[ix, iq]) + "\n")
        f.write("---\n")


def make_set(folder):
    """Writes hgtest_cteq6l1_var into folder; returns its path."""
    out = os.path.join(folder, SET)
    os.makedirs(out)
    with open(os.path.join(SOURCE, "cteq6l1.info")) as f:
        info = f.read()
    info = info.replace("NumMembers: 1", "NumMembers: 5")
    info = info.replace("SetIndex: 10042", "SetIndex: 990000")
    info += "ErrorType: hessian\nErrorConfLevel: 68\n"
    with open(os.path.join(out, SET + ".info"), "w") as f:
        f.write(info)
    central = os.path.join(SOURCE, "cteq6l1_0000.dat")
    shutil.copy(central, os.path.join(out, SET + "_0000.dat"))
    x, q, flavours, v = read_dat(central)
    g = flavours.index(21)
    quarks = [k for k in range(len(flavours)) if k != g]
    dx = np.diff(x)
    def momentum(f):  # trapezoid sum over x of x f, per Q knot
        return ((f[1:] + f[:-1]) * dx[:, None]).sum(axis=0) / 2
    m_g = momentum(v[:, :, g])
    m_q = sum(momentum(v[:, :, k]) for k in quarks)
    for member, sign in ((1, 1), (2, -1)):
        w = v.copy()
        w[:, :, g] *= 1 + sign * EPS
        for k in quarks:
            w[:, :, k] *= (1 - sign * EPS * m_g / m_q)[None, :]
        write_dat(os.path.join(out, "%s_%04d.dat" % (SET, member)), x, q, flavours, w)
        # the momentum sum of the grid is kept at every Q knot
        moved = momentum(w[:, :, g]) + sum(momentum(w[:, :, k]) for k in quarks)
        assert np.allclose(moved, m_g + m_q, rtol=1e-12)
    qs = [float(t) for t in info.split("AlphaS_Qs: [")[1].split("]")[0].split(",")]
    vals = [float(t) for t in info.split("AlphaS_Vals: [")[1].split("]")[0].split(",")]
    for member, factor in ((3, 1.01), (4, 0.99)):
        with open(central) as f:
            body = f.read().split("---\n", 1)[1]
        with open(os.path.join(out, "%s_%04d.dat" % (SET, member)), "w") as f:
            f.write("PdfType: error\nFormat: lhagrid1\n")
            f.write("AlphaS_Qs: [%s]\n" % ", ".join("%.6e" % t for t in qs))
            f.write("AlphaS_Vals: [%s]\n" % ", ".join("%.10e" % (t * factor) for t in vals))
            f.write("---\n" + body)
    return out


def make_alt_set(folder):
    """Writes hgtest_cteq6l1_alt into folder; returns its path."""
    out = os.path.join(folder, ALT_SET)
    os.makedirs(out)
    with open(os.path.join(SOURCE, "cteq6l1.info")) as f:
        info = f.read()
    info = info.replace("SetIndex: 10042", "SetIndex: 990100")
    vals = info.split("AlphaS_Vals: [")[1].split("]")[0]
    scaled = ", ".join("%.17e" % (float(t) * ALT_ALPHA_S_FACTOR) for t in vals.split(","))
    info = info.replace("AlphaS_Vals: [" + vals + "]", "AlphaS_Vals: [" + scaled + "]")
    with open(os.path.join(out, ALT_SET + ".info"), "w") as f:
        f.write(info)
    x, q, flavours, v = read_dat(os.path.join(SOURCE, "cteq6l1_0000.dat"))
    write_dat(os.path.join(out, ALT_SET + "_0000.dat"), x, q, flavours, v * ALT_PDF_FACTOR, 17)
    return out
