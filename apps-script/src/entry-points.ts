/**
 * The top-level functions of the Sheets add-on that are not custom functions: the menu items, the triggers and
 * the dialogs' server calls. The build generates a top-level declaration for each (see
 * scripts/build-apps-script.ts); the custom functions come from the shared catalog (shared/cells/catalog.ts).
 */

export const UI_ENTRY_POINTS: readonly { name: string; params: string[]; doc: string }[] = [
  { name: 'onOpen', params: ['e'], doc: 'Adds the Linen Connect menu when the spreadsheet opens.' },
  { name: 'onInstall', params: ['e'], doc: 'Adds the menu right after the add-on is installed.' },
  { name: 'linenShowKeyDialog', params: [], doc: 'Menu: Set API key...' },
  { name: 'linenShowAddressDialog', params: [], doc: 'Menu: Set API address...' },
  { name: 'linenRefreshData', params: [], doc: 'Menu: Refresh data.' },
  { name: 'linenShowHelp', params: [], doc: 'Menu: Help.' },
  { name: 'linenDialogState', params: [], doc: 'Dialog: the current settings, with the key masked.' },
  { name: 'linenSaveApiKey', params: ['key'], doc: 'Dialog: checks a key against the API and saves it.' },
  { name: 'linenClearApiKey', params: [], doc: 'Dialog: removes your saved key.' },
  {
    name: 'linenSaveBaseUrl',
    params: ['url'],
    doc: 'Dialog: checks an API address and saves it for this spreadsheet.',
  },
  { name: 'linenShowSchedule', params: [], doc: 'Menu: Auto-refresh...' },
  { name: 'linenShowHistory', params: [], doc: 'Menu: Record history...' },
  { name: 'linenScheduleState', params: [], doc: 'Dialog: the schedule, whose key it uses, and the last runs.' },
  { name: 'linenSaveSchedule', params: ['schedule'], doc: 'Dialog: saves the schedule and keeps its one trigger.' },
  { name: 'linenRecordHistoryNow', params: [], doc: "Dialog: records today's history rows now." },
  { name: 'linenScheduledRun', params: ['e'], doc: 'Trigger: the hourly run that refreshes and records what is due.' },
  { name: 'linenReportFillRate', params: [], doc: 'Menu: Insert report > Fill rate dashboard...' },
  { name: 'linenReportAging', params: [], doc: 'Menu: Insert report > A/R aging...' },
  { name: 'linenReportShortfalls', params: [], doc: 'Menu: Insert report > Open shortfalls...' },
  { name: 'linenReportTickets', params: [], doc: 'Menu: Insert report > Ticket tracker...' },
  { name: 'linenReportHistory', params: [], doc: 'Menu: Insert report > History...' },
  { name: 'linenReportOptions', params: ['kind'], doc: 'Dialog: the customers and default dates of a report.' },
  { name: 'linenInsertReport', params: ['report'], doc: 'Dialog: builds the report sheet.' },
  { name: 'linenShowBuilder', params: [], doc: 'Menu: Formula builder.' },
  { name: 'linenBuilderCustomers', params: [], doc: 'Sidebar: the customers and their departments.' },
  { name: 'linenBuilderItems', params: ['customerId'], doc: "Sidebar: a customer's items." },
  { name: 'linenPreviewFormula', params: ['spec'], doc: "Sidebar: the formula's result, with your key." },
  { name: 'linenInsertFormula', params: ['spec'], doc: 'Sidebar: writes the formula into the current cell.' },
];
