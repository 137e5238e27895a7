// CommonJS callers: the entry is an ES module, loaded on first use.
'use strict';
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

exports.startSandbox = async (options) => (await loadEntry()).startSandbox(options);

/**
 * The ES module entry, by this file's own import(). Jest compiles every file it loads (this one
 * too) with a dynamic-import hook that Node refuses unless Jest runs with
 * --experimental-vm-modules; there the entry is imported by Node's own loader instead, through
 * a function compiled in the main context (Node 20.12+).
 */
async function loadEntry() {
  try {
    return await import('./index.js');
  } catch (error) {
    const mainLoader = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
    if (error?.code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG' || mainLoader === undefined) {
      throw error;
    }
    const importByNode = vm.runInThisContext('(specifier) => import(specifier)', {
      importModuleDynamically: mainLoader,
    });
    return importByNode(pathToFileURL(path.join(__dirname, 'index.js')).href);
  }
}
