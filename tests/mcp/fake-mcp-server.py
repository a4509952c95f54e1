#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A small MCP server over stdio for the faults real servers do not produce:
# garbage on stdout, a crash, a hang, closing stdout, huge and binary
# results, non-UTF-8 stderr, thousands of tools, broken schemas. Each fault
# is a tool; options change the handshake.
#
#   fake-mcp-server.py [--tools N] [--page N] [--version V] [--hang-init]
#                      [--broken-schemas] [--weird-names] [--hang-after-init]
#                      [--control-names]

import base64
import json
import os
import sys
import time

args = sys.argv[1:]


def option(name, default=None):
    if name in args:
        return args[args.index(name) + 1]
    return default


extra_tools = int(option("--tools", "0"))
page_size = int(option("--page", "500"))
version = option("--version")

out = sys.stdout.buffer


def send(message):
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def result(rid, value):
    send({"jsonrpc": "2.0", "id": rid, "result": value})


def text(value):
    return {"content": [{"type": "text", "text": value}]}


OBJ = {"type": "object", "properties": {}}
tools = [
    {"name": "echo", "description": "Echoes the message",
     "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}},
                     "required": ["message"]}},
    {"name": "garbage", "description": "Prints something that is not JSON", "inputSchema": OBJ},
    {"name": "crash", "description": "Exits with status 3", "inputSchema": OBJ},
    {"name": "hang", "description": "Never answers again", "inputSchema": OBJ},
    {"name": "close", "description": "Closes its standard output", "inputSchema": OBJ},
    {"name": "big", "description": "Returns SIZE bytes of text",
     "inputSchema": {"type": "object", "properties": {"size": {"type": "integer"}}}},
    {"name": "huge-line", "description": "Sends a 40 MiB message", "inputSchema": OBJ},
    {"name": "flood", "description": "Sends COUNT log notifications, then answers",
     "inputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}}},
    {"name": "empty-objects", "description": "Sends 31 MiB of empty objects",
     "inputSchema": OBJ},
    {"name": "progress", "description": "Reports its progress three times, then answers",
     "inputSchema": OBJ},
    {"name": "binary", "description": "Returns image, audio and blob content",
     "inputSchema": OBJ},
    {"name": "stderr", "description": "Writes bytes that are not UTF-8 to stderr",
     "inputSchema": OBJ},
    {"name": "elicit", "description": "Asks the client for input and reports the answer",
     "inputSchema": {"type": "object", "properties": {"long": {"type": "integer"}}}},
    {"name": "structured", "description": "Returns structured content",
     "inputSchema": OBJ,
     "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
    {"name": "no-structured", "description": "Declares an output schema, returns none",
     "inputSchema": OBJ,
     "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
    {"name": "bad-structured", "description": "Structured content against its schema",
     "inputSchema": OBJ,
     "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}},
                      "required": ["n", "unit"]}},
    {"name": "broken-output-schema", "description": "An output schema that is not a schema",
     "inputSchema": OBJ,
     "outputSchema": {"type": "object", "properties": {"n": {"type": 12}}}},
    {"name": "elicit-withdrawn", "description": "Asks the client, then withdraws the question",
     "inputSchema": OBJ},
    {"name": "hostile", "description": "Sends odd but parseable messages, then answers",
     "inputSchema": OBJ},
    {"name": "deep", "description": "Sends JSON nested 100,000 levels deep",
     "inputSchema": OBJ},
    {"name": "where", "description": "Reports TB_FAKE_VAR and its working directory",
     "inputSchema": OBJ},
    {"name": "wait-cancel", "description": "Waits for notifications/cancelled, never answers",
     "inputSchema": OBJ},
    {"name": "cancelled", "description": "Lists the cancellations it was sent",
     "inputSchema": OBJ},
    {"name": "change-tools", "description": "Adds a tool and announces the change",
     "inputSchema": OBJ},
]
if "--broken-schemas" in args:
    tools.append({"name": "schema-not-object", "description": "inputSchema is a string",
                  "inputSchema": "nope"})
    tools.append({"name": "schema-wrong-type", "description": "inputSchema is of type array",
                  "inputSchema": {"type": "array"}})
    tools.append({"name": "schema-missing", "description": "no inputSchema at all"})
    tools.append({"name": "schema-bad-keyword", "description": "not valid JSON Schema",
                  "inputSchema": {"type": "object",
                                  "properties": {"x": {"type": "nonsense"}}}})
if "--weird-names" in args:
    tools.append({"name": "has space/and:colon", "description": "odd name", "inputSchema": OBJ})
    tools.append({"name": "x" * 80, "description": "long name", "inputSchema": OBJ})
if "--control-names" in args:
    tools.append({"name": "echo\u0000x", "description": "NUL in the name", "inputSchema": OBJ})
    tools.append({"name": "title\u001b]0;pwned\u0007", "description": "escape in the name",
                  "inputSchema": OBJ})
for i in range(extra_tools):
    tools.append({"name": "tool_%05d" % i, "description": "Generated tool %d" % i,
                  "inputSchema": OBJ})


cancellations = []


def hang_forever():
    while True:
        time.sleep(60)


def read_message():
    line = sys.stdin.buffer.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


def call(rid, name, arguments):
    global tools
    if name == "echo":
        result(rid, text("Echo: " + str(arguments.get("message"))))
    elif name == "garbage":
        out.write(b"this is not json at all\n")
        out.flush()
        hang_forever()
    elif name == "crash":
        sys.exit(3)
    elif name == "hang":
        hang_forever()
    elif name == "close":
        os.close(1)
        hang_forever()
    elif name == "big":
        result(rid, text("x" * int(arguments.get("size", 10 * 1024 * 1024))))
    elif name == "empty-objects":
        out.write(b'{"jsonrpc":"2.0","id":' + str(rid).encode()
                  + b',"result":{"content":[{"type":"text","text":"x"}],"_meta":{"x":[{}')
        chunk = b",{}" * (1024 * 1024 // 3)
        for _ in range(31):
            out.write(chunk)
        out.write(b']}}}\n')
        out.flush()
    elif name == "huge-line":
        out.write(b'{"jsonrpc":"2.0","id":' + str(rid).encode() + b',"result":{"content":[{"type":"text","text":"')
        chunk = b"y" * (1024 * 1024)
        for _ in range(40):
            out.write(chunk)
        out.write(b'"}]}}\n')
        out.flush()
    elif name == "flood":
        count = int(arguments.get("count", 10000))
        lines = b"".join(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                                     "params": {"level": "info",
                                                "data": "flood %d" % i}}).encode() + b"\n"
                         for i in range(count))
        out.write(lines)
        out.flush()
        result(rid, text("flooded %d" % count))
    elif name == "binary":
        png = base64.b64encode(bytes(range(256)) * 4).decode()
        result(rid, {"content": [
            {"type": "image", "data": png, "mimeType": "image/png"},
            {"type": "audio", "data": png, "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "test://blob", "mimeType":
                                              "application/octet-stream", "blob": png}},
            {"type": "resource_link", "uri": "test://linked", "name": "linked"},
        ]})
    elif name == "stderr":
        sys.stderr.buffer.write(b"bad bytes: \xff\xfe\xc3 end\n")
        sys.stderr.buffer.flush()
        result(rid, text("wrote"))
    elif name == "elicit":
        # "long": how many times a sentence is added before the question.
        message = "Please read this first. " * int(arguments.get("long", 0)) + "Your name?"
        send({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create",
              "params": {"message": message, "requestedSchema": {
                  "type": "object", "properties": {"name": {"type": "string",
                                                             "default": "Grace"}}}}})
        while True:
            answer = read_message()
            if answer.get("id") == "ask-1":
                break
        result(rid, text(json.dumps(answer, sort_keys=True)))
    elif name == "structured":
        result(rid, {"content": [{"type": "text", "text": "{\"n\": 7}"}],
                     "structuredContent": {"n": 7}})
    elif name == "bad-structured":
        result(rid, {"content": [{"type": "text", "text": "{\"n\": \"seven\"}"}],
                     "structuredContent": {"n": "seven"}})
    elif name == "broken-output-schema":
        result(rid, {"content": [{"type": "text", "text": "{\"n\": 1}"}],
                     "structuredContent": {"n": 1}})
    elif name == "no-structured":
        result(rid, text("no structure here"))
    elif name == "elicit-withdrawn":
        send({"jsonrpc": "2.0", "id": "ask-2", "method": "elicitation/create",
              "params": {"message": "Never mind?", "requestedSchema": OBJ}})
        send({"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": "ask-2", "reason": "changed my mind"}})
        result(rid, text("withdrawn"))
    elif name == "hostile":
        odd = [
            {"jsonrpc": "2.0", "id": "not-ours", "result": {}},
            {"jsonrpc": "2.0", "id": 999999, "result": {}},
            {"jsonrpc": "2.0", "id": None, "error": {"code": -1}},
            {"jsonrpc": "2.0", "method": "notifications/progress",
             "params": {"progressToken": [1, 2], "progress": "lots"}},
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": [1, 2, 3]},
            {"jsonrpc": "2.0", "method": "notifications/message",
             "params": {"level": 7, "data": {"nested": [1, {"x": None}]}}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": {}}},
            {"jsonrpc": "2.0", "method": "notifications/unknown/thing"},
            {"jsonrpc": "2.0", "id": 77, "method": "made/up", "params": "not an object"},
            {"jsonrpc": "2.0", "id": 78, "method": "roots/list"},
            [{"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": "info", "data": "from a batch"}}],
        ]
        for message in odd:
            send(message)
        out.write(b"\n   \n")
        out.flush()
        result(rid, text("survived"))
    elif name == "deep":
        out.write(b"[" * 100000 + b"]" * 100000 + b"\n")
        out.flush()
        hang_forever()
    elif name == "where":
        result(rid, text(json.dumps({"var": os.environ.get("TB_FAKE_VAR"),
                                     "cwd": os.getcwd()})))
    elif name == "wait-cancel":
        pass
    elif name == "cancelled":
        result(rid, text(json.dumps(cancellations)))
    elif name == "change-tools":
        tools = tools + [{"name": "added-later", "description": "Appeared after a change",
                          "inputSchema": OBJ}]
        tools = [t for t in tools if t["name"] != "binary"]
        for t in tools:
            if t["name"] == "stderr":
                t["description"] = "A changed description"
        result(rid, text("changed"))
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    else:
        send({"jsonrpc": "2.0", "id": rid,
              "error": {"code": -32602, "message": "Unknown tool: " + name}})


