# SPDX-License-Identifier: MIT
"""Process strings: the photon family (q q~ > n photons, the fields the photon engines take) and
any other process, which the C library's parser reads (docs/user-guide.md, "Processes")."""
from __future__ import annotations

from dataclasses import dataclass

# PDG id and charge (units of e) of the light quarks a process string may name
QUARKS = {"d": (1, -1.0 / 3.0), "u": (2, 2.0 / 3.0), "s": (3, -1.0 / 3.0), "c": (4, 2.0 / 3.0),
          "b": (5, -1.0 / 3.0)}


@dataclass(frozen=True)
class PhotonProcess:
    """q q~ > n photons: the quark (particle 0), the antiquark (1), then the photons."""

    quark: str
    pid: int
    charge: float
    n_photons: int

    @property
    def n_particles(self) -> int:
        return self.n_photons + 2


def photon_process(process: str) -> PhotonProcess:
    """Parse ``"u u~ > a a"`` (MadGraph's spelling): a quark, its antiquark, ``>``, n photons.

    Raises
    ------
    ValueError
        For anything else, naming what was expected.
    """
    words = process.split() if isinstance(process, str) else []
    ok = (len(words) >= 5 and words[0] in QUARKS and words[1] == words[0] + "~"
          and words[2] == ">" and all(w == "a" for w in words[3:]))
    if not ok:
        raise ValueError(
            f"process {process!r} is not one hegetcl knows: write a light quark, its antiquark, "
            f"'>' and 2 to 12 photons, e.g. 'u u~ > a a a' (quarks d u s c b)")
    pid, charge = QUARKS[words[0]]
    return PhotonProcess(words[0], pid, charge, len(words) - 3)


@dataclass(frozen=True)
class GeneralProcess:
    """A process other than the photon family, as MadGraph users write it ("g g > t t~ g"):
    its particles in the order written, the two incoming first; the library's engine for it."""

    text: str
    n_particles: int
    masses: tuple = ()  # GeV, in the order written (the library's particle table)
