/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "tb-version.h"
#include "tb-version-runtime.h"

/* The version of the library that runs, as opposed to the TB_*_VERSION
 * macros (and the typelib's constants), which say what a program was
 * built against. */

/**
 * tb_get_major_version:
 *
 * Gives the major version of the library that runs, which may differ from
 * %TB_MAJOR_VERSION, the version a program was built against.
 *
 * Returns: the major version of the running library
 */
guint
tb_get_major_version (void)
{
  return TB_MAJOR_VERSION;
}

/**
 * tb_get_minor_version:
 *
 * Gives the minor version of the library that runs, which may differ from
 * %TB_MINOR_VERSION, the version a program was built against.
 *
 * Returns: the minor version of the running library
 */
guint
tb_get_minor_version (void)
{
  return TB_MINOR_VERSION;
}

/**
 * tb_get_micro_version:
 *
 * Gives the micro version of the library that runs, which may differ from
 * %TB_MICRO_VERSION, the version a program was built against.
 *
 * Returns: the micro version of the running library
 */
guint
tb_get_micro_version (void)
{
  return TB_MICRO_VERSION;
}