def main():
    if "--hang-init" in args:
        hang_forever()
    while True:
        message = read_message()
        method = message.get("method")
        rid = message.get("id")
        params = message.get("params") or {}
        if method == "initialize":
            result(rid, {"protocolVersion": version or params.get("protocolVersion"),
                         "capabilities": {"tools": {"listChanged": True}},
                         "serverInfo": {"name": "fake", "version": "1.0"}})
        elif method == "notifications/initialized":
            if "--hang-after-init" in args:
                hang_forever()
        elif method == "tools/list":
            start = int(params.get("cursor", "0"))
            page = {"tools": tools[start:start + page_size]}
            if start + page_size < len(tools):
                page["nextCursor"] = str(start + page_size)
            result(rid, page)
        elif method == "tools/call" and params.get("name") == "progress":
            token = (params.get("_meta") or {}).get("progressToken")
            for step in range(1, 4):
                if token is not None:
                    send({"jsonrpc": "2.0", "method": "notifications/progress",
                          "params": {"progressToken": token, "progress": step, "total": 3,
                                     "message": "Step %d of 3" % step}})
                time.sleep(0.4)
            result(rid, text("done"))
        elif method == "tools/call":
            call(rid, params.get("name"), params.get("arguments") or {})
        elif method == "ping":
            result(rid, {})
        elif method == "notifications/cancelled":
            cancellations.append(params)
        elif rid is not None:
            send({"jsonrpc": "2.0", "id": rid,
                  "error": {"code": -32601, "message": "Method not found"}})


main()
