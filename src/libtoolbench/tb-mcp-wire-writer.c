/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-mcp"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tb-io-private.h"
#include "tb-json.h"
#include "tb-mcp-wire-writer.h"

/**
 * TbMcpWireWriter:
 *
 * Writes protocol records (#TbMcpWireRecord) to a file in their JSON Lines
 * form (docs/protocol-view.md), one line per record, each handed to the
 * kernel in one write() as it comes, so that a process that is killed
 * leaves whole lines behind. `toolbench-cli --wire` follows the clients
 * it starts with tb_mcp_wire_writer_watch(); the app's export writes a
 * history with tb_mcp_wire_writer_write_all().
 *
 * Each line passes through the writer's #TbRedactor first, as the lines
 * of a trace do.
 */

struct _TbMcpWireWriter
{
  GObject     parent_instance;

  char       *path;
  int         fd;
  TbRedactor *redactor;
  GError     *error;
};

enum { FAILED, N_SIGNALS };

static guint signals [N_SIGNALS];

G_DEFINE_FINAL_TYPE (TbMcpWireWriter, tb_mcp_wire_writer, G_TYPE_OBJECT)

static void
close_fd (TbMcpWireWriter *self)
{
  if (self->fd >= 0)
    {
      g_close (self->fd, NULL);
      self->fd = -1;
    }
}

static void
tb_mcp_wire_writer_finalize (GObject *object)
{
  TbMcpWireWriter *self = (TbMcpWireWriter *) object;

  close_fd (self);
  g_free (self->path);
  g_clear_object (&self->redactor);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (tb_mcp_wire_writer_parent_class)->finalize (object);
}

static void
tb_mcp_wire_writer_class_init (TbMcpWireWriterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_mcp_wire_writer_finalize;

  /**
   * TbMcpWireWriter::failed:
   * @self: the writer
   * @error: why the file cannot be written any more (a sentence naming it)
   *
   * A line could not be written (the disk is full); nothing more is.
   */
  signals [FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
tb_mcp_wire_writer_init (TbMcpWireWriter *self)
{
  self->fd = -1;
  self->redactor = tb_redactor_new ();
}

/**
 * tb_mcp_wire_writer_new_for_path:
 * @path: the file to write; it is created, or emptied when it exists
 * @error: return location for an error
 *
 * Makes a writer of the protocol view of a run to a JSON Lines file, one
 * record a line, as `--wire FILE` does; attach clients with
 * tb_mcp_wire_writer_watch().
 *
 * Returns: (transfer full) (nullable): a writer, or %NULL with @error
 *   naming the file and saying why it cannot be written
 */
TbMcpWireWriter *
tb_mcp_wire_writer_new_for_path (const char  *path,
                                 GError     **error)
{
  g_autoptr(TbMcpWireWriter) self = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   /* Translators: a file name, then why it cannot be written */
                   _("Cannot write the protocol log “%s”: %s"), path, g_strerror (saved));
      return NULL;
    }

  self = g_object_new (TB_TYPE_MCP_WIRE_WRITER, NULL);
  self->fd = fd;
  self->path = g_strdup (path);
  return g_steal_pointer (&self);
}

/**
 * tb_mcp_wire_writer_get_path:
 * @self: a writer
 *
 * Gives the file the writer writes.
 *
 * Returns: the path
 */
const char *
tb_mcp_wire_writer_get_path (TbMcpWireWriter *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_WRITER (self), NULL);
  return self->path;
}

/**
 * tb_mcp_wire_writer_set_redactor:
 * @self: a writer
 * @redactor: (nullable): what removes secrets from each line; %NULL for
 *   one that knows no keys, only the shapes of credentials
 *
 * Sets what masks secrets in every line before it is written: the keys the
 * run knows, besides the shapes of credentials.
 */
void
tb_mcp_wire_writer_set_redactor (TbMcpWireWriter *self,
                                 TbRedactor      *redactor)
{
  g_return_if_fail (TB_IS_MCP_WIRE_WRITER (self));
  g_return_if_fail (redactor == NULL || TB_IS_REDACTOR (redactor));

  g_clear_object (&self->redactor);
  self->redactor = redactor != NULL ? g_object_ref (redactor) : tb_redactor_new ();
}

/**
 * tb_mcp_wire_writer_write:
 * @self: a writer
 * @record: a record
 * @error: return location for an error
 *
 * Writes one line. After a failure (tb_mcp_wire_writer_get_error())
 * nothing more is written.
 *
 * Returns: whether the line was written
 */
