/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-file-tools"
/* O_PATH */
#define _GNU_SOURCE

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tb-file-tools.h"
#include "tb-io-private.h"
#include "tb-tool-private.h"
#include "tb-json.h"

/*
 * The built-in file tools, read_file, write_file and list_dir, confined to
 * one root folder.
 *
 * Paths are relative to the root. Refused before any file is touched: an
 * empty path, an absolute path, a “..” component, a name longer than 255
 * bytes or a path longer than 4,096. Then every open goes through the
 * kernel with openat2(RESOLVE_BENEATH) from the root: a symbolic link is
 * followed only while it stays inside the root, a loop of links fails, and
 * no race can swap a component for a link that leaves. Where openat2 is
 * not available (older kernels, some sandboxes), the path is resolved with
 * realpath(), checked to be inside the root, opened with O_NOFOLLOW, and
 * the opened file's real path (/proc/self/fd) is checked again.
 *
 * Only regular files with one link, and folders, are read or written: a
 * second name of a file may be outside the root, where no path check can
 * see it, and FIFOs, devices and sockets block or have effects when
 * opened. read_file checks the kind on an O_PATH descriptor before it
 * opens the file (with O_NONBLOCK, and checks it got the same file).
 * write_file never writes into an existing file: it writes a new one
 * beside it and renames it over, so a reader sees the old or the new
 * content, never half, and a link or device swapped in meanwhile is
 * replaced rather than written through. A final symbolic link is refused.
 *
 * Refusals are permission-denied failures that say what was refused and
 * why, in a sentence a person (or a model) can act on.
 */

typedef struct
{
  gatomicrefcount  ref;
  char            *root;
  int              root_fd;
} Sandbox;

static Sandbox *
sandbox_ref (Sandbox *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

static void
sandbox_unref (Sandbox *self)
{
  if (g_atomic_ref_count_dec (&self->ref))
    {
      if (self->root_fd >= 0)
        close (self->root_fd);
      g_free (self->root);
      g_free (self);
    }
}

static gboolean
use_openat2 (void)
{
  /* TOOLBENCH_FILE_TOOLS_NO_OPENAT2=1 takes the fallback path (tests). */
  return g_getenv ("TOOLBENCH_FILE_TOOLS_NO_OPENAT2") == NULL;
}

static gboolean
refuse (GError     **error,
        const char  *path,
        const char  *format,
        ...) G_GNUC_PRINTF (3, 4);

static gboolean
refuse (GError     **error,
        const char  *path,
        const char  *format,
        ...)
{
  g_autofree char *why = NULL;
  g_autofree char *shown = g_utf8_make_valid (path, MIN (strlen (path), 200));
  va_list args;

  va_start (args, format);
  why = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_PERMISSION_DENIED,
               /* Translators: a path, then why it is refused */
               _("“%s” is refused: %s"), shown, why);
  return FALSE;
}

static gboolean
check_relative (Sandbox     *sandbox,
                const char  *path,
                GError     **error)
{
  g_auto(GStrv) parts = NULL;

  if (path == NULL || *path == '\0')
    return refuse (error, "", _("give a path relative to the tool folder"));
  if (strlen (path) > PATH_MAX)
    return refuse (error, path, _("the path is longer than %d bytes"), PATH_MAX);
  if (g_path_is_absolute (path))
    return refuse (error, path, _("absolute paths are not allowed; give a path relative to "
                                  "the tool folder %s"), sandbox->root);
  parts = g_strsplit (path, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (g_str_equal (parts[i], ".."))
        return refuse (error, path, _("“..” is not allowed; the file tools only reach inside "
                                      "%s"), sandbox->root);
      if (strlen (parts[i]) > NAME_MAX)
        return refuse (error, path, _("a name in the path is longer than %d bytes"), NAME_MAX);
    }
  return TRUE;
}

static gboolean
errno_error (GError     **error,
             const char  *path,
             int          saved)
{
  switch (saved)
    {
    case EXDEV:
      return refuse (error, path, _("it leads outside the tool folder through a symbolic link"));
    case ELOOP:
      return refuse (error, path, _("it is a symbolic link, or goes through a loop of them"));
    case ENAMETOOLONG:
      return refuse (error, path, _("the path or a name in it is too long"));
    default:
      {
        g_autofree char *shown = g_utf8_make_valid (path, MIN (strlen (path), 200));

        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                     /* Translators: a path, then the system's reason */
                     _("“%s”: %s"), shown, g_strerror (saved));
        return FALSE;
      }
    }
}

