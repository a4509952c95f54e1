/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-workspace-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb-io-private.h"
#include "tb-json.h"
#include "tb-workspace-file-store.h"

/* The default store: one JSON file, replaced atomically. A save writes a
 * temporary file beside the target (same directory, so the same file
 * system), fsyncs it, renames it over the target and fsyncs the directory:
 * after a crash at any point the file is either the old or the new
 * document, whole. A leftover `.NAME.XXXXXX` temporary file is harmless.
 *
 * The store also refuses to lose data it has not seen: it will not write
 * over a file it could not read (damaged), a file that exists but was never
 * loaded, or a file that another program changed since it was read.
 *
 * Writers take turns through an advisory lock (flock) on `NAME.lock`
 * beside the file. That file is never renamed or deleted, so every writer
 * locks the same inode; the kernel drops the lock of a process that dies.
 * Readers need no lock: the rename makes every read see a whole file. */

/* How long a writer waits for another one by default. */
#define DEFAULT_LOCK_TIMEOUT_MS 10000

typedef enum
{
  FILE_STATE_UNKNOWN,  /* never loaded: saving would write blind */
  FILE_STATE_ABSENT,   /* loaded, there was no file */
  FILE_STATE_PRESENT,  /* loaded or saved: stat recorded */
  FILE_STATE_DAMAGED,  /* could not be read: never written over */
} FileState;

struct _TbWorkspaceFileStore
{
  GObject    parent_instance;

  char      *path;
  char      *display;
  char      *lock_path;
  int        lock_fd;
  guint      lock_timeout_ms;
  FileState  state;
  char      *damage;     /* why it could not be read */
  dev_t      dev;
  ino_t      ino;
  off_t      size;
  gint64     mtime_ns;
  char      *checksum;   /* of what was last read or written */
};

static void store_iface_init (TbWorkspaceStoreInterface *iface);

/**
 * TbWorkspaceFileStore:
 *
 * The default #TbWorkspaceStore: one JSON file, replaced atomically. A save
 * writes a temporary file beside the target, syncs it to disk and renames
 * it over the target, so that after a crash the file holds either the old or
 * the new document, whole. It refuses to write over a file it could not
 * read, one it never loaded, or one another program changed since it was
 * read. Writers take turns through an advisory lock on `NAME.lock` beside
 * the file.
 */
G_DEFINE_FINAL_TYPE_WITH_CODE (TbWorkspaceFileStore, tb_workspace_file_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TB_TYPE_WORKSPACE_STORE, store_iface_init))

enum { PROP_0, PROP_PATH, PROP_LOCK_TIMEOUT, N_PROPS };

static GParamSpec *properties [N_PROPS];

static gint64
stat_mtime_ns (const struct stat *st)
{
  return (gint64) st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_mtim.tv_nsec;
}

static void
remember_stat (TbWorkspaceFileStore *self,
               const struct stat    *st)
{
  self->state = FILE_STATE_PRESENT;
  self->dev = st->st_dev;
  self->ino = st->st_ino;
  self->size = st->st_size;
  self->mtime_ns = stat_mtime_ns (st);
}

static void set_io_error (GError     **error,
                          int          saved_errno,
                          const char  *format,
                          ...) G_GNUC_PRINTF (3, 4);

static void
set_io_error (GError     **error,
              int          saved_errno,
              const char  *format,
              ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_IO,
               "%s: %s", what, g_strerror (saved_errno));
}

static void
mark_damaged (TbWorkspaceFileStore  *self,
              GError               **error,
              TbWorkspaceError       code,
              const char            *reason)
{
  g_autofree char *display = g_filename_display_name (self->path);

  self->state = FILE_STATE_DAMAGED;
  g_free (self->damage);
  self->damage = g_strdup (reason);
  g_set_error (error, TB_WORKSPACE_ERROR, code,
               /* Translators: %s is a file name, then the reason. */
               _("The workspace file “%s” cannot be read: %s. It was left untouched."),
               display, reason);
}

/* Reads the file's bytes and the stat of what was read. Returns TRUE with
 * @contents NULL and no error when there is no file. */
