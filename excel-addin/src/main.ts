/// <reference types="office-js" />
/// <reference types="custom-functions-runtime" />
/**
 * The runtime page's bundle (linen.js): it sets the one global the generated functions.js calls, `LinenExcel`
 * (`call` runs a LINEN function, `register` associates the functions with Excel), and starts the task pane when
 * the page shows it. The page, its functions and the task pane share this one runtime (the manifest asks for a
 * shared runtime), so the cells and the pane see the same key, listings and Refresh.
 */
import { callLinen } from './call.ts';
import { Runtime } from './runtime.ts';
import { startTaskPane } from './taskpane/taskpane.ts';
import { fetchTransport } from './transport.ts';

const runtime = new Runtime({
  origin: location.origin,
  transport: fetchTransport((url, init) => fetch(url, init)),
});

let registered = false;

const linen = {
  call: (name: string, args: unknown[], invocation?: CustomFunctions.CancelableInvocation) =>
    callLinen(runtime, name, args, invocation),
  /** Associate each function id with its implementation, once (the page and Excel may both load functions.js). */
  register(functions: Record<string, (...args: never[]) => unknown>): void {
    if (registered) return;
    registered = true;
    for (const [id, fn] of Object.entries(functions)) CustomFunctions.associate(id, fn);
  },
};

declare global {
  var LinenExcel: typeof linen;
}
globalThis.LinenExcel = linen;

Office.onReady(() => {
  const pane = typeof document === 'undefined' ? null : document.getElementById('linen-pane');
  if (pane) startTaskPane(runtime, pane);
});
