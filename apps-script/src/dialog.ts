/// <reference types="google-apps-script" />
/**
 * A modal dialog from one of the project's HTML files (Settings, Schedule, Report, Help), with what its page
 * needs to know set on `window` before its own script runs (`window.LINEN_FOCUS = "key";`).
 */
export function showDialog(
  file: string,
  title: string,
  [width, height]: [number, number],
  globals: Record<string, string> = {},
): void {
  let html = HtmlService.createHtmlOutputFromFile(file);
  for (const [name, value] of Object.entries(globals))
    html = html.append(`<script>window.${name} = ${JSON.stringify(value)};</script>`);
  SpreadsheetApp.getUi().showModalDialog(html.setWidth(width).setHeight(height), title);
}