gboolean
tb_mcp_wire_writer_write (TbMcpWireWriter  *self,
                          TbMcpWireRecord  *record,
                          GError          **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) clean = NULL;
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;

  g_return_val_if_fail (TB_IS_MCP_WIRE_WRITER (self), FALSE);
  g_return_val_if_fail (TB_IS_MCP_WIRE_RECORD (record), FALSE);

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }
  if (self->fd < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED,
                   _("The protocol log “%s” is already closed"), self->path);
      return FALSE;
    }

  node = tb_mcp_wire_record_to_json (record);
  clean = tb_redactor_redact_node (self->redactor, node);
  text = tb_json_to_string (clean, FALSE);
  line = g_strconcat (text, "\n", NULL);
  if (!_tb_write_all (self->fd, line, strlen (line)))
    {
      int saved = errno;

      self->error = g_error_new (G_FILE_ERROR, g_file_error_from_errno (saved),
                                 _("Cannot write the protocol log “%s”: %s"), self->path,
                                 g_strerror (saved));
      close_fd (self);
      g_propagate_error (error, g_error_copy (self->error));
      g_signal_emit (self, signals [FAILED], 0, self->error);
      return FALSE;
    }
  return TRUE;
}

/**
 * tb_mcp_wire_writer_write_all:
 * @self: a writer
 * @records: a #GListModel of #TbMcpWireRecord, such as
 *   tb_mcp_client_get_wire_history()
 * @error: return location for an error
 *
 * Writes records that were kept before the writer was made, such as a
 * client's history, in order.
 *
 * Returns: whether every record was written
 */
gboolean
tb_mcp_wire_writer_write_all (TbMcpWireWriter  *self,
                              GListModel       *records,
                              GError          **error)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_WRITER (self), FALSE);
  g_return_val_if_fail (G_IS_LIST_MODEL (records), FALSE);

  for (guint i = 0; i < g_list_model_get_n_items (records); i++)
    {
      g_autoptr(TbMcpWireRecord) record = g_list_model_get_item (records, i);

      if (!tb_mcp_wire_writer_write (self, record, error))
        return FALSE;
    }
  return TRUE;
}

static void
on_record (TbMcpClient     *client,
           TbMcpWireRecord *record,
           TbMcpWireWriter *self)
{
  /* A failure is said once, by the failed signal. */
  if (self->error == NULL && self->fd >= 0)
    tb_mcp_wire_writer_write (self, record, NULL);
}

/**
 * tb_mcp_wire_writer_watch:
 * @self: a writer
 * @client: a client
 *
 * Writes the client's history so far, then each record as it comes, for
 * as long as the writer lives.
 */
void
tb_mcp_wire_writer_watch (TbMcpWireWriter *self,
                          TbMcpClient     *client)
{
  g_return_if_fail (TB_IS_MCP_WIRE_WRITER (self));
  g_return_if_fail (TB_IS_MCP_CLIENT (client));

  if (g_signal_handler_find (client, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                             on_record, self) != 0)
    return;
  if (self->error == NULL && self->fd >= 0)
    tb_mcp_wire_writer_write_all (self, tb_mcp_client_get_wire_history (client), NULL);
  g_signal_connect_object (client, "wire-record", G_CALLBACK (on_record), self, 0);
}

/**
 * tb_mcp_wire_writer_get_error:
 * @self: a writer
 *
 * Tells why the file stopped being written; the client goes on without it.
 *
 * Returns: (nullable): why the file could not be written, once it could not
 */
const GError *
tb_mcp_wire_writer_get_error (TbMcpWireWriter *self)
{
  g_return_val_if_fail (TB_IS_MCP_WIRE_WRITER (self), NULL);
  return self->error;
}

/**
 * tb_mcp_wire_writer_close:
 * @self: a writer
 * @error: return location for an error
 *
 * Closes the file; records that come later are not written.
 *
 * Returns: whether everything was written and the file closed
 */
gboolean
tb_mcp_wire_writer_close (TbMcpWireWriter  *self,
                          GError          **error)
{
  int fd;

  g_return_val_if_fail (TB_IS_MCP_WIRE_WRITER (self), FALSE);

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }
  fd = self->fd;
  self->fd = -1;
  if (fd >= 0 && close (fd) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot write the protocol log “%s”: %s"), self->path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}