static gboolean
read_file (TbWorkspaceFileStore  *self,
           GString              **contents,
           struct stat           *st,
           GError               **error)
{
  g_autoptr(GString) buffer = NULL;
  int fd;

  *contents = NULL;

  fd = g_open (self->path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT)
        return TRUE;
      set_io_error (error, saved_errno, _("Could not open the workspace file “%s”"),
                    self->display);
      return FALSE;
    }

  /* The stat of the open file: what was read is what is remembered. */
  if (fstat (fd, st) != 0)
    {
      int saved_errno = errno;

      close (fd);
      set_io_error (error, saved_errno, _("Could not read the workspace file “%s”"),
                    self->display);
      return FALSE;
    }

  if (!S_ISREG (st->st_mode))
    {
      close (fd);
      mark_damaged (self, error, TB_WORKSPACE_ERROR_DAMAGED, _("it is not a regular file"));
      return FALSE;
    }

  if (st->st_size > TB_JSON_MAX_SIZE)
    {
      g_autofree char *limit = g_format_size_full (TB_JSON_MAX_SIZE, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *reason =
        g_strdup_printf (_("it is larger than the limit of %s"), limit);

      close (fd);
      mark_damaged (self, error, TB_WORKSPACE_ERROR_DAMAGED, reason);
      return FALSE;
    }

  buffer = g_string_sized_new (st->st_size + 1);
  for (;;)
    {
      char chunk[65536];
      gssize n = read (fd, chunk, sizeof chunk);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          set_io_error (error, saved_errno, _("Could not read the workspace file “%s”"),
                        self->display);
          return FALSE;
        }
      if (n == 0)
        break;
      g_string_append_len (buffer, chunk, n);
      if (buffer->len > TB_JSON_MAX_SIZE)
        {
          close (fd);
          mark_damaged (self, error, TB_WORKSPACE_ERROR_DAMAGED,
                        _("it grew beyond the size limit while it was read"));
          return FALSE;
        }
    }
  close (fd);

  *contents = g_steal_pointer (&buffer);
  return TRUE;
}

static char *
checksum_of (const char *data,
             gsize       length)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
}

/* The checksum of what save writes: @text and a final newline. */
static char *
checksum_of_text (const char *text,
                  gsize       length)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

  g_checksum_update (checksum, (const guchar *) text, length);
  g_checksum_update (checksum, (const guchar *) "\n", 1);
  return g_strdup (g_checksum_get_string (checksum));
}

static gboolean
parse_contents (TbWorkspaceFileStore  *self,
                GString               *contents,
                const struct stat     *st,
                JsonNode             **document,
                GError               **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = tb_json_parse (contents->str, contents->len, &local_error);
  if (node == NULL)
    {
      g_autofree char *reason = g_strdup_printf (_("it is not JSON (%s)"), local_error->message);

      mark_damaged (self, error, TB_WORKSPACE_ERROR_DAMAGED, reason);
      return FALSE;
    }

  remember_stat (self, st);
  g_free (self->checksum);
  self->checksum = checksum_of (contents->str, contents->len);
  *document = g_steal_pointer (&node);
  return TRUE;
}

/* Reads the file for a load or a reload. Without a file, @contents is
 * %NULL and the store notes that there is none. */
static gboolean
read_current (TbWorkspaceFileStore  *self,
              GString              **contents,
              struct stat           *st,
              GCancellable          *cancellable,
              GError               **error)
{
  *contents = NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!read_file (self, contents, st, error))
    return FALSE;
  if (*contents == NULL)
    {
      self->state = FILE_STATE_ABSENT;
      g_clear_pointer (&self->checksum, g_free);
    }
  return TRUE;
}

static gboolean
tb_workspace_file_store_load (TbWorkspaceStore  *store,
                              JsonNode         **document,
                              GCancellable      *cancellable,
                              GError           **error)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (store);
  g_autoptr(GString) contents = NULL;
  struct stat st;

  if (!read_current (self, &contents, &st, cancellable, error))
    return FALSE;
  if (contents == NULL)
    return TRUE;

  return parse_contents (self, contents, &st, document, error);
}

/* Parses only what changed: the lock is held meanwhile, and a big
 * workspace costs far more to parse than to read. */
static gboolean
tb_workspace_file_store_reload (TbWorkspaceStore  *store,
                                JsonNode         **document,
                                gboolean          *changed,
                                GCancellable      *cancellable,
                                GError           **error)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (store);
  g_autoptr(GString) contents = NULL;
  g_autofree char *checksum = NULL;
  FileState before = self->state;
  struct stat st;

  if (!read_current (self, &contents, &st, cancellable, error))
    return FALSE;
  if (contents == NULL)
    {
      *changed = before != FILE_STATE_ABSENT;
      return TRUE;
    }

  checksum = checksum_of (contents->str, contents->len);
  if (self->state == FILE_STATE_PRESENT && g_strcmp0 (checksum, self->checksum) == 0)
    {
      remember_stat (self, &st);
      return TRUE;
    }

  *changed = TRUE;
  return parse_contents (self, contents, &st, document, error);
}

