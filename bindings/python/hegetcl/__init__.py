# SPDX-License-Identifier: MIT
"""hegetcl: tree-level helicity amplitudes and cross sections on OpenCL devices.

The Python face of the C library (docs/library.md): |M|^2 of any tree-level QCD/QED process
for numpy momenta, cross sections of any process at a hadron collider ("p p > t t~ j") and of the
photon family p p -> n photons from run-card keys, and unweighted events to a Les Houches file. Arrays cross into C once, without a copy when they are
C-contiguous float64. Every refusal raises an :class:`Error` subclass carrying the library's
message and status name (:class:`InputError` is also a ValueError).

Examples
--------
>>> import numpy as np, hegetcl
>>> me = hegetcl.matrix_element("g g > t t~ g", momenta)      # momenta: (events, 5, 4), GeV
>>> xs = hegetcl.cross_section("u u~ > a a", events=100000, seed=3)
>>> xs.sigma_fb, xs.error_fb
>>> tt = hegetcl.cross_section("p p > t t~ j", ptj=50, etaj=5, drjj=0.4)
>>> [(g.text, g.sigma_fb) for g in tt.groups]
"""
from __future__ import annotations

import json
import math
import numbers
import os
import re
import tempfile
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

from . import _core
from ._process import GeneralProcess, PhotonProcess, photon_process

__all__ = ["Channel", "CrossSection", "Device", "Error", "Group", "InputError", "NoDeviceError",
           "ProcessChannel", "Variation", "Variations", "UnsupportedError", "BuildError", "OpenCLError", "FileError", "NonFiniteError",
           "DeviceMemoryError", "PhotonProcess", "UntrustworthyErrorWarning", "close",
           "cross_section", "devices", "generate_events", "matrix_element", "photon_process",
           "__version__"]

__version__: str = _core.version()

DEFAULT_ALPHA = 1.0 / 132.507  # MadGraph's sm
# matrix_element's momentum checks, relative to E^2 and to the incoming energy (hegetcl me's)
DEFAULT_MOMENTUM_TOLERANCE = 1e-9


class Error(Exception):
    """A failure of the library: ``message`` says what and the fix, ``status`` is the C status
    name (``"HEGETCL_ERR_INPUT"``), ``code`` its value."""

    def __init__(self, message: str, status: str = "HEGETCL_ERR_INPUT", code: int = -1):
        super().__init__(f"{message} ({status})")
        self.message = message
        self.status = status
        self.code = code


class InputError(Error, ValueError):
    """Bad input: a value, an array's shape or dtype, a process, a run-card key."""


class NoDeviceError(Error):
    """No OpenCL device matches (or there is no OpenCL platform at all)."""


class UnsupportedError(Error):
    """The device lacks a feature the request needs (double precision without cl_khr_fp64)."""


class BuildError(Error):
    """A kernel program did not build; the message holds the compiler log."""


class OpenCLError(Error):
    """An OpenCL call failed; the message names the call, the code and the action."""


class FileError(Error, OSError):
    """A file (PDF set, run card, event file) could not be read or written."""


class NonFiniteError(Error, ArithmeticError):
    """A kernel produced non-finite values; the message names the first event."""


class DeviceMemoryError(Error, MemoryError):
    """Host or device memory ran out; the message names the batch that fits."""


class UntrustworthyErrorWarning(UserWarning):
    """A cross section whose iterations disagree more than their errors allow (the chi^2/dof's
    probability below 5 %): the error is not to be trusted; more events per iteration or more
    adapting iterations usually cure it, and another seed shows the scatter."""


_BY_STATUS = {
    "HEGETCL_ERR_INPUT": InputError,
    "HEGETCL_ERR_NO_DEVICE": NoDeviceError,
    "HEGETCL_ERR_OPENCL": OpenCLError,
    "HEGETCL_ERR_PROGRAM_BUILD": BuildError,
    "HEGETCL_ERR_NONFINITE": NonFiniteError,
    "HEGETCL_ERR_NO_MEMORY": DeviceMemoryError,
    "HEGETCL_ERR_UNSUPPORTED": UnsupportedError,
    "HEGETCL_ERR_IO": FileError,
    "HEGETCL_ERR_DEVICE_MEMORY": DeviceMemoryError,
}


