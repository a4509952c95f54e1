/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>
#include <toolbench.h>

static void
test_text (void)
{
  g_autoptr(TbRedactor) redactor = tb_redactor_new ();
  static const struct { const char *in; const char *out; } cases[] = {
    { "Authorization: Bearer abcdefghijklmnop", "Authorization: Bearer [redacted]" },
    { "https://x/v1beta/models/m:generateContent?key=AIzaSecretValue123&alt=sse",
      "https://x/v1beta/models/m:generateContent?key=[redacted]&alt=sse" },
    { "key sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX in text", "key [redacted] in text" },
    { "anthropic sk-ant-api03-abcdefghijklmnopqrstuv", "anthropic [redacted]" },
    { "plain text with sk- and keys=3", "plain text with sk- and keys=3" },
    { "max_tokens is not a token", "max_tokens is not a token" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = tb_redactor_redact_text (redactor, cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

static void
test_known_secret (void)
{
  g_autoptr(TbRedactor) redactor = tb_redactor_new ();
  g_autofree char *out = NULL;
  g_autofree char *short_out = NULL;

  tb_redactor_add_secret (redactor, "local-llama-key-42");
  tb_redactor_add_secret (redactor, "ab");
  out = tb_redactor_redact_text (redactor, "{\"note\":\"my key is local-llama-key-42!\"}");
  g_assert_cmpstr (out, ==, "{\"note\":\"my key is [redacted]!\"}");

  /* Secrets too short to be keys would only garble text. */
  short_out = tb_redactor_redact_text (redactor, "about");
  g_assert_cmpstr (short_out, ==, "about");
}

static void
test_node (void)
{
  g_autoptr(TbRedactor) redactor = tb_redactor_new ();
  g_autoptr(JsonNode) node = tb_json_parse ("{\"headers\":{\"Authorization\":\"Bearer x\","
                                            "\"X-Api-Key\":\"k\",\"content-type\":\"json\"},"
                                            "\"body\":{\"messages\":[{\"content\":"
                                            "\"use sk-live-0123456789abcdefghij\"}],"
                                            "\"api_key\":null,\"max_tokens\":5}}", -1, NULL);
  g_autoptr(JsonNode) clean = tb_redactor_redact_node (redactor, node);
  g_autofree char *text = tb_json_to_string (clean, FALSE);

  g_assert_cmpstr (text, ==,
                   "{\"headers\":{\"Authorization\":\"[redacted]\",\"X-Api-Key\":\"[redacted]\","
                   "\"content-type\":\"json\"},\"body\":{\"messages\":[{\"content\":"
                   "\"use [redacted]\"}],\"api_key\":null,\"max_tokens\":5}}");
  g_assert_true (tb_redactor_is_secret_name ("AUTHORIZATION"));
  g_assert_false (tb_redactor_is_secret_name ("max_tokens"));
}


#define KEY "TOPSECRETKEY42"

static char *
redact (TbRedactor *redactor,
        const char *text)
{
  return tb_redactor_redact_text (redactor, text);
}

static TbRedactor *
redactor_with_key (void)
{
  TbRedactor *redactor = tb_redactor_new ();

  tb_redactor_add_secret (redactor, KEY);
  return redactor;
}

/* A key written with escapes is still the key. */
static void
test_escaped (void)
{
  g_autoptr(TbRedactor) redactor = redactor_with_key ();
  static const struct { const char *in; const char *out; } cases[] = {
    /* JSON text is decoded, and written again only when something went. */
    { "{\"m\": \"key \\u0054\\u004fPSECRETKEY42 here\"}", "{\"m\":\"key [redacted] here\"}" },
    { "{ \"m\" : \"nothing here\" }", "{ \"m\" : \"nothing here\" }" },
    /* Not JSON (cut off): the escapes are matched where they stand. */
    { "{\"m\":\"\\u0054\\u004f\\u0050SECRETKEY42", "{\"m\":\"[redacted]" },
    /* Escaped twice: JSON inside a JSON string. */
    { "x \\\\u0054\\\\u004FPSECRETKEY42 y", "x [redacted] y" },
    { "https://h/p/%54%4FPSECRET%4BEY42/q", "https://h/p/[redacted]/q" },
    { "https://h/p/%2554OPSECRETKEY42", "https://h/p/[redacted]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = redact (redactor, cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

/* Arguments are JSON in a JSON string; each level is decoded. */
static void
test_nested_json (void)
{
  g_autoptr(TbRedactor) redactor = redactor_with_key ();
  g_autofree char *out = NULL;

  out = redact (redactor, "{\"tool_calls\":[{\"function\":{\"arguments\":"
                          "\"{\\\"text\\\":\\\"\\\\u0054OPSECRETKEY42\\\"}\"}}]}");
  g_assert_cmpstr (out, ==, "{\"tool_calls\":[{\"function\":{\"arguments\":"
                            "\"{\\\"text\\\":\\\"[redacted]\\\"}\"}}]}");
}

static void
test_urls (void)
{
  g_autoptr(TbRedactor) redactor = redactor_with_key ();
  static const struct { const char *in; const char *out; } cases[] = {
    { "POST http://alice:hunter22@example.org/v1 failed",
      "POST http://[redacted]@example.org/v1 failed" },
    { "https://h/x?token=abc123&alt=sse#f", "https://h/x?token=[redacted]&alt=sse#f" },
    { "https://h/x?a=1&ACCESS_TOKEN=abc&Api-Key=def;sig=g",
      "https://h/x?a=1&ACCESS_TOKEN=[redacted]&Api-Key=[redacted];sig=[redacted]" },
    { "api-key=abc123 in a log line", "api-key=[redacted] in a log line" },
    /* The sentence around a URL keeps its punctuation. */
    { "No answer from https://h/v1?key=abc123: refused.",
      "No answer from https://h/v1?key=[redacted]: refused." },
    { "see https://h/?token=t0k3n.", "see https://h/?token=[redacted]." },
    { "https://h/x?sort_key=1&monkey=2&keys=3", "https://h/x?sort_key=1&monkey=2&keys=3" },
    { "mail alice@example.org", "mail alice@example.org" },
  };
  g_autofree char *url = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = redact (redactor, cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
    }

  /* A URL of one's own drops the user and the password altogether. */
  url = tb_redactor_redact_url (redactor, "http://alice:hunter22@example.org:8080/v1?key=k1"
                                          "&model=m");
  g_assert_cmpstr (url, ==, "http://example.org:8080/v1?key=[redacted]&model=m");
  g_assert_true (tb_redactor_is_secret_parameter ("X-Amz-Signature"));
  g_assert_false (tb_redactor_is_secret_parameter ("model"));
}

/* The pieces of a streamed text are searched joined. */
static void
test_event_stream (void)
{
  g_autoptr(TbRedactor) redactor = redactor_with_key ();
  g_autofree char *out = NULL;
  g_autofree char *anthropic = NULL;

  out = redact (redactor,
                "data: {\"choices\":[{\"delta\":{\"content\":\"It is TOP\"}}]}\n\n"
                ": keep-alive\n\n"
                "data: {\"choices\":[{\"delta\":{\"content\":\"SEC\"}}]}\n\n"
                "data: {\"choices\":[{\"delta\":{\"content\":\"RETKEY42, really\"}}]}\n\n"
                "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                "data: [DONE]\n\n");
  g_assert_cmpstr (out, ==,
                   "data: {\"choices\":[{\"delta\":{\"content\":\"It is [redacted]\"}}]}\n\n"
                   ": keep-alive\n\n"
                   "data: {\"choices\":[{\"delta\":{\"content\":\"\"}}]}\n\n"
                   "data: {\"choices\":[{\"delta\":{\"content\":\", really\"}}]}\n\n"
                   "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                   "data: [DONE]\n\n");

  /* Argument pieces with escapes, and event lines kept. */
  anthropic = redact (redactor,
                      "event: content_block_delta\r\n"
                      "data: {\"delta\":{\"partial_json\":\"{\\\"k\\\":\\\"\\\\u0054O\"}}\r\n\r\n"
                      "event: content_block_delta\r\n"
                      "data: {\"delta\":{\"partial_json\":\"PSECRETKEY42\\\"}\"}}\r\n\r\n");
  g_assert_cmpstr (anthropic, ==,
                   "event: content_block_delta\r\n"
                   "data: {\"delta\":{\"partial_json\":\"{\\\"k\\\":\\\"[redacted]\"}}\r\n\r\n"
                   "event: content_block_delta\r\n"
                   "data: {\"delta\":{\"partial_json\":\"\\\"}\"}}\r\n\r\n");
}

/* Text shown as it streams holds back what could still become a secret. */
static void
test_feed (void)
{
  g_autoptr(TbRedactor) redactor = redactor_with_key ();
  g_autoptr(GString) held = g_string_new (NULL);
  static const char *pieces[] = { "The key is TOP", "SEC", "RETKEY42", " and sk-proj-abcd",
                                  "efghijklmnopqrst done.", NULL };
  static const char *shown[] = { "The key is ", "", "", "[redacted] and ", "[redacted] ",
                                 "done." };
  GString *all = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
    {
      g_autofree char *out = tb_redactor_feed (redactor, held, pieces[i]);

      g_assert_cmpstr (out, ==, shown[i]);
      g_string_append (all, out);
    }
  g_assert_cmpuint (held->len, ==, 0);
  g_assert_cmpstr (all->str, ==, "The key is [redacted] and [redacted] done.");
  g_string_free (all, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/redact/text", test_text);
  g_test_add_func ("/redact/known-secret", test_known_secret);
  g_test_add_func ("/redact/node", test_node);
  g_test_add_func ("/redact/escaped", test_escaped);
  g_test_add_func ("/redact/nested-json", test_nested_json);
  g_test_add_func ("/redact/urls", test_urls);
  g_test_add_func ("/redact/event-stream", test_event_stream);
  g_test_add_func ("/redact/feed", test_feed);

  return g_test_run ();
}
