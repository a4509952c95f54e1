/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <libsoup/soup.h>
#include <toolbench.h>

G_BEGIN_DECLS

/* A SoupServer on 127.0.0.1 that answers provider requests from a queue of
 * canned replies and keeps every request it got. */

typedef enum
{
  REPLY_NORMAL,
  REPLY_SSE,          /* body is sent in one chunk with text/event-stream */
  REPLY_HANG,         /* never answers */
  REPLY_SSE_HANG,     /* sends body as events, then never ends the stream */
  REPLY_CLOSE,        /* closes the connection without answering */
  REPLY_SSE_DRIP,     /* sends body as events a few bytes at a time */
  REPLY_NDJSON,       /* body is sent in one chunk with application/x-ndjson */
  REPLY_NDJSON_DRIP,  /* sends body as JSON lines a few bytes at a time */
  REPLY_NDJSON_HANG,  /* sends body as JSON lines, then never ends the stream */
} ReplyMode;

typedef struct
{
  SoupServer *server;
  char       *base_url;
  GQueue      replies;
  GPtrArray  *bodies;       /* JsonNode of every request body */
  GPtrArray  *paths;        /* path?query of every request */
  GPtrArray  *auth;         /* the value of the key header, or "" */
  char       *key_header;   /* which header carries the key */
  GPtrArray  *held;         /* messages never answered */
} TestServer;

/* A provider of one kind against a TestServer, with the test registry
 * (echo, add, sleep, notes.add, facts.*) and the tools a model is offered. */
typedef struct
{
  TestServer     *server;
  TbProvider     *provider;
  TbToolRegistry *registry;
  TbToolRegistry *model_tools;
  guint           note_calls;
} ProviderFixture;

void               provider_fixture_setup    (ProviderFixture *f,
                                              const char      *kind,
                                              const char      *model,
                                              const char      *api_key);
void               provider_fixture_teardown (ProviderFixture *f);
TbProviderRequest *provider_fixture_request  (ProviderFixture *f);

TestServer *test_server_new          (const char  *key_header);
void        test_server_free         (TestServer  *self);
void        test_server_reply        (TestServer  *self,
                                      guint        status,
                                      const char  *content_type,
                                      const char  *body);
void        test_server_reply_full   (TestServer  *self,
                                      ReplyMode    mode,
                                      guint        status,
                                      const char  *body,
                                      const char  *retry_after);
JsonObject *test_server_request      (TestServer  *self,
                                      guint        index);
char       *test_load_text           (const char  *name);
JsonNode   *test_parse               (const char  *text);
void        test_assert_json_equal   (JsonNode    *actual,
                                      const char  *expected);
TbToolRegistry *test_registry_new    (guint       *calls);
TbProviderResponse *test_complete    (TbProvider        *provider,
                                      TbProviderRequest *request,
                                      GError           **error);
TbLoopState test_run_loop            (TbDispatchLoop    *loop);
void        test_garbage             (TestServer        *server,
                                      TbProvider        *provider,
                                      TbToolRegistry    *registry,
                                      const char * const *bodies);

G_END_DECLS
