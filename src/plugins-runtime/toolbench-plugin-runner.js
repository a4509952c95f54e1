// SPDX-License-Identifier: GPL-3.0-or-later
//
// Runs one Toolbench plugin written in JavaScript (an ES module run by GJS),
// in a process of its own, and speaks the command-tool protocol for it:
//
//   gjs -m toolbench-plugin-runner.js list PLUGIN.js
//       prints {"tools": [{"name", "description", "parameters", ...}]}
//   gjs -m toolbench-plugin-runner.js call PLUGIN.js TOOL
//       reads the arguments (one JSON object) on standard input and prints
//       the result as JSON
//
// The plugin exports `tools`: an array of {name, description, parameters,
// run(args)} objects (run may return a Promise), or of Toolbench.Tool
// objects. A failure is one sentence on standard error and exit status 1.
// Whatever the plugin prints is dropped.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import System from 'system';

const writeOut = globalThis.print;
const writeErr = globalThis.printerr;

class Failure extends Error {}

function quiet() {
    const nothing = () => {};
    for (const name of ['print', 'printerr', 'log', 'logError']) {
        try {
            Object.defineProperty(globalThis, name, {value: nothing, writable: true});
        } catch {
            // Left as it is: what it prints shows as the call's failure.
        }
    }
    // console is frozen; it writes through GLib's structured log.
    GLib.log_set_writer_func(() => GLib.LogWriterOutput.HANDLED);
}

function basename(path) {
    return GLib.path_get_basename(path);
}

function errorText(error) {
    if (error instanceof GLib.Error)
        return error.message;
    if (error instanceof Error)
        return `${error.name}: ${error.message}`;
    return String(error);
}

function where(path, error) {
    const name = basename(path);
    const url = `file://${path}`;
    let line = null;
    if (error instanceof Error && (error.fileName === url || error.fileName === path))
        line = error.lineNumber;
    if (line === null && error instanceof Error && error.stack) {
        for (const frame of error.stack.split('\n')) {
            const match = frame.match(/@(.*):(\d+):\d+$/);
            if (match && (match[1] === url || match[1] === path)) {
                line = Number(match[2]);
                break;
            }
        }
    }
    return line !== null ? `${name}, line ${line}: ${errorText(error)}`
        : `${name}: ${errorText(error)}`;
}

function readStdin() {
    // A pipe gives what it holds at each read: read until it ends.
    const stream = new Gio.UnixInputStream({fd: 0, close_fd: false});
    const chunks = [];
    let length = 0;
    for (;;) {
        const bytes = stream.read_bytes(64 * 1024, null).toArray();
        if (bytes.length === 0)
            break;
        chunks.push(bytes);
        length += bytes.length;
    }
    const all = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
        all.set(chunk, offset);
        offset += chunk.length;
    }
    const text = new TextDecoder().decode(all);
    return text.trim() === '' ? {} : JSON.parse(text);
}

// A Toolbench.Tool made by the plugin (Toolbench.Tool.new_simple()).
function isToolObject(item) {
    return item instanceof GObject.Object && typeof item.get_name === 'function' &&
        typeof item.get_parameters === 'function';
}

function findTools(module) {
    const list = module.tools ?? module.default;
    const tools = new Map();
    if (!Array.isArray(list))
        return tools;
    for (const item of list) {
        if (isToolObject(item))
            tools.set(item.get_name(), item);
        else if (item && typeof item.name === 'string' && typeof item.run === 'function')
            tools.set(item.name, item);
    }
    return tools;
}

function describe(item) {
    if (isToolObject(item)) {
        const Json = imports.gi.Json;
        const entry = {name: item.get_name(), description: item.get_description() ?? ''};
        const parameters = item.get_parameters();
        if (parameters !== null)
            entry.parameters = JSON.parse(Json.to_string(parameters, false));
        return entry;
    }
    const entry = {
        name: item.name,
        description: item.description ?? '',
        parameters: item.parameters ?? {type: 'object', properties: {}},
    };
    for (const key of ['title', 'annotations'])
        if (item[key] !== undefined)
            entry[key] = item[key];
    if (item.timeoutMs !== undefined)
        entry['timeout-ms'] = item.timeoutMs;
    return entry;
}

function callGObject(tool, args) {
    const {Json, Toolbench} = imports.gi;
    const registry = Toolbench.ToolRegistry.new();
    registry.register(tool);
    registry.set_default_timeout_ms(0x7fffffff);
    return new Promise(resolve => {
        registry.call_async(tool.get_name(), null, Json.from_string(JSON.stringify(args)), null,
            null, (source, res) => resolve(source.call_finish(res)));
    }).then(result => {
        if (!result.get_ok())
            throw new Failure(result.get_error());
        const output = result.get_output();
        return output === null ? 'null' : Json.to_string(output, false);
    });
}

async function callFunction(item, args) {
    let value;
    try {
        value = await item.run(args);
    } catch (error) {
        throw new Failure(errorText(error));
    }
    const kind = value === null ? 'null' : typeof value;
    const text = ['function', 'symbol', 'bigint', 'undefined'].includes(kind) ? undefined
        : JSON.stringify(value);
    if (text === undefined) {
        throw new Failure(`The tool “${item.name}” returned ${kind === 'undefined' ? 'undefined' : `a ${kind}`}; ` +
            'a tool returns an object, array, string, number, boolean or null');
    }
    return text;
}

async function main(argv) {
    const [command, file, name] = argv;
    if (!['list', 'call'].includes(command) || !file || (command === 'call') !== (argv.length === 3))
        throw new Failure('Usage: gjs -m toolbench-plugin-runner.js list PLUGIN | call PLUGIN TOOL');
    const path = Gio.File.new_for_path(file).get_path();
    let module;
    try {
        module = await import(`file://${path}`);
    } catch (error) {
        throw new Failure(where(path, error));
    }
    const tools = findTools(module);
    if (command === 'list') {
        const names = [...tools.keys()].sort();
        return JSON.stringify({tools: names.map(n => describe(tools.get(n)))});
    }
    const item = tools.get(name);
    if (item === undefined)
        throw new Failure(`${basename(path)} has no tool named “${name}” any more; reload the plugins`);
    let args;
    try {
        args = readStdin();
    } catch (error) {
        throw new Failure(`The arguments are not JSON: ${error.message}`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args))
        throw new Failure(`The arguments of “${name}” must be a JSON object`);
    if (isToolObject(item))
        return callGObject(item, args);
    return callFunction(item, args);
}

quiet();
const loop = new GLib.MainLoop(null, false);
let status = 0;
main(System.programArgs).then(text => {
    writeOut(text);
}).catch(error => {
    writeErr(error instanceof Failure ? error.message : errorText(error));
    status = 1;
}).finally(() => loop.quit());
loop.run();
System.exit(status);
