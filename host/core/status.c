/* SPDX-License-Identifier: MIT */
/* Names and meanings of hegetcl_status codes, from the one list in status.h. */
#include "hegetcl/status.h"

const char *hegetcl_status_name(hegetcl_status status) {
  switch (status) {
#define HG_STATUS_NAME(name, value, meaning)                                                       \
  case name:                                                                                       \
    return #name;
    HEGETCL_STATUS_LIST(HG_STATUS_NAME)
#undef HG_STATUS_NAME
  }
  return "HEGETCL_UNKNOWN_STATUS";
}

const char *hegetcl_status_meaning(hegetcl_status status) {
  switch (status) {
#define HG_STATUS_MEANING(name, value, meaning)                                                    \
  case name:                                                                                       \
    return meaning;
    HEGETCL_STATUS_LIST(HG_STATUS_MEANING)
#undef HG_STATUS_MEANING
  }
  return "not a hegetcl status code";
}
