/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A loop's conversation (tb_dispatch_loop_get_messages()). Each message is
 * also a "message" event of the loop's trace; when the trace is recorded
 * to a file and the provider needs only the latest turn, the list keeps
 * only its latest messages in memory and reads an older one back from
 * the file, through the trace, when it is asked for. What it keeps for
 * that is the trace position of each message: four bytes a message. */

#define G_LOG_DOMAIN "tb-dispatch-loop"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tb-json.h"
#include "tb-loop-messages-private.h"
#include "tb-trace-private.h"

struct _TbLoopMessages
{
  GObject    parent_instance;

  TbTrace   *trace;
  GPtrArray *messages;    /* in memory: positions first … n - 1 */
  GArray    *positions;   /* guint: each message's position in the trace */
  guint      first;
  guint      window;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbLoopMessages, tb_loop_messages, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
tb_loop_messages_get_item_type (GListModel *model)
{
  return TB_TYPE_MESSAGE;
}

static guint
tb_loop_messages_get_n_items (GListModel *model)
{
  return TB_LOOP_MESSAGES (model)->positions->len;
}

/* A message that left memory, as its event in the file says it; one
 * that cannot be read back says why instead. */
static TbMessage *
read_back (TbLoopMessages *self,
           guint           position)
{
  guint event_position = g_array_index (self->positions, guint, position);
  g_autoptr(TbTraceEvent) event = NULL;
  JsonObject *payload;
  JsonNode *message;
  TbMessage *read = NULL;

  event = tb_trace_get_event (self->trace, event_position);
  if (event != NULL)
    g_object_ref (event);
  payload = event != NULL ? tb_trace_event_get_payload (event) : NULL;
  message = payload != NULL ? json_object_get_member (payload, "message") : NULL;
  if (message != NULL)
    read = tb_message_from_json (message, NULL);
  if (read == NULL)
    {
      const char *reason = payload != NULL ? tb_json_object_get_string (payload, "reason") : NULL;
      g_autofree char *text =
        g_strdup_printf (_("Message %u can no longer be read from the trace: %s"), position + 1,
                         reason != NULL ? reason : _("its event is not a message"));

      read = tb_message_new (TB_MESSAGE_ROLE_SYSTEM, text);
    }
  return read;
}

static gpointer
tb_loop_messages_get_item (GListModel *model,
                           guint       position)
{
  TbLoopMessages *self = TB_LOOP_MESSAGES (model);

  if (position >= self->positions->len)
    return NULL;
  if (position < self->first)
    return read_back (self, position);
  return g_object_ref (g_ptr_array_index (self->messages, position - self->first));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = tb_loop_messages_get_item_type;
  iface->get_n_items = tb_loop_messages_get_n_items;
  iface->get_item = tb_loop_messages_get_item;
}

static void
tb_loop_messages_finalize (GObject *object)
{
  TbLoopMessages *self = (TbLoopMessages *)object;

  g_clear_object (&self->trace);
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_pointer (&self->positions, g_array_unref);

  G_OBJECT_CLASS (tb_loop_messages_parent_class)->finalize (object);
}

static void
tb_loop_messages_class_init (TbLoopMessagesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tb_loop_messages_finalize;
}

static void
tb_loop_messages_init (TbLoopMessages *self)
{
  self->messages = g_ptr_array_new_with_free_func (g_object_unref);
  self->positions = g_array_new (FALSE, FALSE, sizeof (guint));
}

TbLoopMessages *
_tb_loop_messages_new (TbTrace *trace)
{
  TbLoopMessages *self = g_object_new (TB_TYPE_LOOP_MESSAGES, NULL);

  self->trace = g_object_ref (trace);
  return self;
}

/* About how many messages stay in memory (between @window and twice as
 * many) once the trace is recorded; 0 keeps every one. */
void
_tb_loop_messages_set_window (TbLoopMessages *self,
                              guint           window)
{
  self->window = window;
}

/* @message is the conversation's next, recorded at @trace_position. */
void
_tb_loop_messages_append (TbLoopMessages *self,
                          TbMessage      *message,
                          guint           trace_position)
{
  g_ptr_array_add (self->messages, g_object_ref (message));
  g_array_append_val (self->positions, trace_position);
  g_list_model_items_changed (G_LIST_MODEL (self), self->positions->len - 1, 0, 1);

  /* Only what the trace can give back leaves memory. */
  if (self->window > 0 && self->messages->len >= 2 * self->window &&
      _tb_trace_can_read_back (self->trace))
    {
      guint drop = self->messages->len - self->window;

      g_ptr_array_remove_range (self->messages, 0, drop);
      self->first += drop;
    }
}

guint
_tb_loop_messages_get_n_in_memory (TbLoopMessages *self)
{
  return self->messages->len;
}