static gboolean
inside_root (Sandbox    *sandbox,
             const char *real)
{
  gsize len = strlen (sandbox->root);

  return g_str_equal (real, sandbox->root) ||
         (strncmp (real, sandbox->root, len) == 0 &&
          (real[len] == '/' || g_str_equal (sandbox->root, "/")));
}

/* After the fact, on the opened file itself. */
static gboolean
check_fd (Sandbox     *sandbox,
          int          fd,
          const char  *path,
          GError     **error)
{
  g_autofree char *link = g_strdup_printf ("/proc/self/fd/%d", fd);
  g_autofree char *real = g_file_read_link (link, NULL);

  if (real == NULL || !inside_root (sandbox, real))
    return refuse (error, path, _("it leads outside the tool folder"));
  return TRUE;
}

/* @shown is the path the caller gave, for messages. */
static int
open_fallback (Sandbox     *sandbox,
               const char  *path,
               const char  *shown,
               int          flags,
               GError     **error)
{
  g_autofree char *full = g_build_filename (sandbox->root, path, NULL);
  char resolved[PATH_MAX];
  int fd;

  if (realpath (full, resolved) == NULL)
    {
      errno_error (error, shown, errno);
      return -1;
    }
  if (!inside_root (sandbox, resolved))
    {
      refuse (error, shown, _("it leads outside the tool folder through a symbolic link"));
      return -1;
    }

  fd = open (resolved, flags | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    {
      errno_error (error, shown, errno);
      return -1;
    }
  if (!check_fd (sandbox, fd, shown, error))
    {
      close (fd);
      return -1;
    }
  return fd;
}

static int
open_beneath_as (Sandbox     *sandbox,
                 const char  *path,
                 const char  *shown,
                 int          flags,
                 GError     **error)
{
  struct open_how how = { 0 };
  long fd;

  if (!check_relative (sandbox, path, error))
    return -1;

  if (!use_openat2 ())
    return open_fallback (sandbox, path, shown, flags, error);

  how.flags = flags | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  fd = syscall (SYS_openat2, sandbox->root_fd, path, &how, sizeof how);
  if (fd < 0 && (errno == ENOSYS || errno == EPERM))
    return open_fallback (sandbox, path, shown, flags, error);
  if (fd < 0)
    {
      errno_error (error, shown, errno);
      return -1;
    }
  return (int) fd;
}

static int
open_beneath (Sandbox     *sandbox,
              const char  *path,
              int          flags,
              GError     **error)
{
  return open_beneath_as (sandbox, path, path, flags, error);
}

/* Regular files with one link, and folders; nothing else. */
static gboolean
check_kind (const char         *path,
            const struct stat  *st,
            GError            **error)
{
  if (S_ISREG (st->st_mode) && st->st_nlink > 1)
    return refuse (error, path, _("it is a hard link to a file that may be outside the tool "
                                  "folder; Toolbench reads and writes only files with one "
                                  "link"));
  if (S_ISREG (st->st_mode) || S_ISDIR (st->st_mode))
    return TRUE;
  if (S_ISFIFO (st->st_mode))
    return refuse (error, path, _("it is a named pipe (FIFO), not a regular file; the file "
                                  "tools read and write only regular files"));
  if (S_ISCHR (st->st_mode) || S_ISBLK (st->st_mode))
    return refuse (error, path, _("it is a device node, not a regular file; the file tools "
                                  "read and write only regular files"));
  if (S_ISSOCK (st->st_mode))
    return refuse (error, path, _("it is a socket, not a regular file; the file tools read "
                                  "and write only regular files"));
  return refuse (error, path, _("it is not a regular file; the file tools read and write only "
                                "regular files"));
}

/* Opens a file to read only after its kind was checked on an O_PATH
 * descriptor, which neither blocks on a FIFO nor wakes a device, and
 * checks that the file opened is the one checked. */
static int
open_to_read (Sandbox     *sandbox,
              const char  *path,
              GError     **error)
{
  struct stat before;
  struct stat after;
  int probe;
  int fd;

  probe = open_beneath (sandbox, path, O_PATH, error);
  if (probe < 0)
    return -1;
  if (fstat (probe, &before) != 0)
    {
      int saved = errno;

      close (probe);
      errno_error (error, path, saved);
      return -1;
    }
  close (probe);
  if (!check_kind (path, &before, error))
    return -1;
  if (S_ISDIR (before.st_mode))
    {
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                   _("“%s” is not a regular file; use list_dir for folders"), path);
      return -1;
    }

  fd = open_beneath (sandbox, path, O_RDONLY | O_NONBLOCK | O_NOCTTY, error);
  if (fd < 0)
    return -1;
  if (fstat (fd, &after) != 0 || after.st_dev != before.st_dev ||
      after.st_ino != before.st_ino || !check_kind (path, &after, error))
    {
      close (fd);
      if (error != NULL && *error == NULL)
        refuse (error, path, _("it was replaced while it was being opened; try again"));
      return -1;
    }
  return fd;
}

