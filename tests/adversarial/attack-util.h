/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <toolbench.h>
#include <unistd.h>

#include "../test-files-util.h"

/* Runs the real toolbench-cli as an attacker's victim would: standard
 * input from a string, standard output and error kept, and what the
 * process cost (wall time, peak memory), whether it exited or died. */

typedef struct
{
  char   *out;
  char   *err;
  int     status;       /* exit status, or -1 when killed by a signal */
  int     signal;       /* the signal that killed it, or 0 */
  gint64  elapsed_us;
  glong   max_rss_kib;
} AttackRun;

static inline void
attack_run_clear (AttackRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

static inline int
attack_temp_fd (const char *contents)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("tb-attack-XXXXXX", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  g_unlink (path);
  if (contents != NULL)
    {
      gsize len = strlen (contents);

      g_assert_cmpint (write (fd, contents, len), ==, (gssize) len);
      lseek (fd, 0, SEEK_SET);
    }
  return fd;
}

static inline char *
attack_read_fd (int fd)
{
  GString *text = g_string_new (NULL);
  char buffer[65536];
  gssize n;

  lseek (fd, 0, SEEK_SET);
  while ((n = read (fd, buffer, sizeof buffer)) > 0)
    g_string_append_len (text, buffer, n);
  close (fd);
  return g_string_free (text, FALSE);
}

/* argv is NULL-terminated and does not name the program; env (nullable)
 * holds extra "NAME=value" entries. */
static inline void
attack_cli_argv (AttackRun          *run,
                 const char         *input,
                 const char * const *env,
                 const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  int in = attack_temp_fd (input);
  int out = attack_temp_fd (NULL);
  int err = attack_temp_fd (NULL);
  struct rusage usage;
  gint64 start;
  int wstatus;
  pid_t pid;

  g_ptr_array_add (args, (char *) g_getenv ("TOOLBENCH_CLI"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (char *) argv[i]);
  g_ptr_array_add (args, NULL);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (env[i], strcspn (env[i], "="));

      envp = g_environ_setenv (envp, name, env[i] + strlen (name) + 1, TRUE);
    }

  start = g_get_monotonic_time ();
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      dup2 (in, 0);
      dup2 (out, 1);
      dup2 (err, 2);
      execve (args->pdata[0], (char **) args->pdata, envp);
      _exit (127);
    }
  close (in);
  /* Servers of the test (a SoupServer) answer on this thread meanwhile. */
  for (;;)
    {
      pid_t done = wait4 (pid, &wstatus, WNOHANG, &usage);

      if (done == pid)
        break;
      g_assert_true (done == 0 || errno == EINTR);
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
  run->elapsed_us = g_get_monotonic_time () - start;
  run->max_rss_kib = usage.ru_maxrss;
  run->status = WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1;
  run->signal = WIFSIGNALED (wstatus) ? WTERMSIG (wstatus) : 0;
  run->out = attack_read_fd (out);
  run->err = attack_read_fd (err);
}

#define attack_cli(run, input, env, ...) \
  attack_cli_argv ((run), (input), (env), (const char * const []) { __VA_ARGS__, NULL })

/* The file's text, or NULL when it cannot be read. */
static inline char *
attack_read_file (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

static inline void
attack_write_file (const char *path,
                   const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* Removes a test's folder and everything in it (see test-files-util.h). */
#define attack_remove_tree test_remove_tree

/* A fixture that is a temporary folder, removed with all it holds. */
typedef struct
{
  char *dir;
} AttackDir;

static inline void
attack_dir_setup (AttackDir     *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("tb-attack-XXXXXX", &error);
  g_assert_no_error (error);
}

static inline void
attack_dir_teardown (AttackDir     *f,
                     gconstpointer  data)
{
  attack_remove_tree (f->dir);
  g_free (f->dir);
}

#define attack_dir_test_add(path, func) \
  g_test_add ((path), AttackDir, NULL, attack_dir_setup, (func), attack_dir_teardown)
