/* SPDX-License-Identifier: MIT */
/* The whole public API of hegetcl. */
#ifndef HEGETCL_H
#define HEGETCL_H

#include "hegetcl/amplitude.h"
#include "hegetcl/device.h"
#include "hegetcl/pdf.h"
#include "hegetcl/status.h"
#include "hegetcl/user_program.h"
#include "hegetcl/variations.h"
#include "hegetcl/vegas.h"
#include "hegetcl/version.h"
#include "hegetcl/xsec.h"

#endif
