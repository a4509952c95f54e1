/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-io"

#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "tb-io-private.h"

/* Writes to a file descriptor, whole: the trace, the workspace and the
 * file tools write their files through here. */

/*
 * _tb_write_all:
 * @fd: a file descriptor open for writing
 * @data: what to write
 * @length: its length in bytes
 *
 * Writes all of @data, again after a signal interrupts write() and after
 * a short write.
 *
 * Returns: %TRUE when all of it was written; %FALSE with errno set
 */
gboolean
_tb_write_all (int         fd,
               const char *data,
               gsize       length)
{
  while (length > 0)
    {
      gssize n = write (fd, data, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      if (n == 0)
        {
          errno = EIO;
          return FALSE;
        }
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}