def _call(function, *args):
    """Calls a _core function, turning its failure into the exception of its status (and an
    argument the C layer cannot take into an InputError: no bare TypeError leaves the package)."""
    try:
        return function(*args)
    except _core.Error as failure:
        code, status, message = failure.args
        raise _BY_STATUS.get(status, Error)(message, status, code) from None
    except (TypeError, ValueError, OverflowError) as bad:
        raise InputError(f"{bad}: an argument of the wrong kind") from None


def _choice(name: str, value: Any, choices: Tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InputError(f"{name} = {value!r}: use one of {', '.join(choices)}")
    return value


def _real(name: str, value: Any, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise InputError(f"{name} = {value!r}: must be a finite number")
    if positive and not value > 0:
        raise InputError(f"{name} = {value!r}: must be > 0")
    return float(value)


@dataclass(frozen=True)
class Device:
    """An OpenCL device as the library reports it (and writes into every output)."""

    platform_index: int
    device_index: int
    platform: str
    name: str
    vendor: str
    driver_version: str
    device_version: str
    opencl_c_version: str
    is_gpu: bool
    has_fp64: bool
    compute_units: int
    global_memory_bytes: int
    local_memory_bytes: int
    max_buffer_bytes: int

    @property
    def spec(self) -> str:
        """The ``"P:D"`` spec that selects exactly this device."""
        return f"{self.platform_index}:{self.device_index}"


def devices() -> List[Device]:
    """Every OpenCL device of every platform.

    Raises
    ------
    NoDeviceError
        When there is no OpenCL platform at all (the message has the ICD hint).
    """
    return [Device(**d) for d in _call(_core.devices)]


# Contexts by device spec and amplitudes by (spec, process, engine, precision, alpha): built once
# per interpreter (a program build takes about 0.5 s on PoCL), released by close().
_contexts: Dict[Optional[str], Any] = {}
_amplitudes: Dict[tuple, Any] = {}


def _context(device: Optional[str]):
    if device is not None and not isinstance(device, str):
        raise InputError(f"device = {device!r}: give a spec string ('gpu', 'cpu', 'P:D', a "
                         f"name part) or None for HEGETCL_DEVICE, else auto")
    if device not in _contexts:
        _contexts[device] = _call(_core.context, device)
    return _contexts[device]


def close() -> None:
    """Releases every cached context, program and device buffer (they are made again on use)."""
    _amplitudes.clear()
    _contexts.clear()


def _as_process(process: Union[str, PhotonProcess, GeneralProcess]
                ) -> Union[PhotonProcess, GeneralProcess]:
    if isinstance(process, (PhotonProcess, GeneralProcess)):
        return process
    if not isinstance(process, str):
        raise InputError(f"process {process!r} is not a string such as 'g g > t t~ g'")
    try:
        return photon_process(process)
    except ValueError:
        pass
    # any other process: the C library's parser says what is wrong with it
    n, masses = _call(_core.process_particles, process)
    return GeneralProcess(process, int(n), tuple(masses))


def _check_momenta(proc: Union[PhotonProcess, GeneralProcess], p: np.ndarray,
                   tolerance: float) -> None:
    """Refuses momenta off the mass shell, with E <= 0 or not conserved, as ``hegetcl me`` does:
    |E^2 - |p|^2 - m^2| <= tolerance E^2 for each particle, and each component of incoming minus
    outgoing within tolerance times the incoming energy."""
    if not np.all(np.isfinite(p)):
        event, particle = np.argwhere(~np.isfinite(p).all(axis=2))[0]
        raise InputError(f"momenta: event {event}, particle {particle} is not finite: "
                         f"{p[event, particle].tolist()}")
    masses = np.asarray(getattr(proc, "masses", None) or [0.0] * proc.n_particles)
    energy = p[:, :, 0]
    bad = np.argwhere(~(energy > 0))
    if bad.size:
        event, particle = bad[0]
        raise InputError(f"momenta: event {event}, particle {particle}: energy "
                         f"{energy[event, particle]:.17g} is not positive (a physical particle "
                         f"has E > 0)")
    e2 = energy * energy
    shell = e2 - np.sum(p[:, :, 1:] ** 2, axis=2)
    bad = np.argwhere(np.abs(shell - masses ** 2) > tolerance * e2)
    if bad.size:
        event, particle = bad[0]
        raise InputError(
            f"momenta: event {event}, particle {particle} ({_particle_name(proc, particle)}) is "
            f"off the mass shell: E^2 - |p|^2 = {shell[event, particle]:.6g} GeV^2 where the mass "
            f"{masses[particle]:g} GeV gives {masses[particle] ** 2:.6g} (within a relative "
            f"{tolerance:.1e} of E^2 expected; check=False skips the checks)")
    total = p[:, :2, :].sum(axis=1) - p[:, 2:, :].sum(axis=1)
    scale = energy[:, :2].sum(axis=1)
    bad = np.argwhere(~(np.abs(total) <= tolerance * scale[:, None]))
    if bad.size:
        event, component = bad[0]
        raise InputError(
            f"momenta: event {event}: momentum not conserved: incoming minus outgoing "
            f"{('E', 'px', 'py', 'pz')[component]} = {total[event, component]:.3e} GeV, "
            f"{abs(total[event, component]) / scale[event]:.2e} of sqrt(s) = {scale[event]:.6g} "
            f"GeV (a relative {tolerance:.1e} allowed; check=False skips the checks)")


def _particle_name(proc: Union[PhotonProcess, GeneralProcess], i: int) -> str:
    if isinstance(proc, GeneralProcess):
        words = [w for w in proc.text.split() if w != ">"]
        return words[i] if i < len(words) else f"particle {i}"
    return (proc.quark, proc.quark + "~")[i] if i < 2 else "a"


def matrix_element(process: Union[str, PhotonProcess], momenta: "np.typing.ArrayLike",
                   helicities: Optional["np.typing.ArrayLike"] = None,
                   precision: str = "double", device: Optional[str] = None,
                   engine: Optional[str] = None, alpha: float = DEFAULT_ALPHA,
                   check: bool = True,
                   tolerance: float = DEFAULT_MOMENTUM_TOLERANCE) -> np.ndarray:
    """|M|^2 of ``process`` at each event's momenta, evaluated on an OpenCL device.

    Parameters
    ----------
    process : str or PhotonProcess
        Any tree-level QCD/QED process as MadGraph users write it: ``"g g > t t~ g"``,
        ``"u u~ > d d~ g"``, ``"u u~ > a a a"`` (the photon family: a light quark d u s c b, its
        antiquark and 2 to 12 photons, with its own fast engines). The particles are those of
        ``hegetcl me --help``: g, a, d u s c b, t (massive), e- mu- and their antiparticles.
    momenta : array_like, shape (events, particles, 4), float64
        Four-momenta (E, px, py, pz) in GeV, particles in the order written (the two incoming
        first), in any frame. A C-contiguous float64 array is used in place; anything else is
        converted once.
    helicities : array_like of int, shape (events,), optional
        One helicity configuration per event (bit i: particle i, 0 = -1, 1 = +1), giving |A|^2
        of that configuration times the averaging factors. None (default): summed.
    precision : {"double", "float"}
        The kernels' arithmetic; double needs cl_khr_fp64.
    device : str, optional
        "gpu", "cpu", "P:D" or part of a device name; None: HEGETCL_DEVICE, else a GPU if any.
    engine : {"recursive", "permutation", "unrolled", "diagrams"}, optional
        How the amplitudes are evaluated (the same numbers to rounding); default "recursive"
        for every process, e.g. ``matrix_element("g g > t t~ g", p)`` with p of shape
        (events, 5, 4) or ``matrix_element("u d~ > e+ ve g g", p)``; "diagrams" on request.
    alpha : float
        The fine-structure constant (default 1/132.507, MadGraph's sm).
    check : bool
        True (default): refuse, as ``hegetcl me`` does, momenta with E <= 0, off the mass shell
        (|E^2 - |p|^2 - m^2| > tolerance E^2; the top at its mass, the others massless) or not
        conserving momentum (incoming minus outgoing beyond tolerance times the incoming energy).
        False skips these checks (a little faster, for momenta known to be right).
    tolerance : float
        The relative tolerance of those checks (default 1e-9).

    Returns
    -------
    numpy.ndarray, shape (events,), float64
        |M|^2 summed (or at the given configuration) over helicities and colours, divided by the
        initial spins and colours and the identical final-state particles' factorials
        (MadGraph standalone's normalisation), in GeV^(4 - 2 particles).

    Raises
    ------
    InputError
        Unknown or malformed process; momenta or helicities of the wrong shape, dtype or value,
        momenta off shell or not conserved (each named in the message); a wrong option.
    NoDeviceError, UnsupportedError, BuildError, NonFiniteError, Error
        The library's failures, with its message.
    """
    proc = _as_process(process)
    precision = _choice("precision", precision, ("double", "float"))
    if engine is not None:
        engine = _choice("engine", engine, ("recursive", "permutation", "unrolled", "diagrams"))
    alpha = _real("alpha", alpha, positive=True)
    tolerance = _real("tolerance", tolerance, positive=True)
    if isinstance(momenta, np.ndarray) and momenta.dtype != np.float64:
        raise InputError(f"momenta has dtype {momenta.dtype}; pass float64 (momenta.astype("
                         f"np.float64)): the host API is double precision whatever the kernels'")
    try:
        p = np.ascontiguousarray(momenta, dtype=np.float64)
    except (TypeError, ValueError) as bad:
        raise InputError(f"momenta cannot be read as an array of numbers ({bad}); pass an "
                         f"array of shape (events, particles, 4)") from None
    expected = f"(events, {proc.n_particles}, 4)"
    if p.ndim != 3 or p.shape[1:] != (proc.n_particles, 4):
        if isinstance(proc, GeneralProcess):
            raise InputError(f"momenta has shape {p.shape}; {proc.text!r} needs {expected}: its "
                             f"particles in the order written, (E, px, py, pz)")
        raise InputError(f"momenta has shape {p.shape}; {proc.n_photons} photons need "
                         f"{expected}: the quark, the antiquark, then each photon, (E, px, py, pz)")
    if p.shape[0] == 0:
        return np.empty(0)
    if check:
        _check_momenta(proc, p, tolerance)
    h = None
    if helicities is not None:
        try:
            h_in = np.asarray(helicities)
        except (TypeError, ValueError) as bad:
            raise InputError(f"helicities cannot be read as an array ({bad})") from None
        if h_in.dtype.kind not in "iu":
            raise InputError(f"helicities has dtype {h_in.dtype}; pass integers (bit i: particle "
                             f"i's helicity, 0 for -1, 1 for +1)")
        if h_in.shape != (p.shape[0],):
            raise InputError(f"helicities has shape {h_in.shape}; {p.shape[0]} events need "
                             f"({p.shape[0]},)")
        limit = 1 << proc.n_particles
        if h_in.size and (h_in.min() < 0 or h_in.max() >= limit):
            raise InputError(f"helicities hold values outside 0..{limit - 1}, the "
                             f"configurations of {proc.n_particles} particles")
        h = np.ascontiguousarray(h_in, dtype=np.uint32)
    general = isinstance(proc, GeneralProcess)
    if engine is None:
        engine = "default" if general else "recursive"
    if general:
        key = (device, proc.text, engine, precision, float(alpha))
    else:
        key = (device, proc.n_photons, proc.charge, engine, precision, float(alpha))
    amplitude = _amplitudes.get(key)
    if amplitude is None:
        amplitude = _call(_core.amplitude, _context(device), 2 if general else proc.n_photons,
                          engine, precision, float(alpha), 0.0 if general else proc.charge,
                          proc.text if general else "")
        _amplitudes[key] = amplitude
    me = np.empty(p.shape[0])
    _call(_core.evaluate, amplitude, p, h, me)
    return me


@dataclass(frozen=True)
class Channel:
    """One initial state of a run over flavours: its partons and its share of sigma (fb)."""

    name: str
    pid: Tuple[int, int]
    charge: float
    sigma_fb: float
    error_fb: float


@dataclass(frozen=True)
class Group:
    """A group of partonic channels of a process run that share one |M|^2 (MadGraph's
    subprocess, e.g. ``"u u~ > t t~ g"``), integrated with its own VEGAS grid; sigma in fb."""

    text: str
    n_channels: int
    sigma_fb: float
    error_fb: float
    chi2_per_dof: float
    events: int


@dataclass(frozen=True)
class ProcessChannel:
    """One partonic channel of a process run (``"c~ c > t t~ g"``), the index of its group in
    :attr:`CrossSection.groups` and its share of sigma (fb; its own Monte Carlo error)."""

    text: str
    group: int
    sigma_fb: float
    error_fb: float


@dataclass(frozen=True)
class Variation:
    """One scale or PDF variation of a process run: its weight id and names as the event files
    write them (MadGraph's systematics conventions), its settings and sigma (fb)."""

    id: str
    group: str
    combine: str
    description: str
    mu_r_factor: float
    mu_f_factor: float
    pdf_lhapdf_id: int
    sigma_fb: float
    error_fb: float


@dataclass(frozen=True)
class Variations:
    """The variations of a process run (``scale_variations=7`` or ``9``, ``pdf_variations=1``;
    on by default when events are written): each variation's sigma, the envelope of the scale
    variations and the PDF uncertainty of sigma as the set's ErrorType says."""

    variations: List[Variation]
    n_scales: int
    first_pdf: int
    n_pdf: int
    scale_min_fb: float
    scale_max_fb: float
    pdf_error_type: str
    pdf_error_fb: float

    @property
    def names(self) -> List[str]:
        """Each variation's description ("MUR=2.0 MUF=0.5", "PDF=10000 MemberID=3")."""
        return [v.description for v in self.variations]

    @property
    def scales(self) -> List[Variation]:
        """The scale variations, the nominal first."""
        return self.variations[:self.n_scales]

    @property
    def pdf_members(self) -> List[Variation]:
        """The PDF set's members, member 0 first."""
        return self.variations[self.first_pdf:self.first_pdf + self.n_pdf]


def _variations(d: Optional[Dict[str, Any]]) -> Optional[Variations]:
    if d is None:
        return None
    return Variations(variations=[Variation(**v) for v in d["variations"]],
                      **{k: v for k, v in d.items() if k != "variations"})


@dataclass(frozen=True)
class CrossSection:
    """The result of :func:`cross_section`: sigma and its Monte Carlo error in fb, VEGAS's
    chi^2/dof, the channels (photon runs over flavours), the device, and the events written; a
    process run's groups, partonic channels, alpha_s and variations (None when off)."""

    sigma_fb: float
    error_fb: float
    chi2_per_dof: float
    iterations: int
    events: int
    channels: List[Channel]
    device: Device
    run_card: str
    lhe: Optional[str] = None
    unweighted_events: int = 0
    unweighting_efficiency: float = 0.0
    details: Dict[str, Any] = field(default_factory=dict)
    chi2_probability: float = 1.0
    process: Optional[str] = None
    groups: List[Group] = field(default_factory=list)
    process_channels: List[ProcessChannel] = field(default_factory=list)
    variations: Optional[Variations] = None
    alpha_s: Optional[float] = None
    alpha_s_power: int = 0

    @property
    def error_trustworthy(self) -> bool:
        """False when the iterations disagree more than their errors allow (chi^2/dof's
        probability below 5 %; :class:`UntrustworthyErrorWarning` was issued)."""
        return self.chi2_probability >= _core.CHI2_SUSPECT


def _yaml_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, (list, tuple)):
        return json.dumps(",".join(str(v) for v in value))
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a YAML double-quoted scalar
    raise InputError(f"{key} = {value!r}: run-card values are numbers, strings, booleans or "
                     f"lists of flavours")


def _run_process(process: Union[str, PhotonProcess, GeneralProcess]
                 ) -> Union[PhotonProcess, str]:
    """A photon-family process, or the text of any other (the C library's parser and the
    partonic channels judge it when the run starts, with its message)."""
    if isinstance(process, PhotonProcess):
        return process
    if isinstance(process, GeneralProcess):
        return process.text
    if not isinstance(process, str):
        raise InputError(f"process {process!r} is not a string such as 'p p > t t~ j'")
    try:
        return photon_process(process)
    except ValueError:
        return process


def run_card(process: Union[str, PhotonProcess, None] = None, **keys: Any) -> str:
    """The YAML run card of ``hegetcl xsec`` for these keys (``pt_min=20`` is ``pt-min: 20``).

    A photon-family string (``"u u~ > a a"``) sets n, the flavour and orientation u-first (the
    quark from proton 1 only, as MadGraph's ``generate u u~ > n a``), unless the keys give them;
    any other process string (``"p p > t t~ j"``) is the card's ``process:``.
    """
    card: Dict[str, Any] = {}
    if process is not None:
        proc = _run_process(process)
        if isinstance(proc, PhotonProcess):
            card.update({"n": proc.n_photons, "flavours": proc.quark, "orientation": "u-first"})
        else:
            card["process"] = proc
    card.update({k.replace("_", "-"): v for k, v in keys.items() if v is not None})
    if "n" not in card and "process" not in card:
        raise InputError("no process: give one ('p p > t t~ j', 'u u~ > a a a') or n= (and "
                         "flavours=), the number of photons")
    return "".join(f"{k}: {_yaml_value(k, v)}\n" for k, v in card.items())


def cross_section(process: Union[str, PhotonProcess, None] = None, *,
                  device: Optional[str] = None, **run_card_keys: Any) -> CrossSection:
    """sigma of a process at a hadron collider, integrated with VEGAS on an OpenCL device.

    Parameters
    ----------
    process : str or PhotonProcess, optional
        Any tree-level process as MadGraph users write it, with the multiparticle labels p and
        j: ``"p p > t t~ j"``, ``"g g > t t~ g"``, ``"u u~ > t t~"`` (its partonic channels
        in groups, each group with its own VEGAS grid; the cuts are MadGraph's run-card names:
        ``ptj``, ``etaj``, ``drjj``, ``ptb``, ...; ``beams``, ``dynamical_scale_choice``,
        ``mu_r_factor``, ``alpha_s_running``, ``scale_variations``, ``pdf_variations``). A
        photon-family string, ``"u u~ > a a"``: n photons from that quark's channel, u-first
        (see :func:`run_card`). Without a process, ``n=`` (and optionally ``flavours=``) must
        be given.
    device : str, optional
        As in :func:`matrix_element`.
    **run_card_keys
        Any option of ``hegetcl xsec`` with underscores for dashes: ``n``, ``sqrt_s`` (GeV),
        ``pt_min``, ``eta_max``, ``dr_min``, ``scale``, ``pdf``, ``flavours``, ``orientation``,
        ``engine``, ``precision``, ``helicity``, ``phase_space``, ``seed``, ``events``,
        ``adapt_events``, ``min_iterations``, ``max_iterations``, ``target_error``, ``batch``,
        ...; ``unweighted_events=N`` with ``lhe="out.lhe"`` writes N unweighted events in the
        format the name's ending gives: .lhe/.lhe.gz Les Houches, .hdf5/.h5 LHEH5,
        .hepmc/.hepmc.gz HepMC3. Values are checked exactly as in a run card, with the same messages.

    Returns
    -------
    CrossSection
        sigma_fb, error_fb, chi2_per_dof, channels, and the run card used; for a process run
        its groups, partonic channels and variations. The same keys and seed on the same device
        give ``hegetcl xsec``'s numbers bit for bit.

    Raises
    ------
    InputError, FileError, NoDeviceError, Error
        The library's messages (a bad key names the card line and the fix; an unknown particle
        or label, a process without the cuts that keep it finite, names it and the fix).
    UnsupportedError
        What the library cannot run yet, with its message.

    Warns
    -----
    UntrustworthyErrorWarning
        When chi^2/dof says the error is not to be trusted (``error_trustworthy`` is False).
    """
    if device is not None and not isinstance(device, str):
        raise InputError(f"device = {device!r}: give a spec string ('gpu', 'cpu', 'P:D', a "
                         f"name part) or None for HEGETCL_DEVICE, else auto")
    card = run_card(process, **run_card_keys)
    handle, path = tempfile.mkstemp(prefix="hegetcl-", suffix=".yaml", text=True)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(card)
        result, device_info = _call(_core.xsec, _context(device), path)
    except Error as failure:
        # the card is this call's keys: "<tmp>.yaml:4:9: pt-min -5: ..." names the key alone
        message = re.sub(re.escape(path) + r":\d+:\d+: ", "", failure.message)
        raise type(failure)(message, failure.status, failure.code) from None
    finally:
        os.unlink(path)
    channels = [Channel(c["name"], tuple(c["pid"]), c["charge"], c["sigma_fb"], c["error_fb"])
                for c in result["channels"]]
    lhe = run_card_keys.get("lhe")
    chi2_probability = _core.chi2_probability(result["chi2_per_dof"], result["iterations"])
    if chi2_probability < _core.CHI2_SUSPECT:
        warnings.warn(
            f"sigma = {result['sigma_fb']:.6e} +- {result['error_fb']:.2e} fb: chi2/dof "
            f"{result['chi2_per_dof']:.2f} over {result['iterations']} iterations has probability "
            f"{chi2_probability:.3f} with honest errors, so the error is not to be trusted; "
            f"rerun with more events= per iteration or more adapt_iterations=, or compare "
            f"another seed=", UntrustworthyErrorWarning, stacklevel=2)
    proc = result["process"] or {}
    return CrossSection(
        process=_card_process(card), groups=[Group(**g) for g in proc.get("groups", [])],
        process_channels=[ProcessChannel(**c) for c in proc.get("channels", [])],
        variations=_variations(proc.get("variations")), alpha_s=proc.get("alpha_s"),
        alpha_s_power=proc.get("alpha_s_power", 0),
        sigma_fb=result["sigma_fb"], error_fb=result["error_fb"],
        chi2_per_dof=result["chi2_per_dof"], iterations=result["iterations"],
        events=result["events"], channels=channels, device=Device(**device_info),
        run_card=card, lhe=os.fspath(lhe) if lhe else None,
        unweighted_events=result["unweighted_written"],
        unweighting_efficiency=result["unweighting_efficiency"], details=result,
        chi2_probability=chi2_probability)


def _card_process(card: str) -> Optional[str]:
    """The ``process:`` of a run card that :func:`run_card` wrote, or None (a photon run)."""
    for line in card.splitlines():
        if line.startswith("process: "):
            return json.loads(line[len("process: "):])
    return None


def generate_events(path: Union[str, "os.PathLike[str]", None] = None,
                    n_events: Optional[int] = None,
                    process: Union[str, PhotonProcess, None] = None, *,
                    device: Optional[str] = None, **run_card_keys: Any) -> CrossSection:
    """Integrates, then writes ``n_events`` unweighted events to the event file ``path``.

    The same as ``cross_section(process, unweighted_events=n_events, lhe=path, ...)``; the
    format follows the ending (.lhe, .lhe.gz, .hdf5, .h5, .hepmc, .hepmc.gz), and the file is
    written under a temporary name and renamed when complete (gzip for a .gz path). With a
    process, ``n=`` may stand for ``n_events=`` (the process says how many particles):
    ``generate_events(process="p p > t t~ j", n=1000, path="ttj.lhe", ptj=50)``. A process run's
    events carry their colour flow (ICOLUP), helicities (SPINUP), scales, alpha_s and, by
    default, the variations' weights.

    Raises
    ------
    InputError
        ``n_events`` missing or not a whole number >= 1, ``path`` not a path, or what
        :func:`cross_section` refuses.
    """
    if process is not None and "n" in run_card_keys:
        if n_events is not None:
            raise InputError(f"n = {run_card_keys['n']!r} and n_events = {n_events!r}: with a "
                             f"process, n is the number of events; give it once")
        n_events = run_card_keys.pop("n")
    if isinstance(n_events, bool) or not isinstance(n_events, numbers.Integral) or n_events < 1:
        raise InputError(f"n_events = {n_events!r}: give a whole number of events >= 1 (for "
                         f"sigma alone, call cross_section without lhe=)")
    if "unweighted_events" in run_card_keys or "lhe" in run_card_keys:
        raise InputError("generate_events takes the event count and the file as its arguments "
                         "n_events and path, not as unweighted_events= or lhe=")
    try:
        path = os.fspath(path)
    except TypeError:
        raise InputError(f"path = {path!r}: give the Les Houches file's name (a str or "
                         f"os.PathLike)") from None
    if not path:
        raise InputError("path is empty: give the Les Houches file's name")
    return cross_section(process, device=device, unweighted_events=int(n_events),
                         lhe=path, **run_card_keys)