/* Refuses when saving would lose something the store has not seen. */
static gboolean
check_safe_to_write (TbWorkspaceFileStore  *self,
                     GError               **error)
{
  g_autofree char *display = g_filename_display_name (self->path);
  struct stat st;
  gboolean exists;

  switch (self->state)
    {
    case FILE_STATE_DAMAGED:
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_DAMAGED,
                   _("The workspace file “%s” could not be read (%s), so it is not written "
                     "over. Move it aside or repair it, then open the workspace again."),
                   display, self->damage);
      return FALSE;

    case FILE_STATE_UNKNOWN:
    case FILE_STATE_ABSENT:
    case FILE_STATE_PRESENT:
    default:
      break;
    }

  exists = g_stat (self->path, &st) == 0;

  if (self->state == FILE_STATE_UNKNOWN && exists)
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFLICT,
                   _("The workspace file “%s” exists but was never read, so it is not written "
                     "over. Open the workspace from it first."),
                   display);
      return FALSE;
    }

  if ((self->state == FILE_STATE_ABSENT && exists) ||
      (self->state == FILE_STATE_PRESENT &&
       (!exists || st.st_dev != self->dev || st.st_ino != self->ino ||
        st.st_size != self->size || stat_mtime_ns (&st) != self->mtime_ns)))
    {
      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_CONFLICT,
                   _("The workspace file “%s” was changed by another program since it was "
                     "read; saving now would lose those changes. Open it again, then repeat "
                     "the change."),
                   display);
      return FALSE;
    }

  return TRUE;
}

static gboolean
tb_workspace_file_store_save (TbWorkspaceStore  *store,
                              JsonNode          *document,
                              GCancellable      *cancellable,
                              GError           **error)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (store);
  g_autofree char *text = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp_path = NULL;
  struct stat st;
  gsize length;
  int saved_errno;
  int fd;
  int dir_fd;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  if (!check_safe_to_write (self, error))
    return FALSE;

  text = tb_json_to_string (document, TRUE);
  length = strlen (text);

  /* Never write what could not be read back. */
  if (length + 1 > TB_JSON_MAX_SIZE)
    {
      g_autofree char *limit = g_format_size_full (TB_JSON_MAX_SIZE, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_INVALID_VALUE,
                   _("The workspace would be larger than %s, which could not be read back; "
                     "it was not saved. Remove large draft entries or resolve proposals."),
                   limit);
      return FALSE;
    }

  dir = g_path_get_dirname (self->path);
  base = g_path_get_basename (self->path);
  tmp_path = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);

  fd = g_mkstemp_full (tmp_path, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      set_io_error (error, errno, _("Could not create a temporary file beside “%s”"),
                    self->display);
      return FALSE;
    }

  /* Keep the permissions the person gave the file. */
  if (self->state == FILE_STATE_PRESENT && g_stat (self->path, &st) == 0)
    (void) fchmod (fd, st.st_mode & 07777);

  if (!_tb_write_all (fd, text, length) || !_tb_write_all (fd, "\n", 1) || fsync (fd) != 0)
    {
      saved_errno = errno;
      close (fd);
      g_unlink (tmp_path);
      set_io_error (error, saved_errno, _("Could not write the workspace file “%s”"),
                    self->display);
      return FALSE;
    }

  if (close (fd) != 0)
    {
      saved_errno = errno;
      g_unlink (tmp_path);
      set_io_error (error, saved_errno, _("Could not write the workspace file “%s”"),
                    self->display);
      return FALSE;
    }

  if (g_rename (tmp_path, self->path) != 0)
    {
      saved_errno = errno;
      g_unlink (tmp_path);
      set_io_error (error, saved_errno, _("Could not replace the workspace file “%s”"),
                    self->display);
      return FALSE;
    }

  /* The rename itself must reach the disk too. */
  dir_fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dir_fd >= 0)
    {
      (void) fsync (dir_fd);
      close (dir_fd);
    }

  if (g_stat (self->path, &st) == 0)
    remember_stat (self, &st);
  g_free (self->checksum);
  self->checksum = checksum_of_text (text, length);

  return TRUE;
}

/* flock() locks belong to the open file, so two stores in one process
 * exclude each other too, and a writer that dies lets go at once. The
 * wait polls so that it can be bounded and cancelled. */
