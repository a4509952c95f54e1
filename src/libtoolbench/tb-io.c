/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-io"

#include "config.h"

#include <errno.h>
#include <sys/uio.h>
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
  struct iovec part = { (char *) data, length };

  return _tb_writev_all (fd, &part, 1);
}

/*
 * _tb_writev_all:
 * @fd: a file descriptor open for writing
 * @parts: the pieces to write, in order; changed as they are written
 * @n_parts: how many
 *
 * Writes all of @parts one after the other with as few writev() calls as
 * the kernel allows (one, for a regular file with room), again after a
 * signal and after a short write: a line made of pieces goes out without
 * being copied into one buffer first.
 *
 * Returns: %TRUE when all of it was written; %FALSE with errno set
 */
gboolean
_tb_writev_all (int           fd,
                struct iovec *parts,
                int           n_parts)
{
  while (n_parts > 0)
    {
      gssize n;

      if (parts[0].iov_len == 0)
        {
          parts++;
          n_parts--;
          continue;
        }
      n = writev (fd, parts, n_parts);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      if (n == 0)
        {
          errno = EIO;
          return FALSE;
        }
      /* Past the pieces written whole, into the one written in part. */
      while (n_parts > 0 && (gsize) n >= parts[0].iov_len)
        {
          n -= (gssize) parts[0].iov_len;
          parts++;
          n_parts--;
        }
      if (n_parts > 0)
        {
          parts[0].iov_base = (char *) parts[0].iov_base + n;
          parts[0].iov_len -= (gsize) n;
        }
    }
  return TRUE;
}
