/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* The protocol view: what its records hold (tb-mcp-wire-record.c), and
 * the calls the transports make where a message goes out, comes in, or an
 * HTTP exchange gets its answer (tb-mcp-wire.c keeps the history). */

#include <libsoup/soup.h>

#include "tb-mcp-client.h"
#include "tb-mcp-wire-record.h"

G_BEGIN_DECLS

struct _TbMcpWireRecord
{
  GObject             parent_instance;

  guint64             seq;
  gint64              time;
  char               *server;
  char               *protocol;    /* the revision the message went in, when known */
  TbMcpWireDirection  direction;
  TbMcpWireKind       kind;
  char               *method;
  char               *id;          /* the JSON text of the id */
  guint64             size;
  char               *text;
  gboolean            truncated;
  char               *problem;
  char               *call_id;
  guint               exchange;
  JsonObject         *http;
};

TbMcpWireRecord *_tb_mcp_wire_record_new       (void);
gsize            _tb_mcp_wire_record_get_cost  (TbMcpWireRecord *self);

/* One call each where the transports send, receive, and learn how an HTTP
 * exchange went. */
guint _tb_mcp_wire_sent            (TbMcpClient        *client,
                                    JsonNode           *message,
                                    const char         *text,
                                    gsize               length,
                                    gboolean            over_http);
guint _tb_mcp_wire_begin_exchange  (TbMcpClient        *client,
                                    guint               continues);
void  _tb_mcp_wire_received        (TbMcpClient        *client,
                                    const char         *text,
                                    gsize               length,
                                    JsonNode           *message,
                                    const char         *problem,
                                    guint               exchange);
void  _tb_mcp_wire_received_too_large (TbMcpClient  *client,
                                       const char   *text,
                                       gsize         length,
                                       guint         exchange);
void  _tb_mcp_wire_exchange        (TbMcpClient        *client,
                                    guint               exchange,
                                    SoupMessage        *msg,
                                    const char * const *configured_headers,
                                    const GError       *error);

/* For the client (tb-mcp-client.c). */
void  _tb_mcp_wire_class_init      (GObjectClass       *klass);
void  _tb_mcp_wire_free            (gpointer            wire);

G_END_DECLS
