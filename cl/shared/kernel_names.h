/* SPDX-License-Identifier: MIT */
/* Kernel names, shared by the OpenCL sources and the host so neither spells them alone. */
#ifndef HG_KERNEL_NAMES_H
#define HG_KERNEL_NAMES_H

#define HG_KERNEL_AMPLITUDE_SUMMED "amplitude_summed"
#define HG_KERNEL_AMPLITUDE_HELICITY "amplitude_helicity"

#endif
