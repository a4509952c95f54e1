/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-trace-file"

#include "config.h"

/* PRId64: the one 64-bit format xgettext understands in a message */
#include <inttypes.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tb-trace-file-private.h"

/*
 * The trace file format, version 1 (docs/trace-format.md):
 *
 *   line 1   {"format":"toolbench-trace","version":1,"created":"…", …header…}
 *   line 2…  {"seq":1,"t":1234,"type":"request", …payload…}
 *
 * One JSON object a line, UTF-8, "\n" after each. The writer hands every
 * line to the kernel in one write() as soon as the event happens, so a
 * crash loses at most the event being written, and fsyncs on a policy.
 * The reader indexes lines without keeping them, parses an event when it
 * is asked for, and loads everything before damage.
 */

/**
 * tb_trace_file_error_quark:
 *
 * The error domain of #TbTraceFileError.
 *
 * Returns: the quark of %TB_TRACE_FILE_ERROR
 */
G_DEFINE_QUARK (tb-trace-file-error-quark, tb_trace_file_error)

/* Opens the local file behind @file; traces are never remote. */
int
_tb_trace_file_open_local (GFile       *file,
            int          flags,
            const char  *remote_message,
            char       **path_out,
            GError     **error)
{
  const char *path = g_file_peek_path (file);
  int fd;

  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, remote_message);
      return -1;
    }

  fd = g_open (path, flags | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   (flags & O_CREAT) ? _("Cannot create the trace “%s”: %s")
                                     : _("Cannot open the trace “%s”: %s"),
                   path, g_strerror (saved));
      return -1;
    }

  *path_out = g_strdup (path);
  return fd;
}
