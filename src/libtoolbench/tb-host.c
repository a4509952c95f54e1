/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-host"
/* _Fork() and close_range(): the keeper below runs between fork and exec. */
#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tb-host-private.h"

/* Inside a Flatpak, the programs a person points Toolbench at (command
 * tools, stdio MCP servers) live on the host, which the sandbox cannot
 * see: they run through `flatpak-spawn --host`, with their working folder
 * and environment passed as its options. */

/**
 * tb_host_in_flatpak:
 *
 * Tells whether programs a person names (command tools, stdio MCP servers)
 * must be started on the host through `flatpak-spawn`, because the sandbox
 * cannot see them.
 *
 * Returns: whether the process runs inside a Flatpak sandbox
 */
gboolean
tb_host_in_flatpak (void)
{
  /* The variable lets the tests stand in for the sandbox's marker file. */
  const char *info = g_getenv ("TOOLBENCH_FLATPAK_INFO");

  return g_file_test (info != NULL ? info : "/.flatpak-info", G_FILE_TEST_EXISTS);
}

/**
 * tb_host_wrap_argv:
 * @argv: the command to run
 * @cwd: (nullable): its working folder
 * @env: (nullable): `NAME=VALUE` entries to set for it
 *
 * Turns a command into the one that runs it on the host from inside a
 * Flatpak sandbox, with its working folder and environment passed as
 * options of `flatpak-spawn`.
 *
 * Returns: (transfer full): `flatpak-spawn --host --watch-bus
 *   [--directory=CWD] [--env=NAME=VALUE…] ARGV…`; a command that already is
 *   flatpak-spawn is copied as it is
 */
char **
tb_host_wrap_argv (const char * const *argv,
                   const char         *cwd,
                   const char * const *env)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  if (g_strcmp0 (argv[0], "flatpak-spawn") == 0)
    return g_strdupv ((char **) argv);

  g_strv_builder_add (builder, "flatpak-spawn");
  g_strv_builder_add (builder, "--host");
  /* The host process ends with the app. */
  g_strv_builder_add (builder, "--watch-bus");
  if (cwd != NULL)
    {
      g_autofree char *option = g_strconcat ("--directory=", cwd, NULL);

      g_strv_builder_add (builder, option);
    }
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_autofree char *option = g_strconcat ("--env=", env[i], NULL);

      g_strv_builder_add (builder, option);
    }
  g_strv_builder_addv (builder, (const char **) argv);

  return g_strv_builder_end (builder);
}

/* Process trees.
 *
 * A command tool or a stdio MCP server may start processes of its own:
 * background jobs, daemons that call setsid(), helpers that outlive it.
 * None of them may outlive the call or the connection. Toolbench itself
 * does not become a subreaper (that would hand it every orphan of every
 * child, and GLib's child watches do not expect strangers); instead the
 * process Toolbench starts is a small keeper, forked from the spawn's
 * child setup, that:
 *
 * - becomes the subreaper of everything below it and dies with Toolbench
 *   (PR_SET_PDEATHSIG), then forks the command, which gets a process group
 *   of its own and goes on to exec;
 * - closes every descriptor, so that the pipes end exactly when the
 *   command and its descendants are gone;
 * - reaps orphans as they come, and when the command exits, or Toolbench
 *   asks (SIGTERM) or dies, kills the command's group and then every child
 *   it has, again and again, until none is left: an orphan's parent dies
 *   before it, so it comes to the keeper and is killed in the next round;
 * - ends with the command's own exit status or signal, so that the caller
 *   sees the command's result.
 *
 * Every kill names a process that is the keeper's unreaped child (or the
 * group of one): such a number cannot have been reused. The caller only
 * signals the keeper through GSubprocess, which never signals a reaped
 * process. */

/* How long flatpak-spawn gets to pass SIGTERM on to the host command. */
#define KEEPER_GENTLE_MS 1000

typedef struct
{
  pid_t       parent;
  gboolean    gentle;
  const char *no_fork;
  gsize       no_fork_length;
} Keeper;

/* What follows runs in the forked child of a threaded process: only
 * async-signal-safe calls, no allocation, no GLib. */