static gboolean
tb_workspace_file_store_lock (TbWorkspaceStore  *store,
                              GCancellable      *cancellable,
                              GError           **error)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (store);
  gint64 deadline;
  gulong delay = 1000;
  int fd;

  g_return_val_if_fail (self->lock_fd < 0, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  fd = g_open (self->lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0)
    {
      g_autofree char *display = g_filename_display_name (self->lock_path);

      set_io_error (error, errno, _("Could not open the lock file “%s” of the workspace"),
                    display);
      return FALSE;
    }

  deadline = g_get_monotonic_time () + (gint64) self->lock_timeout_ms * 1000;
  for (;;)
    {
      gint64 now;

      if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        break;

      if (errno == EINTR)
        continue;

      if (errno != EWOULDBLOCK)
        {
          int saved_errno = errno;
          g_autofree char *display = g_filename_display_name (self->lock_path);

          close (fd);
          set_io_error (error, saved_errno, _("Could not lock the workspace file “%s”"),
                        display);
          return FALSE;
        }

      now = g_get_monotonic_time ();
      if (now >= deadline)
        {
          close (fd);
          g_set_error (error, TB_WORKSPACE_ERROR, TB_WORKSPACE_ERROR_BUSY,
                       /* Translators: %s is a file name, %u a number of seconds. */
                       g_dngettext (GETTEXT_PACKAGE,
                                    "Another program holds the workspace “%s” locked and did "
                                    "not let go within %u second; nothing was changed. Try "
                                    "again when it has finished.",
                                    "Another program holds the workspace “%s” locked and did "
                                    "not let go within %u seconds; nothing was changed. Try "
                                    "again when it has finished.",
                                    MAX (1, self->lock_timeout_ms / 1000)),
                       self->display, MAX (1, self->lock_timeout_ms / 1000));
          return FALSE;
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return FALSE;
        }

      g_usleep (MIN ((gint64) delay, deadline - now));
      delay = MIN (delay * 2, 20000);
    }

  self->lock_fd = fd;
  return TRUE;
}

static void
tb_workspace_file_store_unlock (TbWorkspaceStore *store)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (store);

  g_return_if_fail (self->lock_fd >= 0);

  /* Closing the only descriptor of the open file releases its lock. */
  close (self->lock_fd);
  self->lock_fd = -1;
}

static char *
tb_workspace_file_store_describe (TbWorkspaceStore *store)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (store);

  return g_filename_display_name (self->path);
}

static void
store_iface_init (TbWorkspaceStoreInterface *iface)
{
  iface->load = tb_workspace_file_store_load;
  iface->save = tb_workspace_file_store_save;
  iface->describe = tb_workspace_file_store_describe;
  iface->lock = tb_workspace_file_store_lock;
  iface->unlock = tb_workspace_file_store_unlock;
  iface->reload = tb_workspace_file_store_reload;
}

static void
tb_workspace_file_store_finalize (GObject *object)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (object);

  if (self->lock_fd >= 0)
    close (self->lock_fd);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->display, g_free);
  g_clear_pointer (&self->lock_path, g_free);
  g_clear_pointer (&self->damage, g_free);
  g_clear_pointer (&self->checksum, g_free);

  G_OBJECT_CLASS (tb_workspace_file_store_parent_class)->finalize (object);
}

static void
tb_workspace_file_store_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_LOCK_TIMEOUT:
      g_value_set_uint (value, self->lock_timeout_ms);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_workspace_file_store_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  TbWorkspaceFileStore *self = TB_WORKSPACE_FILE_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      self->display = g_filename_display_name (self->path);
      self->lock_path = g_strconcat (self->path, ".lock", NULL);
      break;

    case PROP_LOCK_TIMEOUT:
      self->lock_timeout_ms = g_value_get_uint (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_workspace_file_store_class_init (TbWorkspaceFileStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tb_workspace_file_store_finalize;
  object_class->get_property = tb_workspace_file_store_get_property;
  object_class->set_property = tb_workspace_file_store_set_property;

  /**
   * TbWorkspaceFileStore:path:
   *
   * The workspace file (a file name in the GLib file name encoding).
   */
  properties [PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TbWorkspaceFileStore:lock-timeout:
   *
   * How long, in milliseconds, a change waits for another writer to let go
   * of the workspace before it fails with %TB_WORKSPACE_ERROR_BUSY.
   */
  properties [PROP_LOCK_TIMEOUT] =
    g_param_spec_uint ("lock-timeout", NULL, NULL, 0, G_MAXUINT / 1000, DEFAULT_LOCK_TIMEOUT_MS,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tb_workspace_file_store_init (TbWorkspaceFileStore *self)
{
  self->state = FILE_STATE_UNKNOWN;
  self->lock_fd = -1;
  self->lock_timeout_ms = DEFAULT_LOCK_TIMEOUT_MS;
}

/**
 * tb_workspace_file_store_new:
 * @path: the workspace file; it need not exist yet
 *
 * Makes a store that keeps a workspace in a JSON file; nothing is read or
 * written until the workspace loads or saves.
 *
 * Returns: (transfer full): a store that keeps the workspace in @path
 */
TbWorkspaceStore *
tb_workspace_file_store_new (const char *path)
{
  g_return_val_if_fail (path != NULL && *path != '\0', NULL);

  return g_object_new (TB_TYPE_WORKSPACE_FILE_STORE, "path", path, NULL);
}

/**
 * tb_workspace_file_store_get_path:
 * @self: a file store
 *
 * Gives the file the store keeps the workspace in.
 *
 * Returns: the workspace file
 */
const char *
tb_workspace_file_store_get_path (TbWorkspaceFileStore *self)
{
  g_return_val_if_fail (TB_IS_WORKSPACE_FILE_STORE (self), NULL);

  return self->path;
}
