#!/usr/bin/gjs
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Checks tool arguments against a tool's JSON Schema with Toolbench from
// GJS, printing each reason they do not match.
//
//   gjs examples/validate-arguments.js SCHEMA_JSON ARGUMENTS_JSON
//
// Exit status: 0 when the arguments match, 1 when they do not, 2 on a
// usage error. Needs the Toolbench typelib (GI_TYPELIB_PATH when it is not
// installed).

imports.gi.versions.Toolbench = '1';
imports.gi.versions.Json = '1.0';
const {Json, Toolbench} = imports.gi;
const System = imports.system;

function parse(text, what) {
    try {
        return Json.from_string(text);
    } catch (error) {
        printerr(`The ${what} are not JSON: ${error.message}`);
        System.exit(2);
    }
    return null;
}

if (ARGV.length !== 2) {
    printerr('Usage: gjs validate-arguments.js SCHEMA_JSON ARGUMENTS_JSON');
    System.exit(2);
}

let schema;
try {
    schema = Toolbench.Schema.new(parse(ARGV[0], 'schema contents'), Toolbench.SchemaDraft.AUTO);
} catch (error) {
    printerr(`The schema cannot be used: ${error.message}`);
    System.exit(2);
}
const [ok, errors] = schema.validate(parse(ARGV[1], 'arguments'));
if (ok) {
    print('The arguments match the schema.');
} else {
    for (const error of errors)
        print(error.to_string());
}
System.exit(ok ? 0 : 1);
