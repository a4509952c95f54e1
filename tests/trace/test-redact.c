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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/redact/text", test_text);
  g_test_add_func ("/redact/known-secret", test_known_secret);
  g_test_add_func ("/redact/node", test_node);

  return g_test_run ();
}
