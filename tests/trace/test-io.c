/* SPDX-License-Identifier: GPL-3.0-or-later */

/* _tb_writev_all(): a line written as pieces arrives whole and in order
 * when the kernel takes it a part at a time, as a full pipe read slowly
 * and interrupted by signals makes it do. */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <glib.h>

#include "tb-io-private.h"

typedef struct
{
  int      fd;
  GString *got;
} Reader;

static gpointer
read_slowly (gpointer data)
{
  Reader *reader = data;
  char buffer[997];

  for (;;)
    {
      gssize n = read (reader->fd, buffer, sizeof buffer);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      g_string_append_len (reader->got, buffer, n);
      g_usleep (50);
    }
  return NULL;
}

static void
on_alarm (int signal_number)
{
}

static void
test_writev_resumes (void)
{
  struct sigaction action = { 0 };
  struct itimerval every = { { 0, 500 }, { 0, 500 } };
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autofree char *first = g_strnfill (70000, 'a');
  g_autofree char *second = g_strnfill (150001, 'b');
  struct iovec parts[4];
  Reader reader;
  GThread *thread;
  int fds[2];

  /* No SA_RESTART: a signal ends a blocked writev() early, after part of it. */
  action.sa_handler = on_alarm;
  g_assert_cmpint (sigaction (SIGALRM, &action, NULL), ==, 0);
  g_assert_cmpint (pipe (fds), ==, 0);
  reader = (Reader) { fds[0], g_string_new (NULL) };
  thread = g_thread_new ("reader", read_slowly, &reader);

  parts[0] = (struct iovec) { (char *) "{\"seq\":1,", 9 };
  parts[1] = (struct iovec) { first, 70000 };
  parts[2] = (struct iovec) { (char *) "", 0 };
  parts[3] = (struct iovec) { second, 150001 };
  g_string_append_len (expected, "{\"seq\":1,", 9);
  g_string_append (expected, first);
  g_string_append (expected, second);

  g_assert_cmpint (setitimer (ITIMER_REAL, &every, NULL), ==, 0);
  g_assert_true (_tb_writev_all (fds[1], parts, G_N_ELEMENTS (parts)));
  g_assert_cmpint (setitimer (ITIMER_REAL, &off, NULL), ==, 0);
  close (fds[1]);
  g_thread_join (thread);
  close (fds[0]);

  g_assert_cmpuint (reader.got->len, ==, expected->len);
  g_assert_true (memcmp (reader.got->str, expected->str, expected->len) == 0);
  g_string_free (reader.got, TRUE);
}

/* A closed reader: the writer is told, with errno, and does not hang. */
static void
test_writev_fails (void)
{
  struct iovec parts[2] = { { (char *) "ab", 2 }, { (char *) "\n", 1 } };
  int fds[2];

  signal (SIGPIPE, SIG_IGN);
  g_assert_cmpint (pipe (fds), ==, 0);
  close (fds[0]);
  g_assert_false (_tb_writev_all (fds[1], parts, G_N_ELEMENTS (parts)));
  g_assert_cmpint (errno, ==, EPIPE);
  close (fds[1]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/io/writev-resumes", test_writev_resumes);
  g_test_add_func ("/io/writev-fails", test_writev_fails);

  return g_test_run ();
}