static gint64
member_int (JsonObject *object,
            const char *name,
            gint64      fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return fallback;
  return json_node_get_int (node);
}


static JsonNode *
read_file (TbTool        *tool,
           JsonObject    *arguments,
           JsonObject    *context,
           GCancellable  *cancellable,
           gpointer       user_data,
           GError       **error)
{
  Sandbox *sandbox = user_data;
  const char *path = tb_json_object_get_string (arguments, "path");
  gint64 start = member_int (arguments, "start_line", 1);
  gint64 end = member_int (arguments, "end_line", G_MAXINT64);
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  struct stat st;
  gint64 line = 1;
  const char *p;
  const char *stop;
  int fd;

  if (start < 1 || end < start)
    {
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_ARGUMENTS,
                   _("start_line must be at least 1 and end_line at least start_line"));
      return NULL;
    }

  fd = open_to_read (sandbox, path, error);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0)
    {
      int saved = errno;

      close (fd);
      errno_error (error, path, saved);
      return NULL;
    }
  if (st.st_size > TB_FILE_TOOLS_MAX_FILE)
    {
      g_autofree char *limit = g_format_size_full (TB_FILE_TOOLS_MAX_FILE,
                                                   G_FORMAT_SIZE_IEC_UNITS);

      close (fd);
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                   _("“%s” is larger than %s, the most read_file reads"), path, limit);
      return NULL;
    }

  g_byte_array_set_size (data, st.st_size);
  {
    gsize done = 0;

    while (done < (gsize) st.st_size)
      {
        ssize_t n = read (fd, data->data + done, st.st_size - done);

        if (n < 0 && errno == EINTR)
          continue;
        if (n <= 0)
          break;
        done += n;
      }
    g_byte_array_set_size (data, done);
  }
  close (fd);

  if (!g_utf8_validate ((const char *) data->data, data->len, NULL) ||
      memchr (data->data, '\0', data->len) != NULL)
    {
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_FAILED,
                   _("“%s” is not a text file (it is not valid UTF-8)"), path);
      return NULL;
    }

  p = (const char *) data->data;
  stop = p + data->len;
  while (p < stop)
    {
      const char *nl = memchr (p, '\n', stop - p);
      const char *next = nl != NULL ? nl + 1 : stop;

      if (line >= start && line <= end)
        g_string_append_len (text, p, next - p);
      p = next;
      line++;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "start_line");
  json_builder_add_int_value (builder, start);
  json_builder_set_member_name (builder, "end_line");
  json_builder_add_int_value (builder, MIN (end, line - 1));
  json_builder_set_member_name (builder, "total_lines");
  json_builder_add_int_value (builder, line - 1);
  json_builder_set_member_name (builder, "content");
  json_builder_add_string_value (builder, text->str);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* Writes a new file beside the target and renames it over the target: a
 * reader sees the old file or the new one, never half of one, and a link
 * swapped in meanwhile is replaced, not written through. */
