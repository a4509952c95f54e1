/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The provider of a fork: the recorded turns up to the fork, then a live
 * provider when there is one. A recorded turn is read from the trace
 * when the run reaches it and handed to a scripted provider, which
 * forgets the turns it played: a long replay holds one turn at a time. */

#define G_LOG_DOMAIN "tb-replay"

#include "config.h"

#include "tb-replay-private.h"

#define TB_TYPE_FORK_PROVIDER (tb_fork_provider_get_type ())
G_DECLARE_FINAL_TYPE (TbForkProvider, tb_fork_provider, TB, FORK_PROVIDER, GObject)

struct _TbForkProvider
{
  GObject             parent_instance;
  TbScriptedProvider *scripted;
  TbProvider         *live;
  Run                *run;
  guint               fork_turn;    /* the turn replaced by fork_value, or G_MAXUINT */
  JsonNode           *fork_value;
  guint               n_scripted;
  guint               n_asked;
};

static void fork_provider_iface_init (TbProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TbForkProvider, tb_fork_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TB_TYPE_PROVIDER, fork_provider_iface_init))

static TbProvider *
fork_provider_current (TbForkProvider *self)
{
  if (self->live == NULL || self->n_asked < self->n_scripted)
    return TB_PROVIDER (self->scripted);
  return self->live;
}

static const char *
fork_provider_get_kind (TbProvider *provider)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);

  return self->live != NULL ? tb_provider_get_kind (self->live) : "scripted";
}

static JsonObject *
fork_provider_describe (TbProvider *provider)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);
  JsonObject *object = self->live != NULL ? tb_provider_describe (self->live) : json_object_new ();

  json_object_set_int_member (object, "replayed_turns", self->n_scripted);
  if (self->live == NULL)
    json_object_set_string_member (object, "kind", "scripted");
  return object;
}

static void
forward_complete (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  TbProviderResponse *response;

  response = tb_provider_complete_finish (TB_PROVIDER (object), result, &error);
  if (response == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, response, (GDestroyNotify) tb_provider_response_unref);
}

static void
fork_provider_complete_async (TbProvider          *provider,
                              TbProviderRequest   *request,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  TbProvider *current = fork_provider_current (self);

  g_task_set_source_tag (task, fork_provider_complete_async);

  if (current == TB_PROVIDER (self->scripted) && self->n_asked < _tb_replay_run_n_turns (self->run))
    {
      g_autoptr(JsonNode) turn = self->n_asked == self->fork_turn
                                 ? json_node_ref (self->fork_value)
                                 : _tb_replay_run_dup_turn (self->run, self->n_asked);
      g_autoptr(TbMessage) message = turn != NULL ? tb_message_from_json (turn, NULL) : NULL;

      if (message == NULL)
        message = tb_message_new (TB_MESSAGE_ROLE_ASSISTANT, "");
      _tb_scripted_provider_forget_played (self->scripted);
      tb_scripted_provider_append_response (self->scripted, message, NULL);
    }
  self->n_asked++;
  tb_provider_complete_async (current, request, cancellable, forward_complete,
                              g_steal_pointer (&task));
}

static TbProviderResponse *
fork_provider_complete_finish (TbProvider    *provider,
                               GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The recorded turns need no history; a live model after them may. */
static TbProviderHistory
fork_provider_get_history (TbProvider *provider)
{
  TbForkProvider *self = TB_FORK_PROVIDER (provider);

  return self->live != NULL ? tb_provider_get_history (self->live)
                            : TB_PROVIDER_HISTORY_LATEST_TURN;
}

static void
fork_provider_iface_init (TbProviderInterface *iface)
{
  iface->get_history = fork_provider_get_history;
  iface->get_kind = fork_provider_get_kind;
  iface->describe = fork_provider_describe;
  iface->complete_async = fork_provider_complete_async;
  iface->complete_finish = fork_provider_complete_finish;
}

static void
forward_wire_request (TbProvider *inner,
                      const char *url,
                      const char *body,
                      TbProvider *self)
{
  tb_provider_emit_wire_request (self, url, body);
}

static void
forward_wire_response (TbProvider *inner,
                       guint       status,
                       const char *body,
                       TbProvider *self)
{
  tb_provider_emit_wire_response (self, status, body);
}

static void
forward_text_delta (TbProvider *inner,
                    const char *delta,
                    TbProvider *self)
{
  tb_provider_emit_text_delta (self, delta);
}

static void
tb_fork_provider_dispose (GObject *object)
{
  TbForkProvider *self = (TbForkProvider *)object;

  if (self->scripted != NULL)
    g_signal_handlers_disconnect_by_data (self->scripted, self);
  if (self->live != NULL)
    g_signal_handlers_disconnect_by_data (self->live, self);
  g_clear_object (&self->scripted);
  g_clear_object (&self->live);
  g_clear_pointer (&self->run, _tb_replay_run_unref);
  g_clear_pointer (&self->fork_value, json_node_unref);

  G_OBJECT_CLASS (tb_fork_provider_parent_class)->dispose (object);
}

static void
tb_fork_provider_class_init (TbForkProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tb_fork_provider_dispose;
}

static void
tb_fork_provider_init (TbForkProvider *self)
{
}

/* @fork_value replaces recorded turn @fork_turn (G_MAXUINT: none). */
TbProvider *
_tb_replay_fork_provider_new (Run        *run,
                              guint       fork_turn,
                              JsonNode   *fork_value,
                              TbProvider *live,
                              guint       n_scripted)
{
  TbForkProvider *self = g_object_new (TB_TYPE_FORK_PROVIDER, NULL);
  TbScriptedProvider *scripted = tb_scripted_provider_new ();

  self->scripted = scripted;
  self->run = _tb_replay_run_ref (run);
  self->fork_turn = fork_value != NULL ? fork_turn : G_MAXUINT;
  self->fork_value = fork_value != NULL ? json_node_ref (fork_value) : NULL;
  self->live = live != NULL ? g_object_ref (live) : NULL;
  self->n_scripted = n_scripted;

  g_signal_connect (scripted, "wire-request", G_CALLBACK (forward_wire_request), self);
  g_signal_connect (scripted, "wire-response", G_CALLBACK (forward_wire_response), self);
  g_signal_connect (scripted, "text-delta", G_CALLBACK (forward_text_delta), self);
  if (live != NULL)
    {
      g_signal_connect (live, "wire-request", G_CALLBACK (forward_wire_request), self);
      g_signal_connect (live, "wire-response", G_CALLBACK (forward_wire_response), self);
      g_signal_connect (live, "text-delta", G_CALLBACK (forward_text_delta), self);
    }

  return TB_PROVIDER (self);
}
