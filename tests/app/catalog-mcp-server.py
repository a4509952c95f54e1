#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A small MCP server over stdio for the server window's Resources and
# Prompts pages: what server-everything does not do. One mode a run:
#
#   none        declares no capabilities at all
#   plain       resources and prompts, but no completions and no logging
#   rich        resources (with subscriptions), an image, a template, a
#               prompt that answers with a kind of content MCP does not
#               have, completions, logging, and an icon in serverInfo
#   many        10,000 resources, listed 100 a page
#   broken      resources whose listing fails with a JSON-RPC error whose
#               message holds "<" and "&"

import json
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "rich"
out = sys.stdout.buffer

# A 1×1 PNG.
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5E"
       "rkJggg==")


def send(message):
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def result(rid, value):
    send({"jsonrpc": "2.0", "id": rid, "result": value})


def error(rid, code, message):
    send({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})


def capabilities():
    if mode == "none":
        return {}
    caps = {"resources": {}, "prompts": {}}
    if mode == "rich":
        caps = {"resources": {"subscribe": True, "listChanged": True},
                "prompts": {"listChanged": True}, "completions": {}, "logging": {}}
    return caps


def server_info():
    info = {"name": "catalog-" + mode, "version": "1"}
    if mode == "rich":
        info["icons"] = [{"src": "data:image/png;base64," + PNG, "mimeType": "image/png",
                          "sizes": ["1x1"]}]
    return info


RESOURCES = [
    {"uri": "note://welcome", "name": "welcome", "title": "Welcome Note",
     "description": "A short greeting", "mimeType": "text/plain", "size": 13},
    {"uri": "picture://dot.png", "name": "dot", "title": "A Dot",
     "description": "A picture of one pixel", "mimeType": "image/png", "size": 68},
    {"uri": "note://shopping", "name": "shopping", "description": "Things to buy",
     "mimeType": "text/markdown"},
]
TEMPLATES = [
    {"uriTemplate": "note://{folder}/{name}", "name": "note-in-folder", "title": "Note in a Folder",
     "description": "Any note, by folder and name", "mimeType": "text/plain"},
]
PROMPTS = [
    {"name": "greet", "title": "Greeting", "description": "Greets someone by name",
     "arguments": [{"name": "name", "description": "Who to greet", "required": True},
                   {"name": "mood", "description": "How cheerful"}]},
    {"name": "strange", "description": "Answers with content of a kind MCP does not define"},
]


def read(rid, uri):
    if uri == "note://welcome":
        contents = [{"uri": uri, "mimeType": "text/plain", "text": "Hello, reader"}]
    elif uri == "picture://dot.png":
        contents = [{"uri": uri, "mimeType": "image/png", "blob": PNG}]
    elif uri.startswith("note://"):
        contents = [{"uri": uri, "mimeType": "text/plain", "text": "The note at " + uri}]
    elif uri.startswith("many://"):
        contents = [{"uri": uri, "mimeType": "text/plain", "text": "Item " + uri[7:]}]
    else:
        error(rid, -32002, "Resource not found: " + uri)
        return
    result(rid, {"contents": contents})


def list_many(rid, params):
    start = int(params.get("cursor", "0"))
    page = [{"uri": "many://%05d" % i, "name": "item-%05d" % i} for i in range(start, start + 100)]
    answer = {"resources": page}
    if start + 100 < 10000:
        answer["nextCursor"] = str(start + 100)
    result(rid, answer)


def complete(rid, params):
    name = params.get("argument", {}).get("name")
    value = params.get("argument", {}).get("value", "")
    choices = {"name": ["Ada", "Alan", "Grace"], "mood": ["calm", "cheerful"],
               "folder": ["home", "work"]}.get(name, [])
    result(rid, {"completion": {"values": [c for c in choices if c.startswith(value)],
                                "hasMore": False}})


for line in sys.stdin.buffer:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    method = message.get("method")
    rid = message.get("id")
    params = message.get("params") or {}
    if rid is None:
        continue
    if method == "initialize":
        result(rid, {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                     "capabilities": capabilities(), "serverInfo": server_info()})
    elif method == "tools/list":
        result(rid, {"tools": []})
    elif method == "ping":
        result(rid, {})
    elif method == "resources/list" and mode == "many":
        list_many(rid, params)
    elif method == "resources/list" and mode == "broken":
        error(rid, -32603, "The catalog database is locked by <backup> & cannot be read")
    elif method == "resources/list":
        result(rid, {"resources": RESOURCES})
    elif method == "resources/templates/list" and mode in ("many", "broken"):
        error(rid, -32601, "Method not found")
    elif method == "resources/templates/list":
        result(rid, {"resourceTemplates": TEMPLATES})
    elif method == "resources/read":
        read(rid, params.get("uri", ""))
    elif method in ("resources/subscribe", "resources/unsubscribe"):
        result(rid, {})
        if method == "resources/subscribe":
            send({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                  "params": {"uri": params.get("uri")}})
    elif method == "prompts/list":
        result(rid, {"prompts": PROMPTS})
    elif method == "prompts/get" and params.get("name") == "strange":
        result(rid, {"messages": [
            {"role": "user", "content": {"type": "text", "text": "Look at this:"}},
            {"role": "user", "content": {"type": "hologram", "frames": 3}},
            {"role": "assistant", "content": {"type": "image", "mimeType": "image/png",
                                              "data": PNG}},
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": "note://inline", "mimeType": "text/plain", "text": "Carried along"}}},
            {"role": "user", "content": {"type": "resource_link", "uri": "note://welcome",
                                         "name": "welcome"}}]})
    elif method == "prompts/get":
        arguments = params.get("arguments") or {}
        result(rid, {"description": "A greeting", "messages": [
            {"role": "user", "content": {"type": "text",
                                         "text": "Say hello to %s" % arguments.get("name")}}]})
    elif method == "completion/complete":
        complete(rid, params)
    elif method == "logging/setLevel" and params.get("level") == "alert":
        error(rid, -32602, "Level alert is not supported here")
    elif method == "logging/setLevel":
        result(rid, {})
    else:
        error(rid, -32601, "Method not found: %s" % method)