static gboolean
replace_file (Sandbox     *sandbox,
              const char  *path,
              const char  *content,
              gsize        length,
              GError     **error)
{
  const char *slash = strrchr (path, '/');
  g_autofree char *dir = slash != NULL ? g_strndup (path, slash - path) : g_strdup (".");
  const char *base = slash != NULL ? slash + 1 : path;
  char temp[32];
  struct stat st;
  mode_t mode = 0644;
  gboolean exists;
  int dir_fd;
  int fd = -1;
  int saved;

  if (!check_relative (sandbox, path, error))
    return FALSE;
  if (*base == '\0' || g_str_equal (base, "."))
    return refuse (error, path, _("give the path of a file, not of a folder"));

  dir_fd = open_beneath_as (sandbox, dir, path, O_RDONLY | O_DIRECTORY, error);
  if (dir_fd < 0)
    return FALSE;

  exists = fstatat (dir_fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (!exists && errno != ENOENT)
    {
      saved = errno;
      close (dir_fd);
      return errno_error (error, path, saved);
    }
  if (exists)
    {
      if (S_ISLNK (st.st_mode))
        {
          close (dir_fd);
          return errno_error (error, path, ELOOP);
        }
      if (S_ISDIR (st.st_mode))
        {
          close (dir_fd);
          return errno_error (error, path, EISDIR);
        }
      if (!check_kind (path, &st, error))
        {
          close (dir_fd);
          return FALSE;
        }
      mode = st.st_mode & 07777;
    }

  for (guint attempt = 0; fd < 0 && attempt < 100; attempt++)
    {
      g_snprintf (temp, sizeof temp, ".tb-write-%08x", g_random_int ());
      fd = openat (dir_fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd < 0 && errno != EEXIST)
        break;
    }
  if (fd < 0)
    {
      saved = errno;
      close (dir_fd);
      return errno_error (error, path, saved);
    }

  if (!_tb_write_all (fd, content, length) || (exists && fchmod (fd, mode) != 0) ||
      fsync (fd) != 0)
    {
      saved = errno;
      close (fd);
      unlinkat (dir_fd, temp, 0);
      close (dir_fd);
      return errno_error (error, path, saved);
    }
  if (close (fd) != 0 || renameat (dir_fd, temp, dir_fd, base) != 0)
    {
      saved = errno;
      unlinkat (dir_fd, temp, 0);
      close (dir_fd);
      return errno_error (error, path, saved);
    }
  close (dir_fd);
  return TRUE;
}

static JsonNode *
write_file (TbTool        *tool,
            JsonObject    *arguments,
            JsonObject    *context,
            GCancellable  *cancellable,
            gpointer       user_data,
            GError       **error)
{
  Sandbox *sandbox = user_data;
  const char *path = tb_json_object_get_string (arguments, "path");
  const char *content = tb_json_object_get_string (arguments, "content");
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  gsize length;

  if (content == NULL)
    content = "";
  length = strlen (content);
  if (length > TB_FILE_TOOLS_MAX_FILE)
    {
      g_set_error (error, TB_TOOL_ERROR, TB_TOOL_ERROR_INVALID_ARGUMENTS,
                   _("The content is larger than the most write_file writes"));
      return NULL;
    }

  if (!replace_file (sandbox, path, content, length, error))
    return NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "bytes");
  json_builder_add_int_value (builder, length);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

static JsonNode *
list_dir (TbTool        *tool,
          JsonObject    *arguments,
          JsonObject    *context,
          GCancellable  *cancellable,
          gpointer       user_data,
          GError       **error)
{
  Sandbox *sandbox = user_data;
  const char *path = tb_json_object_get_string (arguments, "path");
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  gboolean truncated = FALSE;
  struct dirent *entry;
  DIR *dir;
  int fd;

  if (path == NULL || *path == '\0')
    path = ".";
  fd = open_beneath (sandbox, path, O_RDONLY | O_DIRECTORY, error);
  if (fd < 0)
    return NULL;
  dir = fdopendir (fd);
  if (dir == NULL)
    {
      int saved = errno;

      close (fd);
      errno_error (error, path, saved);
      return NULL;
    }
  while ((entry = readdir (dir)) != NULL)
    {
      if (g_str_equal (entry->d_name, ".") || g_str_equal (entry->d_name, ".."))
        continue;
      if (names->len >= TB_FILE_TOOLS_MAX_ENTRIES)
        {
          truncated = TRUE;
          break;
        }
      g_ptr_array_add (names, g_strdup (entry->d_name));
    }
  g_ptr_array_sort (names, compare_entries);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "entries");
  json_builder_begin_array (builder);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *shown = g_utf8_make_valid (name, -1);
      struct stat st;
      const char *type = "other";

      if (fstatat (dirfd (dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        {
          if (S_ISREG (st.st_mode))
            type = "file";
          else if (S_ISDIR (st.st_mode))
            type = "directory";
          else if (S_ISLNK (st.st_mode))
            type = "symlink";
        }
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, shown);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, type);
      if (g_str_equal (type, "file"))
        {
          json_builder_set_member_name (builder, "size");
          json_builder_add_int_value (builder, st.st_size);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "truncated");
  json_builder_add_boolean_value (builder, truncated);
  json_builder_end_object (builder);
  closedir (dir);
  return json_builder_get_root (builder);
}

static JsonNode *
schema (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = tb_json_parse (text, -1, &error);

  g_assert_no_error (error);
  return node;
}

/**
 * tb_file_tools_new:
 * @root: the folder the tools are confined to; it must exist
 * @error: return location for an error
 *
 * Makes the file tools, which read, write and list files inside @root only:
 * a path that leaves it, through ".." or a symbolic link, is refused with a
 * %TB_TOOL_FAILURE_PERMISSION_DENIED result.
 *
 * Returns: (transfer container) (element-type TbTool) (nullable):
 *   read_file, write_file and list_dir, source "builtin"
 */
GPtrArray *
tb_file_tools_new (const char  *root,
                   GError     **error)
{
  g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func (g_object_unref);
  char resolved[PATH_MAX];
  Sandbox *sandbox;
  static const struct {
    const char *name;
    const char *description;
    const char *schema;
    TbToolSimpleFunc func;
    TbToolHints hints;
  } defs[] = {
    { "read_file",
      N_("Reads a text file inside the tool folder, optionally only lines start_line to "
         "end_line (1-based, inclusive)."),
      "{\"type\":\"object\",\"properties\":{"
      "\"path\":{\"type\":\"string\",\"description\":\"Path relative to the tool folder\"},"
      "\"start_line\":{\"type\":\"integer\",\"minimum\":1},"
      "\"end_line\":{\"type\":\"integer\",\"minimum\":1}},"
      "\"required\":[\"path\"],\"additionalProperties\":false}",
      read_file, TB_TOOL_HINT_READ_ONLY | TB_TOOL_HINT_IDEMPOTENT },
    { "write_file",
      N_("Writes a text file inside the tool folder, replacing it if it exists. The folder "
         "it goes in must exist."),
      "{\"type\":\"object\",\"properties\":{"
      "\"path\":{\"type\":\"string\",\"description\":\"Path relative to the tool folder\"},"
      "\"content\":{\"type\":\"string\"}},"
      "\"required\":[\"path\",\"content\"],\"additionalProperties\":false}",
      write_file, TB_TOOL_HINT_DESTRUCTIVE | TB_TOOL_HINT_IDEMPOTENT },
    { "list_dir",
      N_("Lists a folder inside the tool folder (names, types and file sizes)."),
      "{\"type\":\"object\",\"properties\":{"
      "\"path\":{\"type\":\"string\",\"description\":\"Folder relative to the tool folder; "
      "default: the tool folder itself\"}},\"additionalProperties\":false}",
      list_dir, TB_TOOL_HINT_READ_ONLY | TB_TOOL_HINT_IDEMPOTENT },
  };

  g_return_val_if_fail (root != NULL, NULL);

  if (realpath (root, resolved) == NULL || !g_file_test (resolved, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The folder for the file tools, “%s”, does not exist"), root);
      return NULL;
    }

  sandbox = g_new0 (Sandbox, 1);
  g_atomic_ref_count_init (&sandbox->ref);
  sandbox->root = g_strdup (resolved);
  sandbox->root_fd = open (resolved, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (sandbox->root_fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot open the folder for the file tools, “%s”: %s"), root,
                   g_strerror (saved));
      sandbox_unref (sandbox);
      return NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (defs); i++)
    {
      g_autoptr(JsonNode) parameters = schema (defs[i].schema);
      TbTool *tool = tb_tool_new_simple_full (defs[i].name, _(defs[i].description), parameters,
                                              TB_TOOL_VISIBILITY_MODEL, "builtin", 0,
                                              TB_TOOL_SIMPLE_FLAGS_THREADED, defs[i].func,
                                              sandbox_ref (sandbox),
                                              (GDestroyNotify) sandbox_unref, error);

      if (tool == NULL)
        {
          sandbox_unref (sandbox);
          return NULL;
        }
      _tb_tool_set_hints (tool, defs[i].hints);
      g_ptr_array_add (tools, tool);
    }
  sandbox_unref (sandbox);
  return g_steal_pointer (&tools);
}

/**
 * tb_file_tools_register:
 * @registry: a registry
 * @root: the folder the tools are confined to
 * @error: return location for an error
 *
 * Registers read_file, write_file and list_dir.
 *
 * Returns: %TRUE when all three were registered
 */
gboolean
tb_file_tools_register (TbToolRegistry  *registry,
                        const char      *root,
                        GError         **error)
{
  g_autoptr(GPtrArray) tools = NULL;

  g_return_val_if_fail (TB_IS_TOOL_REGISTRY (registry), FALSE);

  tools = tb_file_tools_new (root, error);
  if (tools == NULL)
    return FALSE;
  for (guint i = 0; i < tools->len; i++)
    if (!tb_tool_registry_register (registry, g_ptr_array_index (tools, i), error))
      return FALSE;
  return TRUE;
}