static pid_t
read_ppid (pid_t pid)
{
  char path[32] = "/proc/";
  char digits[12];
  char buf[512];
  gsize at = strlen (path);
  gsize n_digits = 0;
  ssize_t n;
  ssize_t i;
  pid_t ppid = 0;
  int fd;

  do
    digits[n_digits++] = '0' + pid % 10;
  while ((pid /= 10) > 0);
  while (n_digits > 0)
    path[at++] = digits[--n_digits];
  memcpy (path + at, "/stat", sizeof "/stat");

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;

  /* "pid (name) S ppid …"; the name may hold anything, so find its end
   * from the right. */
  for (i = n - 1; i > 0 && buf[i] != ')'; i--)
    ;
  for (i += 4; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
    ppid = ppid * 10 + (buf[i] - '0');
  return ppid;
}

/* SIGKILLs every child of the calling process; returns how many it hit. */
static guint
kill_children (void)
{
  struct entry {
    guint64        ino;
    gint64         off;
    unsigned short reclen;
    unsigned char  type;
    char           name[];
  };
  char buf[4096] __attribute__ ((aligned (8)));
  pid_t self = getpid ();
  guint killed = 0;
  long n;
  int dir;

  dir = open ("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    return 0;
  while ((n = syscall (SYS_getdents64, dir, buf, sizeof buf)) > 0)
    {
      for (long off = 0; off < n; )
        {
          const struct entry *entry = (const struct entry *) (buf + off);
          pid_t pid = 0;
          const char *c;

          off += entry->reclen;
          for (c = entry->name; *c >= '0' && *c <= '9' && pid < (1 << 22); c++)
            pid = pid * 10 + (*c - '0');
          if (*c != '\0' || pid <= 0 || pid == self)
            continue;
          if (read_ppid (pid) == self && kill (pid, SIGKILL) == 0)
            killed++;
        }
    }
  close (dir);
  return killed;
}

static gboolean
has_exited (pid_t pid)
{
  siginfo_t info;

  info.si_pid = 0;
  return waitid (P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* Reaps exited orphans; TRUE once the command has exited (left unreaped). */
static gboolean
reap_orphans (pid_t command)
{
  for (;;)
    {
      siginfo_t info;

      info.si_pid = 0;
      if (waitid (P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
        return FALSE;
      if (info.si_pid == command)
        return TRUE;
      waitpid (info.si_pid, NULL, 0);
    }
}

static gint64
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
stop_tree (const Keeper *keeper,
           pid_t         command,
           int          *status)
{
  pid_t pid;
  int st;

  if (keeper->gentle && !has_exited (command))
    {
      gint64 deadline = now_ms () + KEEPER_GENTLE_MS;
      sigset_t child;

      /* flatpak-spawn passes SIGTERM on to the command on the host, which
       * SIGKILL would leave running. */
      sigemptyset (&child);
      sigaddset (&child, SIGCHLD);
      kill (command, SIGTERM);
      while (!has_exited (command) && now_ms () < deadline)
        {
          struct timespec wait = { 0, 50 * 1000 * 1000 };

          sigtimedwait (&child, NULL, &wait);
        }
    }

  /* Unreaped, so neither the number nor the group can be someone else's. */
  kill (-command, SIGKILL);
  kill (command, SIGKILL);
  while (kill_children () > 0)
    {
      pid = waitpid (-1, &st, 0);
      if (pid < 0)
        break;
      if (pid == command)
        *status = st;
    }
  while ((pid = waitpid (-1, &st, WNOHANG)) > 0)
    if (pid == command)
      *status = st;
}

G_GNUC_NORETURN static void
exit_like (int status)
{
  struct rlimit no_core = { 0, 0 };
  struct sigaction action;
  sigset_t one;
  int sig;

  if (WIFEXITED (status))
    _exit (WEXITSTATUS (status));
  sig = WIFSIGNALED (status) ? WTERMSIG (status) : SIGKILL;
  /* The command's crash already dumped its core, if any. */
  setrlimit (RLIMIT_CORE, &no_core);
  memset (&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigaction (sig, &action, NULL);
  sigemptyset (&one);
  sigaddset (&one, sig);
  sigprocmask (SIG_UNBLOCK, &one, NULL);
  kill (getpid (), sig);
  _exit (128 + sig);
}

static void
keeper_child_setup (gpointer data)
{
  const Keeper *keeper = data;
  sigset_t watched;
  sigset_t none;
  pid_t self;
  pid_t command;
  int status = W_EXITCODE (0, SIGKILL);

  sigemptyset (&none);
  sigemptyset (&watched);
  sigaddset (&watched, SIGCHLD);
  sigaddset (&watched, SIGTERM);
  sigaddset (&watched, SIGINT);
  sigaddset (&watched, SIGHUP);
  sigprocmask (SIG_BLOCK, &watched, NULL);

  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGHUP);
  if (getppid () != keeper->parent)
    _exit (127);
  prctl (PR_SET_CHILD_SUBREAPER, 1);

  self = getpid ();
  command = _Fork ();
  if (command == 0)
    {
      /* The command: a group of its own, gone if its keeper is killed. */
      setpgid (0, 0);
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      if (getppid () != self)
        _exit (127);
      sigprocmask (SIG_SETMASK, &none, NULL);
      return;
    }
  if (command < 0)
    {
      if (write (2, keeper->no_fork, keeper->no_fork_length) < 0)
        _exit (127);
      _exit (127);
    }

  if (close_range (0, ~0U, 0) != 0)
    {
      struct rlimit limit;
      int max = 1024;

      if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        max = (int) MIN (limit.rlim_cur, 65536);
      for (int fd = 0; fd < max; fd++)
        close (fd);
    }

  for (;;)
    {
      int sig = sigwaitinfo (&watched, NULL);

      if (sig == SIGCHLD && !reap_orphans (command))
        continue;
      /* SIGHUP is the death signal: also sent when only the thread that
       * started the keeper ends, which is no reason to stop. */
      if (sig == SIGHUP && getppid () == keeper->parent)
        continue;
      if (sig < 0)
        continue;
      break;
    }

  stop_tree (keeper, command, &status);
  exit_like (status);
}

/**
 * _tb_host_spawn:
 * @launcher: pipes, folder and environment for the command
 * @argv: the command
 * @error: return location for the spawn error
 *
 * Starts @argv under a keeper (see above): when the command exits, or
 * _tb_host_stop() is called, or Toolbench dies, everything the command
 * started is killed. The process returned is the keeper; its exit status
 * or signal is the command's.
 *
 * Returns: (transfer full) (nullable): the process
 */
GSubprocess *
_tb_host_spawn (GSubprocessLauncher  *launcher,
                const char * const   *argv,
                GError              **error)
{
  g_autofree char *base = NULL;
  g_autofree char *no_fork = NULL;
  GSubprocess *process;
  Keeper keeper = { 0 };

  g_return_val_if_fail (G_IS_SUBPROCESS_LAUNCHER (launcher), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  base = g_path_get_basename (argv[0]);
  /* Translators: a command; said when the system refused a new process */
  no_fork = g_strdup_printf (_("“%s” could not be started: the system refused to create a "
                               "process\n"), argv[0]);
  keeper.parent = getpid ();
  keeper.gentle = g_str_equal (base, "flatpak-spawn");
  keeper.no_fork = no_fork;
  keeper.no_fork_length = strlen (no_fork);

  /* The child setup runs during the spawn call, so @keeper may live on the stack. */
  g_subprocess_launcher_set_child_setup (launcher, keeper_child_setup, &keeper, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, error);
  g_subprocess_launcher_set_child_setup (launcher, NULL, NULL, NULL);
  return process;
}

/**
 * _tb_host_stop:
 * @process: a process from _tb_host_spawn()
 *
 * Asks the keeper to kill the command and all it started. Safe after the
 * process has exited.
 */
void
_tb_host_stop (GSubprocess *process)
{
  g_return_if_fail (G_IS_SUBPROCESS (process));

  g_subprocess_send_signal (process, SIGTERM);
}
