#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs one Toolbench plugin written in Python, in a process of its own, and
# speaks the command-tool protocol for it:
#
#   toolbench-plugin-runner.py list PLUGIN.py
#       prints {"tools": [{"name", "description", "parameters", ...}]}
#   toolbench-plugin-runner.py call PLUGIN.py TOOL
#       reads the arguments (one JSON object) on standard input and prints
#       the result as JSON
#
# A failure is one sentence on standard error and exit status 1: a plugin
# that does not import (with its file and line), a tool that raises (its
# exception's message, never the traceback), a result JSON cannot hold.
# Whatever the plugin itself prints is dropped, so it cannot garble the
# answer.

import importlib.util
import json
import os
import sys
import traceback

RUNTIME = os.path.dirname(os.path.abspath(__file__))


class Failure(Exception):
    pass


def exception_text(error):
    message = str(error) or type(error).__name__
    return '%s: %s' % (type(error).__name__, message)


def where(path, error):
    """The plugin's file and line an exception came from."""
    name = os.path.basename(path)
    if isinstance(error, SyntaxError) and error.filename == path:
        return '%s, line %s: %s: %s' % (name, error.lineno, type(error).__name__, error.msg)
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == path:
            line = frame.lineno
    if isinstance(error, SyntaxError) and error.filename:
        return '%s, line %s: %s: %s' % (os.path.basename(error.filename), error.lineno,
                                        type(error).__name__, error.msg)
    if line is None:
        return '%s: %s' % (name, exception_text(error))
    return '%s, line %d: %s' % (name, line, exception_text(error))


def load(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location('toolbench_plugins.' + stem.replace('.', '_'),
                                                  path)
    if spec is None:
        raise Failure('%s cannot be loaded as a Python module' % os.path.basename(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except SystemExit as error:
        raise Failure('%s exited while it was loaded (status %s)'
                      % (os.path.basename(path), error.code))
    except OSError as error:
        if getattr(error, 'filename', None) == path:
            raise Failure('%s cannot be read: %s' % (os.path.basename(path), error.strerror))
        raise Failure(where(path, error))
    except BaseException as error:  # noqa: BLE001 - any failure of the plugin is reported
        raise Failure(where(path, error))
    return module


def toolbench_tool_class():
    """Toolbench.Tool when the plugin imported the bindings, else None."""
    module = sys.modules.get('gi.repository.Toolbench')
    return getattr(module, 'Tool', None) if module is not None else None


def find_tools(module):
    """Name → (kind, object): functions marked with toolbench_plugin.tool
    and Toolbench.Tool objects at the module's top level."""
    tools = {}
    tool_class = toolbench_tool_class()
    for value in list(vars(module).values()):
        if callable(value) and isinstance(getattr(value, '__toolbench_tool__', None), dict):
            tools.setdefault(value.__toolbench_tool__['name'], ('function', value))
        elif tool_class is not None and isinstance(value, tool_class):
            tools.setdefault(value.get_name(), ('gobject', value))
    return tools


def describe(kind, value):
    if kind == 'function':
        info = value.__toolbench_tool__
        entry = {'name': info['name'], 'description': info['description'],
                 'parameters': info['parameters']}
        for key in ('title', 'annotations', 'timeout-ms'):
            if info.get(key) is not None:
                entry[key] = info[key]
        return entry
    from gi.repository import Json
    entry = {'name': value.get_name(), 'description': value.get_description() or ''}
    parameters = value.get_parameters()
    if parameters is not None:
        entry['parameters'] = json.loads(Json.to_string(parameters, False))
    if value.get_title():
        entry['title'] = value.get_title()
    if value.get_timeout_ms():
        entry['timeout-ms'] = value.get_timeout_ms()
    return entry


def call_function(name, function, arguments):
    if not isinstance(arguments, dict):
        raise Failure('The arguments of “%s” must be a JSON object' % name)
    try:
        value = function(**arguments)
    except Failure:
        raise
    except BaseException as error:  # noqa: BLE001 - every failure becomes a result
        raise Failure(exception_text(error))
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        raise Failure('The tool “%s” returned a value of type %s; a tool returns a dict, list, str, int, '
                      'float, bool or None' % (name, type(value).__name__))


def call_gobject(tool, arguments):
    from gi.repository import GLib, Json, Toolbench
    registry = Toolbench.ToolRegistry.new()
    registry.register(tool)
    box = {}

    def done(source, result):
        box['result'] = source.call_finish(result)

    registry.set_default_timeout_ms(0x7fffffff)
    registry.call_async(tool.get_name(), None, Json.from_string(json.dumps(arguments)), None,
                        None, done)
    context = GLib.MainContext.default()
    while 'result' not in box:
        context.iteration(True)
    result = box['result']
    if not result.get_ok():
        raise Failure(result.get_error())
    output = result.get_output()
    return Json.to_string(output, False) if output is not None else 'null'


def main(argv, out):
    if len(argv) < 3 or argv[1] not in ('list', 'call') or (argv[1] == 'call') != (len(argv) == 4):
        raise Failure('Usage: toolbench-plugin-runner.py list PLUGIN | call PLUGIN TOOL')
    path = os.path.abspath(argv[2])
    # Not the plugin's folder: every file there is a plugin, and one named
    # like a module (json.py) would stand in for it.
    sys.path.insert(0, RUNTIME)
    module = load(path)
    tools = find_tools(module)

    if argv[1] == 'list':
        out.write(json.dumps({'tools': [describe(*tools[name]) for name in sorted(tools)]},
                             ensure_ascii=False))
        return

    name = argv[3]
    if name not in tools:
        raise Failure('%s has no tool named “%s” any more; reload the plugins'
                      % (os.path.basename(path), name))
    text = sys.stdin.read()
    try:
        arguments = json.loads(text) if text.strip() else {}
    except ValueError as error:
        raise Failure('The arguments are not JSON: %s' % error)
    kind, value = tools[name]
    if kind == 'function':
        out.write(call_function(name, value, arguments))
    else:
        out.write(call_gobject(value, arguments))


if __name__ == '__main__':
    # The answer goes to the real standard output and error; what the
    # plugin prints goes nowhere.
    out = os.fdopen(os.dup(1), 'w', encoding='utf-8')
    err = os.fdopen(os.dup(2), 'w', encoding='utf-8')
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    try:
        main(sys.argv, out)
        out.flush()
    except Failure as failure:
        err.write(str(failure) + '\n')
        err.flush()
        os._exit(1)
    except BaseException as error:  # noqa: BLE001 - the runner never prints a traceback
        err.write(exception_text(error) + '\n')
        err.flush()
        os._exit(1)
    # A plugin's threads or atexit handlers must not keep the answer back.
    os._exit(0)
